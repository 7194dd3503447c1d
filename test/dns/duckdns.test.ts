// The DuckDNS client against the faithful fake: one request per write, the address always sent in its
// own family's parameter (never the caller's address, never `clear`), and every answer that is not
// `OK` ending up as a failure with DuckDNS's words, the token never among them.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { RecordConfig, RecordTarget, RecordType } from "../../src/dns/provider";
import { createDuckDnsClient } from "../../src/dns/services/duckdns";
import {
  DUCKDNS_FAKE_TOKEN,
  type DuckDnsDomain,
  type DuckDnsFake,
  type DuckDnsFault,
  startDuckDnsFake,
} from "../fakes/duckdns";

const NEW_V4 = "203.0.113.7";
const NEW_V6 = "2a01:4f8::7";

let fake: DuckDnsFake;
let home: DuckDnsDomain;

beforeEach(() => {
  fake = startDuckDnsFake();
  home = fake.addDomain("home", { ipv4: "198.51.100.1", ipv6: "2001:db8::1" });
  fake.addDomain("elsewhere", { token: "someone-elses-token", ipv4: "198.51.100.9" });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { token?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return createDuckDnsClient(options.token ?? DUCKDNS_FAKE_TOKEN, {
    baseUrl: options.baseUrl ?? fake.url,
    fetch,
    timeoutMs: options.timeoutMs ?? 2000,
    userAgent: "ddnsd/1.2.3",
  });
}

function target(hostname: string, recordType: RecordType = "A", config: RecordConfig = {}): RecordTarget {
  return { hostname, recordType, externalId: null, config };
}

describe("writeRecord", () => {
  const cases: {
    name: string;
    hostname: string;
    recordType: RecordType;
    ip: string;
    query: Record<string, string>;
    after: Partial<DuckDnsDomain>;
  }[] = [
    {
      name: "A: ip= carries the IPv4, the AAAA stays",
      hostname: "home.duckdns.org",
      recordType: "A",
      ip: NEW_V4,
      query: { domains: "home", token: DUCKDNS_FAKE_TOKEN, ip: NEW_V4, verbose: "true" },
      after: { ipv4: NEW_V4, ipv6: "2001:db8::1" },
    },
    {
      name: "AAAA: ipv6= carries the IPv6, the A stays (no caller address)",
      hostname: "home.duckdns.org",
      recordType: "AAAA",
      ip: NEW_V6,
      query: { domains: "home", token: DUCKDNS_FAKE_TOKEN, ipv6: NEW_V6, verbose: "true" },
      after: { ipv4: "198.51.100.1", ipv6: NEW_V6 },
    },
    {
      name: "a name below a subdomain updates that subdomain",
      hostname: "www.home.duckdns.org",
      recordType: "A",
      ip: NEW_V4,
      query: { domains: "home", token: DUCKDNS_FAKE_TOKEN, ip: NEW_V4, verbose: "true" },
      after: { ipv4: NEW_V4 },
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const outcome = await client().writeRecord(target(c.hostname, c.recordType), c.ip);
      expect(outcome).toEqual({
        ok: true,
        action: "updated",
        externalId: "home",
        zoneId: "",
        message: "DuckDNS domain home",
      });
      expect(fake.requests).toHaveLength(1);
      expect(fake.requests[0]?.method).toBe("GET");
      expect(fake.requests[0]?.path).toBe("/update");
      expect(fake.requests[0]?.query).toEqual(c.query);
      expect(fake.requests[0]?.headers["user-agent"]).toBe("ddnsd/1.2.3");
      expect(home).toMatchObject(c.after);
    });
  }

  test("an address DuckDNS already holds: success that says nothing changed, still one request", async () => {
    const outcome = await client().writeRecord(target("home.duckdns.org"), "198.51.100.1");
    expect(outcome).toEqual({
      ok: true,
      action: "unchanged",
      externalId: "home",
      zoneId: "",
      message: "DuckDNS domain home, it already held this address",
    });
    expect(home.changes).toBe(0);
    expect(fake.updates()).toBe(1);
  });

  test("a bare OK (no verbose answer) is success", async () => {
    fake.fault({ body: "OK" }, 1);
    expect(await client().writeRecord(target("home.duckdns.org"), NEW_V4)).toMatchObject({
      ok: true,
      message: "DuckDNS domain home",
    });
  });

  test("clear=true is never sent, and the record is never emptied", async () => {
    for (const [type, ip] of [
      ["A", NEW_V4],
      ["AAAA", NEW_V6],
    ] as const) {
      await client().writeRecord(target("home.duckdns.org", type), ip);
    }
    expect(fake.requests.every((r) => !("clear" in r.query))).toBe(true);
    expect(home).toMatchObject({ ipv4: NEW_V4, ipv6: NEW_V6 });
  });
});

describe("failures keep DuckDNS's words and never show the token", () => {
  const cases: {
    name: string;
    token?: string;
    hostname?: string;
    fault?: DuckDnsFault;
    message: string | RegExp;
    retryAfterSeconds?: number;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "a wrong token: KO, not retried",
      token: "00000000-0000-0000-0000-000000000000",
      message: "DuckDNS: KO — the token is wrong or home.duckdns.org is not a subdomain of its account (HTTP 200)",
      stopRetrying: true,
    },
    {
      name: "another account's subdomain: KO, not retried",
      hostname: "elsewhere.duckdns.org",
      message: "DuckDNS: KO — the token is wrong or elsewhere.duckdns.org is not a subdomain of its account (HTTP 200)",
      stopRetrying: true,
    },
    {
      name: "a subdomain that does not exist: KO, not retried",
      hostname: "nothere.duckdns.org",
      message: /^DuckDNS: KO — .* nothere\.duckdns\.org /,
      stopRetrying: true,
    },
    {
      name: "429 with Retry-After",
      fault: { status: 429, retryAfter: 120 },
      message: 'DuckDNS: unreadable answer (HTTP 429): "Too Many Requests"',
      retryAfterSeconds: 120,
    },
    {
      name: "429 without Retry-After: no wait invented (the updater decides)",
      fault: { status: 429 },
      message: /\(HTTP 429\): "/,
    },
    {
      name: "429 asking for a week: the wait named, which the updater caps",
      fault: { status: 429, retryAfter: 604800 },
      message: /\(HTTP 429\): "/,
      retryAfterSeconds: 604800,
    },
    {
      name: "503 with Retry-After",
      fault: { status: 503, retryAfter: 30 },
      message: 'DuckDNS: unreadable answer (HTTP 503): "Error"',
      retryAfterSeconds: 30,
    },
    { name: "500", fault: { status: 500 }, message: 'DuckDNS: unreadable answer (HTTP 500): "Error"' },
    { name: "an empty 200", fault: { body: "" }, message: "DuckDNS: empty answer (HTTP 200)" },
    {
      name: "garbage echoing the token",
      fault: { body: `bad request token=${DUCKDNS_FAKE_TOKEN}` },
      message: 'DuckDNS: unreadable answer (HTTP 200): "bad request token=••••"',
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      if (c.fault) fake.fault(c.fault);
      const outcome = await client({ token: c.token, timeoutMs: 1000 }).writeRecord(
        target(c.hostname ?? "home.duckdns.org"),
        NEW_V4,
      );
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toMatch(c.message);
      expect(outcome.retryAfterSeconds).toBe(c.retryAfterSeconds);
      expect(outcome.stopRetrying).toBe(c.stopRetrying);
      expect(outcome.message).not.toContain(DUCKDNS_FAKE_TOKEN);
      // No retry loop inside the client: one request, whatever the answer.
      expect(fake.requests).toHaveLength(1);
      expect(home).toMatchObject({ ipv4: "198.51.100.1", changes: 0 });
    });
  }

  test("a name outside duckdns.org is refused without a request", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_V4);
    expect(outcome).toEqual({
      ok: false,
      message: "DuckDNS: home.example.com is not a name under duckdns.org",
      cause: "refused",
      stopRetrying: true,
    });
    expect(fake.requests).toHaveLength(0);
  });
});

