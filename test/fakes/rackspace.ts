// A faithful stand-in for Rackspace Cloud DNS v1.0 and the Identity v2.0 login in front of it
// (docs/services/rackspace.md). Identity (`{identityUrl}/tokens`) takes `RAX-KSKEY:apiKeyCredentials`
// and answers the token and a service catalog whose `cloudDNS` endpoint is this fake's DNS API for
// the tenant (a wrong user or key is 401 `{"unauthorized": {"code", "message"}}`). The DNS API wants
// the token in `X-Auth-Token` (else 401). Domains and records have ids (`A-123`); names are full
// names; listings are `{<items>, totalEntries}` paged by `limit` (at most 100) / `offset`.
// Quirks: the domains' `name` filter also answers sub-domains; every write answers 202 with a job
// (`status` RUNNING, `jobId`, `callbackUrl`) that is COMPLETED (or ERROR) at `/status/{jobId}` only
// after `pollsUntilDone` polls — the change itself is made when the write is accepted; a PUT changes
// only what it is sent (data, ttl, comment) and cannot rename; TTLs under 300 and malformed
// addresses are refused at once (400 `{"validationErrors": {"messages"}, "code"}`); a record that
// already exists with the same name, type and data ends its job in ERROR; the rate limiter answers
// 413 `{"overLimit": {"code", "message", "details", "retryAfter"}}`.
//
// Sources: docs.rackspace.com Cloud DNS developer guide (authenticate, domains, records, search,
// synchronous and asynchronous responses, limits, faults); go-acme/lego providers/dns/rackspace and
// its fixtures (identity answer, service catalog, domains by name, records, the 202 job).
//
// Quirk switches: `users` (user → API key; delete one to refuse it), `pollsUntilDone`, `failNextJob`
// (`{code, message}`: the next write's job ends in ERROR), `revokeTokens()`; faults
// `{status, body, retryAfter?}`, "malformed", "html".

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

export const RACKSPACE_FAKE_USER = "ddnsd";
export const RACKSPACE_FAKE_KEY = "0123456789abcdef0123456789abcdef";
export const RACKSPACE_FAKE_TENANT = "110011";

export interface RackspaceRecord {
  id: string;
  name: string;
  type: string;
  data: string;
  ttl: number;
  comment?: string;
}

export interface RackspaceDomain {
  id: string;
  name: string;
  records: RackspaceRecord[];
}

export type RackspaceFault = { status: number; body: unknown; retryAfter?: number } | "malformed" | "html";

interface Job {
  id: string;
  verb: string;
  pollsLeft: number;
  response?: unknown;
  error?: { code: number; message: string; details: string };
  requestUrl: string;
}

export interface RackspaceFake extends FakeServer<RackspaceFault> {
  identityUrl: string;
  dnsUrl: string;
  users: Map<string, string>;
  domains: Map<string, RackspaceDomain>;
  /** How many polls of a job answer RUNNING before it ends. */
  pollsUntilDone: number;
  failNextJob: { code: number; message: string } | undefined;
  revokeTokens(): void;
  addDomain(name: string): RackspaceDomain;
  domainNamed(name: string): RackspaceDomain | undefined;
  addRecord(
    domain: string,
    record: { name: string; type: string; data: string; ttl?: number; comment?: string },
  ): RackspaceRecord;
  records(domain: string, name: string, type: string): RackspaceRecord[];
  reset(): void;
}

