// The ZoneEdit client against its fake: one request per write with basic auth, the address always
// sent, and every answer that is not SUCCESS ending up as a failure with ZoneEdit's words and code,
// the token never among them.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FailureCause, RecordConfig, RecordTarget, RecordType } from "../../src/dns/provider";
import { createZoneeditClient, zoneedit } from "../../src/dns/zoneedit";
import { startZoneeditFake, ZONEEDIT_FAKE_TOKEN, ZONEEDIT_FAKE_USER, type ZoneeditFake, type ZoneeditFault, type ZoneeditHost } from "../fakes/zoneedit";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: ZoneeditFake;
let home: ZoneeditHost;

beforeEach(() => {
  fake = startZoneeditFake();
  fake.addZone("example.com");
  home = fake.addHost("home.example.com", OLD_IP);
  fake.addHost("example.com", OLD_IP);
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { token?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return createZoneeditClient(
    { username: ZONEEDIT_FAKE_USER, token: options.token ?? ZONEEDIT_FAKE_TOKEN },
    { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
  );
}

function target(hostname: string, config: RecordConfig = {}, recordType: RecordType = "A"): RecordTarget {
  return { hostname, recordType, externalId: null, config };
}

describe("the description", () => {
  test("names the username and token, A only, no TTL, and cannot verify", () => {
    expect(zoneedit).toMatchObject({
      type: "zoneedit",
      recordTypes: ["A"],
      ttl: null,
      canVerify: false,
      defaultApiUrl: "https://dynamic.zoneedit.com",
    });
    expect(zoneedit.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["username", false],
      ["token", true],
    ]);
  });

  test("createClient builds a working client from normalised credentials", async () => {
    const built = zoneedit.createClient({ username: ` ${ZONEEDIT_FAKE_USER} `, token: ZONEEDIT_FAKE_TOKEN }, {}, { baseUrl: fake.url, fetch, timeoutMs: 2000, userAgent: "ddnsd/test" });
    expect(await built.writeRecord(target("home.example.com"), NEW_IP)).toMatchObject({ ok: true, action: "updated" });
  });
});

describe("writeRecord", () => {
  test("one GET with basic auth, the host and the address; the record holds it", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({ ok: true, action: "updated", externalId: "home.example.com", zoneId: "", message: "ZoneEdit host home.example.com in example.com" });
    expect(home.ip).toBe(NEW_IP);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: "GET", path: "/auth/dynamic.html", query: { host: "home.example.com", dnsto: NEW_IP } });
    expect(request!.headers.authorization).toBe(`Basic ${Buffer.from(`${ZONEEDIT_FAKE_USER}:${ZONEEDIT_FAKE_TOKEN}`).toString("base64")}`);
    expect(request!.headers["user-agent"]).toBe("ddnsd/test");
  });

  test("201: the record already held the address", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), OLD_IP);
    expect(outcome).toMatchObject({ ok: true, action: "unchanged", message: "ZoneEdit host home.example.com in example.com, it already held this address" });
    expect(home.changes).toBe(0);
  });

  test("the apex", async () => {
    expect(await client().writeRecord(target("example.com"), NEW_IP)).toMatchObject({ ok: true, action: "updated" });
    expect(fake.hosts.get("example.com")!.ip).toBe(NEW_IP);
    expect(home.ip).toBe(OLD_IP);
  });

  test("config.zone_id is sent as zone=, for a name deeper in its zone", async () => {
    fake.addHost("a.b.example.com", OLD_IP);
    await client().writeRecord(target("a.b.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(fake.requests[0]!.query).toEqual({ host: "a.b.example.com", dnsto: NEW_IP, zone: "example.com" });
    expect(fake.hosts.get("a.b.example.com")!.ip).toBe(NEW_IP);
  });

  test("a zone_id that does not hold the name is refused without a request", async () => {
    expect(await client().writeRecord(target("home.example.com", { zone_id: "other.org" }), NEW_IP)).toMatchObject({ ok: false, cause: "refused", stopRetrying: true });
    expect(fake.requests).toHaveLength(0);
  });

  test("an AAAA record is refused for good, before any request", async () => {
    const outcome = await client().writeRecord(target("home.example.com", {}, "AAAA"), "2001:db8::7");
    expect(outcome).toEqual({ ok: false, cause: "refused", stopRetrying: true, message: "ZoneEdit: its dynamic update sets IPv4 (A) records only" });
    expect(fake.requests).toHaveLength(0);
  });

  test("an answer naming another address is not believed", async () => {
    // ZoneEdit's IP attribute says what the record holds now; one that is not what was sent means
    // the update was ignored.
    const lying = createZoneeditClient(
      { username: ZONEEDIT_FAKE_USER, token: ZONEEDIT_FAKE_TOKEN },
      {
        baseUrl: fake.url,
        fetch: (async () => new Response('<SUCCESS CODE="200" TEXT="Update succeeded." ZONE="example.com" IP="192.0.2.99">')) as unknown as typeof fetch,
        timeoutMs: 2000,
        userAgent: "ddnsd/test",
      },
    );
    expect(await lying.writeRecord(target("home.example.com"), NEW_IP)).toMatchObject({ ok: false, cause: "refused", stopRetrying: true });
  });
});