describe("the fake plays DuckDNS's traps", () => {
  test("without ip the caller's address is published; clear=true empties both records", async () => {
    await fetch(`${fake.url}/update?domains=home&token=${DUCKDNS_FAKE_TOKEN}`);
    expect(home.ipv4).toBe("127.0.0.1");
    const cleared = await fetch(`${fake.url}/update?domains=home.duckdns.org&token=${DUCKDNS_FAKE_TOKEN}&clear=true`);
    expect(await cleared.text()).toBe("OK");
    expect(home).toMatchObject({ ipv4: "", ipv6: "" });
  });
});

describe("a hostname's two addresses, and the answer checked for them", () => {
  test("with an AAAA sibling, an A write names both in one request", async () => {
    const outcome = await client().writeRecord(
      { ...target("home.duckdns.org"), siblings: { ipv6: "2001:db8::1" } },
      NEW_V4,
    );
    expect(outcome.ok).toBe(true);
    expect(fake.requests[0]?.query).toMatchObject({
      domains: "home",
      ip: NEW_V4,
      ipv6: "2001:db8::1",
      verbose: "true",
    });
    expect([home.ipv4, home.ipv6]).toEqual([NEW_V4, "2001:db8::1"]);
  });

  test("with an A sibling, an AAAA write names both", async () => {
    await client().writeRecord({ ...target("home.duckdns.org", "AAAA"), siblings: { ipv4: "198.51.100.1" } }, NEW_V6);
    expect(fake.requests[0]?.query).toMatchObject({ ip: "198.51.100.1", ipv6: NEW_V6 });
    expect([home.ipv4, home.ipv6]).toEqual(["198.51.100.1", NEW_V6]);
  });

  test("a verbose OK naming another address than the one sent stops retrying", async () => {
    fake.fault({ body: "OK\n192.0.2.55\n\nUPDATED" }, 1);
    expect(await client().writeRecord(target("home.duckdns.org"), NEW_V4)).toEqual({
      ok: false,
      message: `DuckDNS: answered that home.duckdns.org holds 192.0.2.55, not what was sent (${NEW_V4}): the update was ignored`,
      cause: "refused",
      stopRetrying: true,
    });
  });

  test("a verbose OK holding the address sent (IPv6 written differently) is a success that changed it", async () => {
    fake.fault({ body: "OK\n198.51.100.1\n2A01:04F8:0:0::7\nUPDATED" }, 1);
    expect(await client().writeRecord(target("home.duckdns.org", "AAAA"), NEW_V6)).toMatchObject({
      ok: true,
      action: "updated",
    });
  });
});
