// A stand-in for the dynv6 REST API v2 (docs/services/dynv6.md): zones with a numeric id, a name and
// the apex addresses in their own fields `ipv4address` and `ipv6prefix` ("" when unset); records
// listed in one answer with a numeric id, `name` relative to the zone, `type`, `data` and `zoneID`;
// several records of one name (an address set, TXT values); PATCH of a zone or a record changes only
// the fields it names, DELETE of a record answers 204; validation errors as
// `422 {"error": {"name": "ValidationError", "message", "fields": [{"name", "message"}]}}`.
//
// Sources: dynv6.com/docs/apis and the OpenAPI description at dynv6.github.io/api-spec
// (github.com/dynv6/api-spec: api/paths/*.yml, api/models/*.yml); libdns/dynv6 provider.go (list,
// then update the record found); public scripts that PATCH `{"data": …}` and a zone's `{"ipv6prefix": …}`.
// The bodies of 401/403/404 answers are not documented: the fake answers them in plain text, so the
// client must not depend on them.
//
// Checked against dynv6's own OpenAPI description (test/conformance/descriptions/dynv6.json): every
// request is validated — a zone's `ipv4address`/`ipv6prefix` that is no address, a new record without
// `name`, `type` or `data` or of a type the description does not list, a zone name that is no hostname —
// and one it forbids is refused (422 ValidationError) and recorded.
//
// Quirk switches: faults `{status, message, retryAfter}` (dynv6 documents no limit: a 429 with
// Retry-After stands for one), `"html"` (a proxy's 502 page), `"malformed"` (a 200 cut short).

import { isIPv4, isIPv6 } from "node:net";
import { openApiDescription } from "./descriptions";
import {
  type FakeServer,
  htmlErrorPage,
  json,
  type LoggedRequest,
  malformedJson,
  plainText,
  type RequestDescription,
  retryAfterHeader,
  startFakeServer,
} from "./server";

/** The service's own published description, checked against every request (compiled once, at import, so no request waits for it). */
const PUBLISHED = openApiDescription("dynv6", {
  title: "dynv6 OpenAPI",
  apiRoot: "/api/v2",
  refuse: (_request, problems) =>
    json(422, {
      error: {
        name: "ValidationError",
        message: "Validation failed",
        fields: problems.map((problem) => ({ name: problem.split(" ")[0] ?? "request", message: problem })),
      },
    }),
});

/**
 * The description, but for the underscore labels dynv6 takes in record names (`_acme-challenge`,
 * as acme.sh's dns_dynv6 writes them; SRV's `_sip._tcp`), which its "hostname" format leaves out:
 * such a name is checked as the hostname it is with the underscores put aside.
 */
const DESCRIPTION: RequestDescription = {
  ...PUBLISHED,
  check(request, raw) {
    const body = request.body;
    if (typeof body !== "object" || body === null || Array.isArray(body)) return PUBLISHED.check(request, raw);
    const name = (body as Record<string, unknown>).name;
    if (typeof name !== "string" || !name.includes("_")) return PUBLISHED.check(request, raw);
    return PUBLISHED.check({ ...request, body: { ...body, name: name.replace(/(^|\.)_/g, "$1u") } }, raw);
  },
};

export const DYNV6_FAKE_TOKEN = "dynv6-fake-http-token-0123456789";

export interface Dynv6Record {
  id: number;
  zoneID: number;
  name: string;
  type: string;
  data: string;
  /** dynv6's expansion of `data` when it differs (e.g. a MAC address behind the zone's IPv6 prefix); tests set it. */
  expandedData?: string;
}

export interface Dynv6Zone {
  id: number;
  name: string;
  ipv4address: string;
  ipv6prefix: string;
  records: Dynv6Record[];
}

export type Dynv6Fault = { status: number; message?: string; retryAfter?: number } | "malformed" | "html";

export interface Dynv6Fake extends FakeServer<Dynv6Fault> {
  tokens: Set<string>;
  zones: Map<number, Dynv6Zone>;
  addZone(name: string, apex?: { ipv4address?: string; ipv6prefix?: string }): Dynv6Zone;
  zoneNamed(name: string): Dynv6Zone | undefined;
  /** `name` relative to the zone. */
  addRecord(zone: string, record: { name: string; type: string; data: string; expandedData?: string }): Dynv6Record;
  recordsOf(zone: string, name: string, type: string): Dynv6Record[];
  reset(): void;
}

