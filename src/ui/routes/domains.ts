// The domain pages: list (filtered, refreshing itself), add and edit (posting to their own page's
// URL, so a rejected form reloads to the form), Update now, the on/off switch, delete through a
// confirmation, and each domain's history.

import { Elysia } from "elysia";
import {
  DOMAIN_SORTS,
  domainStatus,
  type FormErrors,
  NO_ERRORS,
  rowAfter,
  sortDomains,
} from "../../../views/components";
import {
  ASKABLE_SOURCES,
  type AskableSource,
  type AskedAnswer,
  AskNowAnswer,
} from "../../../views/fragments/address-source-field";
import { boxProblems } from "../../../views/fragments/box-problems";
import { serviceFor } from "../../../views/fragments/credential-field";
import { DomainRow, type DomainRowView, type UpdateResult, updateSentence } from "../../../views/fragments/domain-row";
import { ProviderOptions } from "../../../views/fragments/provider-options";
import { SchedulePreview, type SchedulePreviewData } from "../../../views/fragments/schedule-preview";
import { ConfirmDeletePage } from "../../../views/pages/confirm-delete";
import { DomainFormPage, type DomainFormValues, SCHEDULE_PRESETS } from "../../../views/pages/domain-form";
import { DOMAIN_PAGE_SIZE, DomainsPage, type DomainsPageProps } from "../../../views/pages/domains";
import { HistoryPage } from "../../../views/pages/history";
import { zoneHolds } from "../../dns/zones";
import {
  createDomain,
  type DomainDeps,
  type DomainView,
  deleteDomain,
  domainHistory,
  forceUpdate,
  getDomain,
  historyCount,
  ipTimeline,
  listDomains,
  updateDomain,
} from "../../modules/domains/service";
import { listProviders, type ProviderReader, type ProviderZones, providerZones } from "../../modules/providers/service";
import { IdParams } from "../../modules/shared";
import { askToShow } from "../../updater/detect";
import { cronScheduleProblem, upcomingRuns } from "../../updater/schedule";
import type { UpdateParts } from "../../updater/update";
import { addressSourceChoices } from "../address-sources";
import { domainInput, domainValues, domainValuesOf, field, formErrors, onlyChangesType } from "../forms";
import {
  answerAction,
  type ConditionSources,
  historyCauses,
  type PageDeps,
  signedIn,
  updateConditions,
} from "../pages";
import { retriedWords, retryFailing, UPDATE_FAILURES } from "../retry";
import { type Cookies, isBoosted, isHtmx, seeOther, setFlash, takeFlash } from "../session";

const HISTORY_PAGE_SIZE = 25;

/** The statuses a forced update is refused or fails with, which the row explains in its own words. */
/** The forced update's refusals a row shows in words; anything else (a vanished domain) is an error page. */
/** What the domain pages use: the domains' rules, the forced update's parts, the providers to choose from, each domain's state. */
export type DomainPageDeps = PageDeps & DomainDeps & UpdateParts & ProviderReader & ConditionSources;

/**
 * Why the hostname is refused before saving: it lies in none of the zones the provider listed (a
 * zone pinned under "Advanced", or a list not known, is left to the first update).
 */
function hostnameOutsideZones(values: DomainFormValues, zones: ProviderZones): string | null {
  const hostname = values.domain_name.trim().toLowerCase().replace(/\.$/, "");
  if (!zones.listed || zones.zones.length === 0 || values.zone_id.trim() !== "" || hostname === "") return null;
  if (zones.zones.some((zone) => zoneHolds(zone, hostname))) return null;
  const shown =
    zones.zones.slice(0, 5).join(", ") + (zones.zones.length > 5 ? ` and ${zones.zones.length - 5} more` : "");
  return `${hostname} is in none of this provider's zones (${shown}): check its spelling`;
}

