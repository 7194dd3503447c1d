// The provider pages: list (with each provider's health), add and edit (checking the credentials
// with the service on save; the provider is saved either way), Verify, the on/off switch, and
// delete through a confirmation. Forms post to their own page's URL, so a rejected form reloads
// to the form.

import { Elysia } from "elysia";
import { type Flash, type FormErrors, NO_ERRORS, type Tone } from "../../../views/components";
import { ServiceFields, serviceFor, serviceLabel } from "../../../views/fragments/credential-field";
import {
  type DomainProblem,
  deleteProviderQuestion,
  ProviderRow,
  type VerifyAnswer,
  VerifyResult,
  verifyWords,
} from "../../../views/fragments/provider-row";
import { msg } from "../../../views/i18n";
import { ConfirmDeletePage } from "../../../views/pages/confirm-delete";
import { ProviderFormPage, type ProviderFormValues } from "../../../views/pages/provider-form";
import { ProvidersPage } from "../../../views/pages/providers";
import { ServicePickerPage } from "../../../views/pages/service-picker";
import { popularEntries, searchCatalog, serviceCatalog } from "../../../views/service-catalog";
import { type DomainReader, listDomains } from "../../modules/domains/service";
import { type MetricsReader, providerStats } from "../../modules/metrics/service";
import {
  createProvider,
  deleteProvider,
  getProvider,
  lastVerifications,
  listProviders,
  type ProviderDeps,
  type ProviderView,
  updateProvider,
  verifyProvider,
} from "../../modules/providers/service";
import { IdParams } from "../../modules/shared";
import type { UpdateParts } from "../../updater/update";
import { field, formErrors, onlyChangesType, providerInput, providerValues, providerValuesOf } from "../forms";
import { answerAction, type PageDeps, signedIn } from "../pages";
import { isFailing, retriedWords, retryFailing } from "../retry";
import { type Cookies, isHtmx, seeOther, setFlash, takeFlash } from "../session";

/** What the provider pages use: the providers' rules, each provider's counters for its row, and the updates a save retries. */
export type ProviderPageDeps = PageDeps & ProviderDeps & MetricsReader & DomainReader & UpdateParts;

