// The Porkbun client (its primitives under the reconciler) against its fake: what it changes and
// keeps, how it finds the domain, and how Porkbun's failures (and its 503 page) reach the history
// with their cause. The policy is tested in test/unit/dns/reconcile.test.ts.

import { describe, expect, test } from "bun:test";
import { porkbun } from "../../src/dns/services/porkbun";
import {
  PORKBUN_FAKE_API_KEY,
  PORKBUN_FAKE_SECRET,
  PORKBUN_PARKING,
  type PorkbunFault,
  startPorkbunFake,
} from "../fakes/porkbun";
import {
  type FailureCase,
  failed,
  fails,
  failureTests,
  serviceClient,
  target,
  useFake,
  waits,
  withoutHeld,
  wrote,
} from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startPorkbunFake, (fake) => {
  fake.addDomain("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", content: OLD_IP, ttl: 1800, notes: "router" });
});
const client = () =>
  serviceClient("porkbun", fake.url, { api_key: PORKBUN_FAKE_API_KEY, secret_api_key: PORKBUN_FAKE_SECRET });
const requestLines = () => fake.requests.map((r) => r.path);
const home = () => fake.record("home.example.com", "A")!;
const known = { zone_id: "example.com" };
/** What Porkbun's "slow down" (its openresty 503 page) becomes. */
const THROTTLED = "Porkbun: 503 Service Temporarily Unavailable (rate limited, HTTP 503)";

test("the description: two secret keys, TTL at least 600, paced under one request a second", () => {
  expect(porkbun.credentials.map((c) => [c.key, c.secret])).toEqual([
    ["api_key", true],
    ["secret_api_key", true],
  ]);
  expect(porkbun.ttl).toMatchObject({ min: 600 });
  expect(porkbun.defaultApiUrl).toBe("https://api.porkbun.com/api/json/v3");
  expect(porkbun.rateLimits).toHaveLength(1);
  expect(porkbun.rateLimits![0]!.perSeconds / porkbun.rateLimits![0]!.requests).toBeGreaterThan(1);
});

test("verify: a good key pair pings, as a POST with both keys in the body", async () => {
  expect(await client().verify()).toEqual({
    ok: true,
    detail: "API key pair accepted (Porkbun sees this host as 203.0.113.200)",
  });
  expect(fake.requests[0]).toMatchObject({
    method: "POST",
    path: "/ping",
    body: { apikey: PORKBUN_FAKE_API_KEY, secretapikey: PORKBUN_FAKE_SECRET },
  });
});

describe("an existing record", () => {
  test("edits the content by id, sending ttl, prio and notes back as they were; then one read and one edit", async () => {
    const id = home().id;
    expect(withoutHeld(await client().writeRecord(target("home.example.com"), NEW_IP))).toEqual(
      wrote("updated", id, "example.com", `Porkbun record ${id}, ttl 1800`),
    );
    expect(home()).toMatchObject({ content: NEW_IP, ttl: "1800", notes: "router", prio: "0" });
    expect(fake.requests[2]?.body).toMatchObject({
      type: "A",
      name: "home",
      content: NEW_IP,
      ttl: "1800",
      prio: "0",
      notes: "router",
    });
    await client().writeRecord(target("home.example.com", known, { externalId: id }), OLD_IP);
    expect(requestLines()).toEqual([
      "/domain/listAll",
      "/dns/retrieveByNameType/example.com/A/home",
      `/dns/edit/example.com/${id}`,
      "/dns/retrieveByNameType/example.com/A/home",
      `/dns/edit/example.com/${id}`,
    ]);
  });

  test("ids and ttls answered as numbers are read the same", async () => {
    fake.numbers = "numbers";
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({
      ok: true,
      externalId: home().id,
      message: `Porkbun record ${home().id}, ttl 1800`,
    });
    expect(home().ttl).toBe("1800");
  });

  test("an external id is not followed: the record is found by name, a foreign one stays byte-identical", async () => {
    const other = fake.addRecord("example.com", { name: "other", type: "A", content: "198.51.100.9", notes: "mine" });
    const before = JSON.stringify(other);
    const outcome = await client().writeRecord(target("home.example.com", known, { externalId: other.id }), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, externalId: home().id });
    expect(JSON.stringify(fake.record("other.example.com", "A"))).toBe(before);
    expect(home().content).toBe(NEW_IP);
  });
});

describe("a missing record", () => {
  test("is created with the relative name and ttl 600", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    const created = fake.record("new.example.com", "A")!;
    expect(created).toMatchObject({ content: NEW_IP, ttl: "600" });
    expect(withoutHeld(outcome)).toEqual(
      wrote("created", created.id, "example.com", `Porkbun record ${created.id}, ttl 600`),
    );
    expect(fake.requests.at(-1)).toMatchObject({
      path: "/dns/create/example.com",
      body: { name: "new", type: "A", content: NEW_IP, ttl: "600" },
    });
  });

  test("the apex and the wildcard of a parked domain: the create fails, the message naming the ALIAS or CNAME to delete", async () => {
    const outcome = await client().writeRecord(target("example.com"), NEW_IP);
    expect(outcome).toEqual(
      failed(
        "refused",
        `Porkbun: Create error: We were unable to create the DNS record. (HTTP 400) — its ALIAS record (→ ${PORKBUN_PARKING}, Porkbun's parking page) blocks it: delete that record at Porkbun`,
      ),
    );
    expect(requestLines()).toEqual([
      "/domain/listAll",
      "/dns/retrieveByNameType/example.com/A/",
      "/dns/create/example.com",
      "/dns/retrieveByNameType/example.com/ALIAS/",
    ]);
    expect(fake.requests[2]?.body).toMatchObject({ name: "" });
    // The wildcard (a raw *) names its CNAME.
    fake.clearRequests();
    const wildcard = await client().writeRecord(target("*.example.com"), NEW_IP);
    expect(!wildcard.ok && wildcard.message).toEndWith(
      `its CNAME record (→ ${PORKBUN_PARKING}, Porkbun's parking page) blocks it: delete that record at Porkbun`,
    );
    expect(requestLines()[1]).toBe("/dns/retrieveByNameType/example.com/A/*");
  });
});

