// The Name.com client against its fake: what it changes, what it keeps, how many requests it spends,
// and how every failure Name.com can give ends up as Name.com's own words with its cause.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createNamecomApi, namecom } from "../../src/dns/namecom";
import { zoneClient } from "../../src/dns/reconcile";
import type { FailureCause, RecordConfig, RecordTarget } from "../../src/dns/provider";
import { NAMECOM_DEFAULT_TTL, NAMECOM_FAKE_TOKEN, NAMECOM_FAKE_USERNAME, type NamecomFake, type NamecomFault, startNamecomFake } from "../fakes/namecom";

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

function target(hostname: string, config: RecordConfig = {}, fields: Partial<RecordTarget> = {}): RecordTarget {
  return { hostname, recordType: "A", externalId: null, config, ...fields };
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.record("example.com", "home", "A");
const known = { zone_id: "example.com" };

describe("the description", () => {
  test("names the credentials, the record types, the TTL range and the real service", () => {
    expect(namecom.type).toBe("namecom");
    expect(namecom.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["username", false],
      ["token", true],
    ]);
    expect(namecom.recordTypes).toEqual(["A", "AAAA"]);
    expect(namecom.ttl).toMatchObject({ min: 300 });
    expect(namecom.defaultApiUrl).toBe("https://api.name.com/v4");
    expect(namecom.canVerify).toBe(true);
  });

  test("createClient builds a working client from normalised credentials", async () => {
    const built = namecom.createClient({ username: NAMECOM_FAKE_USERNAME, token: NAMECOM_FAKE_TOKEN }, {}, { baseUrl: fake.url, fetch, timeoutMs: 2000, userAgent: "ddnsd/test" });
    expect((await built.verify()).ok).toBe(true);
    expect(fake.requests[0]?.headers["user-agent"]).toBe("ddnsd/test");
  });
});

