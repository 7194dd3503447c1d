// createContext(parts) → the Appliance: what the app shares, with everything that lives as long as
// it does, and the scheduler built over it; createApp(ctx) → the Elysia app: error mapping and body screening first, then health, docs, the
// router push (/nic/update), Prometheus (/metrics), the API under /api/v1 (login public, everything
// else behind the bearer guard) and the admin pages.

import { Elysia } from "elysia";
import type { Keys, Settings } from "./config";
import type { AppContext, Appliance } from "./context";
import type { OpenedDatabase } from "./db";
import { DiskState } from "./db/disk";
import { findZoneServers, query } from "./dns/lookup";
import { Pacer } from "./dns/pacing";
import { ServiceRegistry } from "./dns/registry";
import type { ServiceDescription } from "./dns/service";
import { loginRoutes, logoutRoutes } from "./http/auth";
import { servedUnder } from "./http/base-path";
import { docsRoutes } from "./http/docs";
import { errorHandling } from "./http/errors";
import { bearerGuard, metricsAuthentication } from "./http/guard";
import { bodyScreening } from "./http/screen";
import { Revocations, VerifiedTokens } from "./http/verified-tokens";
import type { Logger } from "./log";
import type { AcmeProtocolDeps } from "./modules/acme";
import { acmeKeyRoutes, acmeProtocolRoutes } from "./modules/acme";
import { apiTokenRoutes } from "./modules/api-tokens";
import { configFileRoutes } from "./modules/config-file";
import { domainRoutes } from "./modules/domains";
import { metricsRoutes } from "./modules/metrics";
import { notificationRoutes } from "./modules/notifications";
import { prometheusRoutes } from "./modules/prometheus";
import { UpdateMetrics } from "./modules/prometheus/service";
import { providerRoutes } from "./modules/providers";
import { pushRoutes } from "./modules/push";
import { healthRoutes, systemRoutes } from "./modules/system";
import { updateKeyRoutes } from "./modules/update-keys";
import type { FetchLike } from "./net/outbound";
import { outboundFetch } from "./net/outbound";
import { proxiedFetch } from "./net/proxy";
import { Notifier } from "./notify/notifier";
import { SignInThrottle } from "./security/throttle";
import { createStore } from "./store";
import { uiRoutes } from "./ui";
import { detectFamily } from "./updater/detect";
import { fanOut } from "./updater/events";
import { PropagationTracker } from "./updater/propagation";
import { providerClient } from "./updater/provider-client";
import { Scheduler } from "./updater/scheduler";
import { createUpdaterState } from "./updater/state";
import { runRepair, runUpdate } from "./updater/update";

export interface ContextParts {
  settings: Settings;
  keys: Keys;
  database: OpenedDatabase;
  log: Logger;
  fetch?: FetchLike;
  /** The DNS services; the built-in ones unless a test hands in a list with a fake service. */
  services?: readonly ServiceDescription[];
}

/**
 * Builds each part before the parts that need it, each given the few things it uses: the counters
 * and the notifier, the sink that hands them the update path's events, the context that holds them,
 * and last the scheduler over that context, woken by every write to the database.
 */