test("a listAll that ignores start is not asked forever", async () => {
  fake.listAllPage = null;
  for (let i = 0; i < 1000; i++) fake.addDomain(`d${i}.net`, { parked: false });
  expect((await client().writeRecord(target("home.example.com"), NEW_IP)).ok).toBe(true);
  expect(fake.requests.filter((r) => r.path === "/domain/listAll")).toHaveLength(2);
});

describe("failures keep Porkbun's words, say their cause and leave the record alone", () => {
  type Arrange = { setup?: () => void; fault?: PorkbunFault; on?: string; ip?: string };
  const noApiAccess = () => {
    fake.domains.get("example.com")!.apiAccess = false;
  };
  failureTests<FailureCase & { arrange: Arrange }>(
    [
      fails({ setup: noApiAccess }, "Porkbun: Domain is not opted in to API access. (HTTP 400)", "refused"),
      fails({ ip: "2001:db8::7" }, "Porkbun: Invalid content for A record. (HTTP 400)", "refused"),
      // Porkbun's "slow down" names no wait: the updater decides the pause (and says so); the client
      // invents none, and does not retry inside the write.
      fails({ fault: "throttled" }, THROTTLED, "throttled"),
      fails({ fault: "throttled", on: "/dns/edit/" }, THROTTLED, "throttled"),
      // The wait named is passed on however long; the updater caps every pause at an hour.
      fails(
        { fault: { status: 429, retryAfter: 86400, message: "Too many requests." } },
        "Porkbun: Too many requests. (rate limited, HTTP 429)",
        "throttled",
        waits(86400),
      ),
      fails(
        { fault: { status: 503, message: "Service unavailable." } },
        "Porkbun: Service unavailable. (rate limited, HTTP 503)",
        "throttled",
      ),
      fails({ fault: { status: 500 } }, "Porkbun: Internal server error. (HTTP 500)", "unreachable"),
    ],
    async ({ arrange }) => {
      arrange.setup?.();
      const on = arrange.on;
      if (arrange.fault) fake.fault(arrange.fault, 1, on ? (r) => r.path.startsWith(on) : undefined);
      return client().writeRecord(target("home.example.com", known), arrange.ip ?? NEW_IP);
    },
    ({ arrange }) => {
      if (arrange.fault && !arrange.on) expect(fake.requests).toHaveLength(1);
      expect(home().content).toBe(OLD_IP);
    },
  );

  test("a real burst past the limit gets the 503 page, and the outcome is a throttle (it pauses the provider)", async () => {
    fake.minIntervalMs = 5_000;
    expect(await client().writeRecord(target("home.example.com"), NEW_IP)).toEqual(failed("throttled", THROTTLED));
    expect(requestLines()).toEqual(["/domain/listAll", "/dns/retrieveByNameType/example.com/A/home"]);
    expect(fake.changes()).toBe(0);
  });

  test("a failed create that is throttled does not ask about the ALIAS", async () => {
    fake.fault("throttled", 1, (r) => r.path.startsWith("/dns/create/"));
    await client().writeRecord(target("new.example.com", known), NEW_IP);
    expect(requestLines()).toEqual(["/dns/retrieveByNameType/example.com/A/new", "/dns/create/example.com"]);
  });
});

describe("the fake plays Porkbun", () => {
  const call = (path: string, fields: Record<string, unknown> = {}) =>
    fetch(fake.url + path, {
      method: "POST",
      body: JSON.stringify({ apikey: PORKBUN_FAKE_API_KEY, secretapikey: PORKBUN_FAKE_SECRET, ...fields }),
    });
  const answer = async (response: Promise<Response>) => {
    const r = await response;
    return { status: r.status, body: await r.json() };
  };

  test("records come back with the FQDN and string ids and ttls; an edit to the current content is refused; one omitting ttl and notes resets them", async () => {
    const record = home();
    expect((await answer(call("/dns/retrieveByNameType/example.com/A/home"))).body).toEqual({
      status: "SUCCESS",
      cloudflare: "enabled",
      records: [{ ...record }],
    });
    const edit = `/dns/edit/example.com/${record.id}`;
    expect(await answer(call(edit, { type: "A", name: "home", content: OLD_IP }))).toEqual({
      status: 400,
      body: { status: "ERROR", message: "Edit error: We were unable to edit the DNS record." },
    });
    await call(edit, { type: "A", name: "home", content: NEW_IP });
    expect(record).toMatchObject({ content: NEW_IP, ttl: "600", notes: "" });
  });

  test("reset() empties the service and restores the keys and modes, on the same URL", async () => {
    fake.keys.clear();
    fake.numbers = "numbers";
    fake.minIntervalMs = 5_000;
    fake.fault({ status: 500 });
    fake.reset();
    expect(fake.domains.size).toBe(0);
    expect([fake.numbers, fake.minIntervalMs, fake.listAllPage, fake.editResetsOmitted] as unknown[]).toEqual([
      "strings",
      0,
      1000,
      true,
    ]);
    expect(await answer(call("/domain/listAll"))).toEqual({ status: 200, body: { status: "SUCCESS", domains: [] } });
    expect(fake.requests).toHaveLength(1);
  });
});
