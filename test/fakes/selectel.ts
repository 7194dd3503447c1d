// A faithful stand-in for Selectel's DNS hosting API v2 and the Keystone identity service in front of
// it (docs/services/selectel.md). Keystone (`{identityUrl}/auth/tokens`) takes a password login of a
// service user in an account's domain, scoped to a project, and answers 201 with the token in
// `X-Subject-Token` (a wrong name or password is 401 `{"error": {"code", "title", "message"}}`); the
// DNS API (`{apiUrl}`) wants that token in `X-Auth-Token` (none or an unknown one is 401, a token of
// another project sees none of these zones). Zones and rrsets have UUIDs and absolute names with a
// trailing dot; listings are `{count, next_offset, result}` paged by `limit` / `offset`. Quirks: the
// zones' `filter` and the rrsets' `name` filter match part of a name; a PATCH replaces the records,
// TTL and comment it is sent (a comment left out stays) and answers 204; a POST answers 201 with the
// rrset; errors are `{"error": "bad_request", "description", "location"?}`.
//
// Sources: docs.selectel.ru (DNS hosting API v2; Keystone tokens for service users);
// selectel/domains-go pkg/v2 and its test fixtures (the official Go client); go-acme/lego
// providers/dns/selectelv2 (a TXT record's content in quotes; the rrset deleted by id with
// `DELETE /zones/{zone}/rrset/{rrset}` once its last value goes).
//
// Quirk switches: `users` (delete one to refuse it), `revokeTokens()`; faults
// `{status, error, description?, retryAfter?}`, "malformed", "html" (match `/dns` paths to spare the login).

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

export const SELECTEL_FAKE_ACCOUNT = "123456";
export const SELECTEL_FAKE_USER = "ddnsd";
export const SELECTEL_FAKE_PASSWORD = "selectel-fake-password-0123456789";
export const SELECTEL_FAKE_PROJECT = "0123456789abcdef0123456789abcdef";

export interface SelectelRrset {
  id: string;
  name: string;
  type: string;
  ttl: number;
  comment: string | null;
  records: { content: string; disabled: boolean }[];
}

export interface SelectelZone {
  id: string;
  name: string;
  disabled: boolean;
  rrsets: SelectelRrset[];
}

export type SelectelFault =
  | { status: number; error: string; description?: string; retryAfter?: number }
  | "malformed"
  | "html";

export interface SelectelFake extends FakeServer<SelectelFault> {
  identityUrl: string;
  apiUrl: string;
  /** `account/user` → password. */
  users: Map<string, string>;
  zones: Map<string, SelectelZone>;
  /** Tokens issued: the next DNS request with any of them is refused. */
  revokeTokens(): void;
  addZone(name: string): SelectelZone;
  zoneNamed(name: string): SelectelZone | undefined;
  addRrset(
    zone: string,
    rrset: { name: string; type: string; contents: string[]; ttl?: number; comment?: string },
  ): SelectelRrset;
  rrsets(zone: string, name: string, type: string): SelectelRrset[];
  reset(): void;
}