export function createContext({
  settings,
  keys,
  database,
  log,
  fetch = globalThis.fetch,
  services,
}: ContextParts): Appliance {
  const store = createStore(database.db, database.sqlite);
  const startedAt = Date.now();
  const outbound = outboundFetch(proxiedFetch(fetch, settings.proxy), settings);
  const registry = new ServiceRegistry(services);
  // Whether each written record is served by its zone's name servers; it hears of writes and
  // checks as a sink and tells the notifier of records still not served through the same sink.
  const propagation = new PropagationTracker({
    store,
    settings,
    log,
    nameServerOf: (provider) => registry.find(provider.type)?.nameServer?.(provider.options) ?? null,
    proxied: (provider, domain) => registry.find(provider.type)?.proxy !== undefined && domain.config.proxied === true,
    events: { notServed: (report) => events.notServed?.(report) },
    // A record changed outside ddnsd, or due for its DDNS_VERIFY_EVERY read: through the one update path.
    repair: (request) => runRepair(ctx, request),
  });
  const metrics = new UpdateMetrics({
    queries: store.metrics,
    startedAt,
    served: () => propagation.servedRecords(),
    pushes: { domains: store.domains, staleAfterSeconds: settings.pushStaleAfterSeconds },
  });
  const notifier = new Notifier({ store, log, fetch: outbound, keys, settings });
  const events = fanOut([metrics, notifier, propagation], (error) =>
    log.error("event sink failed", { error: error instanceof Error ? error.message : String(error) }),
  );
  const ctx: AppContext = {
    id: crypto.randomUUID(),
    settings,
    keys,
    db: database.db,
    store,
    sqlite: database.sqlite,
    databasePath: database.path,
    log,
    fetch: outbound,
    startedAt,
    publicIp: { ipv4: null, ipv6: null, checkedAt: null, failures: { ipv4: null, ipv6: null }, answers: new Map() },
    services: registry,
    pacer: new Pacer(),
    updater: createUpdaterState(settings.updateConcurrency),
    metrics,
    notifier,
    events,
    signIns: new SignInThrottle(settings.trustedProxies),
    disk: new DiskState(log),
    propagation,
    verifiedTokens: new VerifiedTokens(),
    revocations: new Revocations(store.users, database.sqlite),
  };
  // The same object, now with its scheduler: a test that swaps a part (the pacer) swaps it for the
  // scheduler's passes too.
  const appliance: Appliance = Object.assign(ctx, { scheduler: new Scheduler(ctx) });
  // Any change to the data may bring a due time nearer: the scheduler plans its sleep again. The
  // database gets only this wake function, read through the appliance so a scheduler swapped in
  // (a test's, on a fake clock) is the one woken.
  database.sqlite.onWrite(() => appliance.scheduler.wake());
  // A record to ask about, or an ask finished: the next ask may be due sooner than planned.
  propagation.onDue = () => appliance.scheduler.wake();
  return appliance;
}

export interface AppOptions {
  /** Run passes on the scheduler's timer (main.ts); tests drive passes themselves. */
  schedule?: boolean;
}

/** What certificate keys use of the context (docs/certificates.md). */
function acmeParts(ctx: Appliance): AcmeProtocolDeps {
  return {
    store: ctx.store,
    services: ctx.services,
    log: ctx.log,
    settings: ctx.settings,
    signIns: ctx.signIns,
    clientOf: (provider) => providerClient(ctx, provider),
    served: { lookups: { findZoneServers, query } },
  };
}

export function createApp(ctx: Appliance, options: AppOptions = {}) {
  const acme = acmeParts(ctx);
  const api = new Elysia({ prefix: "/api/v1" })
    .use(loginRoutes(ctx))
    .use(logoutRoutes(ctx))
    .use(bearerGuard(ctx))
    .use(providerRoutes(ctx))
    .use(domainRoutes(ctx))
    .use(systemRoutes(ctx))
    .use(metricsRoutes(ctx))
    .use(updateKeyRoutes(ctx))
    .use(acmeKeyRoutes(acme))
    .use(apiTokenRoutes(ctx))
    .use(notificationRoutes(ctx))
    .use(configFileRoutes(ctx));

  const app = new Elysia()
    .use(errorHandling(ctx.log, ctx.disk))
    .use(bodyScreening())
    .use(healthRoutes(ctx, { scheduled: options.schedule ?? false }))
    .use(docsRoutes(ctx.settings.basePath))
    .use(
      pushRoutes({
        store: ctx.store,
        log: ctx.log,
        settings: ctx.settings,
        publicIp: ctx.publicIp,
        signIns: ctx.signIns,
        update: (domainId, update) => runUpdate(ctx, domainId, update),
        detect: (family) => detectFamily(ctx, family),
      }),
    )
    .use(acmeProtocolRoutes(acme))
    .use(prometheusRoutes({ metrics: ctx.metrics, authenticate: metricsAuthentication(ctx) }))
    .use(api)
    .use(uiRoutes(ctx));

  if (options.schedule) ctx.scheduler.start({ timer: true });
  // Every request, from the server or a test, goes in through the base path and its page facts.
  const handle = app.handle;
  app.handle = servedUnder(ctx, (request) => handle(request));
  return app;
}

export type App = ReturnType<typeof createApp>;
