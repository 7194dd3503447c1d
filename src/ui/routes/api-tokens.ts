// The API tokens page: the list, the form (posting to the page's own URL and answering with the
// page itself, where the new token is shown that once), and revoking (in place with JavaScript,
// else through a confirmation). Beside the update keys, which it follows.

import { Elysia } from "elysia";
import { type Flash, type FormErrors, NO_ERRORS, rowAfter } from "../../../views/components";
import { msg } from "../../../views/i18n";
import {
  type ApiTokenFormValues,
  ApiTokensPage,
  NO_TOKEN_VALUES,
  revokeTokenQuestion,
  TokenList,
} from "../../../views/pages/api-tokens";
import { ConfirmDeletePage } from "../../../views/pages/confirm-delete";
import {
  type ApiTokenDeps,
  type ApiTokenView,
  createApiToken,
  deleteApiToken,
  getApiToken,
  listApiTokens,
} from "../../modules/api-tokens/service";
import { type DomainReader, listDomains } from "../../modules/domains/service";
import { IdParams } from "../../modules/shared";
import { apiTokenInput, apiTokenValues, field, formErrors } from "../forms";
import { type PageDeps, signedIn } from "../pages";
import { isHtmx, seeOther, setFlash, takeFlash } from "../session";

export type ApiTokenPageDeps = PageDeps & ApiTokenDeps & DomainReader;

export function apiTokenPageRoutes(ctx: ApiTokenPageDeps) {
  function tokensPage(
    user: string,
    state: { flash?: Flash | null; values?: ApiTokenFormValues; errors?: FormErrors; created?: ApiTokenView },
  ) {
    return ApiTokensPage({
      user,
      flash: state.flash,
      now: Date.now(),
      tokens: listApiTokens(ctx),
      domains: listDomains(ctx),
      values: state.values ?? NO_TOKEN_VALUES,
      errors: state.errors ?? NO_ERRORS,
      created: state.created,
    });
  }

  return new Elysia()
    .use(signedIn(ctx))
    .get("/api-tokens", ({ user, cookie }) => tokensPage(user, { flash: takeFlash(ctx, cookie) }))
    .post("/api-tokens", ({ user, body }) => {
      const values = apiTokenValues(body);
      let created: ApiTokenView;
      try {
        created = createApiToken(ctx, apiTokenInput(values));
      } catch (error) {
        return tokensPage(user, { values, errors: formErrors(error) });
      }
      // The answer itself shows the token (a redirect would have to carry it); it is never shown again.
      return tokensPage(user, { created, flash: { tone: "ok", text: msg().apiTokens.createdNotice(created.name) } });
    })
    .get(
      "/api-tokens/:id/delete",
      ({ user, params }) => {
        const token = getApiToken(ctx, params.id);
        return ConfirmDeletePage({
          user,
          section: "api-tokens",
          title: msg().apiTokens.revokeTitle(token.name),
          question: revokeTokenQuestion(token),
          action: `/api-tokens/${token.id}/delete`,
          cancel: "/api-tokens",
        });
      },
      { params: IdParams },
    )
    .post(
      "/api-tokens/:id/delete",
      ({ params, body, request, cookie }) => {
        if (!isHtmx(request) && field(body, "confirm") !== "yes") return seeOther(`/api-tokens/${params.id}/delete`);
        const token = getApiToken(ctx, params.id);
        const before = listApiTokens(ctx);
        deleteApiToken(ctx, params.id);
        const said = msg().apiTokens.revoked(token.name);
        if (isHtmx(request) && field(body, "in_place") === "list")
          return TokenList({
            tokens: listApiTokens(ctx),
            domains: listDomains(ctx),
            now: Date.now(),
            deletion: { text: said, focusId: rowAfter(before, params.id) },
          });
        setFlash(ctx, cookie, said);
        return seeOther("/api-tokens");
      },
      { params: IdParams },
    );
}