export function startSelectelFake(): SelectelFake {
  const users = new Map([[`${SELECTEL_FAKE_ACCOUNT}/${SELECTEL_FAKE_USER}`, SELECTEL_FAKE_PASSWORD]]);
  const zones = new Map<string, SelectelZone>();
  const tokens = new Map<string, string>();
  const dotted = (name: string) => (name.endsWith(".") ? name : `${name}.`).toLowerCase();
  const dnsError = (status: number, error: string, description?: string, location?: string) =>
    json(status, { error, ...(description ? { description } : {}), ...(location ? { location } : {}) });
  const keystoneError = (status: number, title: string, message: string) =>
    json(status, { error: { code: status, title, message } });

  function addZone(name: string): SelectelZone {
    const zone = { id: crypto.randomUUID(), name: dotted(name), disabled: false, rrsets: [] };
    zones.set(zone.id, zone);
    return zone;
  }
  const zoneNamed = (name: string) => [...zones.values()].find((z) => z.name === dotted(name));
  function addRrset(
    zoneName: string,
    init: { name: string; type: string; contents: string[]; ttl?: number; comment?: string },
  ): SelectelRrset {
    const zone = zoneNamed(zoneName);
    if (!zone) throw new Error(`fake Selectel: no zone ${zoneName}`);
    const rrset = {
      id: crypto.randomUUID(),
      name: dotted(init.name),
      type: init.type,
      ttl: init.ttl ?? 3600,
      comment: init.comment ?? null,
      records: init.contents.map((content) => ({ content, disabled: false })),
    };
    zone.rrsets.push(rrset);
    return rrset;
  }

  const zoneJson = (z: SelectelZone) => ({
    id: z.id,
    name: z.name,
    project_id: SELECTEL_FAKE_PROJECT,
    comment: null,
    created_at: "2024-01-01T00:00:00Z",
    updated_at: "2024-01-01T00:00:00Z",
    delegation_checked_at: null,
    last_check_status: false,
    last_delegated_at: null,
    disabled: z.disabled,
  });
  const rrsetJson = (z: SelectelZone, s: SelectelRrset) => ({
    id: s.id,
    zone_id: z.id,
    name: s.name,
    type: s.type,
    ttl: s.ttl,
    comment: s.comment,
    managed_by: null,
    records: s.records,
  });

  function page<T>(items: T[], request: LoggedRequest, render: (item: T) => unknown): Response {
    const limit = Math.min(Math.max(Number(request.query.limit ?? 1000) || 1000, 1), 1000);
    const offset = Math.max(Number(request.query.offset ?? 0) || 0, 0);
    const next = offset + limit < items.length ? offset + limit : null;
    return json(200, {
      count: items.length,
      next_offset: next,
      result: items.slice(offset, offset + limit).map(render),
    });
  }

  function login(request: LoggedRequest): Response {
    const body = request.body as {
      auth?: {
        identity?: {
          methods?: string[];
          password?: { user?: { name?: string; domain?: { name?: string }; password?: string } };
        };
        scope?: { project?: { id?: string } };
      };
    };
    const user = body?.auth?.identity?.password?.user;
    if (!body?.auth?.identity?.methods?.includes("password") || !user)
      return keystoneError(400, "Bad Request", "Invalid input for field 'identity'");
    const known = users.get(`${user.domain?.name ?? ""}/${user.name ?? ""}`);
    if (known === undefined || known !== user.password)
      return keystoneError(401, "Unauthorized", "The request you have made requires authentication.");
    const project = body.auth.scope?.project?.id;
    if (project !== SELECTEL_FAKE_PROJECT)
      return keystoneError(401, "Unauthorized", `User ${user.name} has no access to project ${project ?? ""}`);
    const token = `gAAAAA${crypto.randomUUID().replace(/-/g, "")}`;
    tokens.set(token, project);
    const expires = new Date(Date.now() + 24 * 3600 * 1000).toISOString();
    return json(
      201,
      {
        token: {
          expires_at: expires,
          issued_at: new Date().toISOString(),
          methods: ["password"],
          project: { id: project },
          user: { name: user.name },
        },
      },
      { "X-Subject-Token": token },
    );
  }

  function validRecords(type: string, records: unknown): { content: string; disabled: boolean }[] | null {
    if (!Array.isArray(records) || records.length === 0) return null;
    const out: { content: string; disabled: boolean }[] = [];
    for (const r of records) {
      const content = typeof r === "object" && r !== null ? (r as Record<string, unknown>).content : undefined;
      const valid =
        typeof content === "string" &&
        ((type === "A" && isIPv4(content)) ||
          (type === "AAAA" && isIPv6(content)) ||
          (type === "TXT" && /^".*"$/.test(content)));
      if (!valid) return null;
      out.push({ content, disabled: (r as Record<string, unknown>).disabled === true });
    }
    return out;
  }
  const ttlInvalid = (ttl: unknown) => typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < 60 || ttl > 604800;

  function dns(request: LoggedRequest, path: string): Response {
    const token = request.headers["x-auth-token"];
    if (token === undefined || !tokens.has(token)) return dnsError(401, "unauthorized", "Invalid token");
    const s = path.split("/").filter(Boolean).map(decodeURIComponent);
    if (s[0] !== "zones") return dnsError(404, "not_found");
    const body =
      typeof request.body === "object" && request.body !== null && !Array.isArray(request.body)
        ? (request.body as Record<string, unknown>)
        : {};
    if (s.length === 1 && request.method === "GET") {
      const filter = request.query.filter?.toLowerCase();
      const listed = [...zones.values()]
        .filter((z) => filter === undefined || z.name.includes(filter))
        .sort((a, b) => a.name.localeCompare(b.name));
      return page(listed, request, zoneJson);
    }
    const zone = zones.get(s[1] ?? "");
    if (!zone) return dnsError(404, "not_found", "zone not found");
    if (s.length === 2)
      return request.method === "GET" ? json(200, zoneJson(zone)) : dnsError(405, "method_not_allowed");
    if (s[2] !== "rrset") return dnsError(404, "not_found");
    if (s.length === 3 && request.method === "GET") {
      const name = request.query.name?.toLowerCase().replace(/\.$/, "");
      const types = request.query.rrset_types?.split(",");
      // The name filter matches part of a name.
      const listed = zone.rrsets.filter(
        (r) => (name === undefined || r.name.includes(name)) && (types === undefined || types.includes(r.type)),
      );
      return page(listed, request, (r) => rrsetJson(zone, r));
    }
    if (s.length === 3 && request.method === "POST") {
      const type = String(body.type ?? "");
      const name = typeof body.name === "string" ? dotted(body.name) : "";
      if (name !== zone.name && !name.endsWith(`.${zone.name}`))
        return dnsError(400, "bad_request", "name is not in the zone", "body.name");
      const records = validRecords(type, body.records);
      if (!records) return dnsError(400, "bad_request", "invalid records", "body.records");
      if (ttlInvalid(body.ttl)) return dnsError(400, "bad_request", "ttl must be between 60 and 604800", "body.ttl");
      if (zone.rrsets.some((r) => r.name === name && r.type === type))
        return dnsError(409, "conflict", "rrset already exists");
      const rrset = {
        id: crypto.randomUUID(),
        name,
        type,
        ttl: body.ttl as number,
        comment: typeof body.comment === "string" ? body.comment : null,
        records,
      };
      zone.rrsets.push(rrset);
      return json(201, rrsetJson(zone, rrset));
    }
    if (s.length === 4 && request.method === "DELETE") {
      const at = zone.rrsets.findIndex((r) => r.id === s[3]);
      if (at < 0) return dnsError(404, "not_found", "rrset not found");
      zone.rrsets.splice(at, 1);
      return new Response(null, { status: 204 });
    }
    if (s.length === 4 && request.method === "PATCH") {
      const rrset = zone.rrsets.find((r) => r.id === s[3]);
      if (!rrset) return dnsError(404, "not_found", "rrset not found");
      const records = validRecords(rrset.type, body.records);
      if (!records) return dnsError(400, "bad_request", "invalid records", "body.records");
      if (ttlInvalid(body.ttl)) return dnsError(400, "bad_request", "ttl must be between 60 and 604800", "body.ttl");
      rrset.records = records;
      rrset.ttl = body.ttl as number;
      if (typeof body.comment === "string") rrset.comment = body.comment;
      return new Response(null, { status: 204 });
    }
    return dnsError(405, "method_not_allowed");
  }

  function route(request: LoggedRequest): Response {
    if (request.path === "/identity/auth/tokens" && request.method === "POST") return login(request);
    if (request.path.startsWith("/dns/")) return dns(request, request.path.slice(4));
    return dnsError(404, "not_found");
  }

  const server = startFakeServer<SelectelFault>({
    prefix: "",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      return json(
        mode.status,
        { error: mode.error, ...(mode.description ? { description: mode.description } : {}) },
        retryAfterHeader(mode.retryAfter),
      );
    },
  });

  const fake: SelectelFake = Object.assign(server, {
    identityUrl: `${server.url}/identity`,
    apiUrl: `${server.url}/dns`,
    users,
    zones,
    revokeTokens: () => tokens.clear(),
    addZone,
    zoneNamed,
    addRrset,
    rrsets: (zone: string, name: string, type: string) =>
      (zoneNamed(zone)?.rrsets ?? []).filter((r) => r.name === dotted(name) && r.type === type),
    reset() {
      zones.clear();
      tokens.clear();
      users.clear();
      users.set(`${SELECTEL_FAKE_ACCOUNT}/${SELECTEL_FAKE_USER}`, SELECTEL_FAKE_PASSWORD);
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}