describe("failures keep ZoneEdit's words and code", () => {
  const cases: { name: string; arrange?: () => void; fault?: ZoneeditFault | "timeout"; token?: string; message: string | RegExp; cause: FailureCause; stopRetrying?: boolean; retryAfterSeconds?: number }[] = [
    { name: "wrong token: 708", token: "wrong-token", message: `ZoneEdit: Failed Login: ${ZONEEDIT_FAKE_USER} (code 708)`, cause: "credentials", stopRetrying: true },
    {
      name: "too soon: 707 waits ten minutes",
      arrange: () => {
        fake.interval = 600_000;
        home.updatedAt = performance.now();
      },
      message: "ZoneEdit: Duplicate updates for the same host/ip, adjust client settings (code 707; ZoneEdit wants ten minutes between updates of a host)",
      cause: "throttled",
      retryAfterSeconds: 600,
    },
    { name: "too soon at the newer endpoint: 702", fault: { code: "702", text: "Minimum 600 seconds between requests" }, message: /^ZoneEdit: Minimum 600 seconds between requests \(code 702;/, cause: "throttled", retryAfterSeconds: 600 },
    { name: "zone not in the account: 701", arrange: () => fake.zones.clear(), message: "ZoneEdit: Zone is not set up in this account. (code 701)", cause: "refused", stopRetrying: true },
    { name: "no dynamic record: 709", arrange: () => fake.hosts.clear(), message: "ZoneEdit: Invalid hostname or address (code 709)", cause: "refused", stopRetrying: true },
    { name: "another error code", fault: { code: "799", text: "Temporary failure" }, message: "ZoneEdit: Temporary failure (code 799)", cause: "refused" },
    { name: "HTTP 503", fault: { status: 503 }, message: 'ZoneEdit: unreadable answer (HTTP 503): "Service Temporarily Unavailable"', cause: "unreachable" },
    { name: "502 HTML page", fault: "html", message: /^ZoneEdit: unreadable answer \(HTTP 502\): "<!DOCTYPE html>/, cause: "unreachable" },
    { name: "timeout", fault: "timeout", message: "ZoneEdit: no answer within 200ms", cause: "unreachable" },
  ];
  for (const { name, arrange, fault, token, message, cause, stopRetrying, retryAfterSeconds } of cases) {
    test(name, async () => {
      arrange?.();
      if (fault) fake.fault(fault);
      const outcome = await client({ token, timeoutMs: 200 }).writeRecord(target("home.example.com"), NEW_IP);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toMatch(message);
      expect(outcome.cause).toBe(cause);
      expect(outcome.stopRetrying).toBe(stopRetrying);
      expect(outcome.retryAfterSeconds).toBe(retryAfterSeconds);
      expect(outcome.message).not.toContain(ZONEEDIT_FAKE_TOKEN);
      expect(fake.requests).toHaveLength(1);
      expect(home.ip).toBe(OLD_IP);
    });
  }

  test("basic auth refused at the door (HTTP 401) stops retries", async () => {
    const outcome = await createZoneeditClient(
      { username: ZONEEDIT_FAKE_USER, token: ZONEEDIT_FAKE_TOKEN },
      { baseUrl: fake.url, fetch: ((url: string, init: RequestInit) => fetch(url, { ...init, headers: { "User-Agent": "ddnsd/test" } })) as typeof fetch, timeoutMs: 2000, userAgent: "ddnsd/test" },
    ).writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "credentials", stopRetrying: true });
  });

  test("a token the service echoes back is masked", async () => {
    fake.fault({ code: "799", text: `bad token ${ZONEEDIT_FAKE_TOKEN}` });
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, message: "ZoneEdit: bad token •••• (code 799)" });
  });
});