export function providerPageRoutes(ctx: ProviderPageDeps) {
  function form(user: string, values: ProviderFormValues, errors: FormErrors, id?: number, flash: Flash | null = null) {
    const provider = id === undefined ? undefined : getProvider(ctx, id);
    // Reached from a failure (a domain's row, a provider card): the form says what failed, as the card does.
    const failures = id === undefined ? [] : (problems().get(id) ?? []);
    return ProviderFormPage({
      user,
      provider,
      values,
      errors,
      services: ctx.services.services,
      flash,
      problems: failures,
    });
  }

  /**
   * Each provider's domains whose newest update failed at the service (a detection failure is no
   * provider's), with the cause and the service's words, by provider id.
   */
  function problems(): Map<number, DomainProblem[]> {
    // Past a detection failure (nobody's at the service): an outage of the address sources hides no credentials refused.
    const newest = ctx.store.history.newestAtService();
    const found = new Map<number, DomainProblem[]>();
    for (const domain of listDomains(ctx)) {
      const latest = newest.get(domain.id);
      if (
        !domain.is_enabled ||
        domain.last_update_status !== "FAILED" ||
        latest === undefined ||
        latest.status !== "FAILED"
      )
        continue;
      if (latest.failureCause === "disabled") continue;
      const problem = {
        id: domain.id,
        name: domain.domain_name,
        recordType: domain.record_type,
        cause: latest.failureCause,
        message: latest.message,
      };
      found.set(domain.provider_id, [...(found.get(domain.provider_id) ?? []), problem]);
    }
    return found;
  }

  function row(id: number, result?: VerifyAnswer) {
    const stats = providerStats(ctx).providers.find((s) => s.provider_id === id);
    return ProviderRow({
      provider: getProvider(ctx, id),
      stats,
      verification: lastVerifications(ctx).get(id),
      now: Date.now(),
      problems: problems().get(id),
      result,
    });
  }

  /** After a save: the credentials checked with the service, the outcome as the list's notice. */
  async function savedNotice(provider: ProviderView, saved: string): Promise<{ tone: Tone; text: string }> {
    try {
      const check = verifyWords(await verifyProvider(ctx, provider.id), provider.name, serviceLabel(provider.type));
      // Saved either way: a refusal is a warning to act on, not a failed save.
      return {
        tone: check.tone === "fail" ? "warn" : check.tone,
        text: msg().providers.savedChecked(saved, check.words),
      };
    } catch (error) {
      ctx.log.warn("provider check after save failed", { provider_id: provider.id, error: String(error) });
      return { tone: "warn", text: msg().providers.savedNotChecked(saved) };
    }
  }

  /** Add (no id) or edit: the form again with its errors, or the list with the check's outcome. */
  async function submit(user: string, body: unknown, cookie: Cookies, id?: number) {
    const values = providerValues(body);
    // The type select's "Continue" (no JavaScript): the form again, with the chosen service's fields.
    if (onlyChangesType(body)) return form(user, values, NO_ERRORS, id);
    let provider: ProviderView;
    try {
      if (id === undefined) {
        const input = providerInput(values);
        provider = createProvider(ctx, { ...input, credentials: input.credentials ?? {} });
      } else {
        provider = updateProvider(ctx, id, providerInput(values), { keepStoredCredentials: true });
      }
    } catch (error) {
      return form(user, values, formErrors(error), id);
    }
    const notice = await savedNotice(
      provider,
      id === undefined ? msg().providers.added(provider.name) : msg().providers.saved(provider.name),
    );
    // Credentials the service accepted may be the fix: the provider's failing domains are tried again now.
    const failing =
      notice.tone !== "warn" ? listDomains(ctx).filter((d) => d.provider_id === provider.id && isFailing(d)) : [];
    const retried = await retryFailing(ctx, failing);
    setFlash(ctx, cookie, `${notice.text}${retriedWords(retried)}`, retried.failing.length > 0 ? "warn" : notice.tone);
    return seeOther("/providers");
  }

  return (
    new Elysia()
      .use(signedIn(ctx))
      .get("/providers", ({ user, cookie }) =>
        ProvidersPage({
          user,
          flash: takeFlash(ctx, cookie),
          now: Date.now(),
          providers: listProviders(ctx),
          stats: providerStats(ctx).providers,
          verifications: lastVerifications(ctx),
          problems: problems(),
        }),
      )
      // Without a known type: the service picker (searched with ?q=); with one, its form, a dyndns2
      // preset's server (?server=) filled in and the entry's name as the provider's first name.
      .get("/providers/new", ({ user, query }) => {
        const type = field(query, "type");
        const service = ctx.services.services.find((s) => s.type === type);
        if (service === undefined) {
          const q = field(query, "q");
          const catalog = serviceCatalog(ctx.services.services);
          return ServicePickerPage({
            user,
            query: q,
            groups: searchCatalog(catalog, q),
            popular: popularEntries(catalog),
          });
        }
        const server = service.options.some((option) => option.key === "server") ? field(query, "server") : "";
        const preset = service.options.flatMap((option) => option.presets ?? []).find((p) => p.value === server);
        const options: Record<string, string> = server === "" ? {} : { server };
        const name = preset?.label ?? (service.type === "dyndns2" ? "" : service.label);
        return form(user, { name, type, credentials: {}, options, is_enabled: true }, NO_ERRORS);
      })
      .post("/providers/new", ({ user, body, cookie }) => submit(user, body, cookie))
      // The credential and option inputs of the chosen type (the provider form's type select swaps them in).
      .get("/providers/credential-field", ({ query }) => {
        const id = Number(field(query, "provider"));
        const stored = Number.isInteger(id) && id > 0 ? getProvider(ctx, id) : undefined;
        const values =
          stored && stored.type === field(query, "type") ? providerValuesOf(stored) : { credentials: {}, options: {} };
        const service = serviceFor(field(query, "type"), ctx.services.services);
        return ServiceFields({ service, values, errors: NO_ERRORS, stored });
      })
      .get(
        "/providers/:id/edit",
        ({ user, params, cookie }) =>
          form(user, providerValuesOf(getProvider(ctx, params.id)), NO_ERRORS, params.id, takeFlash(ctx, cookie)),
        { params: IdParams },
      )
      .post("/providers/:id/edit", ({ user, params, body, cookie }) => submit(user, body, cookie, params.id), {
        params: IdParams,
      })
      // The address an older form posted to (in a browser's history): it lands on the form.
      .get("/providers/:id", ({ params }) => seeOther(`/providers/${params.id}/edit`), { params: IdParams })
      .post(
        "/providers/:id/verify",
        async ({ params, body, request, cookie }) => {
          const provider = getProvider(ctx, params.id);
          const outcome = await verifyProvider(ctx, params.id);
          const check = verifyWords(outcome, provider.name, serviceLabel(provider.type));
          const notice = msg().providers.verifyNotice(provider.name, check.words);
          // The list's card comes back whole (its health shows this check); the edit page's slot gets the answer alone.
          const fragment = () =>
            field(body, "view") === "card"
              ? row(params.id, outcome)
              : VerifyResult({ outcome, providerName: provider.name, type: provider.type });
          return answerAction(ctx, request, cookie, { fragment, notice, tone: check.tone, fallback: "/providers" });
        },
        { params: IdParams },
      )
      .post(
        "/providers/:id/enabled",
        ({ params, body, request, cookie }) => {
          const provider = updateProvider(ctx, params.id, { is_enabled: field(body, "is_enabled") === "true" });
          const notice = provider.is_enabled
            ? msg().providers.enabledNotice(provider.name)
            : msg().providers.disabledNotice(provider.name);
          return answerAction(ctx, request, cookie, {
            fragment: () => row(params.id),
            notice,
            tone: "ok",
            fallback: "/providers",
          });
        },
        { params: IdParams },
      )
      .get(
        "/providers/:id/delete",
        ({ user, params }) => {
          const provider = getProvider(ctx, params.id);
          return ConfirmDeletePage({
            user,
            section: "providers",
            title: msg().providers.deleteTitle(provider.name),
            question: deleteProviderQuestion(provider),
            action: `/providers/${provider.id}/delete`,
            cancel: "/providers",
          });
        },
        { params: IdParams },
      )
      .post(
        "/providers/:id/delete",
        ({ params, body, request, cookie }) => {
          // htmx asked first (hx-confirm); a plain form goes through the confirmation page.
          if (!isHtmx(request) && field(body, "confirm") !== "yes") return seeOther(`/providers/${params.id}/delete`);
          const provider = getProvider(ctx, params.id);
          deleteProvider(ctx, params.id, true);
          setFlash(ctx, cookie, msg().providers.deletedNotice(provider.name, provider.domain_count));
          return seeOther("/providers");
        },
        { params: IdParams },
      )
  );
}
