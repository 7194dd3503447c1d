// The Njalla API client against its fake: what it changes, what it keeps, how many calls it spends,
// and how each failure Njalla can give — mostly inside an HTTP 200 — ends up in Njalla's own words.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { zoneClient } from "../../src/dns/reconcile";
import { createNjallaApi, njalla, njallaTtl } from "../../src/dns/services/njalla";
import { NJALLA_FAKE_TOKEN, type NjallaFake, type NjallaFault, startNjallaFake } from "../fakes/njalla";
import { type FailureCase, failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: NjallaFake;

beforeEach(() => {
  fake = startNjallaFake();
  fake.addDomain("other.org");
  fake.addDomain("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", content: OLD_IP, ttl: 900 });
  fake.addRecord("example.com", { name: "@", type: "A", content: OLD_IP, ttl: 3600 });
  fake.addRecord("example.com", { name: "@", type: "TXT", content: "v=spf1 -all", ttl: 3600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { token?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createNjallaApi(
      { token: options.token ?? NJALLA_FAKE_TOKEN },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const methods = () => fake.requests.map((r) => (r.body as { method: string }).method);
const paramsOf = (request: { body: unknown } | undefined) =>
  (request?.body as { params?: unknown } | undefined)?.params;
const home = () => fake.records("example.com", "home", "A");

describe("the description", () => {
  test("verify lists the domains with the token in Njalla's own scheme", async () => {
    const built = njalla.createClient(
      { token: NJALLA_FAKE_TOKEN },
      {},
      { baseUrl: fake.url, fetch, timeoutMs: 10000, userAgent: "ddnsd/test" },
    );
    expect(await built.verify()).toEqual({ ok: true, detail: "Token accepted (2 domains)" });
    expect(fake.requests[0]).toMatchObject({
      method: "POST",
      path: "/",
      headers: { authorization: `Njalla ${NJALLA_FAKE_TOKEN}` },
    });
    expect(fake.requests[0]?.body).toEqual({ jsonrpc: "2.0", id: "1", method: "list-domains", params: {} });
  });

  test("a refused token, answered with HTTP 200, fails verify in Njalla's words", async () => {
    expect(await client({ token: "wrong" }).verify()).toMatchObject({
      ok: false,
      detail: "Njalla: Invalid token. (code 403)",
    });
  });
});

test("njallaTtl picks the nearest TTL Njalla takes", () => {
  expect([30, 60, 120, 200, 3600, 8000, 100000].map(njallaTtl)).toEqual([60, 60, 60, 300, 3600, 10800, 86400]);
});

describe("writeRecord on an existing record", () => {
  test("finds the domain, lists its records and edits the one record, keeping its name and TTL", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    const id = home()[0]!.id;
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: id,
      zoneId: "example.com",
      message: `Njalla record ${id}, ttl 900`,
    });
    expect(home()).toEqual([{ id, name: "home", type: "A", content: NEW_IP, ttl: 900 }]);
    expect(methods()).toEqual(["list-domains", "list-records", "edit-record"]);
    expect(paramsOf(fake.requests[2])).toEqual({
      domain: "example.com",
      id,
      name: "home",
      type: "A",
      content: NEW_IP,
      ttl: 900,
    });
  });

  test("steady state (domain known from config): two calls", async () => {
    await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(methods()).toEqual(["list-records", "edit-record"]);
  });

  test("the apex is the record named @, and the domain's other records stay", async () => {
    await client().writeRecord(target("example.com"), NEW_IP);
    expect(fake.records("example.com", "@", "A")).toMatchObject([{ content: NEW_IP, ttl: 3600 }]);
    expect(fake.records("example.com", "@", "TXT")).toMatchObject([{ content: "v=spf1 -all" }]);
    expect(fake.domains.get("example.com")).toHaveLength(3);
  });
});

describe("writeRecord on a missing record", () => {
  test("adds it with TTL 300", async () => {
    const outcome = await client().writeRecord(target("new.example.com", { zone_id: "example.com" }), NEW_IP);
    const [created] = fake.records("example.com", "new", "A");
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: created!.id,
      zoneId: "example.com",
      message: `Njalla record ${created!.id}, ttl 300`,
    });
    expect(paramsOf(fake.requests.at(-1))).toEqual({
      domain: "example.com",
      name: "new",
      type: "A",
      content: NEW_IP,
      ttl: 300,
    });
  });

  test("a TTL between the ones Njalla takes is sent as the nearest, and then counts as already right", async () => {
    await client().writeRecord(target("new.example.com", { zone_id: "example.com", ttl: 1200 }), NEW_IP);
    expect(fake.records("example.com", "new", "A")).toMatchObject([{ ttl: 900 }]);
    fake.clearRequests();
    const again = await client().writeRecord(target("new.example.com", { zone_id: "example.com", ttl: 1200 }), NEW_IP);
    expect(again).toMatchObject({ ok: true, action: "unchanged" });
    expect(methods()).toEqual(["list-records"]);
  });

  test("Njalla's refusal of a record comes back in its words", async () => {
    const outcome = await client().writeRecord(target("new.example.com", { zone_id: "example.com" }), "not-an-address");
    expect(outcome).toEqual({ ok: false, cause: "refused", message: "Njalla: invalid content (code 400)" });
  });
});

describe("domain discovery", () => {
  test('a domain not in the account (403 "permission denied") is refused, not taken for a bad token', async () => {
    const outcome = await client().writeRecord(target("home.example.org", { zone_id: "example.org" }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "Njalla: no zone of this account holds home.example.org",
    });
    expect(methods()).toEqual(["list-records", "list-domains"]);
  });
});

describe("failures keep Njalla's words and leave the record alone", () => {
  const cases: (FailureCase & { fault?: NjallaFault; token?: string })[] = [
    {
      name: "refused token (HTTP 200, code 403)",
      token: "revoked",
      message: "Njalla: Invalid token. (code 403)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "refused token as HTTP 401 without a JSON-RPC error",
      fault: { status: 401 },
      message: /^Njalla: unreadable answer \(HTTP 401\)/,
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "refused token as HTTP 403 without a JSON-RPC error",
      fault: { status: 403 },
      message: /^Njalla: unreadable answer \(HTTP 403\)/,
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "a JSON-RPC error for the call",
      fault: { code: 500, message: "Internal error." },
      message: "Njalla: Internal error. (code 500)",
      cause: "unreachable",
    },
    {
      name: "HTTP 429 with Retry-After",
      fault: { status: 429, retryAfter: 45 },
      message: /^Njalla: unreadable answer \(HTTP 429\)/,
      cause: "throttled",
      retryAfterSeconds: 45,
    },
  ];
  failureTests(
    cases,
    async ({ fault, token }) => {
      if (fault) fake.fault(fault);
      return client({ token, timeoutMs: 1000 }).writeRecord(
        target("home.example.com", { zone_id: "example.com" }),
        NEW_IP,
      );
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()).toMatchObject([{ content: OLD_IP }]);
    },
  );

  test("a failing edit-record is reported and nothing changed", async () => {
    fake.fault(
      { code: 500, message: "Internal error." },
      1,
      (r) => (r.body as { method: string }).method === "edit-record",
    );
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "unreachable" });
    expect(home()).toMatchObject([{ content: OLD_IP, ttl: 900 }]);
  });
});
