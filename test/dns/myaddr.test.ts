// The myaddr.tools client against the faithful fake: one form POST per write with the name's key and
// the address (never `ip=self`), A and AAAA set independently, a wrong or malformed key not retried,
// and the key never in a message.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { RecordTarget, RecordType } from "../../src/dns/provider";
import { createMyaddrClient } from "../../src/dns/services/myaddr";
import { MYADDR_FAKE_KEY, type MyaddrFake, type MyaddrFault, type MyaddrName, startMyaddrFake } from "../fakes/myaddr";

const NEW_V4 = "203.0.113.7";
const NEW_V6 = "2a01:4f8::7";

let fake: MyaddrFake;
let home: MyaddrName;

beforeEach(() => {
  fake = startMyaddrFake();
  home = fake.claim("home", { ipv4: "198.51.100.1", ipv6: "2001:db8::1" });
  fake.claim("elsewhere", { key: "someoneelseskey0123456789", ipv4: "198.51.100.9" });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { key?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return createMyaddrClient(options.key ?? MYADDR_FAKE_KEY, {
    baseUrl: options.baseUrl ?? fake.url,
    fetch,
    timeoutMs: options.timeoutMs ?? 2000,
    userAgent: "ddnsd/1.2.3",
  });
}

function target(hostname: string, recordType: RecordType = "A"): RecordTarget {
  return { hostname, recordType, externalId: null, config: {} };
}

describe("writeRecord", () => {
  test("A: one form POST with the key and the IPv4; the AAAA stays", async () => {
    const outcome = await client().writeRecord(target("home.myaddr.tools"), NEW_V4);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: "home",
      zoneId: "",
      message: "myaddr name home",
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ method: "POST", path: "/update", query: {} });
    expect(fake.requests[0]?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(fake.requests[0]?.headers["user-agent"]).toBe("ddnsd/1.2.3");
    expect(Object.fromEntries(new URLSearchParams(fake.requests[0]?.body as string))).toEqual({
      key: MYADDR_FAKE_KEY,
      ip: NEW_V4,
    });
    expect(home).toMatchObject({ ipv4: NEW_V4, ipv6: "2001:db8::1", updates: 1 });
  });

  test("AAAA: the IPv6 in the same ip field; the A stays", async () => {
    expect(await client().writeRecord(target("home.myaddr.tools", "AAAA"), NEW_V6)).toMatchObject({ ok: true });
    expect(Object.fromEntries(new URLSearchParams(fake.requests[0]?.body as string))).toEqual({
      key: MYADDR_FAKE_KEY,
      ip: NEW_V6,
    });
    expect(home).toMatchObject({ ipv4: "198.51.100.1", ipv6: NEW_V6 });
  });

  test("the name under myaddr.dev or myaddr.io, and a name below it, use the same key", async () => {
    for (const hostname of ["home.myaddr.dev", "www.home.myaddr.io"]) {
      expect(await client().writeRecord(target(hostname), NEW_V4)).toMatchObject({ ok: true, externalId: "home" });
    }
    expect(home.updates).toBe(2);
  });

  test("a name outside myaddr's zones is refused without a request", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_V4);
    expect(outcome).toEqual({
      ok: false,
      message: "myaddr: home.example.com is not a name under myaddr.tools, myaddr.dev or myaddr.io",
      cause: "refused",
      stopRetrying: true,
    });
    expect(fake.requests).toHaveLength(0);
  });
});

describe("failures keep myaddr's words and never show the key", () => {
  const cases: {
    name: string;
    key?: string;
    fault?: MyaddrFault;
    message: string | RegExp;
    cause: string;
    retryAfterSeconds?: number;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "a key no name has: 404, not retried",
      key: "nosuchkey0123456789",
      message: "myaddr: not found — the key is wrong or home's claim is gone (HTTP 404)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "a malformed key: 400 naming the key, not retried",
      key: "not a key!",
      message: `myaddr: invalid value for "key" — the key is wrong or home's claim is gone (HTTP 400)`,
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "another 400: myaddr's words, not retried",
      fault: { status: 400, body: 'invalid value for "ip"' },
      message: 'myaddr: invalid value for "ip" (HTTP 400)',
      cause: "refused",
      stopRetrying: true,
    },
    {
      name: "an error echoing the key",
      fault: { status: 500, body: `failed for key=${MYADDR_FAKE_KEY}` },
      message: 'myaddr: unreadable answer (HTTP 500): "failed for key=••••"',
      cause: "unreachable",
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      if (c.fault) fake.fault(c.fault);
      const outcome = await client({ key: c.key, timeoutMs: 1000 }).writeRecord(target("home.myaddr.tools"), NEW_V4);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toMatch(c.message);
      expect(outcome.cause).toBe(c.cause as typeof outcome.cause);
      expect(outcome.retryAfterSeconds).toBe(c.retryAfterSeconds);
      expect(outcome.stopRetrying).toBe(c.stopRetrying);
      expect(outcome.message).not.toContain(MYADDR_FAKE_KEY);
      expect(fake.requests).toHaveLength(1);
      expect(home).toMatchObject({ ipv4: "198.51.100.1", updates: 0 });
    });
  }
});

describe("the fake plays myaddr's traps", () => {
  test("ip=self publishes the caller's address; the query works as well as the form", async () => {
    const answer = await fetch(`${fake.url}/update?key=${MYADDR_FAKE_KEY}&ip=self`, { method: "POST" });
    expect(await answer.text()).toBe("OK");
    expect(home.ipv4).toBe("127.0.0.1");
  });
});
