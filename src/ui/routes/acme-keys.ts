// The certificate keys page (docs/certificates.md): the list, the create form (answered with the page
// itself, where the new password is shown that once) and delete.

import { Elysia } from "elysia";
import type { Flash, FormErrors } from "../../../views/components";
import { NO_ERRORS } from "../../../views/components";
import { msg } from "../../../views/i18n";
import { type AcmeKeyFormValues, AcmeKeysPage, NO_ACME_KEY_VALUES } from "../../../views/pages/acme-keys";
import {
  type AcmeKeyDeps,
  type AcmeKeyView,
  createAcmeKey,
  deleteAcmeKey,
  getAcmeKey,
  listAcmeKeys,
} from "../../modules/acme/service";
import { type DomainReader, listDomains } from "../../modules/domains/service";
import { IdParams } from "../../modules/shared";
import { field, formErrors } from "../forms";
import { type PageDeps, signedIn } from "../pages";
import { proxiedHttps, seeOther, setFlash, takeFlash } from "../session";

export type AcmeKeyPageDeps = PageDeps & AcmeKeyDeps & DomainReader;

function formValues(body: unknown): AcmeKeyFormValues {
  const raw = (body ?? {}) as Record<string, unknown>;
  const ids = raw.domain_ids;
  return {
    name: typeof raw.name === "string" ? raw.name : "",
    domain_ids: (Array.isArray(ids) ? ids : ids === undefined ? [] : [ids]).map(String),
  };
}

export function acmeKeyPageRoutes(ctx: AcmeKeyPageDeps) {
  function page(
    user: string,
    state: { flash?: Flash | null; values?: AcmeKeyFormValues; errors?: FormErrors; created?: AcmeKeyView },
  ) {
    return AcmeKeysPage({
      user,
      flash: state.flash,
      now: Date.now(),
      keys: listAcmeKeys(ctx),
      domains: listDomains(ctx),
      values: state.values ?? NO_ACME_KEY_VALUES,
      errors: state.errors ?? NO_ERRORS,
      created: state.created,
    });
  }

  return new Elysia()
    .use(signedIn(ctx))
    .get("/acme-keys", ({ user, cookie }) => page(user, { flash: takeFlash(ctx, cookie) }))
    .post("/acme-keys", ({ user, body, request }) => {
      const values = formValues(body);
      const url = new URL(request.url);
      const origin = `${proxiedHttps(ctx, request) ? "https:" : url.protocol}//${url.host}`;
      let created: AcmeKeyView;
      try {
        created = createAcmeKey(
          ctx,
          {
            name: values.name,
            domain_ids: values.domain_ids.map(Number).filter((id) => Number.isInteger(id) && id > 0),
          },
          `${origin}/acme-dns`,
        );
      } catch (error) {
        return page(user, { values, errors: formErrors(error) });
      }
      return page(user, { created, flash: { tone: "ok", text: msg().acmeKeys.createdNotice(created.name) } });
    })
    .post(
      "/acme-keys/:id/delete",
      ({ params, body, cookie }) => {
        if (field(body, "confirm") !== "yes") return seeOther("/acme-keys");
        const key = getAcmeKey(ctx, params.id);
        deleteAcmeKey(ctx, params.id);
        setFlash(ctx, cookie, msg().acmeKeys.deleted(key.name));
        return seeOther("/acme-keys");
      },
      { params: IdParams },
    );
}
