// A stand-in for Gcore Managed DNS API v2 (api.gcore.com/dns). Every call needs `Authorization:
// APIKey <token>` (else 401). `GET /v2/zones` (`{zones: [{id, name}], total_amount}`, paged by `limit`
// (default 10) and `offset`), `GET /v2/zones/{zone}`,
// and RRsets at `/v2/zones/{zone}/{full name}/{type}`: GET (404 when absent), PUT (replaces the whole
// set with what is sent: ttl, resource_records, filters, pickers, meta; a field not sent is reset),
// POST (creates; 409 when it exists). A set: `{name, type, ttl, resource_records: [{id, content:
// [...], enabled, meta}], filters, pickers, meta}`; `pickers` is the current docs' name for a
// dynamic set's geo-balancing chain (Update RRset, gcore.com/docs/api-reference/dns/rrsets).
// Errors: `{"error": "..."}`.
//
// Sources: api.gcore.com/docs/dns (zones list/get; RRset get, create, update, delete; a TXT
// record's content is its text); independent clients:
// the official Go SDK G-Core/gcore-dns-sdk-go, lego providers/dns/gcore, octodns-gcore.
// UNSURE: the exact words of each refusal, and the throttle answer (modelled as 429 with Retry-After).

import { isIPv4, isIPv6 } from "node:net";
import {
  type FakeServer,
  htmlErrorPage,
  json,
  type LoggedRequest,
  malformedJson,
  retryAfterHeader,
  startFakeServer,
} from "./server";

export const GCORE_FAKE_TOKEN = "7712$a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";

export interface GcoreRrset {
  name: string;
  type: string;
  ttl: number;
  resource_records: { id: number; content: string[]; enabled: boolean; meta: Record<string, unknown> }[];
  filters: unknown[] | null;
  pickers: unknown[] | null;
  meta: Record<string, unknown>;
}

export type GcoreFault = { status: number; error?: string; retryAfter?: number } | "malformed" | "html";

export interface GcoreFake extends FakeServer<GcoreFault> {
  tokens: Set<string>;
  /** The most zones one page holds, whatever `limit` asks for. */
  maxPerPage: number;
  /** zone name → its id and record sets (by `name/type`, the name without a trailing dot). */
  zones: Map<string, { id: number; rrsets: Map<string, GcoreRrset> }>;
  addZone(name: string): void;
  addRrset(
    zone: string,
    rrset: {
      name: string;
      type: string;
      contents: string[];
      ttl?: number;
      filters?: unknown[];
      pickers?: unknown[];
      meta?: Record<string, unknown>;
    },
  ): GcoreRrset;
  rrset(zone: string, name: string, type: string): GcoreRrset | undefined;
  reset(): void;
}

