// A stand-in for INWX's DomRobot API over JSON-RPC (`POST https://api.domrobot.com/jsonrpc/` with
// `{"method", "params"}`), answered HTTP 200 with `{code, msg, reason?, reasonCode?, resData?}`.
// `account.login` ({user, pass}) sets the `domrobot` session cookie and answers `resData: {tfa}`
// ("0", or "GOOGLE-AUTH" for an account with two-factor login, whose session then works only after
// `account.unlock` with a current TOTP code); `account.logout` ends the session. `nameserver.info`
// ({domain, name?, type?}) answers `{roId, domain, type, count, record: [{id, name, type, content,
// ttl, prio}]}` with `name` the full host name and `record` left out when nothing matched;
// `nameserver.updateRecord` ({id, content?, ttl?}) changes only the fields sent;
// `nameserver.createRecord` ({domain, name, type, content, ttl}) answers `{id}`;
// `nameserver.deleteRecord` ({id}) removes one record (a TXT record's content is its text). Codes: 1000
// success; 2200 "Authentication error" (a wrong login, a locked session, or no session); 2303
// "Object does not exist" (a domain not the account's, a record id unknown); 2302 "Object exists";
// 2005 "Parameter value syntax error"; 2502 "Session limit exceeded" (too many sessions).
//
// Sources: inwx.de/en/help/apidoc (the DomRobot API reference: account.*, nameserver.*, the result
// codes); INWX's Terraform provider (internal/api/client.go: JSON body, cookie jar; its issue #6 shows
// the 2200 body `{"code":2200,"msg":"Authentication error","reason":"You need to unlock your account
// with your mobile TAN.","reasonCode":"Error_AccountUnlockRequired"}`); lego providers/dns/inwx and
// nrdcg/goinwx (FQDN names, GOOGLE-AUTH, success 1000–1500). A code already used to unlock a
// session is refused when sent again ("INWX forbids to re-use the same TOTP twice": go-acme/lego
// pull request #2084, acme.sh pull request #2870; the refusal's words, 2200 "The confirmation code is
// invalid", from DNSControl issue #848).
// UNSURE: the words of a refused login (modelled as 2200 "Authentication error"); how many sessions
// INWX allows at once (`maxSessions`, 2502 past it); that the SOA is listed by nameserver.info.
//
// Faults: `{code, msg, reason?}` INWX's refusal (HTTP 200) for the next matching calls;
// `{httpStatus}`; `"malformed"`; `"html"`.

import { isIPv4, isIPv6 } from "node:net";
import { decodeBase32, totp } from "../../src/dns/signing/totp";
import { type FakeServer, htmlErrorPage, json, type LoggedRequest, malformedJson, startFakeServer } from "./server";

export const INWX_FAKE_USER = "ddnsd-sub";
export const INWX_FAKE_PASSWORD = "inwxFakePassword0123456789";
/** A base32 shared secret of a fake account with two-factor login. */
export const INWX_FAKE_TFA_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
export const INWX_FAKE_TFA_USER = "ddnsd-tfa";

export interface InwxRecord {
  id: number;
  name: string;
  type: string;
  content: string;
  ttl: number;
  prio: number;
}

export type InwxFault = { code: number; msg: string; reason?: string } | { httpStatus: number } | "malformed" | "html";

export interface InwxFake extends FakeServer<InwxFault> {
  /** user → {pass, tfaSecret?}. */
  users: Map<string, { pass: string; tfaSecret?: string }>;
  domains: Map<string, InwxRecord[]>;
  /** session id → whether it is unlocked. */
  sessions: Map<string, { user: string; unlocked: boolean }>;
  maxSessions: number;
  /** The clock the fake checks TOTP codes against. */
  now: () => number;
  addDomain(name: string): void;
  addRecord(
    domain: string,
    record: { name: string; type: string; content: string; ttl?: number; prio?: number },
  ): InwxRecord;
  records(domain: string, name: string, type: string): InwxRecord[];
  methods(): string[];
  changes(): number;
  reset(): void;
}

const CHANGES = new Set(["nameserver.updateRecord", "nameserver.createRecord", "nameserver.deleteRecord"]);

