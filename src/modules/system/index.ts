// Routes of /api/v1/system, and the unauthenticated /healthz probe.

import { Elysia, t } from "elysia";
import { sourceText } from "../../ip/source";
import { effectiveSource, environmentSource } from "../../updater/address-source";
import { bodyShape, errorResponses, Int } from "../shared";
import { type AddressSourceDeps, FAMILIES, familyKey, hostInterfaces, setAddressSources } from "./address-sources";
import { healthProblem, type SystemSources, systemStatus } from "./service";

const SystemStatus = t.Object({
  initialized: t.Boolean({ description: "The database is migrated and an admin exists" }),
  version: t.String(),
  uptime_seconds: Int(),
  database: t.Literal("sqlite"),
  scheduler: t.Union([t.Literal("running"), t.Literal("stopped")]),
  last_check_at: t.Nullable(t.String({ format: "date-time" })),
  public_ip: t.Object({ ipv4: t.Nullable(t.String()), ipv6: t.Nullable(t.String()) }),
});

const SourceSetting = t.Object({
  source: t.String({ description: "`web` or `interface:<name>`", examples: ["web", "interface:eth0"] }),
  urls: t.Array(t.String(), { description: "The echo services asked, in order (with `web`)" }),
});

const FamilySource = t.Object({
  in_effect: SourceSetting,
  from: t.Union([t.Literal("database"), t.Literal("environment")], { description: "Who chose the source in effect" }),
  environment: SourceSetting,
});

const AddressSources = t.Object({
  ipv4: FamilySource,
  ipv6: FamilySource,
  interfaces: t.Array(t.Object({ name: t.String(), ipv4: t.Array(t.String()), ipv6: t.Array(t.String()) }), {
    description: "This host's interfaces and the addresses each could give",
  }),
});

const SourceChoice = t.Nullable(
  t.Object({
    source: t.String({ description: "`web` or `interface:<name>`" }),
    urls: t.Optional(t.Array(t.String(), { description: "Required with `web`: http(s) URLs of echo services" })),
  }),
  { description: "null: back to the environment's setting" },
);

function addressSourcesView(ctx: AddressSourceDeps) {
  const view = (family: 4 | 6) => {
    const { source, urls, from } = effectiveSource(ctx, family);
    const environment = environmentSource(ctx, family);
    return {
      in_effect: { source: sourceText(source), urls },
      from,
      environment: { source: sourceText(environment.source), urls: environment.urls },
    };
  };
  return { ipv4: view(4), ipv6: view(6), interfaces: hostInterfaces(ctx) };
}

export function systemRoutes(ctx: SystemSources & AddressSourceDeps) {
  return new Elysia({ prefix: "/system", tags: ["system"] })
    .get("/status", () => systemStatus(ctx), {
      response: { 200: SystemStatus, ...errorResponses(401) },
      detail: { operationId: "getSystemStatus", summary: "System status" },
    })
    .get("/address-sources", () => addressSourcesView(ctx), {
      response: { 200: AddressSources, ...errorResponses(401) },
      detail: { operationId: "getAddressSources", summary: "Where the public addresses come from" },
    })
    .put(
      "/address-sources",
      ({ body }) => {
        setAddressSources(
          ctx,
          Object.fromEntries(
            FAMILIES.filter((family) => body[familyKey(family)] !== undefined).map((family) => [
              family,
              body[familyKey(family)],
            ]),
          ),
        );
        return addressSourcesView(ctx);
      },
      {
        body: t.Object({ ipv4: t.Optional(SourceChoice), ipv6: t.Optional(SourceChoice) }),
        transform: bodyShape({}),
        response: { 200: AddressSources, ...errorResponses(401, 422) },
        detail: {
          operationId: "setAddressSources",
          summary: "Choose where the public addresses come from",
          description:
            "A family left out stays as it is; null goes back to the environment's setting (DDNS_IPV4_SOURCE, DDNS_IPV4_URLS …). A changed source is asked at once.",
        },
      },
    );
}

const Unhealthy = t.Object(
  { status: t.Union([t.Literal("starting"), t.Literal("degraded"), t.Literal("unavailable")]), detail: t.String() },
  { description: "Not ready yet, or the data disk is full, or the database does not answer" },
);

/**
 * `/healthz`: 200 only once the appliance is ready (an admin exists, so a login works; the scheduler
 * runs when this app schedules), else 503 saying why.
 */
export function healthRoutes(ctx: SystemSources, options: { scheduled: boolean }) {
  return new Elysia({ tags: ["system"] }).get(
    "/healthz",
    ({ set }) => {
      const problem = healthProblem(ctx, options.scheduled);
      if (problem === null) return { status: "ok" as const };
      set.status = 503;
      return problem;
    },
    {
      response: { 200: t.Object({ status: t.Literal("ok") }), 503: Unhealthy },
      detail: {
        operationId: "getHealth",
        summary: "Health probe",
        description:
          "No authentication; 200 once ready (database migrated, an admin exists, the scheduler runs) and while the database can be written.",
        security: [],
      },
    },
  );
}
