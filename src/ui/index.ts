// The admin pages: data in from the services, HTML out from the views. Pages are full documents
// (htmx's boost swaps their body); a few routes answer with a fragment for an in-place swap
// (a table row after "Update now" or a switch, a verify result, a form part that follows a
// select). Forms post back, re-render with the user's values and the services' errors on a
// mistake (200, since htmx swaps no 4xx), and redirect with a notice on success.
//
// Order matters in Elysia: a hook applies to the routes registered after it. So: the static
// assets, then the page headers and the same-origin check (for everything below), then sign-in
// and sign-out, then the session check (for every page after it).

import { html } from "@elysiajs/html";
import { Elysia } from "elysia";
import { VERSION, type AppContext } from "../context";
import { attemptSignIn, AUTH_MESSAGES, signAccessToken, tokenSigner } from "../http/auth";
import { DomainError } from "../errors";
import { throttledMessage } from "../security/throttle";
import {
  createDomain,
  deleteDomain,
  domainHistory,
  getDomain,
  historyCount,
  ipTimeline,
  listDomains,
  updateDomain,
} from "../modules/domains/service";
import { dashboardMetrics, ipChangesPerDay, providerStats, updatesPerHour } from "../modules/metrics/service";
import {
  createProvider,
  deleteProvider,
  getProvider,
  listProviders,
  updateProvider,
  verifyProvider,
} from "../modules/providers/service";
import { IdParams } from "../modules/shared";
import { databaseSizeBytes, systemStatus } from "../modules/system/service";
import { cronScheduleProblem, upcomingRuns } from "../updater/schedule";
import { forceUpdate } from "../updater/update";
import { domainStatus, NO_ERRORS, type FormErrors } from "../../views/components";
import { serviceFor, ServiceFields } from "../../views/fragments/credential-field";
import { DomainRow, type DomainRowView, type UpdateResult } from "../../views/fragments/domain-row";
import { ProviderOptions } from "../../views/fragments/provider-options";
import { ProviderRow, VerifyResult } from "../../views/fragments/provider-row";
import { SchedulePreview, type SchedulePreviewData } from "../../views/fragments/schedule-preview";
import { plural } from "../../views/format";
import { AboutPage } from "../../views/pages/about";
import { DashboardPage } from "../../views/pages/dashboard";
import { DomainFormPage, type DomainFormValues } from "../../views/pages/domain-form";
import { DomainsPage } from "../../views/pages/domains";
import { HistoryPage } from "../../views/pages/history";
import { LoginPage } from "../../views/pages/login";
import { ProviderFormPage, type ProviderFormValues } from "../../views/pages/provider-form";
import { ProvidersPage } from "../../views/pages/providers";
import { ASSETS } from "./assets";
import {
  domainInput,
  domainValues,
  domainValuesOf,
  field,
  formErrors,
  onlyChangesType,
  providerInput,
  providerValues,
  providerValuesOf,
} from "./forms";
import {
  assertSameOrigin,
  endSession,
  localPath,
  requireSession,
  SESSION_EXPIRED,
  seeOther,
  setFlash,
  startSession,
  takeFlash,
} from "./session";
import { settingsInEffect } from "./settings";

const HISTORY_PAGE_SIZE = 25;

/**
 * Pages hold addresses and are never cached; no other site may frame them; scripts and styles
 * come only from /assets (htmx is told not to inject its own style, see views/layout.tsx).
 */
const PAGE_HEADERS = {
  "cache-control": "no-store",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
};

