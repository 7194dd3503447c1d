// The Domeneshop API client against its fake: what it changes, what it keeps, how many requests it
// spends, and how each failure Domeneshop can give ends up in Domeneshop's own words.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { zoneClient } from "../../src/dns/reconcile";
import { createDomeneshopApi } from "../../src/dns/services/domeneshop";
import {
  DOMENESHOP_FAKE_SECRET,
  DOMENESHOP_FAKE_TOKEN,
  type DomeneshopDomain,
  type DomeneshopFake,
  type DomeneshopFault,
  startDomeneshopFake,
} from "../fakes/domeneshop";
import { type FailureCase, failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: DomeneshopFake;
let example: DomeneshopDomain;

beforeEach(() => {
  fake = startDomeneshopFake();
  fake.addDomain("other.no");
  example = fake.addDomain("example.com");
  fake.addRecord("example.com", { host: "home", type: "A", data: OLD_IP, ttl: 1800 });
  fake.addRecord("example.com", { host: "@", type: "A", data: OLD_IP, ttl: 600 });
  fake.addRecord("example.com", { host: "@", type: "MX", data: "mail.example.com", ttl: 3600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { token?: string; secret?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createDomeneshopApi(
      { token: options.token ?? DOMENESHOP_FAKE_TOKEN, secret: options.secret ?? DOMENESHOP_FAKE_SECRET },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () =>
  fake.requests.map(
    (r) => `${r.method} ${r.path}${Object.keys(r.query).length ? `?${new URLSearchParams(r.query)}` : ""}`,
  );
const home = () => fake.records("example.com", "home", "A");
const known = () => ({ zone_id: String(example.id) });

describe("writeRecord on an existing record", () => {
  test("finds the domain, reads the one name and type, and PUTs the whole record back with the new address", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    const id = home()[0]!.id;
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: String(id),
      zoneId: String(example.id),
      message: `Domeneshop record ${id}, ttl 1800`,
    });
    expect(home()).toEqual([{ id, host: "home", type: "A", data: NEW_IP, ttl: 1800 }]);
    expect(requestLines()).toEqual([
      "GET /domains",
      `GET /domains/${example.id}/dns?host=home&type=A`,
      `PUT /domains/${example.id}/dns/${id}`,
    ]);
    expect(fake.requests[2]?.body).toEqual({ host: "home", type: "A", data: NEW_IP, ttl: 1800 });
  });

  test("with the domain id saved: its name is checked, then one read and one write", async () => {
    await client().writeRecord(target("home.example.com", known()), NEW_IP);
    expect(requestLines()).toEqual([
      `GET /domains/${example.id}`,
      `GET /domains/${example.id}/dns?host=home&type=A`,
      `PUT /domains/${example.id}/dns/${home()[0]!.id}`,
    ]);
  });

  test("the apex is host @, and the domain's other records stay", async () => {
    const outcome = await client().writeRecord(target("example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(fake.records("example.com", "@", "A")).toMatchObject([{ data: NEW_IP, ttl: 600 }]);
    expect(fake.records("example.com", "@", "MX")).toMatchObject([{ data: "mail.example.com" }]);
    expect(example.records).toHaveLength(3);
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it with TTL 300 and keeps the id Domeneshop gives", async () => {
    const outcome = await client().writeRecord(target("new.example.com", known()), NEW_IP);
    const [created] = fake.records("example.com", "new", "A");
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: String(created!.id),
      zoneId: String(example.id),
      message: `Domeneshop record ${created!.id}, ttl 300`,
    });
    expect(fake.requests.at(-1)?.body).toEqual({ host: "new", type: "A", data: NEW_IP, ttl: 300 });
  });

  test("a TTL that is no multiple of 60 is sent as the nearest multiple Domeneshop takes", async () => {
    const outcome = await client().writeRecord(target("new.example.com", { ...known(), ttl: 90 }), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created" });
    expect(fake.records("example.com", "new", "A")).toMatchObject([{ data: NEW_IP, ttl: 120 }]);
  });

  test("an update with a TTL that is no multiple of 60 rounds it, and the rounded TTL counts as already there", async () => {
    const updated = await client().writeRecord(target("home.example.com", { ...known(), ttl: 100 }), NEW_IP);
    expect(updated).toMatchObject({ ok: true, action: "updated" });
    expect(home()).toMatchObject([{ data: NEW_IP, ttl: 120 }]);
    const writes = fake.writes();
    const again = await client().writeRecord(target("home.example.com", { ...known(), ttl: 100 }), NEW_IP);
    expect(again).toMatchObject({ ok: true, action: "unchanged" });
    expect(fake.writes()).toBe(writes);
  });
});

describe("domain discovery", () => {
  test("a domain without Domeneshop's DNS service is passed over", async () => {
    fake.addDomain("b.example.com", { dns: false });
    const outcome = await client().writeRecord(target("x.b.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, zoneId: String(example.id) });
    expect(fake.records("example.com", "x.b", "A")).toHaveLength(1);
  });

  test("no domain holding the name: a failure naming it, nothing written", async () => {
    const outcome = await client().writeRecord(target("host.ample.com"), NEW_IP);
    expect(outcome).toMatchObject({
      ok: false,
      cause: "refused",
      message: "Domeneshop: no zone of this account with Domeneshop's DNS service holds host.ample.com",
    });
    expect(fake.writes()).toBe(0);
  });

  test("a saved domain id naming another domain is refused", async () => {
    const other = fake.domain("other.no")!;
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: String(other.id) }), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "refused" });
    expect(fake.writes()).toBe(0);
  });
});

describe("failures keep Domeneshop's words and leave the record alone", () => {
  const cases: (FailureCase & { fault?: DomeneshopFault; secret?: string })[] = [
    {
      name: "403",
      fault: { status: 403 },
      message: "Domeneshop: These API credentials may not do this (auth:forbidden, HTTP 403)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "429 without Retry-After",
      fault: { status: 429 },
      message: "Domeneshop: Too many requests (rateLimited, HTTP 429)",
      cause: "throttled",
    },
  ];
  failureTests(
    cases,
    async ({ fault, secret }) => {
      if (fault) fake.fault(fault);
      return client({ secret, timeoutMs: 1000 }).writeRecord(target("home.example.com", known()), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()).toMatchObject([{ data: OLD_IP }]);
    },
  );

  test("a failing PUT is reported and nothing changed", async () => {
    fake.fault({ status: 500 }, 1, (r) => r.method === "PUT");
    const outcome = await client().writeRecord(target("home.example.com", known()), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "unreachable" });
    expect(home()).toMatchObject([{ data: OLD_IP, ttl: 1800 }]);
  });
});
