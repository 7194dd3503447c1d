// A faithful stand-in for the DNS part of the Hetzner Cloud API (docs/services/hetzner.md): zones found by
// name or id, record sets by relative name and type (several values in one set; TXT values kept as
// sent, in their double quotes), deleted whole, changes that answer 201 with an action which
// stays `running` for a number of looks before it ends in `success` (or `error`), primary-only
// edits (422 incorrect_zone_mode), read-only tokens, and 429 rate_limit_exceeded with the
// RateLimit-* headers. The old DNS console API (closed May 2026) is not played: ddnsd never calls it.
//
// Sources: docs/services/hetzner.md; docs.hetzner.cloud (Zones, Zone RRSets, Zone Actions, errors, rate
// limiting); hetznercloud/hcloud-go hcloud/schema/zone_rrset.go, hcloud/error.go; qdm12/ddns-updater
// providers/hetznercloud/{types,waitaction}.go.
//
// Checked against the Hetzner Cloud OpenAPI description (test/conformance/descriptions/hetzner.json):
// every request is validated; a forbidden one gets 400 invalid_input and is recorded.
//
// Quirk switches: an rrset's `protection.change` (every change answered 423 `protected`, which will
// not succeed however often it is retried), a zone's `mode: "secondary"` (422 incorrect_zone_mode),
// `actionLooks` (how long an action stays running), `failNextAction`, the read-only token, faults
// `{status, code, message, resetInSeconds, retryAfter}` (429 rate_limit_exceeded with RateLimit-*).

import { isIPv4, isIPv6 } from "node:net";
import { openApiDescription } from "./descriptions";
import { type FakeServer, htmlErrorPage, json, type LoggedRequest, malformedJson, startFakeServer } from "./server";

/** The service's own published description, checked against every request (compiled once, at import, so no request waits for it). */
const DESCRIPTION = openApiDescription("hetzner", {
  title: "Hetzner Cloud OpenAPI",
  apiRoot: "/v1",
  refuse: (_request, problems) => error(400, "invalid_input", `invalid input: ${problems.join("; ")}`),
});

export const HETZNER_FAKE_TOKEN = "hcloud-fake-token-0123456789abcdef";
export const HETZNER_READONLY_TOKEN = "hcloud-fake-readonly-0123456789ab";

export interface HetznerZone {
  id: number;
  name: string;
  mode: "primary" | "secondary";
  ttl: number;
  status: string;
  labels: Record<string, string>;
  created: string;
  protection: { delete: boolean };
  authoritative_nameservers: {
    assigned: string[];
    delegated: string[];
    delegation_last_check: string | null;
    delegation_status: string;
  };
  registrar: "hetzner" | "other" | "unknown";
}

export interface HetznerRrset {
  id: string;
  name: string;
  type: string;
  /** null: the zone's default TTL. */
  ttl: number | null;
  records: { value: string; comment?: string }[];
  zone: number;
  labels: Record<string, string>;
  protection: { change: boolean };
}

export interface HetznerAction {
  id: number;
  command: string;
  status: "running" | "success" | "error";
  progress: number;
  started: string;
  finished: string | null;
  error: { code: string; message: string } | null;
  resources: { id: number; type: string }[];
}

/**
 * `{status}` answers with a Hetzner error of that status (`code` from the status unless given; 429
 * adds RateLimit-* headers whose reset is `resetInSeconds` away, `retryAfter` a Retry-After header);
 * `"malformed"` is a 200 with broken JSON; `"html"` a 502 page from a proxy in front.
 */
export type HetznerFault =
  | { status: number; code?: string; message?: string; resetInSeconds?: number; retryAfter?: number }
  | "malformed"
  | "html";

export interface HetznerFake extends FakeServer<HetznerFault> {
  /** Token → whether it may write. */
  tokens: Map<string, "read_write" | "read_only">;
  zones: Map<number, HetznerZone>;
  /** How many looks (`GET /zones/actions/{id}`) an action stays `running` before it ends. */
  actionLooks: number;
  /** Makes the next action end in this error, its change not applied. */
  failNextAction: { code: string; message: string } | null;
  actions: Map<number, HetznerAction>;
  addZone(name: string, fields?: Partial<Omit<HetznerZone, "id" | "name">>): HetznerZone;
  /** `name` relative to the zone, `@` for the apex. */
  addRrset(
    zoneName: string,
    rrset: { name: string; type: string; values: string[]; ttl?: number | null; comment?: string },
  ): HetznerRrset;
  rrset(zoneName: string, name: string, type: string): HetznerRrset | undefined;
  reset(): void;
}