describe("verify", () => {
  test("valid credentials are accepted, read-only, with the domain count", async () => {
    fake.addDomain("other.org");
    expect(await client().verify()).toEqual({ ok: true, detail: `Token accepted for ${NAMECOM_FAKE_USERNAME} (2 domains)` });
    expect(requestLines()).toEqual(["GET /domains"]);
    expect(fake.requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from(`${NAMECOM_FAKE_USERNAME}:${NAMECOM_FAKE_TOKEN}`).toString("base64")}`);
    expect(fake.writes()).toBe(0);
  });

  test("a wrong token is refused in Name.com's words", async () => {
    expect(await client({ token: "wrong" }).verify()).toMatchObject({
      ok: false,
      detail: "Name.com: Permission Denied: Authentication Error - Invalid Username Or Api Token (HTTP 403)",
    });
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the domain, reads the records, and PUTs the record with the TTL it read: three requests", async () => {
    const id = String(home()!.id);
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({ ok: true, action: "updated", externalId: id, zoneId: "example.com", message: `Name.com record ${id}, ttl 1800` });
    expect(home()).toMatchObject({ answer: NEW_IP, ttl: 1800 });
    expect(requestLines()).toEqual(["GET /domains", "GET /domains/example.com/records", `PUT /domains/example.com/records/${id}`]);
    expect(fake.requests[2]?.body).toEqual({ host: "home", type: "A", answer: NEW_IP, ttl: 1800 });
  });

  test("steady state (domain known from config): one read and one write", async () => {
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(requestLines()).toEqual(["GET /domains/example.com/records", `PUT /domains/example.com/records/${home()!.id}`]);
  });

  test("an address already there is not written again: zero writes", async () => {
    const outcome = await client().writeRecord(target("home.example.com", known), OLD_IP);
    expect(outcome).toMatchObject({ ok: true, action: "unchanged" });
    expect(fake.writes()).toBe(0);
  });

  test("an AAAA record is changed without touching the A of the same name", async () => {
    const aaaa = fake.addRecord("example.com", { host: "home", type: "AAAA", answer: "2001:db8::1", ttl: 3600 });
    const outcome = await client().writeRecord(target("home.example.com", {}, { recordType: "AAAA" }), "2001:db8::7");
    expect(outcome).toMatchObject({ ok: true, action: "updated", externalId: String(aaaa.id) });
    expect(aaaa).toMatchObject({ answer: "2001:db8::7", ttl: 3600 });
    expect(home()?.answer).toBe(OLD_IP);
  });

  test("the same IPv6 address written another way counts as already there", async () => {
    fake.addRecord("example.com", { host: "home", type: "AAAA", answer: "2001:DB8:0:0::7" });
    const outcome = await client().writeRecord(target("home.example.com", known, { recordType: "AAAA" }), "2001:db8::7");
    expect(outcome).toMatchObject({ ok: true, action: "unchanged" });
    expect(fake.writes()).toBe(0);
  });

  test("the TTL survives the PUT that would reset it; a TTL from config replaces it", async () => {
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(home()?.ttl).not.toBe(NAMECOM_DEFAULT_TTL);
    await client().writeRecord(target("home.example.com", { ...known, ttl: 900 }), NEW_IP);
    expect(home()).toMatchObject({ answer: NEW_IP, ttl: 900 });
  });

  test("the apex is the record with host \"\"", async () => {
    const outcome = await client().writeRecord(target("example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated", zoneId: "example.com" });
    expect(fake.record("example.com", "", "A")).toMatchObject({ answer: NEW_IP, ttl: 600 });
    expect(home()?.answer).toBe(OLD_IP);
  });

  test("a name with several records is left alone", async () => {
    fake.addRecord("example.com", { host: "rr", type: "A", answer: "198.51.100.1" });
    fake.addRecord("example.com", { host: "rr", type: "A", answer: "198.51.100.2" });
    const outcome = await client().writeRecord(target("rr.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "refused" });
    expect(fake.writes()).toBe(0);
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
    expect(outcome).toEqual({ ok: true, action: "created", externalId: String(created!.id), zoneId: "example.com", message: `Name.com record ${created!.id}, ttl 300` });
    expect(fake.requests.at(-1)?.body).toEqual({ host: "new", type: "A", answer: NEW_IP, ttl: 300 });
  });

  test("creates it with the TTL from config; an AAAA at the apex", async () => {
    await client().writeRecord(target("example.com", { ttl: 3600 }, { recordType: "AAAA" }), "2001:db8::7");
    expect(fake.record("example.com", "", "AAAA")).toMatchObject({ answer: "2001:db8::7", ttl: 3600 });
  });

  test("create_if_missing false refuses and writes nothing", async () => {
    const outcome = await client().writeRecord(target("new.example.com", { create_if_missing: false }), NEW_IP);
    expect(outcome).toEqual({ ok: false, cause: "refused", message: "Name.com: record new.example.com A does not exist and create_if_missing is false" });
    expect(fake.writes()).toBe(0);
  });
});

describe("domain discovery", () => {
  test("the longest domain of the account that holds the name wins", async () => {
    fake.addDomain("ample.com");
    fake.addDomain("example.co.uk");
    const outcome = await client().writeRecord(target("x.y.example.co.uk"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: "example.co.uk" });
    expect(fake.record("example.co.uk", "x.y", "A")?.answer).toBe(NEW_IP);
  });

  test("the domain listing is followed page by page", async () => {
    for (let i = 0; i < 1005; i++) fake.addDomain(`d${String(i).padStart(4, "0")}.net`);
    fake.addDomain("zz.org");
    const outcome = await client().writeRecord(target("home.zz.org"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, zoneId: "zz.org" });
    expect(fake.requests.filter((r) => r.path === "/domains").map((r) => r.query.page)).toEqual(["1", "2"]);
  });

  test("no domain holding the name: a failure naming it, nothing written", async () => {
    fake.addDomain("xample.com");
    expect(await client().writeRecord(target("host.ample.com"), NEW_IP)).toEqual({ ok: false, cause: "refused", message: "Name.com: no domain of this account holds host.ample.com" });
    expect(fake.writes()).toBe(0);
  });

  test("a configured domain that does not hold the name is refused without a request", async () => {
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: "other.org" }), NEW_IP);
    expect(outcome).toEqual({ ok: false, cause: "refused", message: "Name.com: config.zone_id other.org does not hold home.example.com; correct config.zone_id or remove it" });
    expect(fake.requests).toHaveLength(0);
  });

  test("a configured domain that left the account is looked up afresh, once", async () => {
    const outcome = await client().writeRecord(target("new.sub.example.com", { zone_id: "sub.example.com" }), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: "example.com" });
    expect(requestLines()).toEqual(["GET /domains/sub.example.com/records", "GET /domains", "GET /domains/example.com/records", "POST /domains/example.com/records"]);
  });
});

describe("failures keep Name.com's words and leave the record alone", () => {
  const cases: {
    name: string;
    fault?: NamecomFault | "timeout";
    token?: string;
    message: string | RegExp;
    cause: FailureCause;
    retryAfterSeconds?: number;
    stopRetrying?: boolean;
  }[] = [
    { name: "wrong token", token: "revoked", message: /^Name\.com: Permission Denied: Authentication Error .* \(HTTP 403\)$/, stopRetrying: true, cause: "credentials" },
    { name: "unauthenticated", fault: { status: 401 }, message: "Name.com: Unauthenticated (HTTP 401)", stopRetrying: true, cause: "credentials" },
    { name: "429 with Retry-After", fault: { status: 429, retryAfter: 40 }, message: "Name.com: Too Many Requests (HTTP 429)", retryAfterSeconds: 40, cause: "throttled" },
    { name: "429 without Retry-After names no wait", fault: { status: 429 }, message: "Name.com: Too Many Requests (HTTP 429)", cause: "throttled" },
    { name: "500", fault: { status: 500 }, message: "Name.com: Internal Server Error (HTTP 500)", cause: "unreachable" },
    { name: "502 HTML page", fault: "html", message: /^Name\.com: unreadable answer \(HTTP 502\): "<!DOCTYPE html>/, cause: "unreachable" },
    { name: "malformed JSON", fault: "malformed", message: /^Name\.com: unreadable answer \(HTTP 200\)/, cause: "unreachable" },
    { name: "timeout", fault: "timeout", message: "Name.com: no answer within 200ms", cause: "unreachable" },
  ];
  for (const { name, fault, token, message, cause, retryAfterSeconds, stopRetrying } of cases) {
    test(name, async () => {
      if (fault) fake.fault(fault);
      const outcome = await client({ token, timeoutMs: 200 }).writeRecord(target("home.example.com", known), NEW_IP);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toMatch(message);
      expect(outcome.retryAfterSeconds).toBe(retryAfterSeconds);
      expect(outcome.stopRetrying).toBe(stopRetrying);
      expect(outcome.cause).toBe(cause);
      expect(fake.requests).toHaveLength(1);
      expect(home()?.answer).toBe(OLD_IP);
    });
  }

  test("a refused PUT is reported in Name.com's words; the record and its TTL stay", async () => {
    fake.fault({ status: 400, message: "Invalid Argument", details: "Domain is locked" }, 1, (r) => r.method === "PUT");
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({ ok: false, cause: "refused", message: "Name.com: Invalid Argument: Domain is locked (HTTP 400)" });
    expect(home()).toMatchObject({ answer: OLD_IP, ttl: 1800 });
  });

  test("a service that cannot be reached", async () => {
    const gone = startNamecomFake();
    const url = gone.url;
    await gone.stop();
    const outcome = await client({ baseUrl: url }).verify();
    expect(outcome.ok).toBe(false);
    expect(outcome.detail).toStartWith("Name.com: request failed: ");
  });
});
