// The Namecheap client against the faithful fake: the hostname split by the Public Suffix List (or by
// config.zone_id), one request per write, only ErrCount deciding (through the false utf-16 prolog),
// Namecheap's own words in every failure, and the password never among them.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { RecordConfig, RecordTarget, RecordType } from "../../src/dns/provider";
import { createNamecheapClient } from "../../src/dns/services/namecheap";
import {
  NAMECHEAP_FAKE_PASSWORD,
  type NamecheapDomain,
  type NamecheapFake,
  type NamecheapFault,
  startNamecheapFake,
} from "../fakes/namecheap";

const NEW_V4 = "203.0.113.7";

let fake: NamecheapFake;
let couk: NamecheapDomain;
let com: NamecheapDomain;

beforeEach(() => {
  fake = startNamecheapFake();
  couk = fake.addDomain("example.co.uk", { "@": "198.51.100.1", home: "198.51.100.2", "a.b": "198.51.100.3" });
  com = fake.addDomain("example.com", { "@": "198.51.100.4", "vpn.home": "198.51.100.5" });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { password?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return createNamecheapClient(options.password ?? NAMECHEAP_FAKE_PASSWORD, {
    baseUrl: options.baseUrl ?? fake.url,
    fetch,
    timeoutMs: options.timeoutMs ?? 2000,
    userAgent: "ddnsd/1.2.3",
  });
}

function target(hostname: string, config: RecordConfig = {}, recordType: RecordType = "A"): RecordTarget {
  return { hostname, recordType, externalId: null, config };
}

describe("the hostname is split into host and registered domain", () => {
  const cases: {
    name: string;
    hostname: string;
    config?: RecordConfig;
    host: string;
    domain: string;
    record: () => string | undefined;
  }[] = [
    {
      name: "under a two-label public suffix",
      hostname: "home.example.co.uk",
      host: "home",
      domain: "example.co.uk",
      record: () => couk.hosts.get("home"),
    },
    {
      name: "the apex is @",
      hostname: "example.co.uk",
      host: "@",
      domain: "example.co.uk",
      record: () => couk.hosts.get("@"),
    },
    {
      name: "two labels deep",
      hostname: "a.b.example.co.uk",
      host: "a.b",
      domain: "example.co.uk",
      record: () => couk.hosts.get("a.b"),
    },
    {
      name: "a .com apex",
      hostname: "example.com",
      host: "@",
      domain: "example.com",
      record: () => com.hosts.get("@"),
    },
    {
      name: "a .com name two labels deep",
      hostname: "vpn.home.example.com",
      host: "vpn.home",
      domain: "example.com",
      record: () => com.hosts.get("vpn.home"),
    },
    {
      name: "config.zone_id names the domain",
      hostname: "home.example.co.uk",
      config: { zone_id: "example.co.uk" },
      host: "home",
      domain: "example.co.uk",
      record: () => couk.hosts.get("home"),
    },
    {
      name: "config.zone_id with a trailing dot and capitals",
      hostname: "example.co.uk",
      config: { zone_id: "Example.co.uk." },
      host: "@",
      domain: "example.co.uk",
      record: () => couk.hosts.get("@"),
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const outcome = await client().writeRecord(target(c.hostname, c.config), NEW_V4);
      expect(outcome).toEqual({
        ok: true,
        action: "updated",
        externalId: c.hostname,
        zoneId: c.domain,
        message: `Namecheap host ${c.host} of ${c.domain}`,
      });
      expect(fake.requests).toHaveLength(1);
      expect(fake.requests[0]?.path).toBe("/update");
      expect(fake.requests[0]?.query).toEqual({
        host: c.host,
        domain: c.domain,
        password: NAMECHEAP_FAKE_PASSWORD,
        ip: NEW_V4,
      });
      expect(fake.requests[0]?.headers["user-agent"]).toBe("ddnsd/1.2.3");
      expect(c.record()).toBe(NEW_V4);
    });
  }

  test("a zone_id that names a domain of its own splits there (a sub-zone delegated to Namecheap)", async () => {
    const sub = fake.addDomain("home.example.com", { vpn: "198.51.100.8" });
    const outcome = await client().writeRecord(target("vpn.home.example.com", { zone_id: "home.example.com" }), NEW_V4);
    expect(outcome).toMatchObject({
      ok: true,
      zoneId: "home.example.com",
      message: "Namecheap host vpn of home.example.com",
    });
    expect(sub.hosts.get("vpn")).toBe(NEW_V4);
    expect(com.hosts.get("vpn.home")).toBe("198.51.100.5");
  });

  test("a zone_id that does not hold the hostname is refused without a request", async () => {
    const outcome = await client().writeRecord(target("home.example.co.uk", { zone_id: "example.com" }), NEW_V4);
    expect(outcome).toEqual({
      ok: false,
      message: "Namecheap: config.zone_id example.com does not hold home.example.co.uk; correct it or remove it",
      cause: "refused",
      stopRetrying: true,
    });
    expect(fake.requests).toHaveLength(0);
  });

  test("a zone_id that only ends like the hostname (no label boundary) is refused", async () => {
    const outcome = await client().writeRecord(target("home.myexample.com", { zone_id: "example.com" }), NEW_V4);
    expect(outcome).toMatchObject({ ok: false, stopRetrying: true });
    expect(fake.requests).toHaveLength(0);
  });

  test("a public suffix itself is refused without a request", async () => {
    expect(await client().writeRecord(target("co.uk"), NEW_V4)).toEqual({
      ok: false,
      message: "Namecheap: co.uk is not under a registrable domain (Public Suffix List)",
      cause: "refused",
      stopRetrying: true,
    });
    expect(fake.requests).toHaveLength(0);
  });

  test("AAAA is refused without a request", async () => {
    expect(await client().writeRecord(target("home.example.co.uk", {}, "AAAA"), "2a01:4f8::7")).toEqual({
      ok: false,
      message: "Namecheap: Dynamic DNS sets IPv4 (A) records only",
      cause: "refused",
      stopRetrying: true,
    });
    expect(fake.requests).toHaveLength(0);
  });
});

describe("the answer", () => {
  test("the false utf-16 prolog and the plain one both read", async () => {
    for (const prolog of ["utf-16", "plain"] as const) {
      fake.prolog = prolog;
      expect((await client().writeRecord(target("home.example.co.uk"), NEW_V4)).ok).toBe(true);
    }
  });

  test("success without <IP> is still success", async () => {
    fake.fault(
      { xml: '<?xml version="1.0"?><interface-response><ErrCount>0</ErrCount><Done>true</Done></interface-response>' },
      1,
    );
    expect(await client().writeRecord(target("home.example.co.uk"), NEW_V4)).toMatchObject({ ok: true });
  });

  test("success naming another address stops retrying: Namecheap published something else", async () => {
    fake.fault(
      { xml: "<interface-response><IP>192.0.2.55</IP><ErrCount>0</ErrCount><Done>true</Done></interface-response>" },
      1,
    );
    expect(await client().writeRecord(target("home.example.co.uk"), NEW_V4)).toEqual({
      ok: false,
      message: `Namecheap: answered that home.example.co.uk holds 192.0.2.55, not what was sent (${NEW_V4}): the update was ignored`,
      cause: "refused",
      stopRetrying: true,
    });
  });
});

describe("failures keep Namecheap's words and never show the password", () => {
  const cases: {
    name: string;
    password?: string;
    hostname?: string;
    ip?: string;
    fault?: NamecheapFault;
    message: string | RegExp;
    retryAfterSeconds?: number;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "a wrong password",
      password: "ffffffffffffffffffffffffffffffff",
      message: "Namecheap: Passwords do not match (response 304156, HTTP 200)",
      stopRetrying: true,
    },
    {
      name: "a domain not at Namecheap",
      hostname: "home.example.org",
      message: "Namecheap: Domain name not found (response 316153, HTTP 200)",
      stopRetrying: true,
    },
    {
      name: "a host without an A + Dynamic DNS record",
      hostname: "nothere.example.co.uk",
      message: "Namecheap: No Records updated. A record not Found; (HTTP 200)",
      stopRetrying: true,
    },
    {
      name: "an address Namecheap refuses",
      ip: "not-an-ip",
      message: "Namecheap: Invalid IP (response 304156, HTTP 200)",
    },
    {
      name: "two errors, entities decoded",
      fault: {
        xml: "<interface-response><ErrCount>2</ErrCount><errors><Err1>Bad &amp; worse</Err1><Err2>Also &lt;this&gt;</Err2></errors><Done>true</Done></interface-response>",
      },
      message: "Namecheap: Bad & worse; Also <this> (2 errors, HTTP 200)",
    },
    {
      name: "429 with Retry-After",
      fault: { status: 429, retryAfter: 45 },
      message: 'Namecheap: unreadable answer (HTTP 429): "Too Many Requests"',
      retryAfterSeconds: 45,
    },
    { name: "503", fault: { status: 503 }, message: 'Namecheap: unreadable answer (HTTP 503): "Service Unavailable"' },
    {
      name: "XML without ErrCount",
      fault: { xml: "<interface-response><Done>true</Done></interface-response>" },
      message: /^Namecheap: unreadable answer \(HTTP 200\): "<interface-response>/,
    },
    { name: "an empty 200", fault: { xml: "" }, message: "Namecheap: empty answer (HTTP 200)" },
    {
      name: "garbage echoing the password",
      fault: { xml: `error for password=${NAMECHEAP_FAKE_PASSWORD}` },
      message: 'Namecheap: unreadable answer (HTTP 200): "error for password=••••"',
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      if (c.fault) fake.fault(c.fault);
      const outcome = await client({ password: c.password, timeoutMs: 1000 }).writeRecord(
        target(c.hostname ?? "home.example.co.uk"),
        c.ip ?? NEW_V4,
      );
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toMatch(c.message);
      expect(outcome.retryAfterSeconds).toBe(c.retryAfterSeconds);
      expect(outcome.stopRetrying).toBe(c.stopRetrying);
      expect(outcome.message).not.toContain(NAMECHEAP_FAKE_PASSWORD);
      expect(fake.requests).toHaveLength(1);
      expect(couk.hosts.get("home")).toBe("198.51.100.2");
    });
  }
});

describe("the fake plays Namecheap's traps", () => {
  test("errors come with Done true in an HTTP 200; without ip the caller's address is published", async () => {
    const refused = await fetch(`${fake.url}/update?host=home&domain=example.co.uk&password=wrong`);
    const body = await refused.text();
    expect(refused.status).toBe(200);
    expect(body).toStartWith('<?xml version="1.0" encoding="utf-16"?>');
    expect(body).toContain("<ErrCount>1</ErrCount>");
    expect(body).toContain("<Done>true</Done>");
    await fetch(`${fake.url}/update?host=home&domain=example.co.uk&password=${NAMECHEAP_FAKE_PASSWORD}`);
    expect(couk.hosts.get("home")).toBe("127.0.0.1");
  });
});
