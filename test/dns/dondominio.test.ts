// The DonDominio (DonDNS) client against the faithful fake: one GET per write with the username, the
// DonDNS key as `password`, the full host and the address (never left for DonDNS to guess), only
// `success` deciding, DonDNS's words in every refusal (retried with backoff), and the key never in a
// message.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { RecordTarget, RecordType } from "../../src/dns/provider";
import { createDonDominioClient } from "../../src/dns/services/dondominio";
import {
  DONDOMINIO_FAKE_KEY,
  DONDOMINIO_FAKE_USER,
  type DonDominioFake,
  type DonDominioFault,
  type DonDominioRecord,
  startDonDominioFake,
} from "../fakes/dondominio";

const NEW_V4 = "203.0.113.7";

let fake: DonDominioFake;
let home: DonDominioRecord;
let apex: DonDominioRecord;

beforeEach(() => {
  fake = startDonDominioFake();
  home = fake.addRecord("home.example.es", { ipv4: "198.51.100.1" });
  apex = fake.addRecord("example.es", { ipv4: "198.51.100.2" });
  fake.keys.set("someone-else", "their-key");
  fake.addRecord("shop.example.org", { user: "someone-else", ipv4: "198.51.100.9" });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { username?: string; key?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return createDonDominioClient(options.username ?? DONDOMINIO_FAKE_USER, options.key ?? DONDOMINIO_FAKE_KEY, {
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
  test("A: one GET to /json/ with the user, the key as password, the full host and the address", async () => {
    const outcome = await client().writeRecord(target("home.example.es"), NEW_V4);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: "home.example.es",
      zoneId: "",
      message: "DonDominio DonDNS host home.example.es",
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ method: "GET", path: "/json/" });
    expect(fake.requests[0]?.query).toEqual({
      user: DONDOMINIO_FAKE_USER,
      password: DONDOMINIO_FAKE_KEY,
      host: "home.example.es",
      ip: NEW_V4,
      lang: "en",
    });
    expect(fake.requests[0]?.headers["user-agent"]).toBe("ddnsd/1.2.3");
    expect(home).toMatchObject({ ipv4: NEW_V4, updates: 1 });
  });

  test("the apex is its own host", async () => {
    expect(await client().writeRecord(target("example.es"), NEW_V4)).toMatchObject({
      ok: true,
      externalId: "example.es",
    });
    expect(apex.ipv4).toBe(NEW_V4);
    expect(home.updates).toBe(0);
  });

  test("AAAA is refused for good without a request", async () => {
    expect(await client().writeRecord(target("home.example.es", "AAAA"), "2001:db8::7")).toEqual({
      ok: false,
      message: "DonDominio: DonDNS sets IPv4 (A) records only",
      cause: "refused",
      stopRetrying: true,
    });
    expect(fake.requests).toHaveLength(0);
  });
});

describe("failures keep DonDNS's words and never show the key", () => {
  const cases: {
    name: string;
    username?: string;
    key?: string;
    hostname?: string;
    fault?: DonDominioFault;
    message: string | RegExp;
    cause: string;
    retryAfterSeconds?: number;
  }[] = [
    {
      name: "a wrong key: success false, DonDNS's words and code, retried with backoff",
      key: "wrong-key",
      message: "DonDominio: Invalid username or DonDNS key (code 1001, HTTP 200)",
      cause: "refused",
    },
    {
      name: "a wrong username: the same",
      username: "nobody",
      message: /^DonDominio: Invalid username or DonDNS key /,
      cause: "refused",
    },
    {
      name: "a host that is not in the account's zones",
      hostname: "shop.example.org",
      message: "DonDominio: Host not found in your DNS zones (code 1002, HTTP 200)",
      cause: "refused",
    },
    {
      name: "success false without a code or messages",
      fault: { body: '{"success": false}' },
      message: "DonDominio: update refused (HTTP 200)",
      cause: "refused",
    },
    {
      name: "500",
      fault: { status: 500 },
      message: 'DonDominio: unreadable answer (HTTP 500): "Error"',
      cause: "unreachable",
    },
    { name: "an empty 200", fault: { body: "" }, message: "DonDominio: empty answer (HTTP 200)", cause: "refused" },
    {
      name: "a message echoing the key",
      fault: { body: JSON.stringify({ success: false, messages: [`bad password ${DONDOMINIO_FAKE_KEY}`] }) },
      message: "DonDominio: bad password •••• (HTTP 200)",
      cause: "refused",
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      if (c.fault) fake.fault(c.fault);
      const outcome = await client({ username: c.username, key: c.key, timeoutMs: 1000 }).writeRecord(
        target(c.hostname ?? "home.example.es"),
        NEW_V4,
      );
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toMatch(c.message);
      expect(outcome.cause).toBe(c.cause as typeof outcome.cause);
      expect(outcome.retryAfterSeconds).toBe(c.retryAfterSeconds);
      expect(outcome.stopRetrying).toBeUndefined();
      expect(outcome.message).not.toContain(DONDOMINIO_FAKE_KEY);
      expect(fake.requests).toHaveLength(1);
      expect(home).toMatchObject({ ipv4: "198.51.100.1", updates: 0 });
    });
  }
});

describe("the fake plays DonDNS's traps", () => {
  test("without ip the caller's address is set; the page's `apikey` name is refused like a wrong key", async () => {
    const auto = await fetch(
      `${fake.url}/json/?user=${DONDOMINIO_FAKE_USER}&password=${DONDOMINIO_FAKE_KEY}&host=home.example.es`,
    );
    expect(await auto.json()).toMatchObject({ success: true });
    expect(home.ipv4).toBe("127.0.0.1");
    const apikey = await fetch(
      `${fake.url}/json/?user=${DONDOMINIO_FAKE_USER}&apikey=${DONDOMINIO_FAKE_KEY}&host=home.example.es&ip=${NEW_V4}`,
    );
    expect(await apikey.json()).toMatchObject({ success: false });
  });
});
