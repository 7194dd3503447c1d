// The Selectel client against the faithful fake (Keystone in front of the DNS API v2): the token and
// when it is asked for again, what a write changes and keeps (TTL, comment), how many requests it
// spends, and how every failure ends up as Selectel's own words.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FailureCause } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createSelectelApi, selectel } from "../../src/dns/services/selectel";
import {
  SELECTEL_FAKE_ACCOUNT,
  SELECTEL_FAKE_PASSWORD,
  SELECTEL_FAKE_PROJECT,
  SELECTEL_FAKE_USER,
  type SelectelFake,
  type SelectelFault,
  startSelectelFake,
} from "../fakes/selectel";
import { failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: SelectelFake;
let zoneId: string;

beforeEach(() => {
  fake = startSelectelFake();
  zoneId = fake.addZone("example.com").id;
  fake.addRrset("example.com", {
    name: "home.example.com",
    type: "A",
    contents: [OLD_IP],
    ttl: 1800,
    comment: "home router",
  });
  fake.addRrset("example.com", { name: "example.com", type: "A", contents: [OLD_IP], ttl: 600 });
  fake.addRrset("example.com", { name: "myhome.example.com", type: "A", contents: ["198.51.100.9"], ttl: 600 });
});

afterEach(async () => {
  await fake.stop();
});

function api(
  options: { password?: string; project?: string; timeoutMs?: number; apiUrl?: string; now?: () => number } = {},
) {
  return createSelectelApi(
    {
      account_id: SELECTEL_FAKE_ACCOUNT,
      username: SELECTEL_FAKE_USER,
      password: options.password ?? SELECTEL_FAKE_PASSWORD,
      project_id: options.project ?? SELECTEL_FAKE_PROJECT,
    },
    fake.identityUrl,
    { baseUrl: options.apiUrl ?? fake.apiUrl, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    options.now,
  );
}
const client = (options: Parameters<typeof api>[0] = {}) => zoneClient(api(options));

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.rrsets("example.com", "home.example.com", "A");
const dnsOnly = (r: { path: string }) => r.path.startsWith("/dns");

describe("the description", () => {
  test("createClient builds a working client with the identity URL from its options", async () => {
    const built = selectel.createClient(
      {
        account_id: SELECTEL_FAKE_ACCOUNT,
        username: SELECTEL_FAKE_USER,
        password: SELECTEL_FAKE_PASSWORD,
        project_id: SELECTEL_FAKE_PROJECT,
      },
      { identity_url: fake.identityUrl },
      { baseUrl: fake.apiUrl, fetch, timeoutMs: 10000, userAgent: "ddnsd/test" },
    );
    expect(await built.verify()).toEqual({ ok: true, detail: "Service user accepted (1 zone in the project)" });
    expect(fake.requests.map((r) => r.headers["user-agent"])).toEqual(["ddnsd/test", "ddnsd/test"]);
  });
});

describe("the token", () => {
  test("a password login scoped to the project, sent as X-Auth-Token, never with the password", async () => {
    await client().verify();
    expect(requestLines()).toEqual(["POST /identity/auth/tokens", "GET /dns/zones"]);
    expect(fake.requests[0]?.body).toEqual({
      auth: {
        identity: {
          methods: ["password"],
          password: {
            user: {
              name: SELECTEL_FAKE_USER,
              domain: { name: SELECTEL_FAKE_ACCOUNT },
              password: SELECTEL_FAKE_PASSWORD,
            },
          },
        },
        scope: { project: { id: SELECTEL_FAKE_PROJECT } },
      },
    });
    expect(fake.requests[1]?.headers["x-auth-token"]).toStartWith("gAAAAA");
    expect(JSON.stringify(fake.requests.slice(1))).not.toContain(SELECTEL_FAKE_PASSWORD);
  });

  test("is reused while it lives and asked for again once it expires", async () => {
    let clock = Date.now();
    const selectelApi = api({ now: () => clock });
    await selectelApi.verify();
    await selectelApi.verify();
    expect(requestLines().filter((l) => l.includes("tokens"))).toHaveLength(1);
    clock += 24 * 3600 * 1000;
    await selectelApi.verify();
    expect(requestLines().filter((l) => l.includes("tokens"))).toHaveLength(2);
  });

  test("a token the API no longer accepts is replaced once", async () => {
    const selectelApi = api();
    await selectelApi.verify();
    fake.revokeTokens();
    expect((await selectelApi.verify()).ok).toBe(true);
    expect(requestLines()).toEqual([
      "POST /identity/auth/tokens",
      "GET /dns/zones",
      "GET /dns/zones",
      "POST /identity/auth/tokens",
      "GET /dns/zones",
    ]);
  });
});

describe("writeRecord on an existing record set", () => {
  test("finds the zone by exact name, reads exactly this set, and PATCHes the address with the TTL and comment it had", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    const [set] = home();
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: set!.id,
      zoneId,
      message: `Selectel record ${set!.id}, ttl 1800`,
    });
    expect(set).toMatchObject({ ttl: 1800, comment: "home router", records: [{ content: NEW_IP, disabled: false }] });
    expect(requestLines()).toEqual([
      "POST /identity/auth/tokens",
      "GET /dns/zones",
      "GET /dns/zones",
      `GET /dns/zones/${zoneId}/rrset`,
      `PATCH /dns/zones/${zoneId}/rrset/${set!.id}`,
    ]);
    expect(fake.requests.slice(1, 3).map((r) => r.query.filter)).toEqual(["home.example.com", "example.com"]);
    expect(fake.requests[3]?.query).toMatchObject({ name: "home.example.com.", rrset_types: "A" });
    expect(fake.requests[4]?.body).toEqual({
      ttl: 1800,
      records: [{ content: NEW_IP, disabled: false }],
      comment: "home router",
    });
    // The set whose name merely contains this one's is untouched.
    expect(fake.rrsets("example.com", "myhome.example.com", "A")[0]?.records[0]?.content).toBe("198.51.100.9");
  });

  test("with the zone known, a change costs two requests after the token", async () => {
    await client().writeRecord(target("home.example.com", { zone_id: zoneId }), NEW_IP);
    expect(requestLines()).toEqual([
      "POST /identity/auth/tokens",
      `GET /dns/zones/${zoneId}/rrset`,
      `PATCH /dns/zones/${zoneId}/rrset/${home()[0]!.id}`,
    ]);
  });
});

