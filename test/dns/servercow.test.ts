// The Servercow DNS API client against its fake: what it changes, what it keeps, how many requests
// it spends, and how each failure — mostly inside an HTTP 200 — ends up in Servercow's own words.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { zoneClient } from "../../src/dns/reconcile";
import { createServercowApi } from "../../src/dns/services/servercow";
import {
  SERVERCOW_FAKE_PASSWORD,
  SERVERCOW_FAKE_USERNAME,
  type ServercowFake,
  type ServercowFault,
  startServercowFake,
} from "../fakes/servercow";
import { type FailureCase, failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: ServercowFake;

beforeEach(() => {
  fake = startServercowFake();
  fake.addDomain("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", content: OLD_IP, ttl: 600 });
  fake.addRecord("example.com", { name: "", type: "A", content: OLD_IP, ttl: 1200 });
  fake.addRecord("example.com", {
    name: "",
    type: "TXT",
    content: ["v=spf1 -all", "google-site-verification=x"],
    ttl: 3600,
  });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { password?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createServercowApi(
      { username: SERVERCOW_FAKE_USERNAME, password: options.password ?? SERVERCOW_FAKE_PASSWORD },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.records("example.com", "home", "A");

describe("the description", () => {
  test("verify sends nothing and says why", async () => {
    const outcome = await client().verify();
    expect(outcome.detail).toContain("first update");
    expect(fake.requests).toHaveLength(0);
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the domain, and POSTs the name and type with the new address and the TTL it read", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: "home/A",
      zoneId: "example.com",
      message: "Servercow record home/A, ttl 600",
    });
    expect(home()).toEqual([{ name: "home", type: "A", content: NEW_IP, ttl: 600 }]);
    // home.example.com is no domain of the account; example.com's listing is also the read.
    expect(requestLines()).toEqual(["GET /home.example.com", "GET /example.com", "POST /example.com"]);
    expect(fake.requests[2]?.body).toEqual({ type: "A", name: "home", content: NEW_IP, ttl: 600 });
    expect(fake.requests[2]?.headers).toMatchObject({
      "x-auth-username": SERVERCOW_FAKE_USERNAME,
      "x-auth-password": SERVERCOW_FAKE_PASSWORD,
    });
  });

  test("steady state (domain known from config): one read and one write", async () => {
    await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(requestLines()).toEqual(["GET /example.com", "POST /example.com"]);
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it with TTL 300", async () => {
    const outcome = await client().writeRecord(target("new.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: "new/A",
      zoneId: "example.com",
      message: "Servercow record new/A, ttl 300",
    });
    expect(fake.records("example.com", "new", "A")).toEqual([{ name: "new", type: "A", content: NEW_IP, ttl: 300 }]);
  });
});

describe("domain discovery", () => {
  test("a domain of the account nearer the name wins", async () => {
    fake.addDomain("b.example.com");
    const outcome = await client().writeRecord(target("x.b.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: "b.example.com" });
    expect(fake.records("b.example.com", "x", "A")).toHaveLength(1);
  });

  test("every candidate answered 'no such domain in user context': the failure says the credentials or the account may be wrong, and is retried", async () => {
    const outcome = await client().writeRecord(target("host.other.org"), NEW_IP);
    expect(outcome).toMatchObject({
      ok: false,
      cause: "refused",
      message: expect.stringContaining("check the API username and password"),
    });
    expect(outcome).not.toHaveProperty("stopRetrying");
  });
});

describe("failures keep Servercow's words and leave the record alone", () => {
  const cases: (FailureCase & { fault?: ServercowFault; password?: string })[] = [
    {
      name: "refused credentials (HTTP 200)",
      password: "wrong",
      message: "Servercow: authentication failed",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "refused credentials in other words (access denied)",
      fault: { error: "Access denied" },
      message: "Servercow: Access denied",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "refused credentials in German (Zugangsdaten)",
      fault: { error: "Zugangsdaten ungültig" },
      message: "Servercow: Zugangsdaten ungültig",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "refused credentials (forbidden)",
      fault: { error: "forbidden" },
      message: "Servercow: forbidden",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "another error in the body",
      fault: { error: "domain is locked" },
      message: "Servercow: domain is locked",
      cause: "refused",
    },
    {
      name: "HTTP 429 with Retry-After",
      fault: { status: 429, retryAfter: 50 },
      message: /^Servercow: unreadable answer \(HTTP 429\)/,
      cause: "throttled",
      retryAfterSeconds: 50,
    },
  ];
  failureTests(
    cases,
    async ({ fault, password }) => {
      if (fault) fake.fault(fault);
      return client({ password, timeoutMs: 1000 }).writeRecord(
        target("home.example.com", { zone_id: "example.com" }),
        NEW_IP,
      );
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()).toMatchObject([{ content: OLD_IP }]);
    },
  );

  test("a refused address comes back in Servercow's words", async () => {
    const outcome = await client().writeRecord(target("new.example.com", { zone_id: "example.com" }), "not-an-address");
    expect(outcome).toEqual({ ok: false, cause: "refused", message: "Servercow: invalid content for type A" });
  });

  test("a failing POST is reported and nothing changed", async () => {
    fake.fault({ error: "internal error" }, 1, (r) => r.method === "POST");
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, message: "Servercow: internal error" });
    expect(home()).toMatchObject([{ content: OLD_IP, ttl: 600 }]);
  });
});
