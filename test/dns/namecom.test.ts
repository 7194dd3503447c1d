// The Name.com client against its fake: what it changes, what it keeps, how many requests it spends,
// and how every failure Name.com can give ends up as Name.com's own words with its cause.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { zoneClient } from "../../src/dns/reconcile";
import { createNamecomApi } from "../../src/dns/services/namecom";
import {
  NAMECOM_DEFAULT_TTL,
  NAMECOM_FAKE_TOKEN,
  NAMECOM_FAKE_USERNAME,
  type NamecomFake,
  type NamecomFault,
  startNamecomFake,
} from "../fakes/namecom";
import { type FailureCase, failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: NamecomFake;

beforeEach(() => {
  fake = startNamecomFake();
  fake.addDomain("example.com");
  fake.addRecord("example.com", { host: "home", type: "A", answer: OLD_IP, ttl: 1800 });
  fake.addRecord("example.com", { host: "", type: "A", answer: OLD_IP, ttl: 600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { token?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createNamecomApi(
      { username: NAMECOM_FAKE_USERNAME, token: options.token ?? NAMECOM_FAKE_TOKEN },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.record("example.com", "home", "A");
const known = { zone_id: "example.com" };

describe("verify", () => {
  test("valid credentials are accepted, read-only, with the domain count", async () => {
    fake.addDomain("other.org");
    expect(await client().verify()).toEqual({
      ok: true,
      detail: `Token accepted for ${NAMECOM_FAKE_USERNAME} (2 domains)`,
    });
    expect(requestLines()).toEqual(["GET /domains"]);
    expect(fake.requests[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${NAMECOM_FAKE_USERNAME}:${NAMECOM_FAKE_TOKEN}`).toString("base64")}`,
    );
    expect(fake.writes()).toBe(0);
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the domain, reads the records, and PUTs the record with the TTL it read: three requests", async () => {
    const id = String(home()!.id);
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: id,
      zoneId: "example.com",
      message: `Name.com record ${id}, ttl 1800`,
    });
    expect(home()).toMatchObject({ answer: NEW_IP, ttl: 1800 });
    expect(requestLines()).toEqual([
      "GET /domains",
      "GET /domains/example.com/records",
      `PUT /domains/example.com/records/${id}`,
    ]);
    expect(fake.requests[2]?.body).toEqual({ host: "home", type: "A", answer: NEW_IP, ttl: 1800 });
  });

  test("steady state (domain known from config): one read and one write", async () => {
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(requestLines()).toEqual([
      "GET /domains/example.com/records",
      `PUT /domains/example.com/records/${home()!.id}`,
    ]);
  });

  test("the TTL survives the PUT that would reset it; a TTL from config replaces it", async () => {
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(home()?.ttl).not.toBe(NAMECOM_DEFAULT_TTL);
    await client().writeRecord(target("home.example.com", { ...known, ttl: 900 }), NEW_IP);
    expect(home()).toMatchObject({ answer: NEW_IP, ttl: 900 });
  });

  test("the records are read page by page", async () => {
    for (let i = 0; i < 1005; i++) fake.addRecord("example.com", { host: `h${i}`, type: "A", answer: OLD_IP });
    fake.addRecord("example.com", { host: "last", type: "A", answer: OLD_IP });
    const outcome = await client().writeRecord(target("last.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(fake.requests.filter((r) => r.path.endsWith("/records")).map((r) => r.query.page)).toEqual(["1", "2"]);
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it with TTL 300", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    const created = fake.record("example.com", "new", "A");
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: String(created!.id),
      zoneId: "example.com",
      message: `Name.com record ${created!.id}, ttl 300`,
    });
    expect(fake.requests.at(-1)?.body).toEqual({ host: "new", type: "A", answer: NEW_IP, ttl: 300 });
  });
});

describe("domain discovery", () => {
  test("the domain listing is followed page by page", async () => {
    for (let i = 0; i < 1005; i++) fake.addDomain(`d${String(i).padStart(4, "0")}.net`);
    fake.addDomain("zz.org");
    const outcome = await client().writeRecord(target("home.zz.org"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, zoneId: "zz.org" });
    expect(fake.requests.filter((r) => r.path === "/domains").map((r) => r.query.page)).toEqual(["1", "2"]);
  });
});

describe("failures keep Name.com's words and leave the record alone", () => {
  const cases: (FailureCase & { fault?: NamecomFault; token?: string })[] = [
    {
      name: "unauthenticated",
      fault: { status: 401 },
      message: "Name.com: Unauthenticated (HTTP 401)",
      stopRetrying: true,
      cause: "credentials",
    },
    {
      name: "429 without Retry-After names no wait",
      fault: { status: 429 },
      message: "Name.com: Too Many Requests (HTTP 429)",
      cause: "throttled",
    },
    {
      name: "500",
      fault: { status: 500 },
      message: "Name.com: Internal Server Error (HTTP 500)",
      cause: "unreachable",
    },
  ];
  failureTests(
    cases,
    async ({ fault, token }) => {
      if (fault) fake.fault(fault);
      return client({ token, timeoutMs: 1000 }).writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()?.answer).toBe(OLD_IP);
    },
  );

  test("a refused PUT is reported in Name.com's words; the record and its TTL stay", async () => {
    fake.fault({ status: 400, message: "Invalid Argument", details: "Domain is locked" }, 1, (r) => r.method === "PUT");
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "Name.com: Invalid Argument: Domain is locked (HTTP 400)",
    });
    expect(home()).toMatchObject({ answer: OLD_IP, ttl: 1800 });
  });
});
