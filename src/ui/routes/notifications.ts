// The notification pages: list (with the last delivery and its error), add and edit (posting to
// their own page's URL; the type select swaps the fields), Send test (the outcome in the row, or as
// a notice without JavaScript), the on/off switch, and delete (in place with JavaScript, else through a
// confirmation).

import { Elysia } from "elysia";
import { type FormErrors, NO_ERRORS, rowAfter } from "../../../views/components";
import { NotificationFields } from "../../../views/fragments/notification-fields";
import {
  deleteNotificationQuestion,
  deliveryProblem,
  NotificationRow,
  type TestOutcome,
} from "../../../views/fragments/notification-row";
import { msg } from "../../../views/i18n";
import { ConfirmDeletePage } from "../../../views/pages/confirm-delete";
import { NotificationFormPage, type NotificationFormValues } from "../../../views/pages/notification-form";
import { NotificationList, NotificationsPage } from "../../../views/pages/notifications";
import {
  createNotification,
  deleteNotification,
  getNotification,
  listNotifications,
  type NotificationDeps,
  testNotification,
  testUnsavedNotification,
  updateNotification,
} from "../../modules/notifications/service";
import { IdParams } from "../../modules/shared";
import {
  field,
  formErrors,
  newNotificationValues,
  notificationInput,
  notificationValues,
  notificationValuesOf,
  onlyChangesType,
} from "../forms";
import { answerAction, type PageDeps, signedIn } from "../pages";
import { type Cookies, isHtmx, seeOther, setFlash, takeFlash } from "../session";

export function notificationPageRoutes(ctx: PageDeps & NotificationDeps) {
  function form(
    user: string,
    values: NotificationFormValues,
    errors: FormErrors,
    id?: number,
    test: TestOutcome | null = null,
  ) {
    return NotificationFormPage({
      user,
      notification: id === undefined ? undefined : getNotification(ctx, id),
      values,
      errors,
      test,
    });
  }

  function row(id: number, test: TestOutcome | null = null) {
    return NotificationRow({ notification: getNotification(ctx, id), now: Date.now(), test });
  }

  /** Add (no id) or edit: the form again with its errors, or the list with a notice. */
  async function submit(user: string, body: unknown, cookie: Cookies, id?: number) {
    const values = notificationValues(body);
    // The type select's "Continue" (no JavaScript): the form again, with the chosen type's fields.
    if (onlyChangesType(body)) return form(user, values, NO_ERRORS, id);
    // "Send a test" before saving: the form again with what the service answered; nothing is saved.
    if (field(body, "send_test") !== "") {
      try {
        const stored = id === undefined ? undefined : getNotification(ctx, id);
        const outcome = await testUnsavedNotification(ctx, notificationInput(values, stored), id);
        return form(user, values, NO_ERRORS, id, outcome);
      } catch (error) {
        return form(user, values, formErrors(error), id);
      }
    }
    try {
      const saved =
        id === undefined
          ? createNotification(ctx, notificationInput(values))
          : updateNotification(ctx, id, notificationInput(values, getNotification(ctx, id)));
      setFlash(
        ctx,
        cookie,
        id === undefined ? msg().notifications.added(saved.name) : msg().notifications.saved(saved.name),
      );
      return seeOther("/notifications");
    } catch (error) {
      return form(user, values, formErrors(error), id);
    }
  }

  return (
    new Elysia()
      .use(signedIn(ctx))
      .get("/notifications", ({ user, cookie }) =>
        NotificationsPage({
          user,
          flash: takeFlash(ctx, cookie),
          now: Date.now(),
          notifications: listNotifications(ctx),
        }),
      )
      .get("/notifications/new", ({ user, query }) =>
        form(user, newNotificationValues(field(query, "type")), NO_ERRORS),
      )
      .post("/notifications/new", ({ user, body, cookie }) => submit(user, body, cookie))
      // The option inputs of the chosen type (the form's type select swaps them in).
      .get("/notifications/fields", ({ query }) => {
        const id = field(query, "notification");
        const stored = /^[1-9]\d{0,15}$/.test(id) ? getNotification(ctx, Number(id)) : undefined;
        const type = field(query, "type");
        return NotificationFields({
          type,
          values: stored && stored.type === type ? notificationValuesOf(stored).options : {},
          errors: NO_ERRORS,
          stored,
        });
      })
      .get(
        "/notifications/:id/edit",
        ({ user, params }) => form(user, notificationValuesOf(getNotification(ctx, params.id)), NO_ERRORS, params.id),
        { params: IdParams },
      )
      .post("/notifications/:id/edit", ({ user, params, body, cookie }) => submit(user, body, cookie, params.id), {
        params: IdParams,
      })
      .post(
        "/notifications/:id/test",
        async ({ params, request, cookie }) => {
          const notification = getNotification(ctx, params.id);
          const outcome = await testNotification(ctx, params.id);
          const problem = outcome.ok ? null : deliveryProblem(outcome.detail);
          const notice =
            problem === null
              ? msg().notifications.testOk(notification.name)
              : msg().notifications.testNotDelivered(notification.name, problem.said, problem.next);
          return answerAction(ctx, request, cookie, {
            fragment: () => row(params.id, outcome),
            notice,
            tone: outcome.ok ? "ok" : "fail",
            fallback: "/notifications",
          });
        },
        { params: IdParams },
      )
      .post(
        "/notifications/:id/enabled",
        ({ params, body, request, cookie }) => {
          const notification = updateNotification(ctx, params.id, { is_enabled: field(body, "is_enabled") === "true" });
          const notice = notification.is_enabled
            ? msg().notifications.enabledNotice(notification.name)
            : msg().notifications.disabledNotice(notification.name);
          return answerAction(ctx, request, cookie, {
            fragment: () => row(params.id),
            notice,
            tone: "ok",
            fallback: "/notifications",
          });
        },
        { params: IdParams },
      )
      .get(
        "/notifications/:id/delete",
        ({ user, params }) => {
          const notification = getNotification(ctx, params.id);
          return ConfirmDeletePage({
            user,
            section: "notifications",
            title: msg().notifications.deleteTitle(notification.name),
            question: deleteNotificationQuestion(notification),
            action: `/notifications/${notification.id}/delete`,
            cancel: "/notifications",
          });
        },
        { params: IdParams },
      )
      .post(
        "/notifications/:id/delete",
        ({ params, body, request, cookie }) => {
          // htmx asked first (hx-confirm); a plain form goes through the confirmation page.
          if (!isHtmx(request) && field(body, "confirm") !== "yes")
            return seeOther(`/notifications/${params.id}/delete`);
          const notification = getNotification(ctx, params.id);
          const before = listNotifications(ctx);
          deleteNotification(ctx, params.id);
          const said = msg().notifications.deleted(notification.name);
          // The list's own Delete with htmx: the list again, in place, with focus where the row was.
          if (isHtmx(request) && field(body, "in_place") === "list")
            return NotificationList({
              notifications: listNotifications(ctx),
              now: Date.now(),
              deletion: { text: said, focusId: rowAfter(before, params.id) },
            });
          setFlash(ctx, cookie, said);
          return seeOther("/notifications");
        },
        { params: IdParams },
      )
  );
}