export function startRackspaceFake(): RackspaceFake {
  const users = new Map([[RACKSPACE_FAKE_USER, RACKSPACE_FAKE_KEY]]);
  const domains = new Map<string, RackspaceDomain>();
  const tokens = new Set<string>();
  const jobs = new Map<string, Job>();
  let next = 2725000;
  const fault = (status: number, message: string, details = "") => json(status, { message, code: status, details });
  const validation = (...messages: string[]) => json(400, { validationErrors: { messages }, code: 400 });

  function addDomain(name: string): RackspaceDomain {
    const domain = { id: String(next++), name, records: [] };
    domains.set(domain.id, domain);
    return domain;
  }
  const domainNamed = (name: string) => [...domains.values()].find((d) => d.name === name);
  function addRecord(
    domainName: string,
    init: { name: string; type: string; data: string; ttl?: number; comment?: string },
  ): RackspaceRecord {
    const domain = domainNamed(domainName);
    if (!domain) throw new Error(`fake Rackspace: no domain ${domainName}`);
    const record = { id: `${init.type}-${next++}`, ttl: 3600, ...init };
    domain.records.push(record);
    return record;
  }
  const recordJson = (r: RackspaceRecord) => ({
    name: r.name,
    id: r.id,
    type: r.type,
    data: r.data,
    ttl: r.ttl,
    ...(r.comment ? { comment: r.comment } : {}),
    updated: "2024-01-01T00:00:00.000+0000",
    created: "2024-01-01T00:00:00.000+0000",
  });
  const domainJson = (d: RackspaceDomain) => ({
    name: d.name,
    id: d.id,
    accountId: Number(RACKSPACE_FAKE_TENANT),
    emailAddress: `hostmaster@${d.name}`,
    ttl: 3600,
    updated: "2024-01-01T00:00:00.000+0000",
    created: "2024-01-01T00:00:00.000+0000",
  });

  function page<T>(items: T[], request: LoggedRequest, field: string, render: (item: T) => unknown): Response {
    const limit = Math.min(Math.max(Number(request.query.limit ?? 100) || 100, 1), 100);
    const offset = Math.max(Number(request.query.offset ?? 0) || 0, 0);
    return json(200, { [field]: items.slice(offset, offset + limit).map(render), totalEntries: items.length });
  }

  function login(request: LoggedRequest): Response {
    const credentials = (request.body as { auth?: Record<string, { username?: string; apiKey?: string }> })?.auth?.[
      "RAX-KSKEY:apiKeyCredentials"
    ];
    if (!credentials) return json(400, { badRequest: { code: 400, message: "Invalid json request body" } });
    if (users.get(credentials.username ?? "") !== credentials.apiKey)
      return json(401, { unauthorized: { code: 401, message: "Username or api key is invalid." } });
    const token = crypto.randomUUID().replace(/-/g, "");
    tokens.add(token);
    return json(200, {
      access: {
        token: {
          id: token,
          expires: new Date(Date.now() + 24 * 3600 * 1000).toISOString(),
          tenant: { id: RACKSPACE_FAKE_TENANT, name: RACKSPACE_FAKE_TENANT },
          "RAX-AUTH:authenticatedBy": ["APIKEY"],
        },
        serviceCatalog: [
          {
            name: "cloudDatabases",
            type: "rax:database",
            endpoints: [
              {
                publicURL: `${server.url}/databases/v1.0/${RACKSPACE_FAKE_TENANT}`,
                region: "ORD",
                tenantId: RACKSPACE_FAKE_TENANT,
              },
            ],
          },
          {
            name: "cloudDNS",
            type: "rax:dns",
            endpoints: [{ publicURL: `${fake.dnsUrl}/v1.0/${RACKSPACE_FAKE_TENANT}`, tenantId: RACKSPACE_FAKE_TENANT }],
          },
        ],
        user: {
          id: "123456",
          name: credentials.username,
          roles: [{ id: "6", name: "dns:admin", tenantId: RACKSPACE_FAKE_TENANT }],
          "RAX-AUTH:defaultRegion": "ORD",
        },
      },
    });
  }

  function accept(verb: string, requestUrl: string, outcome: { response?: unknown; error?: Job["error"] }): Response {
    const failure = fake.failNextJob;
    fake.failNextJob = undefined;
    const job: Job = {
      id: crypto.randomUUID(),
      verb,
      pollsLeft: fake.pollsUntilDone,
      requestUrl,
      ...(failure ? { error: { ...failure, details: "" } } : outcome),
    };
    jobs.set(job.id, job);
    return json(202, {
      status: "RUNNING",
      verb,
      jobId: job.id,
      callbackUrl: `${fake.dnsUrl}/v1.0/${RACKSPACE_FAKE_TENANT}/status/${job.id}`,
      requestUrl,
    });
  }

  function status(job: Job): Response {
    const base = {
      verb: job.verb,
      jobId: job.id,
      callbackUrl: `${fake.dnsUrl}/v1.0/${RACKSPACE_FAKE_TENANT}/status/${job.id}`,
      requestUrl: job.requestUrl,
    };
    if (job.pollsLeft > 0) {
      job.pollsLeft--;
      return json(200, { ...base, status: "RUNNING" });
    }
    if (job.error) return json(200, { ...base, status: "ERROR", error: job.error });
    return json(200, {
      ...base,
      status: "COMPLETED",
      ...(job.response === undefined ? {} : { response: job.response }),
    });
  }

  function validAddress(type: string, data: unknown): data is string {
    return typeof data === "string" && ((type === "A" && isIPv4(data)) || (type === "AAAA" && isIPv6(data)));
  }

  function dns(request: LoggedRequest, path: string): Response {
    if (!tokens.has(request.headers["x-auth-token"] ?? ""))
      return json(401, {
        unauthorized: {
          code: 401,
          message: "No valid token provided. Please use the 'X-Auth-Token' header with a valid token.",
        },
      });
    const s = path.split("/").filter(Boolean).map(decodeURIComponent);
    if (s[0] !== "v1.0" || s[1] !== RACKSPACE_FAKE_TENANT) return fault(404, "Not Found");
    const requestUrl = `${fake.dnsUrl}${path}`;
    if (s[2] === "status" && s.length === 4 && request.method === "GET") {
      const job = jobs.get(s[3] ?? "");
      return job ? status(job) : fault(404, "Object not Found.", `Job ID: ${s[3]}`);
    }
    if (s[2] !== "domains") return fault(404, "Not Found");
    const body =
      typeof request.body === "object" && request.body !== null ? (request.body as Record<string, unknown>) : {};
    if (s.length === 3 && request.method === "GET") {
      // The name filter answers the domain and its sub-domains.
      const name = request.query.name?.toLowerCase();
      const listed = [...domains.values()]
        .filter((d) => name === undefined || d.name === name || d.name.endsWith(`.${name}`))
        .sort((a, b) => a.name.localeCompare(b.name));
      return page(listed, request, "domains", domainJson);
    }
    const domain = domains.get(s[3] ?? "");
    if (!domain) return fault(404, "Object not Found.", `Domain ID: ${s[3]}`);
    if (s.length === 4 && request.method === "GET") return json(200, domainJson(domain));
    if (s[4] !== "records") return fault(404, "Not Found");

    if (s.length === 5 && request.method === "GET") {
      const listed = domain.records.filter(
        (r) =>
          (request.query.type === undefined || r.type === request.query.type) &&
          (request.query.name === undefined || r.name === request.query.name.toLowerCase()),
      );
      return page(listed, request, "records", recordJson);
    }
    if (s.length === 5 && request.method === "POST") {
      const wanted = Array.isArray(body.records) ? (body.records as Record<string, unknown>[]) : [];
      const problems: string[] = [];
      for (const r of wanted) {
        if (!validAddress(String(r.type), r.data))
          problems.push(`Invalid data for ${String(r.type)} record: ${String(r.data)}`);
        if (r.ttl !== undefined && (typeof r.ttl !== "number" || r.ttl < 300))
          problems.push("TTL must be 300 or greater.");
        const name = String(r.name ?? domain.name).toLowerCase();
        if (name !== domain.name && !name.endsWith(`.${domain.name}`))
          problems.push(`Record name ${name} is not within domain ${domain.name}`);
      }
      if (wanted.length === 0) problems.push("At least one record is required.");
      if (problems.length > 0) return validation(...problems);
      const duplicate = wanted.find((r) =>
        domain.records.some((e) => e.name === String(r.name).toLowerCase() && e.type === r.type && e.data === r.data),
      );
      if (duplicate)
        return accept("POST", requestUrl, {
          error: {
            code: 409,
            message: "Record already exists",
            details: `Duplicate record: ${String(duplicate.name)}`,
          },
        });
      const created = fake.failNextJob
        ? []
        : wanted.map((r) =>
            addRecord(domain.name, {
              name: String(r.name).toLowerCase(),
              type: String(r.type),
              data: String(r.data),
              ttl: typeof r.ttl === "number" ? r.ttl : 3600,
              ...(typeof r.comment === "string" ? { comment: r.comment } : {}),
            }),
          );
      return accept("POST", requestUrl, { response: { records: created.map(recordJson) } });
    }
    if (s.length === 6 && request.method === "PUT") {
      const record = domain.records.find((r) => r.id === s[5]);
      if (!record) return fault(404, "Object not Found.", `Domain ID: ${domain.id}; Record ID: ${s[5]}`);
      if (body.name !== undefined && String(body.name).toLowerCase() !== record.name)
        return validation("The name attribute cannot be modified.");
      if (body.data !== undefined && !validAddress(record.type, body.data))
        return validation(`Invalid data for ${record.type} record: ${String(body.data)}`);
      if (body.ttl !== undefined && (typeof body.ttl !== "number" || body.ttl < 300))
        return validation("TTL must be 300 or greater.");
      if (!fake.failNextJob) {
        // Only what the PUT names changes.
        if (typeof body.data === "string") record.data = body.data;
        if (typeof body.ttl === "number") record.ttl = body.ttl;
        if (typeof body.comment === "string") record.comment = body.comment;
      }
      return accept("PUT", requestUrl, {});
    }
    return fault(405, "Method Not Allowed");
  }

  function route(request: LoggedRequest): Response {
    if (request.path === "/identity/tokens" && request.method === "POST") return login(request);
    if (request.path.startsWith("/dns/")) return dns(request, request.path.slice(4));
    return fault(404, "Not Found");
  }

  const server = startFakeServer<RackspaceFault>({
    prefix: "",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      return json(mode.status, mode.body, retryAfterHeader(mode.retryAfter));
    },
  });

  const fake: RackspaceFake = Object.assign(server, {
    identityUrl: `${server.url}/identity`,
    dnsUrl: `${server.url}/dns`,
    users,
    domains,
    pollsUntilDone: 0,
    failNextJob: undefined as RackspaceFake["failNextJob"],
    revokeTokens: () => tokens.clear(),
    addDomain,
    domainNamed,
    addRecord,
    records: (domain: string, name: string, type: string) =>
      (domainNamed(domain)?.records ?? []).filter((r) => r.name === name && r.type === type),
    reset() {
      domains.clear();
      tokens.clear();
      jobs.clear();
      users.clear();
      users.set(RACKSPACE_FAKE_USER, RACKSPACE_FAKE_KEY);
      fake.pollsUntilDone = 0;
      fake.failNextJob = undefined;
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}