export function domainPageRoutes(ctx: DomainPageDeps) {
  const interval = ctx.settings.updateIntervalSeconds;

  function schedulePreview(input: string, now: number): SchedulePreviewData {
    const expression = input.trim();
    if (expression === "") {
      return {
        kind: "runs",
        defaultInterval: interval,
        runs: upcomingRuns(null, now, interval, 3),
        seconds: interval % 60 !== 0,
        now,
      };
    }
    const problem = cronScheduleProblem(expression);
    if (problem !== null) return { kind: "invalid", problem };
    const seconds = expression.split(/\s+/).length === 6;
    return { kind: "runs", defaultInterval: null, runs: upcomingRuns(expression, now, interval, 3), seconds, now };
  }

  /** The chosen provider's zones, for the hostname (nothing asked for a provider that is not there). */
  async function zonesOf(providerId: string): Promise<ProviderZones> {
    const provider = listProviders(ctx).find((p) => String(p.id) === providerId);
    return provider === undefined ? { listed: false, reason: null } : providerZones(ctx, provider.id);
  }

  async function form(
    user: string,
    values: DomainFormValues,
    errors: FormErrors,
    id?: number,
    asked?: AskedAnswer,
    zones?: ProviderZones,
  ) {
    const domain = id === undefined ? undefined : getDomain(ctx, id);
    return DomainFormPage({
      user,
      domain,
      providers: listProviders(ctx),
      values,
      errors,
      zones: zones ?? (await zonesOf(values.provider_id)),
      schedule: schedulePreview(values.cron_schedule, Date.now()),
      sources: addressSourceChoices(ctx, domain?.pushed_ip ?? null, asked),
    });
  }

  /**
   * The form's "Ask now" (the echo services or the resolvers, for the family of the record type
   * chosen): with htmx the answer for the field's live region and its choices again (swapped out of
   * band, the choice made kept); else the whole form again as it was sent, with the answer.
   */
  async function askNow(user: string, request: Request, source: AskableSource, values: DomainFormValues, id?: number) {
    const answer = await askToShow(ctx, values.record_type === "AAAA" ? 6 : 4, { kind: source });
    const asked = { source, ip: answer.ip, error: answer.error, checkedAt: answer.checkedAt };
    if (!isHtmx(request) || isBoosted(request)) return form(user, values, NO_ERRORS, id, asked);
    const choices = addressSourceChoices(ctx, id === undefined ? null : getDomain(ctx, id).pushed_ip, asked);
    return AskNowAnswer({ values, recordType: values.record_type, choices });
  }

  /** A page of the domain's history, each row with its failure's cause. */
  function historyRows(id: number, page: number) {
    const rows = domainHistory(ctx, id, HISTORY_PAGE_SIZE, (page - 1) * HISTORY_PAGE_SIZE);
    const causes = historyCauses(
      ctx,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({ ...r, failure_cause: causes.get(r.id) ?? null }));
  }

  function row(id: number, view: DomainRowView, result: UpdateResult | null = null) {
    const domain = getDomain(ctx, id);
    return DomainRow({
      domain,
      view,
      now: Date.now(),
      intervalSeconds: interval,
      conditions: updateConditions(ctx, listProviders(ctx))(domain),
      result,
    });
  }

  /** Add (no id) or edit: the form again with its errors, or the list with a notice. */
  async function submit(user: string, request: Request, body: unknown, cookie: Cookies, id?: number) {
    const values = domainValues(body);
    // The provider select's "Continue" (no JavaScript): the form again, with that service's options.
    if (onlyChangesType(body)) return form(user, values, NO_ERRORS, id);
    // A schedule preset's button (no JavaScript): the form again with that schedule, nothing saved.
    const preset = SCHEDULE_PRESETS.find((p) => p.cron === field(body, "cron_preset"));
    if (preset !== undefined) return form(user, { ...values, cron_schedule: preset.cron }, NO_ERRORS, id);
    // An "Ask now" of the address field: nothing is saved.
    const ask = ASKABLE_SOURCES.find((source) => source === field(body, "ask_source"));
    if (ask !== undefined) return askNow(user, request, ask, values, id);
    const provider = listProviders(ctx).find((p) => String(p.id) === values.provider_id);
    const service = provider ? serviceFor(provider.type, ctx.services.services) : undefined;
    // A hostname in none of the provider's zones is a typo caught now, not at the first update.
    const zones = await zonesOf(values.provider_id);
    const outside = hostnameOutsideZones(values, zones);
    if (outside !== null) return form(user, values, { fields: { domain_name: outside } }, id, undefined, zones);
    let domain: DomainView;
    try {
      domain =
        id === undefined
          ? createDomain(ctx, domainInput(values, {}, service))
          : updateDomain(ctx, id, domainInput(values, getDomain(ctx, id).config, service));
    } catch (error) {
      return form(user, values, formErrors(error), id, undefined, zones);
    }
    if (id === undefined)
      setFlash(ctx, cookie, `${domain.domain_name} added; its first update runs within a second or two.`);
    else {
      // An edit of a failing domain may be its fix: it is tried again now, and the notice says how it went.
      const retried = await retryFailing(ctx, [domain]);
      setFlash(
        ctx,
        cookie,
        `${domain.domain_name} saved.${retriedWords(retried)}`,
        retried.failing.length > 0 ? "warn" : "ok",
      );
    }
    // Back to the list at the domain's own row, marked, wherever the list's order puts it.
    return seeOther(`/domains?landed=${domain.id}#domain-${domain.id}`);
  }

  /**
   * The page of domains the list shows with the filters, order and page `source` names (a query, or
   * what a Delete carried along); a page past the last shows the last.
   */
  function listed(source: unknown) {
    const sort = DOMAIN_SORTS.find((s) => s === field(source, "sort")) ?? "name";
    const filters = {
      q: field(source, "q").trim(),
      provider: field(source, "provider"),
      status: field(source, "status"),
      sort,
    };
    const all = listDomains(ctx);
    const conditions = updateConditions(ctx, listProviders(ctx));
    const wanted = filters.q.toLowerCase();
    const domains = all.filter(
      (d) =>
        (wanted === "" ||
          d.domain_name.toLowerCase().includes(wanted) ||
          d.provider_name.toLowerCase().includes(wanted)) &&
        (filters.provider === "" || String(d.provider_id) === filters.provider) &&
        (filters.status === "" || domainStatus(d, conditions(d)).key === filters.status),
    );
    const pages = Math.max(1, Math.ceil(domains.length / DOMAIN_PAGE_SIZE));
    const page = Math.min(pages, Math.max(1, Number.parseInt(field(source, "page"), 10) || 1));
    const start = (page - 1) * DOMAIN_PAGE_SIZE;
    return {
      filters: { ...filters, page },
      conditions,
      domains: sortDomains(domains, sort, conditions).slice(start, start + DOMAIN_PAGE_SIZE),
      matching: domains.length,
      total: all.length,
      // Over every domain, whatever the filters and page: the appliance's problems are said once.
      box: boxProblems(all, conditions),
    };
  }

  function listPage(user: string, source: unknown, extra: Pick<DomainsPageProps, "flash" | "landed" | "deletion">) {
    return DomainsPage({
      user,
      now: Date.now(),
      intervalSeconds: interval,
      providers: listProviders(ctx),
      ...listed(source),
      ...extra,
    });
  }

  return (
    new Elysia()
      .use(signedIn(ctx))
      .get("/domains", ({ user, cookie, query }) => {
        const landed = Number(field(query, "landed"));
        return listPage(user, query, {
          flash: takeFlash(ctx, cookie),
          landed: Number.isInteger(landed) && landed > 0 ? landed : null,
        });
      })
      .get("/domains/new", ({ user, query }) => {
        const providers = listProviders(ctx);
        const chosen = field(query, "provider") || String(providers[0]?.id ?? "");
        return form(
          user,
          { ...domainValues({}), provider_id: chosen, create_if_missing: true, is_enabled: true },
          NO_ERRORS,
        );
      })
      .post("/domains/new", ({ user, request, body, cookie }) => submit(user, request, body, cookie))
      .post("/domains", ({ user, request, body, cookie }) => submit(user, request, body, cookie))
      // The schedule's next runs, as the user types it.
      .get("/domains/schedule-preview", ({ query }) =>
        SchedulePreview({ preview: schedulePreview(field(query, "cron_schedule"), Date.now()) }),
      )
      // The options of the chosen provider's type (the domain form's provider select swaps them in).
      .get("/domains/provider-options", ({ query }) => {
        const provider = listProviders(ctx).find((p) => String(p.id) === field(query, "provider_id"));
        const service = provider ? serviceFor(provider.type, ctx.services.services) : null;
        return ProviderOptions({ service, values: domainValues(query), errors: NO_ERRORS });
      })
      .get(
        "/domains/:id/edit",
        ({ user, params }) => form(user, domainValuesOf(getDomain(ctx, params.id)), NO_ERRORS, params.id),
        { params: IdParams },
      )
      .post(
        "/domains/:id/edit",
        ({ user, params, request, body, cookie }) => submit(user, request, body, cookie, params.id),
        {
          params: IdParams,
        },
      )
      .post(
        "/domains/:id",
        ({ user, params, request, body, cookie }) => submit(user, request, body, cookie, params.id),
        {
          params: IdParams,
        },
      )
      // The address an older form posted to: reloading it lands on the form.
      .get("/domains/:id", ({ params }) => seeOther(`/domains/${params.id}/edit`), { params: IdParams })
      .post(
        "/domains/:id/enabled",
        ({ params, body, request, cookie }) => {
          const domain = updateDomain(ctx, params.id, { is_enabled: field(body, "is_enabled") === "true" });
          const notice = `${domain.domain_name} (${domain.record_type}) ${domain.is_enabled ? "enabled: it is updated again" : "disabled: it is not updated"}.`;
          return answerAction(ctx, request, cookie, {
            fragment: () => row(params.id, "list"),
            notice,
            tone: "ok",
            fallback: "/domains",
          });
        },
        { params: IdParams },
      )
      .post(
        "/domains/:id/update",
        async ({ params, body, request, cookie }) => {
          const before = getDomain(ctx, params.id);
          let result: UpdateResult;
          try {
            const outcome = await forceUpdate(ctx, params.id);
            result = {
              ok: true,
              changed: outcome.changed,
              ip: outcome.ip_address,
              previousIp: outcome.previous_ip,
              durationMs: outcome.duration_ms,
            };
          } catch (error) {
            // Refused (disabled), or the detection or the provider failed: said in the row. A
            // vanished domain is a 404 like any other.
            const failure = UPDATE_FAILURES.find(([kind]) => error instanceof kind)?.[1];
            if (failure === undefined) throw error;
            // The cause as the attempt's history row keeps it (the newest row is that attempt's).
            const newest = failure === "provider" ? domainHistory(ctx, params.id, 1)[0] : undefined;
            const cause = newest ? (historyCauses(ctx, [newest.id]).get(newest.id) ?? null) : null;
            result = { ok: false, failure, cause, detail: (error as Error).message };
          }
          const view: DomainRowView = field(body, "view") === "dashboard" ? "dashboard" : "list";
          const serviceLabel = ctx.services.services.find(
            (s) => s.type === listProviders(ctx).find((p) => p.id === before.provider_id)?.type,
          )?.label;
          return answerAction(ctx, request, cookie, {
            // A failure the history row keeps is shown from that row (with how often it repeated), as the list's refresh shows it.
            fragment: () =>
              row(
                params.id,
                view,
                !result.ok && (result.failure === "provider" || result.failure === "detection") ? null : result,
              ),
            notice: `${before.domain_name} (${before.record_type}): ${updateSentence(result, before.provider_name, serviceLabel)}`,
            tone: result.ok ? "ok" : "fail",
            fallback: view === "dashboard" ? "/" : "/domains",
          });
        },
        { params: IdParams },
      )
      .get(
        "/domains/:id/delete",
        ({ user, params }) => {
          const domain = getDomain(ctx, params.id);
          return ConfirmDeletePage({
            user,
            section: "domains",
            title: `Delete ${domain.domain_name} (${domain.record_type})?`,
            question: `Its settings and update history are deleted. The DNS record at ${domain.provider_name} is left as it is.`,
            action: `/domains/${domain.id}/delete`,
            cancel: "/domains",
          });
        },
        { params: IdParams },
      )
      .post(
        "/domains/:id/delete",
        ({ user, params, body, request, cookie }) => {
          // htmx asked first (hx-confirm); a plain form goes through the confirmation page.
          if (!isHtmx(request) && field(body, "confirm") !== "yes") return seeOther(`/domains/${params.id}/delete`);
          const domain = getDomain(ctx, params.id);
          const before = listed(body).domains;
          deleteDomain(ctx, params.id);
          // The list's own Delete with htmx (carrying the list's filters): the list again, in place,
          // saying so, with focus on the next row's Delete.
          if (isHtmx(request) && field(body, "in_place") === "list")
            return listPage(user, body, {
              deletion: {
                text: `${domain.domain_name} (${domain.record_type}) deleted, with its history; the record at ${domain.provider_name} is left as it is.`,
                focusId: rowAfter(before, params.id),
              },
            });
          setFlash(ctx, cookie, `${domain.domain_name} (${domain.record_type}) deleted.`);
          return seeOther("/domains");
        },
        { params: IdParams },
      )
      .get(
        "/domains/:id/history",
        ({ user, params, query }) => {
          const domain = getDomain(ctx, params.id);
          const total = historyCount(ctx, params.id);
          const pages = Math.max(1, Math.ceil(total / HISTORY_PAGE_SIZE));
          const page = Math.min(pages, Math.max(1, Number.parseInt(field(query, "page"), 10) || 1));
          return HistoryPage({
            user,
            now: Date.now(),
            intervalSeconds: interval,
            domain,
            conditions: updateConditions(ctx, listProviders(ctx))(domain),
            rows: historyRows(params.id, page),
            timeline: ipTimeline(ctx, params.id),
            page,
            pages,
            total,
          });
        },
        { params: IdParams },
      )
  );
}
