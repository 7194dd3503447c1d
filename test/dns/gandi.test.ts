// The Gandi LiveDNS client against the faithful fake: what it changes, what it keeps, how many
// requests it spends, and how every failure Gandi can give ends up as Gandi's own words.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { zoneClient } from "../../src/dns/reconcile";
import { createGandiApi } from "../../src/dns/services/gandi";
import { GANDI_DEFAULT_TTL, GANDI_FAKE_TOKEN, type GandiFake, type GandiFault, startGandiFake } from "../fakes/gandi";
import { type FailureCase, failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: GandiFake;

beforeEach(() => {
  fake = startGandiFake();
  fake.addDomain("example.com");
  fake.addRrset("example.com", { name: "home", type: "A", values: [OLD_IP], ttl: 1800 });
  fake.addRrset("example.com", { name: "@", type: "A", values: [OLD_IP], ttl: 600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { token?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createGandiApi(
      { token: options.token ?? GANDI_FAKE_TOKEN },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.rrset("example.com", "home", "A");

describe("verify", () => {
  test("a valid token is accepted, read-only, with the domain count from total-count", async () => {
    fake.addDomain("other.org");
    expect(await client().verify()).toEqual({ ok: true, detail: "Token accepted (2 domains)" });
    expect(requestLines()).toEqual(["GET /domains"]);
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${GANDI_FAKE_TOKEN}`);
    expect(fake.writes()).toBe(0);
  });

  test("an expired or unknown token is refused in Gandi's words", async () => {
    const outcome = await client({ token: "expired" }).verify();
    expect(outcome.ok).toBe(false);
    expect(outcome.detail).toStartWith("Gandi: The server could not verify that you authorized");
    expect(outcome.detail).toEndWith("(HTTP 401)");
  });
});

describe("writeRecord on an existing record set", () => {
  test("discovers the domain, reads the set, and PUTs the address with the TTL it read", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: "home/A",
      zoneId: "example.com",
      message: "Gandi record home/A, ttl 1800",
    });
    expect(home()).toEqual({ rrset_name: "home", rrset_type: "A", rrset_ttl: 1800, rrset_values: [NEW_IP] });
    expect(requestLines()).toEqual([
      "GET /domains",
      "GET /domains/example.com/records/home/A",
      "PUT /domains/example.com/records/home/A",
    ]);
    expect(fake.requests[2]?.body).toEqual({ rrset_values: [NEW_IP], rrset_ttl: 1800 });
    expect(fake.requests[2]?.headers["content-type"]).toBe("application/json");
  });

  for (const omittedTtl of ["default", "kept"] as const) {
    test(`the TTL survives whichever way Gandi treats a PUT without one (${omittedTtl})`, async () => {
      fake.omittedTtl = omittedTtl;
      await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
      expect(home()).toMatchObject({ rrset_ttl: 1800, rrset_values: [NEW_IP] });
    });
  }

  test("steady state (domain known from config): one read and one write", async () => {
    await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(requestLines()).toEqual([
      "GET /domains/example.com/records/home/A",
      "PUT /domains/example.com/records/home/A",
    ]);
  });

  test("a TTL from config replaces the one read; the same address with another TTL is written", async () => {
    await client().writeRecord(target("home.example.com", { zone_id: "example.com", ttl: 900 }), OLD_IP);
    expect(home()).toMatchObject({ rrset_ttl: 900, rrset_values: [OLD_IP] });
    expect(fake.writes()).toBe(1);
  });

  test("an AAAA set is a different set from the A of the same name", async () => {
    const outcome = await client().writeRecord(target("home.example.com", {}, { recordType: "AAAA" }), "2001:db8::7");
    expect(outcome).toMatchObject({ ok: true, action: "created", externalId: "home/AAAA" });
    expect(fake.rrset("example.com", "home", "AAAA")?.rrset_values).toEqual(["2001:db8::7"]);
    expect(home()?.rrset_values).toEqual([OLD_IP]);
  });

  test("an external id (Gandi has none of its own) never redirects the write", async () => {
    await client().writeRecord(target("home.example.com", {}, { externalId: "@/A" }), NEW_IP);
    expect(home()?.rrset_values).toEqual([NEW_IP]);
    expect(fake.rrset("example.com", "@", "A")?.rrset_values).toEqual([OLD_IP]);
  });
});

describe("writeRecord on a missing record set", () => {
  test("creates it with TTL 300", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: "new/A",
      zoneId: "example.com",
      message: "Gandi record new/A, ttl 300",
    });
    expect(fake.rrset("example.com", "new", "A")).toMatchObject({ rrset_values: [NEW_IP], rrset_ttl: 300 });
  });

  test("a TTL below Gandi's minimum is refused in Gandi's words", async () => {
    const outcome = await client().writeRecord(target("new.example.com", { ttl: 60 }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "Gandi: rrset_ttl: 60 is less than minimum value 300 (HTTP 400)",
    });
  });
});

describe("domain discovery", () => {
  test("the listing is followed page by page until total-count is reached", async () => {
    for (let i = 0; i < 150; i++) fake.addDomain(`d${String(i).padStart(3, "0")}.net`);
    fake.addDomain("zz.org");
    const outcome = await client().writeRecord(target("home.zz.org"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, zoneId: "zz.org" });
    expect(fake.requests.filter((r) => r.path === "/domains").map((r) => r.query)).toEqual([
      { per_page: "100", page: "1" },
      { per_page: "100", page: "2" },
    ]);
  });
});

describe("failures keep Gandi's words and leave the record alone", () => {
  const cases: (FailureCase & { fault?: GandiFault; token?: string })[] = [
    {
      name: "token without rights on the domain",
      fault: { status: 403 },
      message: "Gandi: Access was denied to this resource. (HTTP 403)",
      stopRetrying: true,
      cause: "credentials",
    },
    // The wait Gandi names is passed on as it is; the updater decides the pause (an hour at most).
    {
      name: "429 without Retry-After",
      fault: { status: 429 },
      message: "Gandi: Too many requests, slow down. (HTTP 429)",
      cause: "throttled",
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
      // One request, no retry loop, nothing changed.
      expect(fake.requests).toHaveLength(1);
      expect(home()?.rrset_values).toEqual([OLD_IP]);
    },
  );

  test("a failing PUT is reported; the TTL the fake would reset stays", async () => {
    fake.fault({ status: 500 }, 1, (r) => r.method === "PUT");
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(outcome).toEqual({ ok: false, cause: "unreachable", message: "Gandi: Internal Server Error (HTTP 500)" });
    expect(home()).toMatchObject({ rrset_values: [OLD_IP], rrset_ttl: 1800 });
    expect(home()?.rrset_ttl).not.toBe(GANDI_DEFAULT_TTL);
  });
});