export function startGcoreFake(): GcoreFake {
  const tokens = new Set([GCORE_FAKE_TOKEN]);
  const zones: GcoreFake["zones"] = new Map();
  let ids = 1000;

  function addRrset(
    zone: string,
    init: {
      name: string;
      type: string;
      contents: string[];
      ttl?: number;
      filters?: unknown[];
      pickers?: unknown[];
      meta?: Record<string, unknown>;
    },
  ): GcoreRrset {
    const held = zones.get(zone);
    if (!held) throw new Error(`fake Gcore: no zone ${zone}`);
    const rrset: GcoreRrset = {
      name: init.name,
      type: init.type,
      ttl: init.ttl ?? 300,
      resource_records: init.contents.map((c) => ({ id: ++ids, content: [c], enabled: true, meta: {} })),
      filters: init.filters ?? null,
      pickers: init.pickers ?? null,
      meta: init.meta ?? {},
    };
    held.rrsets.set(`${init.name}/${init.type}`, rrset);
    return rrset;
  }

  function render(rrset: GcoreRrset) {
    return {
      ...rrset,
      name: `${rrset.name}.`,
      resource_records: rrset.resource_records.map((r) => ({ ...r, content: [...r.content] })),
      updated_at: 1700000000,
    };
  }

  /** The set a PUT or POST sends, or why Gcore refuses it. */
  function given(name: string, type: string, body: unknown): GcoreRrset | string {
    if (typeof body !== "object" || body === null) return "invalid body";
    const b = body as Record<string, unknown>;
    if (!Array.isArray(b.resource_records) || b.resource_records.length === 0) return "resource_records: required";
    const records: GcoreRrset["resource_records"] = [];
    for (const r of b.resource_records as Record<string, unknown>[]) {
      if (!Array.isArray(r?.content) || r.content.length !== 1) return "resource_records.content: one value per record";
      const value = String(r.content[0]);
      if ((type === "A" && !isIPv4(value)) || (type === "AAAA" && !isIPv6(value)))
        return `invalid ${type} content: ${value}`;
      if ("id" in r) return "resource_records.id: read-only";
      records.push({
        id: ++ids,
        content: [value],
        enabled: r.enabled !== false,
        meta: typeof r.meta === "object" && r.meta !== null ? (r.meta as Record<string, unknown>) : {},
      });
    }
    if (b.ttl !== undefined && (typeof b.ttl !== "number" || b.ttl < 0)) return "ttl: invalid";
    return {
      name,
      type,
      ttl: typeof b.ttl === "number" ? b.ttl : 300,
      resource_records: records,
      filters: Array.isArray(b.filters) ? b.filters : null,
      pickers: Array.isArray(b.pickers) ? b.pickers : null,
      meta: typeof b.meta === "object" && b.meta !== null ? (b.meta as Record<string, unknown>) : {},
    };
  }

  function route(request: LoggedRequest): Response {
    const token = /^APIKey (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    if (token === undefined || !tokens.has(token)) return json(401, { error: "Invalid authentication credentials" });
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] !== "v2" || segments[1] !== "zones") return json(404, { error: "not found" });
    if (segments.length === 2 && request.method === "GET") {
      const all = [...zones.entries()].sort(([a], [b]) => a.localeCompare(b));
      const offset = Number(request.query.offset ?? 0);
      const limit = Math.min(Number(request.query.limit ?? 10), fake.maxPerPage);
      return json(200, {
        zones: all
          .slice(offset, offset + limit)
          .map(([name, z]) => ({ id: z.id, name, status: "active", enabled: true })),
        total_amount: all.length,
      });
    }
    const zoneName = segments[2]!;
    const zone = zones.get(zoneName);
    if (!zone) return json(404, { error: `zone ${zoneName} not found` });
    if (segments.length === 3 && request.method === "GET")
      return json(200, { id: zone.id, name: zoneName, status: "active", records: [] });
    if (segments.length !== 5) return json(404, { error: "not found" });
    const name = segments[3]!.replace(/\.$/, "");
    const type = segments[4]!;
    if (name !== zoneName && !name.endsWith(`.${zoneName}`))
      return json(400, { error: `rrset ${name} is outside zone ${zoneName}` });
    const key = `${name}/${type}`;
    const held = zone.rrsets.get(key);
    if (request.method === "GET") return held ? json(200, render(held)) : json(404, { error: "rrset not found" });
    if (request.method === "DELETE") {
      if (!held) return json(404, { error: "rrset not found" });
      zone.rrsets.delete(key);
      return json(200, {});
    }
    if (request.method === "PUT" || request.method === "POST") {
      if (request.method === "PUT" && !held) return json(404, { error: "rrset not found" });
      if (request.method === "POST" && held) return json(409, { error: "rrset already exists" });
      const rrset = given(name, type, request.body);
      if (typeof rrset === "string") return json(400, { error: rrset });
      zone.rrsets.set(key, rrset);
      return json(200, request.method === "POST" ? {} : render(rrset));
    }
    return json(405, { error: "method not allowed" });
  }

  const server = startFakeServer<GcoreFault>({
    prefix: "/dns",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      return json(
        mode.status,
        { error: mode.error ?? (mode.status === 429 ? "Too Many Requests" : "internal server error") },
        retryAfterHeader(mode.retryAfter),
      );
    },
  });

  const fake: GcoreFake = Object.assign(server, {
    tokens,
    maxPerPage: 1000,
    zones,
    addZone: (name: string) => void zones.set(name, { id: ++ids, rrsets: new Map() }),
    addRrset,
    rrset: (zone: string, name: string, type: string) => zones.get(zone)?.rrsets.get(`${name}/${type}`),
    reset() {
      zones.clear();
      tokens.clear();
      tokens.add(GCORE_FAKE_TOKEN);
      fake.maxPerPage = 1000;
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}
