// The update keys page: the list, the create form (posting to the page's own URL and answering
// with the page itself, where the new key is shown that once), and delete (in place with JavaScript,
// else through a confirmation).

import { Elysia } from "elysia";
import { type Flash, type FormErrors, NO_ERRORS, rowAfter } from "../../../views/components";
import { msg } from "../../../views/i18n";
import { href } from "../../../views/page-facts";
import { ConfirmDeletePage } from "../../../views/pages/confirm-delete";
import {
  deleteKeyQuestion,
  KeyList,
  NO_KEY_VALUES,
  type UpdateKeyFormValues,
  UpdateKeysPage,
} from "../../../views/pages/update-keys";
import { type DomainReader, listDomains } from "../../modules/domains/service";
import { IdParams } from "../../modules/shared";
import {
  createUpdateKey,
  deleteUpdateKey,
  getUpdateKey,
  listUpdateKeys,
  type UpdateKeyDeps,
  type UpdateKeyView,
} from "../../modules/update-keys/service";
import { field, formErrors, updateKeyInput, updateKeyValues } from "../forms";
import { type PageDeps, signedIn } from "../pages";
import { isHtmx, proxiedHttps, seeOther, setFlash, takeFlash } from "../session";

/** What the keys page uses: the keys' rules, and the domains a key may be limited to. */
export type UpdateKeyPageDeps = PageDeps & UpdateKeyDeps & DomainReader;

export function updateKeyPageRoutes(ctx: UpdateKeyPageDeps) {
  /** Where routers send their push: the address the browser reached this ddnsd by (https behind a trusted proxy that says so). */
  function pushUrl(request: Request): string {
    const url = new URL(request.url);
    return `${proxiedHttps(ctx, request) ? "https:" : url.protocol}//${url.host}${href("/nic/update")}`;
  }

  function keysPage(
    request: Request,
    user: string,
    state: { flash?: Flash | null; values?: UpdateKeyFormValues; errors?: FormErrors; created?: UpdateKeyView },
  ) {
    return UpdateKeysPage({
      user,
      flash: state.flash,
      now: Date.now(),
      keys: listUpdateKeys(ctx),
      domains: listDomains(ctx),
      values: state.values ?? NO_KEY_VALUES,
      errors: state.errors ?? NO_ERRORS,
      created: state.created,
      pushUrl: pushUrl(request),
    });
  }

  return new Elysia()
    .use(signedIn(ctx))
    .get("/update-keys", ({ user, cookie, request }) => keysPage(request, user, { flash: takeFlash(ctx, cookie) }))
    .post("/update-keys", ({ user, body, request }) => {
      const values = updateKeyValues(body);
      let created: UpdateKeyView;
      try {
        created = createUpdateKey(ctx, updateKeyInput(values));
      } catch (error) {
        return keysPage(request, user, { values, errors: formErrors(error) });
      }
      // The answer itself shows the key (a redirect would have to carry it); it is never shown again.
      return keysPage(request, user, {
        created,
        flash: { tone: "ok", text: msg().updateKeys.createdNotice(created.name) },
      });
    })
    .get(
      "/update-keys/:id/delete",
      ({ user, params }) => {
        const key = getUpdateKey(ctx, params.id);
        return ConfirmDeletePage({
          user,
          section: "update-keys",
          title: msg().updateKeys.deleteTitle(key.name),
          question: deleteKeyQuestion(key),
          action: `/update-keys/${key.id}/delete`,
          cancel: "/update-keys",
        });
      },
      { params: IdParams },
    )
    .post(
      "/update-keys/:id/delete",
      ({ params, body, request, cookie }) => {
        // htmx asked first (hx-confirm); a plain form goes through the confirmation page.
        if (!isHtmx(request) && field(body, "confirm") !== "yes") return seeOther(`/update-keys/${params.id}/delete`);
        const key = getUpdateKey(ctx, params.id);
        const before = listUpdateKeys(ctx);
        deleteUpdateKey(ctx, params.id);
        const said = msg().updateKeys.deleted(key.name);
        // The list's own Delete with htmx: the list again, in place, with focus where the row was.
        if (isHtmx(request) && field(body, "in_place") === "list")
          return KeyList({
            keys: listUpdateKeys(ctx),
            domains: listDomains(ctx),
            now: Date.now(),
            deletion: { text: said, focusId: rowAfter(before, params.id) },
          });
        setFlash(ctx, cookie, said);
        return seeOther("/update-keys");
      },
      { params: IdParams },
    );
}
