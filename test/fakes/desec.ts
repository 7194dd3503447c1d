// A faithful stand-in for the deSEC REST API (docs/services/desec.md): `Authorization: Token`, domains with
// `owns_qname` and `minimum_ttl`, RRsets addressed by subname and type (`@` for the apex in a path,
// "" in a body), PATCH that keeps what it omits, `records: []` that deletes, Django REST framework
// errors (`{"detail": …}` and field lists), and the per-domain write limit answered with 429 +
// Retry-After.
//
// Sources besides docs/services/desec.md: desec-stack docs/dns/rrsets.rst (RRset object, apex spelling, the
// duplicate and TTL errors), docs/dns/domains.rst (`owns_qname`, the domain object), docs/rate-limits.rst
// (2/s, 15/min, 100/h per domain; Retry-After), docs/auth/account.rst; DRF's throttling message.
//
// Documentation: https://desec.readthedocs.io/en/latest/dns/rrsets.html. Independent clients it
// follows: libdns/desec and go-acme/lego providers/dns/desec (via nrdcg/desec). No machine-readable
// description is published. (deSEC's dyndns endpoint is played by the dyndns2 fake, style "desec".)
//
// Quirk switches: `writeLimits` (the per-domain write windows, answered 429 with Retry-After and
// DRF's "Request was throttled" detail), faults `{status, detail, retryAfter}`, a domain's
// `minimum_ttl` (a lower TTL is refused).

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

export const DESEC_FAKE_TOKEN = "desec-fake-token-0123456789abcdefXYZ";

export interface DesecDomain {
  name: string;
  minimum_ttl: number;
  created: string;
  published: string;
  touched: string;
}

export interface DesecRRset {
  domain: string;
  subname: string;
  /** Fully qualified with the trailing dot. */
  name: string;
  type: string;
  records: string[];
  ttl: number;
  created: string;
  touched: string;
}

/** `{status}`: a DRF error (`detail`, and with `retryAfter` a Retry-After header); `"malformed"`; `"html"` (a 502 page). */
export type DesecFault = { status: number; detail?: string; retryAfter?: number } | "malformed" | "html";

export interface DesecFake extends FakeServer<DesecFault> {
  tokens: Set<string>;
  domains: Map<string, DesecDomain>;
  /** Key `domain|subname|type`. `records` and `ttl` may be changed in place. */
  rrsets: Map<string, DesecRRset>;
  /**
   * RRset writes allowed per domain within `perSeconds` (deSEC: 2/1, 15/60, 100/3600, 300/86400);
   * beyond it a 429 whose Retry-After is the seconds until the oldest write leaves the window.
   * Empty: no limit.
   */
  writeLimits: { count: number; perSeconds: number }[];
  addDomain(name: string, minimumTtl?: number): DesecDomain;
  addRRset(domain: string, init: { subname: string; type: string; records: string[]; ttl?: number }): DesecRRset;
  rrset(domain: string, subname: string, type: string): DesecRRset | undefined;
  reset(): void;
}

const SUBNAME = /^(\*|(\*\.)?([a-z0-9_-]{1,63}\.)*[a-z0-9_-]{1,63})?$/;

