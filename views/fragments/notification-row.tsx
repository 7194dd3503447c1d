// One notification as a table row: type, events, on/off switch, when it last delivered and why
// the newest attempt failed, and its actions. "Send test" and the switch are real forms that htmx
// enhances (the answer is the row, with the test's outcome in it); delete asks first (a dialog with
// JavaScript, the list then answered in place; a confirmation page without).

import { Html } from "@elysiajs/html";
import type { NotificationView } from "../../src/modules/notifications/service";
import { NOTIFICATION_EVENTS } from "../../src/store/rows";
import { ActionForm, Badge, DeleteForm, EnabledSwitch, TimeAgo } from "../components";
import { msg } from "../i18n";
import { NOTIFICATION_TEXT } from "./notification-fields";

/** A test message's outcome: `ok` whether the service took it, `detail` its words. */
export interface TestOutcome {
  ok: boolean;
  detail: string;
}

/** The list's element, which an in-place Delete answers with. */
export const NOTIFICATION_LIST_ID = "notification-list";

export function notificationRowId(id: number): string {
  return `notification-${id}`;
}

export function deleteNotificationQuestion(notification: Pick<NotificationView, "name">): string {
  return msg().notifications.deleteQuestion(notification.name);
}

/**
 * A delivery's failure said plainly, as the updates' are: could not reach the service, it refused
 * the credentials, or it refused the message (in its words); and what to do next. `error` is the
 * stored reason, `<service>: <why>` (with `(HTTP <status>)` for an answer).
 */
export function deliveryProblem(error: string): { said: string; next: string } {
  const words = msg().notifications;
  const [, service = "", why = error] = /^([^:]{1,40}): (.*)$/s.exec(error) ?? [];
  const status = Number(/\(HTTP (\d{3})\)$/.exec(why)?.[1] ?? 0);
  if (status === 0 && /^(request failed: |no answer within )/.test(why))
    return { said: words.unreachable(service, why), next: words.unreachableNext };
  if (status >= 500) return { said: words.serverError(service, why), next: words.serverErrorNext };
  if (status === 401 || status === 403)
    return { said: words.credentialsRefused(service, why), next: words.credentialsNext };
  if (status >= 400) return { said: words.messageRefused(service, why), next: words.checkSettingsNext };
  return { said: error.replace(/[.!?]$/, ""), next: words.checkSettingsNext };
}

/** The outcome of "Send test", in the row; a failure says what to do. */
export function TestResult({ outcome }: { outcome: TestOutcome }) {
  const problem = outcome.ok ? null : deliveryProblem(outcome.detail);
  return (
    <p
      class={["update-result", outcome.ok ? "update-result-ok" : "update-result-fail"]}
      role={outcome.ok ? "status" : "alert"}
    >
      <Badge tone={outcome.ok ? "ok" : "fail"}>
        {outcome.ok ? msg().notifications.testSent : msg().notifications.testFailed}
      </Badge>{" "}
      <span safe>{problem === null ? `${outcome.detail}.` : `${problem.said}. ${problem.next}`}</span>
    </p>
  );
}

function Events({ notification }: { notification: NotificationView }) {
  // A heartbeat's events do not apply: it pings after every scheduled check.
  const words = msg().notifications;
  if (NOTIFICATION_TEXT[notification.type].kind === "heartbeat") return <span>{words.heartbeatEvents}</span>;
  const { events } = notification;
  if (events.length === 0) return <span class="muted">{msg().common.none}</span>;
  if (events.length === NOTIFICATION_EVENTS.length) return <span>{words.allEvents}</span>;
  return (
    <ul class="plain-list small">
      {events.map((event) => (
        <li safe>{msg().notificationForm.event[event]}</li>
      ))}
    </ul>
  );
}

export function NotificationRow({
  notification,
  now,
  test,
  focusDelete = false,
}: {
  notification: NotificationView;
  now: number;
  test?: TestOutcome | null;
  /** Its Delete takes focus: the row after one just deleted in place. */
  focusDelete?: boolean;
}) {
  const id = notification.id;
  const words = msg().notifications;
  const common = msg().common;
  return (
    <tr id={notificationRowId(id)} class={notification.last_error !== null ? "row-failing" : undefined}>
      <td data-label={common.name} class="cell-name">
        <a href={`/notifications/${id}/edit`} safe>
          {notification.name}
        </a>
      </td>
      <td data-label={common.type}>
        <Badge tone="idle">{NOTIFICATION_TEXT[notification.type].label}</Badge>
      </td>
      <td data-label={words.events}>
        <Events notification={notification} />
      </td>
      <td data-label={words.enabled}>
        <EnabledSwitch
          url={`/notifications/${id}/enabled`}
          enabled={notification.is_enabled}
          label={words.switchLabel(notification.name)}
          target={`#${notificationRowId(id)}`}
          id={`notification-enabled-${id}`}
        />
      </td>
      <td data-label={words.lastSent}>
        <TimeAgo at={notification.last_sent_at} now={now} />
      </td>
      <td data-label={words.lastError} class="cell-message">
        {notification.last_error === null ? (
          <span class="muted">—</span>
        ) : (
          <span safe>{`${deliveryProblem(notification.last_error).said}.`}</span>
        )}
      </td>
      <td class="cell-actions" data-error-slot>
        <div class="actions">
          <ActionForm url={`/notifications/${id}/test`} target={`#${notificationRowId(id)}`}>
            <button
              type="submit"
              id={`notification-test-${id}`}
              class="button button-small"
              aria-label={words.sendTestName(notification.name)}
            >
              {words.sendTest}
            </button>
          </ActionForm>
          <a
            class="button button-small button-quiet"
            href={`/notifications/${id}/edit`}
            aria-label={common.editName(notification.name)}
          >
            {common.edit}
          </a>
          <DeleteForm
            url={`/notifications/${id}/delete`}
            list={NOTIFICATION_LIST_ID}
            question={deleteNotificationQuestion(notification)}
            label={common.deleteName(notification.name)}
            id={`notification-delete-${id}`}
            autofocus={focusDelete}
          />
        </div>
        {test ? <TestResult outcome={test} /> : ""}
      </td>
    </tr>
  );
}