describe("writeRecord on a missing record set", () => {
  test("creates it with TTL 3600", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    const [set] = fake.rrsets("example.com", "new.example.com", "A");
    expect(set).toMatchObject({ ttl: 3600, records: [{ content: NEW_IP, disabled: false }] });
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: set!.id,
      zoneId,
      message: `Selectel record ${set!.id}, ttl 3600`,
    });
    expect(fake.requests.at(-1)?.body).toEqual({
      name: "new.example.com.",
      type: "A",
      ttl: 3600,
      records: [{ content: NEW_IP, disabled: false }],
    });
  });

  test("a zone given by id is named first, and must hold the name", async () => {
    const other = fake.addZone("other.org").id;
    const outcome = await client().writeRecord(target("new.example.com", { zone_id: other }), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "refused" });
    expect(!outcome.ok && outcome.message).toContain("which does not hold new.example.com");
    expect(fake.rrsets("other.org", "new.example.com", "A")).toEqual([]);
  });

  test("a TTL Selectel refuses is a refusal in its words", async () => {
    const outcome = await client().writeRecord(target("new.example.com", { ttl: 30 }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "Selectel: ttl must be between 60 and 604800 (body.ttl) (bad_request, HTTP 400)",
    });
  });
});

describe("zone discovery", () => {
  test("the zone listing is followed by next_offset", async () => {
    for (let i = 0; i < 1100; i++) fake.addZone(`d${String(i).padStart(4, "0")}.example.org`);
    fake.addZone("example.org");
    const outcome = await client().writeRecord(target("home.example.org"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created" });
    expect(
      fake.requests
        .filter((r) => r.path === "/dns/zones" && r.query.filter === "example.org")
        .map((r) => r.query.offset),
    ).toEqual(["0", "1000"]);
  });

  test("no zone holding the name: a failure naming it, nothing written", async () => {
    expect(await client().writeRecord(target("host.example.net"), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message: "Selectel: no zone of this project holds host.example.net",
    });
  });
});

describe("failures keep Selectel's words and leave the record alone", () => {
  const cases: {
    name: string;
    fault?: SelectelFault;
    password?: string;
    project?: string;
    message: string | RegExp;
    cause: FailureCause;
    stopRetrying?: boolean;
    retryAfterSeconds?: number;
  }[] = [
    {
      name: "a project the user has no role in",
      project: "ffffffffffffffffffffffffffffffff",
      message: /^Selectel: User ddnsd has no access to project f+ \(HTTP 401\)$/,
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "a token without access to the zone (403)",
      fault: { status: 403, error: "forbidden", description: "access denied" },
      message: "Selectel: access denied (forbidden, HTTP 403)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "slow down (429)",
      fault: { status: 429, error: "too_many_requests", description: "rate limit exceeded" },
      message: "Selectel: rate limit exceeded (too_many_requests, HTTP 429)",
      cause: "throttled",
    },
  ];
  failureTests(
    cases,
    async ({ fault, password, project }) => {
      if (fault) fake.fault(fault, undefined, dnsOnly);
      return client({ password, project, timeoutMs: 1000 }).writeRecord(
        target("home.example.com", { zone_id: zoneId }),
        NEW_IP,
      );
    },
    () => {
      expect(fake.requests.filter(dnsOnly).length).toBeLessThanOrEqual(1);
      expect(home()[0]).toMatchObject({ ttl: 1800, records: [{ content: OLD_IP }] });
    },
  );

  test("the identity service answering an error page", async () => {
    fake.fault("html", undefined, (r) => r.path.startsWith("/identity"));
    const outcome = await client().verify();
    expect(outcome).toMatchObject({ ok: false });
    expect(outcome.detail).toStartWith("Selectel: unreadable answer (HTTP 502)");
  });
});
