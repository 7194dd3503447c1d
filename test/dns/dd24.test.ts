// The Domain Discount24 client against the faithful fake: one GET per write naming the full hostname
// and the address (never `ip=auto`, never `mx=`), only Key-Systems' `code` deciding, a refused
// password not retried, DD24's other refusals (its 30-minute hold) retried later, and the password
// never in a message.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { RecordTarget, RecordType } from "../../src/dns/provider";
import { createDd24Client } from "../../src/dns/services/dd24";
import {
  DD24_FAKE_PASSWORD,
  type Dd24Fake,
  type Dd24Fault,
  type Dd24Host,
  keySystemsResponse,
  startDd24Fake,
} from "../fakes/dd24";

const NEW_V4 = "203.0.113.7";

let fake: Dd24Fake;
let home: Dd24Host;
let apex: Dd24Host;

beforeEach(() => {
  fake = startDd24Fake();
  home = fake.addHost("home.example.com", { ipv4: "198.51.100.1", mx: "198.51.100.25" });
  apex = fake.addHost("example.net", { ipv4: "198.51.100.2", password: "apex-password-1234" });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { password?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return createDd24Client(options.password ?? DD24_FAKE_PASSWORD, {
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
  test("A: one GET naming the full hostname, the password and the address; the MX stays", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_V4);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: "home.example.com",
      zoneId: "",
      message: "Domain Discount24 dynamic DNS host home.example.com",
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ method: "GET", path: "/update.php" });
    expect(fake.requests[0]?.query).toEqual({ hostname: "home.example.com", password: DD24_FAKE_PASSWORD, ip: NEW_V4 });
    expect(fake.requests[0]?.headers["user-agent"]).toBe("ddnsd/1.2.3");
    expect(home).toMatchObject({ ipv4: NEW_V4, mx: "198.51.100.25", updates: 1 });
  });

  test("an empty 200 for a done update is taken as done, so the update is not sent again into DD24's hold", async () => {
    fake.emptyWhenDone = true;
    const outcome = await client().writeRecord(target("home.example.com"), NEW_V4);
    expect(outcome).toMatchObject({
      ok: true,
      action: "updated",
      message: "Domain Discount24 dynamic DNS host home.example.com, empty answer (HTTP 200)",
    });
    expect(home).toMatchObject({ ipv4: NEW_V4, updates: 1 });
  });

  test("the apex of a domain is its own dynamic DNS host", async () => {
    const outcome = await client({ password: "apex-password-1234" }).writeRecord(target("example.net"), NEW_V4);
    expect(outcome).toMatchObject({ ok: true, externalId: "example.net" });
    expect(apex.ipv4).toBe(NEW_V4);
  });

  test("AAAA is refused for good without a request", async () => {
    const outcome = await client().writeRecord(target("home.example.com", "AAAA"), "2001:db8::7");
    expect(outcome).toEqual({
      ok: false,
      message: "Domain Discount24: Dynamic DNS sets IPv4 (A) addresses only",
      cause: "refused",
      stopRetrying: true,
    });
    expect(fake.requests).toHaveLength(0);
  });
});

describe("failures keep DD24's words and never show the password", () => {
  const cases: {
    name: string;
    password?: string;
    hostname?: string;
    fault?: Dd24Fault;
    message: string | RegExp;
    cause: string;
    retryAfterSeconds?: number;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "a wrong password: Authorization failed, not retried",
      password: "wrong-password-0000",
      message:
        "Domain Discount24: Authorization failed — the password is wrong or home.example.com is not one of its dynamic DNS subdomains (code 531)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "a host that is not a dynamic DNS subdomain: the same answer, not retried",
      hostname: "other.example.com",
      message: /^Domain Discount24: Authorization failed — .* other\.example\.com .*\(code 531\)$/,
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "another code: DD24's words, retried later",
      fault: { body: keySystemsResponse(549, "Command failed; update denied, try again later") },
      message: "Domain Discount24: Command failed; update denied, try again later (code 549)",
      cause: "refused",
    },
    {
      name: "500",
      fault: { status: 500 },
      message: 'Domain Discount24: unreadable answer (HTTP 500): "Error"',
      cause: "unreachable",
    },
    {
      name: "garbage echoing the password",
      fault: { body: `bad request password=${DD24_FAKE_PASSWORD}` },
      message: 'Domain Discount24: unreadable answer (HTTP 200): "bad request password=••••"',
      cause: "refused",
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      if (c.fault) fake.fault(c.fault);
      const outcome = await client({ password: c.password, timeoutMs: 1000 }).writeRecord(
        target(c.hostname ?? "home.example.com"),
        NEW_V4,
      );
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toMatch(c.message);
      expect(outcome.cause).toBe(c.cause as typeof outcome.cause);
      expect(outcome.retryAfterSeconds).toBe(c.retryAfterSeconds);
      expect(outcome.stopRetrying).toBe(c.stopRetrying);
      expect(outcome.message).not.toContain(DD24_FAKE_PASSWORD);
      expect(fake.requests).toHaveLength(1);
      expect(home).toMatchObject({ ipv4: "198.51.100.1", updates: 0 });
    });
  }

  test("a second update within DD24's hold is refused and retried later, not given up", async () => {
    fake.holdSeconds = 1800;
    expect((await client().writeRecord(target("home.example.com"), NEW_V4)).ok).toBe(true);
    const second = await client().writeRecord(target("home.example.com"), "203.0.113.8");
    expect(second).toMatchObject({ ok: false, cause: "refused", message: expect.stringMatching(/\(code 549\)$/) });
    expect(second.ok ? undefined : second.stopRetrying).toBeUndefined();
    expect(home.ipv4).toBe(NEW_V4);
  });
});

describe("the fake plays DD24's traps", () => {
  test("ip=auto publishes the caller's address; mx= replaces the MX", async () => {
    const answer = await fetch(
      `${fake.url}/update.php?hostname=home.example.com&password=${DD24_FAKE_PASSWORD}&ip=auto&mx=192.0.2.9`,
    );
    expect(await answer.text()).toContain("code = 200");
    expect(home).toMatchObject({ ipv4: "127.0.0.1", mx: "192.0.2.9" });
  });
});