export function startDynv6Fake(): Dynv6Fake {
  const tokens = new Set([DYNV6_FAKE_TOKEN]);
  const zones = new Map<number, Dynv6Zone>();
  let nextId = 4000000;

  const zoneJson = ({ records: _, ...zone }: Dynv6Zone) => ({
    ...zone,
    createdAt: "2024-01-01T00:00:00+01:00",
    updatedAt: "2024-01-01T00:00:00+01:00",
  });
  const zoneNamed = (name: string) => [...zones.values()].find((z) => z.name === name);

  function validation(fields: { name: string; message: string }[]): Response {
    return json(422, { error: { name: "ValidationError", message: "Validation failed", fields } });
  }

  function addressProblem(type: string, data: unknown): string | undefined {
    if (typeof data !== "string" || data === "") return "can't be blank";
    if (type === "A" && !isIPv4(data)) return "is not a valid IPv4 address";
    if (type === "AAAA" && !isIPv6(data)) return "is not a valid IPv6 address";
    return undefined;
  }

  function route(request: LoggedRequest): Response {
    const auth = request.headers.authorization ?? "";
    if (!auth.startsWith("Bearer ") || !tokens.has(auth.slice("Bearer ".length)))
      return plainText("Unauthorized\n", 401);
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] !== "zones") return plainText("Not Found\n", 404);

    if (segments.length === 1) {
      return request.method === "GET"
        ? json(200, [...zones.values()].map(zoneJson))
        : plainText("Method Not Allowed\n", 405);
    }
    if (segments[1] === "by-name" && segments.length === 3) {
      const zone = zoneNamed(segments[2] ?? "");
      return zone && request.method === "GET" ? json(200, zoneJson(zone)) : plainText("Not Found\n", 404);
    }
    const zone = zones.get(Number(segments[1]));
    if (!zone) return plainText("Not Found\n", 404);
    const body =
      typeof request.body === "object" && request.body !== null ? (request.body as Record<string, unknown>) : {};

    if (segments.length === 2) {
      if (request.method === "GET") return json(200, zoneJson(zone));
      if (request.method !== "PATCH") return plainText("Method Not Allowed\n", 405);
      const problems: { name: string; message: string }[] = [];
      if (
        "ipv4address" in body &&
        typeof body.ipv4address === "string" &&
        body.ipv4address !== "" &&
        !isIPv4(body.ipv4address)
      ) {
        problems.push({ name: "ipv4address", message: "is not a valid IPv4 address" });
      }
      if (
        "ipv6prefix" in body &&
        typeof body.ipv6prefix === "string" &&
        body.ipv6prefix !== "" &&
        !isIPv6(body.ipv6prefix.split("/")[0] ?? "")
      ) {
        problems.push({ name: "ipv6prefix", message: "is not a valid IPv6 address or prefix" });
      }
      if (problems.length > 0) return validation(problems);
      // Only the fields named change; a name in the body is read-only and ignored.
      if (typeof body.ipv4address === "string") zone.ipv4address = body.ipv4address;
      if (typeof body.ipv6prefix === "string") zone.ipv6prefix = body.ipv6prefix;
      return json(200, zoneJson(zone));
    }
    if (segments[2] !== "records") return plainText("Not Found\n", 404);

    if (segments.length === 3) {
      if (request.method === "GET") return json(200, zone.records);
      if (request.method !== "POST") return plainText("Method Not Allowed\n", 405);
      const type = typeof body.type === "string" ? body.type : "";
      const problem = addressProblem(type, body.data);
      if (!["A", "AAAA", "CAA", "CNAME", "MX", "SPF", "SRV", "TXT"].includes(type))
        return validation([{ name: "type", message: "is not included in the list" }]);
      if (typeof body.name !== "string") return validation([{ name: "name", message: "can't be blank" }]);
      if (problem) return validation([{ name: "data", message: problem }]);
      const record = {
        id: nextId++,
        zoneID: zone.id,
        name: body.name === "@" ? "" : body.name,
        type,
        data: body.data as string,
      };
      zone.records.push(record);
      return json(200, record);
    }

    const record = zone.records.find((r) => r.id === Number(segments[3]));
    if (!record || segments.length !== 4) return plainText("Not Found\n", 404);
    if (request.method === "GET") return json(200, record);
    if (request.method === "DELETE") {
      zone.records.splice(zone.records.indexOf(record), 1);
      return new Response(null, { status: 204 });
    }
    if (request.method !== "PATCH") return plainText("Method Not Allowed\n", 405);
    if ("data" in body) {
      const problem = addressProblem(record.type, body.data);
      if (problem) return validation([{ name: "data", message: problem }]);
      record.data = body.data as string;
    }
    if (typeof body.name === "string") record.name = body.name;
    return json(200, record);
  }

  const server = startFakeServer<Dynv6Fault>({
    prefix: "/api/v2",
    route,
    description: DESCRIPTION,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      return json(
        mode.status,
        { error: { name: "Error", message: mode.message ?? "Too Many Requests" } },
        retryAfterHeader(mode.retryAfter),
      );
    },
  });

  const fake: Dynv6Fake = Object.assign(server, {
    tokens,
    zones,
    addZone(name: string, apex: { ipv4address?: string; ipv6prefix?: string } = {}) {
      const zone = {
        id: nextId++,
        name,
        ipv4address: apex.ipv4address ?? "",
        ipv6prefix: apex.ipv6prefix ?? "",
        records: [],
      };
      zones.set(zone.id, zone);
      return zone;
    },
    zoneNamed,
    addRecord(zoneName: string, init: { name: string; type: string; data: string; expandedData?: string }) {
      const zone = zoneNamed(zoneName);
      if (!zone) throw new Error(`fake dynv6: no zone ${zoneName}`);
      const record = { id: nextId++, zoneID: zone.id, ...init };
      zone.records.push(record);
      return record;
    },
    recordsOf: (zoneName: string, name: string, type: string) =>
      zoneNamed(zoneName)?.records.filter((r) => r.name === name && r.type === type) ?? [],
    reset() {
      zones.clear();
      tokens.clear();
      tokens.add(DYNV6_FAKE_TOKEN);
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}