export function inwxMethod(request: LoggedRequest): string {
  const body = request.body as { method?: unknown } | undefined;
  return typeof body?.method === "string" ? body.method : "";
}

export function startInwxFake(): InwxFake {
  const users = new Map<string, { pass: string; tfaSecret?: string }>();
  const domains = new Map<string, InwxRecord[]>();
  const sessions = new Map<string, { user: string; unlocked: boolean }>();
  /** user → the TOTP steps whose codes have unlocked a session. */
  const usedSteps = new Map<string, Set<number>>();
  let nextId = 70000;

  function seedUsers() {
    users.set(INWX_FAKE_USER, { pass: INWX_FAKE_PASSWORD });
    users.set(INWX_FAKE_TFA_USER, { pass: INWX_FAKE_PASSWORD, tfaSecret: INWX_FAKE_TFA_SECRET });
  }
  seedUsers();

  function addRecord(
    domain: string,
    init: { name: string; type: string; content: string; ttl?: number; prio?: number },
  ): InwxRecord {
    const list = domains.get(domain);
    if (!list) throw new Error(`fake INWX: no domain ${domain}`);
    const record: InwxRecord = {
      id: ++nextId,
      name: init.name,
      type: init.type,
      content: init.content,
      ttl: init.ttl ?? 3600,
      prio: init.prio ?? 0,
    };
    list.push(record);
    return record;
  }

  const answer = (
    code: number,
    msg: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) => json(200, { code, msg, ...extra }, headers);
  const ok = (resData?: Record<string, unknown>, headers: Record<string, string> = {}) =>
    answer(1000, "Command completed successfully", resData ? { resData } : {}, headers);
  const authError = (reason?: string, reasonCode?: string) =>
    answer(2200, "Authentication error", reason ? { reason, reasonCode } : {});
  const notExist = () => answer(2303, "Object does not exist");

  function sessionOf(request: LoggedRequest): string | undefined {
    const match = /(?:^|;\s*)domrobot=([^;]+)/.exec(request.headers.cookie ?? "");
    return match?.[1];
  }

  function route(request: LoggedRequest): Response {
    if (request.method !== "POST" || request.path !== "/") return new Response("Not Found", { status: 404 });
    const body =
      typeof request.body === "object" && request.body !== null ? (request.body as Record<string, unknown>) : {};
    const method = typeof body.method === "string" ? body.method : "";
    const params =
      typeof body.params === "object" && body.params !== null ? (body.params as Record<string, unknown>) : {};

    if (method === "account.login") {
      const user = users.get(String(params.user ?? ""));
      if (!user || user.pass !== params.pass) return authError();
      if (sessions.size >= fake.maxSessions) return answer(2502, "Session limit exceeded; server closing connection");
      const id = crypto.randomUUID().replaceAll("-", "");
      sessions.set(id, { user: String(params.user), unlocked: user.tfaSecret === undefined });
      return ok(
        { customerId: 12345, accountId: 67890, tfa: user.tfaSecret === undefined ? "0" : "GOOGLE-AUTH" },
        { "Set-Cookie": `domrobot=${id}; path=/; secure; HttpOnly` },
      );
    }

    const id = sessionOf(request);
    const session = id === undefined ? undefined : sessions.get(id);
    if (!session) return authError();

    if (method === "account.unlock") {
      const secret = decodeBase32(users.get(session.user)?.tfaSecret ?? "");
      // The code of this step or the one before, as authenticator checks allow for clock drift.
      const step =
        secret === undefined
          ? undefined
          : [0, -30_000].map((drift) => fake.now() + drift).find((at) => totp(secret, at) === String(params.tan ?? ""));
      if (step === undefined)
        return answer(2200, "Authentication error", { reason: "Invalid TAN", reasonCode: "Error_InvalidTan" });
      const used = usedSteps.get(session.user) ?? new Set<number>();
      const counter = Math.floor(step / 30_000);
      if (used.has(counter))
        return answer(2200, "Authentication error", {
          reason: "The confirmation code is invalid.",
          reasonCode: "INVALID",
        });
      used.add(counter);
      usedSteps.set(session.user, used);
      session.unlocked = true;
      return ok();
    }
    if (method === "account.logout") {
      sessions.delete(id!);
      return answer(1500, "Command completed successfully; ending session");
    }
    if (!session.unlocked)
      return authError("You need to unlock your account with your mobile TAN.", "Error_AccountUnlockRequired");

    switch (method) {
      case "nameserver.info": {
        const domain = String(params.domain ?? "").toLowerCase();
        const list = domains.get(domain);
        if (!list) return notExist();
        const matched = list.filter(
          (r) =>
            (params.name === undefined || r.name === String(params.name).toLowerCase()) &&
            (params.type === undefined || r.type === params.type),
        );
        return ok({
          roId: 1234,
          domain,
          type: "MASTER",
          count: matched.length,
          ...(matched.length === 0 ? {} : { record: matched.map((r) => ({ ...r })) }),
        });
      }
      case "nameserver.updateRecord": {
        const record = [...domains.values()].flat().find((r) => r.id === Number(params.id));
        if (!record) return notExist();
        const problem = check(record.type, params.content ?? record.content, params.ttl ?? record.ttl);
        if (problem) return answer(2005, "Parameter value syntax error", { reason: problem });
        if (params.content !== undefined) record.content = String(params.content);
        if (params.ttl !== undefined) record.ttl = Number(params.ttl);
        return ok();
      }
      case "nameserver.createRecord": {
        const domain = String(params.domain ?? "").toLowerCase();
        const list = domains.get(domain);
        if (!list) return notExist();
        const name = String(params.name ?? "").toLowerCase();
        if (name !== domain && !name.endsWith(`.${domain}`))
          return answer(2005, "Parameter value syntax error", { reason: "name is not in the domain" });
        const problem = check(String(params.type), params.content, params.ttl ?? 3600);
        if (problem) return answer(2005, "Parameter value syntax error", { reason: problem });
        if (list.some((r) => r.name === name && r.type === params.type && r.content === params.content))
          return answer(2302, "Object exists");
        const record = addRecord(domain, {
          name,
          type: String(params.type),
          content: String(params.content),
          ttl: Number(params.ttl ?? 3600),
        });
        return ok({ id: record.id });
      }
      case "nameserver.deleteRecord": {
        const list = [...domains.values()].find((records) => records.some((r) => r.id === Number(params.id)));
        if (!list) return notExist();
        list.splice(
          list.findIndex((r) => r.id === Number(params.id)),
          1,
        );
        return ok();
      }
      default:
        return answer(2000, "Unknown command");
    }
  }

  const server = startFakeServer<InwxFault>({
    prefix: "/jsonrpc",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      if ("httpStatus" in mode) return new Response("Service Unavailable", { status: mode.httpStatus });
      return answer(mode.code, mode.msg, mode.reason ? { reason: mode.reason } : {});
    },
  });

  const fake: InwxFake = Object.assign(server, {
    users,
    domains,
    sessions,
    maxSessions: 10,
    now: Date.now,
    addDomain(name: string) {
      domains.set(name, []);
      addRecord(name, {
        name,
        type: "SOA",
        content: `ns.inwx.de. hostmaster.inwx.de. 2026112401 10800 3600 604800 3600`,
        ttl: 86400,
      });
    },
    addRecord,
    records: (domain: string, name: string, type: string) =>
      domains.get(domain)?.filter((r) => r.name === name && r.type === type) ?? [],
    methods: () => server.requests.map(inwxMethod),
    changes: () => server.requests.filter((r) => CHANGES.has(inwxMethod(r))).length,
    reset() {
      domains.clear();
      sessions.clear();
      usedSteps.clear();
      users.clear();
      seedUsers();
      fake.maxSessions = 10;
      fake.now = Date.now;
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

function check(type: string, content: unknown, ttl: unknown): string | undefined {
  const value = String(content ?? "");
  if (type === "A" && !isIPv4(value)) return "content is not an IPv4 address";
  if (type === "AAAA" && !isIPv6(value)) return "content is not an IPv6 address";
  if (!Number.isInteger(Number(ttl)) || Number(ttl) < 300) return "ttl must be at least 300";
  return undefined;
}
