// The GoIP.de client against the faithful fake: one GET per write with the router login, the full
// subdomain and the address in its family's parameter (both when the hostname has both, so GoIP never
// publishes the caller's address instead), the answer's address checked, `Zugriff verweigert` not
// retried, and the password never in a message.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { RecordTarget, RecordType } from "../../src/dns/provider";
import { createGoipClient } from "../../src/dns/services/goip";
import {
  GOIP_FAKE_PASSWORD,
  GOIP_FAKE_USERNAME,
  type GoipFake,
  type GoipFault,
  type GoipSubdomain,
  startGoipFake,
} from "../fakes/goip";

const NEW_V4 = "203.0.113.7";
const NEW_V6 = "2a01:4f8::7";

let fake: GoipFake;
let home: GoipSubdomain;

beforeEach(() => {
  fake = startGoipFake();
  home = fake.addSubdomain("home.goip.de", { ipv4: "198.51.100.1", ipv6: "2001:db8::1" });
  fake.logins.set("someone-else", "their-password");
  fake.addSubdomain("elsewhere.goip.it", { username: "someone-else", ipv4: "198.51.100.9" });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { username?: string; password?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return createGoipClient(options.username ?? GOIP_FAKE_USERNAME, options.password ?? GOIP_FAKE_PASSWORD, {
    baseUrl: options.baseUrl ?? fake.url,
    fetch,
    timeoutMs: options.timeoutMs ?? 2000,
    userAgent: "ddnsd/1.2.3",
  });
}

function target(hostname: string, recordType: RecordType = "A", siblings?: RecordTarget["siblings"]): RecordTarget {
  return { hostname, recordType, externalId: null, config: {}, ...(siblings ? { siblings } : {}) };
}

describe("writeRecord", () => {
  test("A: ip= carries the IPv4, with the full subdomain and a one-line answer asked for", async () => {
    const outcome = await client().writeRecord(target("home.goip.de"), NEW_V4);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: "home.goip.de",
      zoneId: "",
      message: "GoIP subdomain home.goip.de",
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ method: "GET", path: "/setip" });
    expect(fake.requests[0]?.query).toEqual({
      username: GOIP_FAKE_USERNAME,
      password: GOIP_FAKE_PASSWORD,
      subdomain: "home.goip.de",
      ip: NEW_V4,
      shortResponse: "true",
    });
    expect(fake.requests[0]?.headers["user-agent"]).toBe("ddnsd/1.2.3");
    expect(home).toMatchObject({ ipv4: NEW_V4, ipv6: "2001:db8::1", updates: 1 });
  });

  test("AAAA with an A sibling: both addresses in one request, so the A is not replaced by the caller's", async () => {
    const outcome = await client().writeRecord(target("home.goip.de", "AAAA", { ipv4: "198.51.100.1" }), NEW_V6);
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(fake.requests[0]?.query).toMatchObject({ ip: "198.51.100.1", ip6: NEW_V6 });
    expect(home).toMatchObject({ ipv4: "198.51.100.1", ipv6: NEW_V6 });
  });

  test("AAAA alone: ip6= carries the IPv6", async () => {
    const outcome = await client().writeRecord(target("home.goip.de", "AAAA"), NEW_V6);
    expect(outcome).toMatchObject({ ok: true });
    expect(fake.requests[0]?.query).toMatchObject({ ip6: NEW_V6 });
    expect(fake.requests[0]?.query.ip).toBeUndefined();
    expect(home.ipv6).toBe(NEW_V6);
  });

  test("a name under goip.it and an uppercase name work the same", async () => {
    fake.addSubdomain("nas.goip.it");
    expect(await client().writeRecord(target("NAS.goip.it"), NEW_V4)).toMatchObject({
      ok: true,
      externalId: "nas.goip.it",
    });
    expect(fake.subdomains.get("nas.goip.it")?.ipv4).toBe(NEW_V4);
  });

  test("a name outside goip.de and goip.it is refused without a request", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_V4);
    expect(outcome).toEqual({
      ok: false,
      message: "GoIP: home.example.com is not a name under goip.de or goip.it",
      cause: "refused",
      stopRetrying: true,
    });
    expect(fake.requests).toHaveLength(0);
  });

  test("an answer naming another address than the one sent: the update was ignored, not retried", async () => {
    fake.fault({ body: "home.goip.de (192.0.2.55) erfolgreich aktualisiert" }, 1);
    expect(await client().writeRecord(target("home.goip.de"), NEW_V4)).toEqual({
      ok: false,
      message: `GoIP: answered that home.goip.de holds 192.0.2.55, not what was sent (${NEW_V4}): the update was ignored`,
      cause: "refused",
      stopRetrying: true,
    });
  });
});

describe("failures keep GoIP's words and never show the password", () => {
  const cases: {
    name: string;
    username?: string;
    password?: string;
    hostname?: string;
    fault?: GoipFault;
    message: string | RegExp;
    cause: string;
    retryAfterSeconds?: number;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "a wrong password: Zugriff verweigert, not retried",
      password: "wrong-password",
      message: "GoIP: Zugriff verweigert — the router login is wrong or may not update home.goip.de (HTTP 200)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "another login's subdomain: the same answer, not retried",
      hostname: "elsewhere.goip.it",
      message: /^GoIP: Zugriff verweigert — .* elsewhere\.goip\.it /,
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "a subdomain that does not exist: the same answer, not retried",
      hostname: "nothere.goip.de",
      message: /^GoIP: Zugriff verweigert — .* nothere\.goip\.de /,
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "another line: GoIP's words, retried later",
      fault: { body: "Wartungsarbeiten" },
      message: 'GoIP: unreadable answer (HTTP 200): "Wartungsarbeiten"',
      cause: "refused",
    },
    {
      name: "500",
      fault: { status: 500 },
      message: 'GoIP: unreadable answer (HTTP 500): "Error"',
      cause: "unreachable",
    },
    { name: "an empty 200", fault: { body: "" }, message: "GoIP: empty answer (HTTP 200)", cause: "refused" },
    {
      name: "garbage echoing the password",
      fault: { body: `bad request password=${GOIP_FAKE_PASSWORD}` },
      message: 'GoIP: unreadable answer (HTTP 200): "bad request password=••••"',
      cause: "refused",
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      if (c.fault) fake.fault(c.fault);
      const outcome = await client({ username: c.username, password: c.password, timeoutMs: 1000 }).writeRecord(
        target(c.hostname ?? "home.goip.de"),
        NEW_V4,
      );
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toMatch(c.message);
      expect(outcome.cause).toBe(c.cause as typeof outcome.cause);
      expect(outcome.retryAfterSeconds).toBe(c.retryAfterSeconds);
      expect(outcome.stopRetrying).toBe(c.stopRetrying);
      expect(outcome.message).not.toContain(GOIP_FAKE_PASSWORD);
      expect(fake.requests).toHaveLength(1);
      expect(home).toMatchObject({ ipv4: "198.51.100.1", updates: 0 });
    });
  }
});

describe("the fake plays GoIP's traps", () => {
  test("without ip the caller's IPv4 is published, even when ip6 is given", async () => {
    await fetch(
      `${fake.url}/setip?username=${GOIP_FAKE_USERNAME}&password=${GOIP_FAKE_PASSWORD}&subdomain=home.goip.de&ip6=${NEW_V6}`,
    );
    expect(home).toMatchObject({ ipv4: "127.0.0.1", ipv6: NEW_V6 });
  });
});