export function startDesecFake(): DesecFake {
  const tokens = new Set([DESEC_FAKE_TOKEN]);
  const domains = new Map<string, DesecDomain>();
  const rrsets = new Map<string, DesecRRset>();
  const writesOf = new Map<string, number[]>();
  const key = (domain: string, subname: string, type: string) => `${domain}|${subname}|${type}`;

  function addDomain(name: string, minimumTtl = 3600): DesecDomain {
    const now = new Date().toISOString();
    const domain = { name: name.toLowerCase(), minimum_ttl: minimumTtl, created: now, published: now, touched: now };
    domains.set(domain.name, domain);
    return domain;
  }

  function addRRset(
    domain: string,
    init: { subname: string; type: string; records: string[]; ttl?: number },
  ): DesecRRset {
    const now = new Date().toISOString();
    const rrset: DesecRRset = {
      domain,
      subname: init.subname,
      name: `${init.subname === "" ? "" : `${init.subname}.`}${domain}.`,
      type: init.type,
      records: init.records,
      ttl: init.ttl ?? domains.get(domain)?.minimum_ttl ?? 3600,
      created: now,
      touched: now,
    };
    rrsets.set(key(domain, init.subname, init.type), rrset);
    return rrset;
  }

  /** The seconds until another write to the domain is allowed, or 0 (and the write is counted). */
  function throttled(domain: string, now: number): number {
    const times = writesOf.get(domain) ?? [];
    let wait = 0;
    for (const { count, perSeconds } of fake.writeLimits) {
      const inWindow = times.filter((t) => now - t < perSeconds * 1000);
      if (inWindow.length >= count) wait = Math.max(wait, Math.ceil((inWindow[0]! + perSeconds * 1000 - now) / 1000));
    }
    if (wait === 0) writesOf.set(domain, [...times, now]);
    return wait;
  }

  /** Field errors for an RRset's records and ttl, or null. */
  function invalid(domain: DesecDomain, type: string, fields: Record<string, unknown>): Response | null {
    const errors: Record<string, string[]> = {};
    if (fields.ttl !== undefined) {
      if (typeof fields.ttl !== "number" || !Number.isInteger(fields.ttl))
        errors.ttl = ["A valid integer is required."];
      else if (fields.ttl < domain.minimum_ttl)
        errors.ttl = [`Ensure this value is greater than or equal to ${domain.minimum_ttl}.`];
      else if (fields.ttl > 86400) errors.ttl = ["Ensure this value is less than or equal to 86400."];
    }
    if (fields.records !== undefined) {
      const records = fields.records;
      if (!Array.isArray(records)) errors.records = ['Expected a list of items but got type "str".'];
      else {
        const bad = records.find(
          (r) =>
            typeof r !== "string" ||
            (type === "A" && !isIPv4(r)) ||
            (type === "AAAA" && !isIPv6(r)) ||
            // deSEC takes a TXT record only in its zone-file form: the text in double quotes.
            (type === "TXT" && !/^".*"$/.test(r)),
        );
        if (bad !== undefined) errors.records = [`Record content for type ${type} malformed: ${String(bad)}`];
      }
    }
    return Object.keys(errors).length > 0 ? json(400, errors) : null;
  }

  function route(request: LoggedRequest): Response {
    const authorization = request.headers.authorization;
    if (authorization === undefined) return json(401, { detail: "Authentication credentials were not provided." });
    const token = /^Token (\S+)$/.exec(authorization)?.[1];
    if (token === undefined || !tokens.has(token)) return json(401, { detail: "Invalid token." });

    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    const { method } = request;
    if (segments[0] === "auth" && segments[1] === "account" && segments.length === 2 && method === "GET") {
      return json(200, {
        created: "2024-01-02T03:04:05.000000Z",
        email: "owner@example.net",
        id: "9a2b0c1d-0000-4000-8000-000000000001",
        limit_domains: 15,
        outreach_preference: true,
      });
    }
    if (segments[0] !== "domains") return json(404, { detail: "Not found." });

    if (segments.length === 1) {
      if (method !== "GET") return json(405, { detail: `Method "${method}" not allowed.` });
      const qname = request.query.owns_qname?.toLowerCase().replace(/\.$/, "");
      let listed = [...domains.values()];
      if (qname !== undefined) {
        // The one domain responsible for the name: the longest one it is equal to or below.
        const responsible = listed
          .filter((d) => qname === d.name || qname.endsWith(`.${d.name}`))
          .sort((a, b) => b.name.length - a.name.length)[0];
        listed = responsible ? [responsible] : [];
      }
      return json(200, listed);
    }

    const domain = domains.get(segments[1] ?? "");
    if (!domain) return json(404, { detail: "Not found." });
    if (segments.length === 2)
      return method === "GET" ? json(200, domain) : json(405, { detail: `Method "${method}" not allowed.` });
    if (segments[2] !== "rrsets" || segments.length > 5) return json(404, { detail: "Not found." });

    if (segments.length === 3) {
      if (method === "GET")
        return json(
          200,
          [...rrsets.values()].filter((r) => r.domain === domain.name),
        );
      if (method !== "POST") return json(405, { detail: `Method "${method}" not allowed.` });
      const body =
        typeof request.body === "object" && request.body !== null ? (request.body as Record<string, unknown>) : {};
      const errors: Record<string, string[]> = {};
      for (const field of ["type", "ttl", "records"])
        if (body[field] === undefined) errors[field] = ["This field is required."];
      if (Object.keys(errors).length > 0) return json(400, errors);
      const subname = typeof body.subname === "string" ? body.subname : "";
      if (!SUBNAME.test(subname)) {
        return json(400, {
          subname: [
            "Subname can only use (lowercase) a-z, 0-9, ., -, and _, may start with a '*.', or just be '*'. Components may not exceed 63 characters.",
          ],
        });
      }
      const type = String(body.type);
      const bad = invalid(domain, type, body);
      if (bad) return bad;
      if (rrsets.has(key(domain.name, subname, type))) {
        return json(400, {
          non_field_errors: [
            "Another RRset with the same subdomain and type exists for this domain. Try modifying it.",
          ],
        });
      }
      const wait = throttled(domain.name, request.receivedAt);
      if (wait > 0) return throttledAnswer(wait);
      return json(
        201,
        addRRset(domain.name, { subname, type, records: body.records as string[], ttl: body.ttl as number }),
      );
    }

    // .../rrsets/{subname}/{type}/ with "@" (or "...") for the apex; .../rrsets/{type}/ would be a list filter.
    const pathName = segments.length === 5 ? (segments[3] ?? "") : "";
    const subname = pathName === "@" || pathName === "..." ? "" : pathName;
    const type = segments.at(-1) ?? "";
    const existing = rrsets.get(key(domain.name, subname, type));
    if (!existing) return json(404, { detail: "Not found." });
    switch (method) {
      case "GET":
        return json(200, existing);
      case "PATCH":
      case "PUT": {
        const body =
          typeof request.body === "object" && request.body !== null ? (request.body as Record<string, unknown>) : {};
        if (method === "PUT") {
          const missing = ["subname", "type", "ttl", "records"].filter((f) => body[f] === undefined);
          if (missing.length > 0)
            return json(400, Object.fromEntries(missing.map((f) => [f, ["This field is required."]])));
        }
        const bad = invalid(domain, type, body);
        if (bad) return bad;
        const wait = throttled(domain.name, request.receivedAt);
        if (wait > 0) return throttledAnswer(wait);
        if (Array.isArray(body.records) && body.records.length === 0) {
          rrsets.delete(key(domain.name, subname, type));
          return new Response(null, { status: 204 });
        }
        if (body.records !== undefined) existing.records = body.records as string[];
        if (body.ttl !== undefined) existing.ttl = body.ttl as number;
        existing.touched = new Date().toISOString();
        return json(200, existing);
      }
      case "DELETE":
        rrsets.delete(key(domain.name, subname, type));
        return new Response(null, { status: 204 });
      default:
        return json(405, { detail: `Method "${method}" not allowed.` });
    }
  }

  const server = startFakeServer<DesecFault>({
    prefix: "/api/v1",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      if (mode.status === 429) return throttledAnswer(mode.retryAfter, mode.detail);
      const headers = retryAfterHeader(mode.retryAfter);
      return json(mode.status, { detail: mode.detail ?? "A server error occurred." }, headers);
    },
  });

  const fake: DesecFake = Object.assign(server, {
    tokens,
    domains,
    rrsets,
    writeLimits: [] as { count: number; perSeconds: number }[],
    addDomain,
    addRRset,
    rrset: (domain: string, subname: string, type: string) => rrsets.get(key(domain, subname, type)),
    reset() {
      domains.clear();
      rrsets.clear();
      writesOf.clear();
      tokens.clear();
      tokens.add(DESEC_FAKE_TOKEN);
      fake.writeLimits = [];
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

/** DRF's throttling answer; without `retryAfter` it has no header (as a proxy in front might send it). */
function throttledAnswer(retryAfter?: number, detail?: string): Response {
  const words =
    detail ?? `Request was throttled. Expected available in ${retryAfter ?? 1} second${retryAfter === 1 ? "" : "s"}.`;
  return json(429, { detail: words }, retryAfterHeader(retryAfter));
}