export function uiRoutes(ctx: AppContext) {
  const interval = ctx.settings.updateIntervalSeconds;

  function schedulePreview(input: string, now: number): SchedulePreviewData {
    const expression = input.trim();
    if (expression === "") {
      return { kind: "runs", defaultInterval: interval, runs: upcomingRuns(null, now, interval, 3), seconds: interval % 60 !== 0, now };
    }
    const problem = cronScheduleProblem(expression);
    if (problem !== null) return { kind: "invalid", problem };
    const seconds = expression.split(/\s+/).length === 6;
    return { kind: "runs", defaultInterval: null, runs: upcomingRuns(expression, now, interval, 3), seconds, now };
  }

  function providerForm(user: string, values: ProviderFormValues, errors: FormErrors, id?: number) {
    const provider = id === undefined ? undefined : getProvider(ctx, id);
    return ProviderFormPage({ user, provider, values, errors, services: ctx.services.services });
  }

  function domainForm(user: string, values: DomainFormValues, errors: FormErrors, id?: number) {
    return DomainFormPage({
      user,
      domain: id === undefined ? undefined : getDomain(ctx, id),
      providers: listProviders(ctx),
      values,
      errors,
      schedule: schedulePreview(values.cron_schedule, Date.now()),
    });
  }

  function providerRow(id: number) {
    const stats = providerStats(ctx).providers.find((s) => s.provider_id === id);
    return ProviderRow({ provider: getProvider(ctx, id), stats });
  }

  function domainRow(id: number, view: DomainRowView, result: UpdateResult | null = null) {
    return DomainRow({ domain: getDomain(ctx, id), view, now: Date.now(), intervalSeconds: interval, result });
  }

  const assets = new Elysia();
  for (const asset of Object.values(ASSETS)) {
    assets.get(
      asset.route,
      () =>
        new Response(Bun.file(asset.path), {
          // The URL pages use carries a content hash, so the file may be cached for good.
          headers: { "content-type": asset.contentType, "cache-control": "public, max-age=31536000, immutable" },
        }),
    );
  }

  return (
    new Elysia({ name: "admin-pages", seed: ctx.id, detail: { hide: true } })
      .use(html({ contentType: "text/html; charset=utf-8" }))
      .use(tokenSigner(ctx))
      .use(assets)
      .onBeforeHandle(({ request, set }) => {
        Object.assign(set.headers, PAGE_HEADERS);
        if (request.method !== "GET" && request.method !== "HEAD") assertSameOrigin(request);
      })

      // Signing in and out

      .get("/login", ({ query }) =>
        LoginPage({
          username: "",
          next: localPath(query.next),
          notice: query.expired ? SESSION_EXPIRED : query.signed_out ? "You have signed out." : null,
        }),
      )
      .post("/login", async ({ body, cookie, jwt, request, set }) => {
        const username = field(body, "username").trim();
        const next = localPath(field(body, "next"));
        const signIn = await attemptSignIn(ctx, request, username, field(body, "password"));
        if (!signIn.ok) {
          if (signIn.retryAfterSeconds === null) return LoginPage({ username, next, error: AUTH_MESSAGES.wrongLogin });
          set.status = 429;
          set.headers["retry-after"] = String(signIn.retryAfterSeconds);
          return LoginPage({ username, next, error: throttledMessage(signIn.retryAfterSeconds) });
        }
        startSession(ctx, cookie, request, await signAccessToken(ctx, jwt, username));
        ctx.log.info("login", { user: username, via: "pages" });
        return seeOther(next);
      })
      // No session needed: signing out of an expired session still clears the cookie.
      .post("/logout", async ({ cookie, request }) => {
        await endSession(ctx, cookie, request);
        return seeOther("/login?signed_out=1");
      })

      .resolve(async ({ request, cookie }) => ({ user: await requireSession(ctx, request, cookie) }))

      // Dashboard

      .get("/", ({ user, cookie }) => {
        const now = Date.now();
        const status = systemStatus(ctx);
        return DashboardPage({
          user,
          flash: takeFlash(ctx, cookie),
          now,
          publicIp: ctx.publicIp,
          metrics: dashboardMetrics(ctx, now),
          scheduler: status.scheduler,
          lastCheckAt: status.last_check_at,
          hourly: updatesPerHour(ctx, now),
          daily: ipChangesPerDay(ctx, now),
          domains: listDomains(ctx),
          intervalSeconds: interval,
        });
      })

      // Providers

      .get("/providers", ({ user, cookie }) =>
        ProvidersPage({ user, flash: takeFlash(ctx, cookie), providers: listProviders(ctx), stats: providerStats(ctx).providers }),
      )
      .get("/providers/new", ({ user }) =>
        providerForm(user, { name: "", type: ctx.services.types[0] ?? "", credentials: {}, options: {}, is_enabled: true }, NO_ERRORS),
      )
      .post("/providers", ({ user, body, cookie }) => {
        const values = providerValues(body);
        if (onlyChangesType(body)) return providerForm(user, values, NO_ERRORS);
        try {
          const input = providerInput(values);
          const provider = createProvider(ctx, { ...input, credentials: input.credentials ?? {} });
          setFlash(ctx, cookie, `Provider “${provider.name}” added. Use Verify to check its credentials.`);
          return seeOther("/providers");
        } catch (error) {
          return providerForm(user, values, formErrors(error));
        }
      })
      // The credential and option inputs of the chosen type (the provider form's type select swaps them in).
      .get("/providers/credential-field", ({ query }) => {
        const id = Number(field(query, "provider"));
        const stored = Number.isInteger(id) && id > 0 ? getProvider(ctx, id) : undefined;
        const values = stored && stored.type === field(query, "type") ? providerValuesOf(stored) : { credentials: {}, options: {} };
        const service = serviceFor(field(query, "type"), ctx.services.services);
        return ServiceFields({ service, values, errors: NO_ERRORS, stored });
      })
      .get("/providers/:id/edit", ({ user, params }) => providerForm(user, providerValuesOf(getProvider(ctx, params.id)), NO_ERRORS, params.id), {
        params: IdParams,
      })
      .post(
        "/providers/:id",
        ({ user, params, body, cookie }) => {
          const values = providerValues(body);
          if (onlyChangesType(body)) return providerForm(user, values, NO_ERRORS, params.id);
          try {
            const provider = updateProvider(ctx, params.id, providerInput(values), { keepStoredCredentials: true });
            setFlash(ctx, cookie, `Provider “${provider.name}” saved.`);
            return seeOther("/providers");
          } catch (error) {
            return providerForm(user, values, formErrors(error), params.id);
          }
        },
        { params: IdParams },
      )
      .post("/providers/:id/verify", async ({ params }) => VerifyResult(await verifyProvider(ctx, params.id)), { params: IdParams })
      .post(
        "/providers/:id/enabled",
        ({ params, body }) => {
          updateProvider(ctx, params.id, { is_enabled: field(body, "is_enabled") === "true" });
          return providerRow(params.id);
        },
        { params: IdParams },
      )
      .post(
        "/providers/:id/delete",
        ({ params, cookie }) => {
          const provider = getProvider(ctx, params.id);
          // The confirmation named the domains that go with it.
          deleteProvider(ctx, params.id, true);
          const domains = provider.domain_count > 0 ? `, with its ${plural(provider.domain_count, "domain")}` : "";
          setFlash(ctx, cookie, `Provider “${provider.name}” deleted${domains}.`);
          return seeOther("/providers");
        },
        { params: IdParams },
      )

      // Domains

      .get("/domains", ({ user, cookie, query }) => {
        const filters = { provider: field(query, "provider"), status: field(query, "status") };
        const all = listDomains(ctx);
        const domains = all.filter(
          (d) =>
            (filters.provider === "" || String(d.provider_id) === filters.provider) &&
            (filters.status === "" || domainStatus(d).key === filters.status),
        );
        return DomainsPage({
          user,
          flash: takeFlash(ctx, cookie),
          now: Date.now(),
          intervalSeconds: interval,
          domains,
          total: all.length,
          providers: listProviders(ctx),
          filters,
        });
      })
      .get("/domains/new", ({ user, query }) => {
        const providers = listProviders(ctx);
        const chosen = field(query, "provider") || String(providers[0]?.id ?? "");
        return domainForm(user, { ...domainValues({}), provider_id: chosen, create_if_missing: true, is_enabled: true }, NO_ERRORS);
      })
      .post("/domains", ({ user, body, cookie }) => {
        const values = domainValues(body);
        try {
          const domain = createDomain(ctx, domainInput(values));
          setFlash(ctx, cookie, `${domain.domain_name} added; its first update runs within a second or two.`);
          return seeOther("/domains");
        } catch (error) {
          return domainForm(user, values, formErrors(error));
        }
      })
      // The schedule's next runs, as the user types it.
      .get("/domains/schedule-preview", ({ query }) => SchedulePreview({ preview: schedulePreview(field(query, "cron_schedule"), Date.now()) }))
      // The options of the chosen provider's type (the domain form's provider select swaps them in).
      .get("/domains/provider-options", ({ query }) => {
        const provider = listProviders(ctx).find((p) => String(p.id) === field(query, "provider_id"));
        const service = provider ? serviceFor(provider.type, ctx.services.services) : null;
        return ProviderOptions({ service, values: domainValues(query), errors: NO_ERRORS });
      })
      .get("/domains/:id/edit", ({ user, params }) => domainForm(user, domainValuesOf(getDomain(ctx, params.id)), NO_ERRORS, params.id), {
        params: IdParams,
      })
      .post(
        "/domains/:id",
        ({ user, params, body, cookie }) => {
          const values = domainValues(body);
          try {
            const domain = updateDomain(ctx, params.id, domainInput(values, getDomain(ctx, params.id).config));
            setFlash(ctx, cookie, `${domain.domain_name} saved.`);
            return seeOther("/domains");
          } catch (error) {
            return domainForm(user, values, formErrors(error), params.id);
          }
        },
        { params: IdParams },
      )
      .post(
        "/domains/:id/enabled",
        ({ params, body }) => {
          updateDomain(ctx, params.id, { is_enabled: field(body, "is_enabled") === "true" });
          return domainRow(params.id, "list");
        },
        { params: IdParams },
      )
      .post(
        "/domains/:id/update",
        async ({ params, body }) => {
          let result: UpdateResult;
          try {
            const outcome = await forceUpdate(ctx, params.id);
            result = { ok: true, message: outcome.message, durationMs: outcome.duration_ms };
          } catch (error) {
            // Refused (disabled), or the detection or the provider failed: shown in the row.
            if (!(error instanceof DomainError)) throw error;
            result = { ok: false, message: error.message };
          }
          return domainRow(params.id, field(body, "view") === "dashboard" ? "dashboard" : "list", result);
        },
        { params: IdParams },
      )
      .post(
        "/domains/:id/delete",
        ({ params, cookie }) => {
          const domain = getDomain(ctx, params.id);
          deleteDomain(ctx, params.id);
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
            rows: domainHistory(ctx, params.id, HISTORY_PAGE_SIZE, (page - 1) * HISTORY_PAGE_SIZE),
            timeline: ipTimeline(ctx, params.id),
            page,
            pages,
            total,
          });
        },
        { params: IdParams },
      )

      // About

      .get("/about", ({ user }) =>
        AboutPage({
          user,
          version: VERSION,
          uptimeSeconds: Math.floor((Date.now() - ctx.startedAt) / 1000),
          dataDir: ctx.settings.dataDir,
          databasePath: ctx.databasePath,
          databaseBytes: databaseSizeBytes(ctx),
          timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
          settings: settingsInEffect(ctx),
        }),
      )
  );
}