const DEFAULT_CODES: Record<number, { code: string; message: string }> = {
  401: { code: "unauthorized", message: "unable to authenticate" },
  403: { code: "forbidden", message: "insufficient permissions for this request" },
  404: { code: "not_found", message: "not found" },
  409: { code: "conflict", message: "the resource has changed during the request, please retry" },
  423: { code: "locked", message: "the item you are trying to access is locked (there is already an action running)" },
  429: { code: "rate_limit_exceeded", message: "limit of 3600 requests per hour reached" },
  500: { code: "server_error", message: "an internal server error occurred" },
  502: { code: "bad_gateway", message: "bad gateway" },
  503: { code: "unavailable", message: "service unavailable" },
};
const RATE_LIMIT = 3600;
const RECORD_TYPES = new Set([
  "A",
  "AAAA",
  "CNAME",
  "TXT",
  "MX",
  "NS",
  "CAA",
  "SRV",
  "PTR",
  "DS",
  "TLSA",
  "HINFO",
  "RP",
  "SOA",
]);

export function startHetznerFake(): HetznerFake {
  const tokens = new Map<string, "read_write" | "read_only">();
  const zones = new Map<number, HetznerZone>();
  const rrsets = new Map<number, Map<string, HetznerRrset>>();
  const actions = new Map<number, HetznerAction>();
  const looks = new Map<number, number>();
  let nextZoneId = 1001;
  let nextActionId = 5001;
  const key = (name: string, type: string) => `${name}|${type}`;

  function addZone(name: string, fields: Partial<Omit<HetznerZone, "id" | "name">> = {}): HetznerZone {
    const nameservers = ["hydrogen.ns.hetzner.com", "oxygen.ns.hetzner.com", "helium.ns.hetzner.de"];
    const zone: HetznerZone = {
      id: nextZoneId++,
      name,
      mode: "primary",
      ttl: 3600,
      status: "ok",
      labels: {},
      created: new Date().toISOString(),
      protection: { delete: false },
      authoritative_nameservers: {
        assigned: nameservers,
        delegated: nameservers,
        delegation_last_check: null,
        delegation_status: "valid",
      },
      registrar: "other",
      ...fields,
    };
    zones.set(zone.id, zone);
    rrsets.set(zone.id, new Map());
    return zone;
  }

  /** A zone as the API shows it; a secondary zone also names its primaries. */
  function shown(zone: HetznerZone): HetznerZone & { record_count: number } {
    const extra = zone.mode === "secondary" ? { primary_nameservers: [{ address: "192.0.2.53", port: 53 }] } : {};
    return { ...zone, ...extra, record_count: rrsets.get(zone.id)?.size ?? 0 };
  }

  function zoneNamed(idOrName: string): HetznerZone | undefined {
    return /^\d+$/.test(idOrName) ? zones.get(Number(idOrName)) : [...zones.values()].find((z) => z.name === idOrName);
  }

  function addRrset(
    zoneName: string,
    init: { name: string; type: string; values: string[]; ttl?: number | null; comment?: string },
  ): HetznerRrset {
    const zone = zoneNamed(zoneName);
    if (!zone) throw new Error(`fake Hetzner: no zone ${zoneName}`);
    const rrset: HetznerRrset = {
      id: `${init.name}/${init.type}`,
      name: init.name,
      type: init.type,
      ttl: init.ttl ?? null,
      records: init.values.map((value) => (init.comment === undefined ? { value } : { value, comment: init.comment })),
      zone: zone.id,
      labels: {},
      protection: { change: false },
    };
    rrsets.get(zone.id)?.set(key(init.name, init.type), rrset);
    return rrset;
  }

  /** Starts an action; `apply` runs now unless the action is to fail, as a failed action changes nothing. */
  function startAction(command: string, zone: HetznerZone, apply: () => void): HetznerAction {
    const failure = fake.failNextAction;
    fake.failNextAction = null;
    if (!failure) apply();
    const action: HetznerAction = {
      id: nextActionId++,
      command,
      status: fake.actionLooks > 0 ? "running" : failure ? "error" : "success",
      progress: fake.actionLooks > 0 ? 0 : 100,
      started: new Date().toISOString(),
      finished: fake.actionLooks > 0 ? null : new Date().toISOString(),
      error: fake.actionLooks > 0 ? null : failure,
      resources: [{ id: zone.id, type: "zone" }],
    };
    actions.set(action.id, action);
    looks.set(action.id, fake.actionLooks);
    pendingErrors.set(action.id, failure);
    return action;
  }
  const pendingErrors = new Map<number, { code: string; message: string } | null>();

  function validRecords(type: string, records: unknown): { value: string; comment?: string }[] | Response {
    if (!Array.isArray(records) || records.length === 0)
      return error(422, "invalid_input", "invalid input in field 'records'");
    const result: { value: string; comment?: string }[] = [];
    for (const record of records) {
      const value =
        typeof record === "object" && record !== null ? (record as Record<string, unknown>).value : undefined;
      const comment =
        typeof record === "object" && record !== null ? (record as Record<string, unknown>).comment : undefined;
      if (typeof value !== "string" || (type === "A" && !isIPv4(value)) || (type === "AAAA" && !isIPv6(value))) {
        return error(
          422,
          "invalid_input",
          `invalid input in field 'records': '${String(value)}' is not a valid ${type} value`,
        );
      }
      result.push(typeof comment === "string" ? { value, comment } : { value });
    }
    return result;
  }

  function validTtl(ttl: unknown): number | null | Response {
    if (ttl === undefined || ttl === null) return null;
    if (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < 60 || ttl > 2147483647) {
      return error(422, "invalid_input", "invalid input in field 'ttl': must be between 60 and 2147483647");
    }
    return ttl;
  }

  function route(request: LoggedRequest): Response {
    const auth = request.headers.authorization ?? "";
    const access = auth.startsWith("Bearer ") ? tokens.get(auth.slice("Bearer ".length)) : undefined;
    if (!access) return error(401);
    if (request.method !== "GET" && access === "read_only")
      return error(403, "token_readonly", "The token is read-only");
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] !== "zones") return error(404);

    if (segments.length === 1 && request.method === "GET") {
      const listed = [...zones.values()].filter(
        (z) => request.query.name === undefined || z.name === request.query.name,
      );
      const perPage = Math.min(Math.max(Number(request.query.per_page) || 25, 1), 50);
      const page = Math.max(Number(request.query.page) || 1, 1);
      const lastPage = Math.max(Math.ceil(listed.length / perPage), 1);
      return json(200, {
        zones: listed.slice((page - 1) * perPage, page * perPage).map(shown),
        meta: {
          pagination: {
            page,
            per_page: perPage,
            previous_page: page > 1 ? page - 1 : null,
            next_page: page < lastPage ? page + 1 : null,
            last_page: lastPage,
            total_entries: listed.length,
          },
        },
      });
    }
    if (segments[1] === "actions" && segments.length === 3 && request.method === "GET") {
      const action = actions.get(Number(segments[2]));
      if (!action) return error(404, "not_found", `action with ID '${segments[2]}' not found`);
      const left = (looks.get(action.id) ?? 0) - 1;
      looks.set(action.id, left);
      if (action.status === "running" && left <= 0) {
        const failure = pendingErrors.get(action.id) ?? null;
        Object.assign(action, {
          status: failure ? "error" : "success",
          progress: 100,
          finished: new Date().toISOString(),
          error: failure,
        });
      }
      return json(200, { action });
    }

    const zone = zoneNamed(segments[1] ?? "");
    if (!zone) return error(404, "not_found", `zone with ID '${segments[1]}' not found`);
    const sets = rrsets.get(zone.id) ?? new Map<string, HetznerRrset>();
    if (segments.length === 2)
      return request.method === "GET"
        ? json(200, { zone: shown(zone) })
        : error(405, "method_not_allowed", "method not allowed");
    if (segments[2] !== "rrsets") return error(404);
    const editable = () =>
      zone.mode === "primary"
        ? null
        : error(422, "incorrect_zone_mode", "This operation is not supported for this Zone's mode.");

    if (segments.length === 3 && request.method === "POST") {
      const refused = editable();
      if (refused) return refused;
      const body = (typeof request.body === "object" && request.body !== null ? request.body : {}) as Record<
        string,
        unknown
      >;
      const name = typeof body.name === "string" ? body.name : "";
      const type = typeof body.type === "string" ? body.type : "";
      if (
        name === "" ||
        name.endsWith(".") ||
        name === zone.name ||
        name.endsWith(`.${zone.name}`) ||
        name !== name.toLowerCase()
      ) {
        return error(
          422,
          "invalid_input",
          "invalid input in field 'name': must be relative to the zone, lower case, without a trailing dot",
        );
      }
      if (!RECORD_TYPES.has(type)) return error(422, "invalid_input", "invalid input in field 'type'");
      if (sets.has(key(name, type)))
        return error(409, "uniqueness_error", "rrset with the same name and type already exists");
      const records = validRecords(type, body.records);
      if (records instanceof Response) return records;
      const ttl = validTtl(body.ttl);
      if (ttl instanceof Response) return ttl;
      const rrset: HetznerRrset = {
        id: `${name}/${type}`,
        name,
        type,
        ttl,
        records,
        zone: zone.id,
        labels: {},
        protection: { change: false },
      };
      const action = startAction("create_rrset", zone, () => sets.set(key(name, type), rrset));
      return json(201, { rrset, action });
    }

    const name = segments[3] ?? "";
    const type = segments[4] ?? "";
    const rrset = sets.get(key(name, type));
    if (segments.length === 5 && request.method === "GET") {
      return rrset
        ? json(200, { rrset })
        : error(404, "not_found", `rrset with name '${name}' and type '${type}' not found`);
    }
    if (segments.length === 5 && request.method === "DELETE") {
      if (!rrset) return error(404, "not_found", `rrset with name '${name}' and type '${type}' not found`);
      const refused = editable();
      if (refused) return refused;
      if (rrset.protection.change) return error(423, "protected", "rrset is protected against changes");
      return json(201, { action: startAction("delete_rrset", zone, () => void sets.delete(key(name, type))) });
    }
    if (segments.length === 7 && segments[5] === "actions" && request.method === "POST") {
      if (!rrset) return error(404, "not_found", `rrset with name '${name}' and type '${type}' not found`);
      const refused = editable();
      if (refused) return refused;
      if (rrset.protection.change) return error(423, "protected", "rrset is protected against changes");
      const body = (typeof request.body === "object" && request.body !== null ? request.body : {}) as Record<
        string,
        unknown
      >;
      if (segments[6] === "set_records") {
        const records = validRecords(type, body.records);
        if (records instanceof Response) return records;
        return json(201, { action: startAction("set_rrset_records", zone, () => void (rrset.records = records)) });
      }
      if (segments[6] === "change_ttl") {
        const ttl = validTtl(body.ttl);
        if (ttl instanceof Response) return ttl;
        return json(201, { action: startAction("change_rrset_ttl", zone, () => void (rrset.ttl = ttl)) });
      }
    }
    return error(404);
  }

  const server = startFakeServer<HetznerFault>({
    prefix: "/v1",
    description: DESCRIPTION,
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      const headers: Record<string, string> = {};
      if (mode.status === 429) {
        Object.assign(headers, {
          "RateLimit-Limit": String(RATE_LIMIT),
          "RateLimit-Remaining": "0",
          "RateLimit-Reset": String(Math.floor(Date.now() / 1000) + (mode.resetInSeconds ?? 1)),
        });
      }
      if (mode.retryAfter !== undefined) headers["Retry-After"] = String(mode.retryAfter);
      return error(mode.status, mode.code, mode.message, headers);
    },
  });

  const fake: HetznerFake = Object.assign(server, {
    tokens,
    zones,
    actionLooks: 1,
    failNextAction: null as { code: string; message: string } | null,
    actions,
    addZone,
    addRrset,
    rrset(zoneName: string, name: string, type: string) {
      const zone = zoneNamed(zoneName);
      return zone ? rrsets.get(zone.id)?.get(key(name, type)) : undefined;
    },
    reset() {
      for (const map of [zones, rrsets, actions, looks, pendingErrors]) map.clear();
      initialTokens();
      fake.actionLooks = 1;
      fake.failNextAction = null;
      server.clearFaults();
      server.clearRequests();
    },
  });
  function initialTokens(): void {
    tokens.clear();
    tokens.set(HETZNER_FAKE_TOKEN, "read_write");
    tokens.set(HETZNER_READONLY_TOKEN, "read_only");
  }
  initialTokens();
  return fake;
}

function error(status: number, code?: string, message?: string, headers: Record<string, string> = {}): Response {
  const known = DEFAULT_CODES[status] ?? { code: "invalid_input", message: "invalid input" };
  return json(status, { error: { code: code ?? known.code, message: message ?? known.message, details: {} } }, headers);
}
