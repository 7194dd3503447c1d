// The Vercel client against its fake: what it changes, what it keeps, how many requests it spends,
// how it pages, acts for a team, and how every failure Vercel can give ends up in Vercel's own words.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FailureCause } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createVercelApi, vercel } from "../../src/dns/services/vercel";
import {
  startVercelFake,
  VERCEL_FAKE_TEAM,
  VERCEL_FAKE_TOKEN,
  type VercelFake,
  type VercelFault,
} from "../fakes/vercel";
import { target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: VercelFake;

beforeEach(() => {
  fake = startVercelFake();
  fake.addDomain("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", value: OLD_IP, ttl: 1800, comment: "the NAS" });
  fake.addRecord("example.com", { name: "", type: "A", value: OLD_IP, ttl: 600 });
  fake.addRecord("example.com", { name: "", type: "MX", value: "mail.example.com", ttl: 3600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { token?: string; teamId?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createVercelApi(
      { token: options.token ?? VERCEL_FAKE_TOKEN, ...(options.teamId ? { teamId: options.teamId } : {}) },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.records("example.com", "home", "A");
const known = { zone_id: "example.com" };

describe("the description", () => {
  test("names the token, the team option, the record types, the TTL range and the real service", () => {
    expect(vercel.type).toBe("vercel");
    expect(vercel.credentials.map((c) => [c.key, c.secret])).toEqual([["token", true]]);
    expect(vercel.options.map((o) => [o.key, o.required ?? false])).toEqual([["team_id", false]]);
    expect(vercel.options[0]?.validate?.("team_abc123")).toBeUndefined();
    expect(vercel.options[0]?.validate?.("my team")).toBe("must be a Vercel team ID such as team_abc123");
    expect(vercel.recordTypes).toEqual(["A", "AAAA"]);
    expect(vercel.ttl).toMatchObject({ min: 60 });
    expect(vercel.defaultApiUrl).toBe("https://api.vercel.com");
  });

  test("createClient builds a working client; the team option is sent as teamId", async () => {
    const context = { baseUrl: fake.url, fetch, timeoutMs: 2000, userAgent: "ddnsd/test" };
    expect(await vercel.createClient({ token: VERCEL_FAKE_TOKEN }, {}, context).verify()).toEqual({
      ok: true,
      detail: "Token accepted",
    });
    expect(
      await vercel.createClient({ token: VERCEL_FAKE_TOKEN }, { team_id: VERCEL_FAKE_TEAM }, context).verify(),
    ).toEqual({
      ok: true,
      detail: `Token accepted for team ${VERCEL_FAKE_TEAM}`,
    });
    expect(fake.requests.map((r) => r.query.teamId)).toEqual([undefined, VERCEL_FAKE_TEAM]);
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${VERCEL_FAKE_TOKEN}`);
    expect(fake.requests[0]?.headers["user-agent"]).toBe("ddnsd/test");
  });
});

describe("verify", () => {
  test("a valid token is accepted, read-only", async () => {
    expect(await client().verify()).toEqual({ ok: true, detail: "Token accepted" });
    expect(requestLines()).toEqual(["GET /v5/domains"]);
    expect(fake.writes()).toBe(0);
  });

  test("a team the token cannot act for is refused", async () => {
    expect(await client({ teamId: "team_someoneElse" }).verify()).toMatchObject({
      ok: false,
      detail: "Vercel: Not authorized (forbidden, HTTP 403)",
    });
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the domain, reads the records, and PATCHes only the value: three requests", async () => {
    const id = home()[0]!.id;
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: id,
      zoneId: "example.com",
      message: `Vercel record ${id}, ttl 1800`,
    });
    expect(home()).toMatchObject([{ value: NEW_IP, ttl: 1800, comment: "the NAS" }]);
    expect(requestLines()).toEqual([
      "GET /v5/domains",
      "GET /v5/domains/example.com/records",
      `PATCH /v1/domains/records/${id}`,
    ]);
    expect(fake.requests[2]?.body).toEqual({ value: NEW_IP });
  });

  test("steady state (domain known from config): one read and one write", async () => {
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(requestLines()).toEqual([
      "GET /v5/domains/example.com/records",
      `PATCH /v1/domains/records/${home()[0]!.id}`,
    ]);
    expect(fake.requests[0]?.query.limit).toBe("100");
  });

  test("the TTL is kept; a TTL from config is sent with the value", async () => {
    await client().writeRecord(target("home.example.com", { ...known, ttl: 300 }), NEW_IP);
    expect(fake.requests.at(-1)?.body).toEqual({ value: NEW_IP, ttl: 300 });
    expect(home()).toMatchObject([{ value: NEW_IP, ttl: 300, comment: "the NAS" }]);
    fake.clearRequests();
    await client().writeRecord(target("home.example.com", { ...known, ttl: 900 }), NEW_IP);
    expect(fake.requests.at(-1)?.body).toEqual({ value: NEW_IP, ttl: 900 });
  });

  test('the apex is the record named ""; the apex\'s other records stay', async () => {
    const outcome = await client().writeRecord(target("example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated", zoneId: "example.com" });
    expect(fake.records("example.com", "", "A")).toMatchObject([{ value: NEW_IP, ttl: 600 }]);
    expect(fake.records("example.com", "", "MX")).toMatchObject([{ value: "mail.example.com" }]);
    expect(home()[0]?.value).toBe(OLD_IP);
  });

  test("the records are read page by page, each page before the last one's timestamp", async () => {
    // The oldest record is on the last page: the listing is newest first.
    const oldest = fake.addRecord("example.com", { name: "first", type: "A", value: OLD_IP });
    oldest.createdAt = 1;
    for (let i = 0; i < 150; i++) fake.addRecord("example.com", { name: `h${i}`, type: "A", value: OLD_IP });
    const outcome = await client().writeRecord(target("first.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated", externalId: oldest.id });
    const reads = fake.requests.filter((r) => r.method === "GET");
    expect(reads).toHaveLength(2);
    expect(reads[0]?.query.until).toBeUndefined();
    expect(Number(reads[1]?.query.until)).toBeGreaterThan(0);
  });

  test("a record created in the same millisecond as the last of a page is still found, so no second one is created", async () => {
    // Vercel pages by creation time ("created before `until`"): two records of one millisecond can
    // straddle a page boundary.
    const boundary = fake.addRecord("example.com", { name: "boundary", type: "A", value: OLD_IP });
    const twin = fake.addRecord("example.com", { name: "twin", type: "A", value: OLD_IP });
    twin.createdAt = boundary.createdAt;
    for (let i = 0; i < 99; i++) fake.addRecord("example.com", { name: `n${i}`, type: "A", value: OLD_IP });
    const outcome = await client().writeRecord(target("twin.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated", externalId: twin.id });
    expect(fake.records("example.com", "twin", "A")).toMatchObject([{ id: twin.id, value: NEW_IP }]);
  });

  test("nothing else in the domain is touched and nothing is deleted", async () => {
    const others = () =>
      fake.domains
        .get("example.com")!
        .records.filter((r) => r.name !== "home")
        .map((r) => ({ ...r }));
    const before = others();
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(others()).toEqual(before);
    expect(fake.requests.some((r) => r.method === "DELETE")).toBe(false);
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it with TTL 60 and saves the id Vercel gives it", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    const created = fake.records("example.com", "new", "A");
    expect(created).toMatchObject([{ value: NEW_IP, ttl: 60 }]);
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: created[0]!.id,
      zoneId: "example.com",
      message: `Vercel record ${created[0]!.id}, ttl 60`,
    });
    expect(fake.requests.at(-1)).toMatchObject({
      method: "POST",
      path: "/v2/domains/example.com/records",
      body: { name: "new", type: "A", value: NEW_IP, ttl: 60 },
    });
  });
});

describe("domains of a team", () => {
  test("with the team ID every request names the team, and the team's domain is written", async () => {
    fake.addDomain("team.dev", VERCEL_FAKE_TEAM);
    fake.addRecord("team.dev", { name: "home", type: "A", value: OLD_IP, ttl: 300 });
    const outcome = await client({ teamId: VERCEL_FAKE_TEAM }).writeRecord(target("home.team.dev"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated", zoneId: "team.dev" });
    expect(fake.records("team.dev", "home", "A")).toMatchObject([{ value: NEW_IP, ttl: 300 }]);
    expect(fake.requests.every((r) => r.query.teamId === VERCEL_FAKE_TEAM)).toBe(true);
  });

  test("without it a team's domain is not the account's", async () => {
    fake.addDomain("team.dev", VERCEL_FAKE_TEAM);
    expect(await client().writeRecord(target("home.team.dev"), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message: "Vercel: no zone of this account holds home.team.dev",
    });
    expect(fake.writes()).toBe(0);
  });
});

describe("domain discovery", () => {
  test("the domain listing is followed page by page", async () => {
    fake.addDomain("zz.org");
    for (let i = 0; i < 120; i++) fake.addDomain(`d${i}.net`);
    const outcome = await client().writeRecord(target("home.zz.org"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, zoneId: "zz.org" });
    expect(fake.requests.filter((r) => r.path === "/v5/domains")).toHaveLength(2);
  });
});

describe("failures keep Vercel's words and leave the record alone", () => {
  const cases: {
    name: string;
    fault?: VercelFault;
    token?: string;
    message: string | RegExp;
    cause: FailureCause;
    retryAfterSeconds?: number;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "429 with the window's reset in the body",
      fault: { status: 429, resetInSeconds: 45 },
      message: "Vercel: Rate limit exceeded (rate_limited, HTTP 429)",
      retryAfterSeconds: 45,
      cause: "throttled",
    },
    {
      name: "429 naming no wait",
      fault: { status: 429 },
      message: "Vercel: Rate limit exceeded (rate_limited, HTTP 429)",
      cause: "throttled",
    },
    {
      name: "500",
      fault: { status: 500 },
      message: "Vercel: An unexpected internal error occurred (internal_server_error, HTTP 500)",
      cause: "unreachable",
    },
  ];
  for (const { name, fault, token, message, cause, retryAfterSeconds, stopRetrying } of cases) {
    test(name, async () => {
      if (fault) fake.fault(fault);
      const outcome = await client({ token, timeoutMs: 1000 }).writeRecord(target("home.example.com", known), NEW_IP);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toMatch(message);
      // The reset is a time, so the wait is counted from now: allow the second it may take to get here.
      if (retryAfterSeconds === undefined) expect(outcome.retryAfterSeconds).toBeUndefined();
      else expect(outcome.retryAfterSeconds).toBeOneOf([retryAfterSeconds, retryAfterSeconds - 1]);
      expect(outcome.stopRetrying).toBe(stopRetrying);
      expect(outcome.cause).toBe(cause);
      expect(fake.requests).toHaveLength(1);
      expect(home()).toMatchObject([{ value: OLD_IP, ttl: 1800 }]);
    });
  }

  test("a refused PATCH is reported in Vercel's words; the record and its TTL stay", async () => {
    fake.fault(
      { status: 400, code: "invalid_value", message: "The record is managed by Vercel and cannot be changed" },
      1,
      (r) => r.method === "PATCH",
    );
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "Vercel: The record is managed by Vercel and cannot be changed (invalid_value, HTTP 400)",
    });
    expect(home()).toMatchObject([{ value: OLD_IP, ttl: 1800 }]);
  });
});
