// The TransIP client against its fake: the signed login and the token it keeps, what it changes, what
// it keeps, how many requests it spends, and how every failure ends up in TransIP's own words.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FailureCause } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createTransipApi, transip, transipSignature } from "../../src/dns/services/transip";
import {
  startTransipFake,
  TRANSIP_FAKE_LOGIN,
  TRANSIP_FAKE_PRIVATE_KEY,
  type TransipFake,
  type TransipFault,
} from "../fakes/transip";
import { failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: TransipFake;

beforeEach(() => {
  fake = startTransipFake();
  fake.addDomain("example.com");
  fake.addEntry("example.com", { name: "home", type: "A", content: OLD_IP, expire: 3600 });
  fake.addEntry("example.com", { name: "@", type: "A", content: OLD_IP, expire: 86400 });
});

afterEach(async () => {
  await fake.stop();
});

function api(options: { key?: string; timeoutMs?: number; baseUrl?: string; now?: () => number } = {}) {
  return createTransipApi(
    { login: TRANSIP_FAKE_LOGIN, private_key: options.key ?? TRANSIP_FAKE_PRIVATE_KEY },
    { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    options.now,
  );
}
const client = (options: Parameters<typeof api>[0] = {}) => zoneClient(api(options));

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.entry("example.com", "home", "A");
const known = { zone_id: "example.com" };

describe("the login signature", () => {
  test("is the body signed with RSA SHA-512, base64: the vector openssl (the official SDK's signer) gives", () => {
    // openssl dgst -sha512 -sign key.pem body.json | base64, with the fake's throwaway key.
    const body =
      '{"login":"ddnsd-user","nonce":"0123456789abcdef0123456789abcdef","read_only":false,"expiration_time":"30 minutes","label":"ddnsd 1","global_key":true}';
    expect(transipSignature(body, TRANSIP_FAKE_PRIVATE_KEY)).toBe(
      "Z3slosGrrCTpfDqiYBzs9nCvU4VRx1qJY6F/1sTJtZHg5OoM2ioB6amzvYECTgk0grUEGm7WwcnWN6SZTDj8w/8DhRAmHI5TDap5JZspe5I5137cA+qt5c/deJb5bWUlpREvPylRiMzRHXswHLcOzD9OeZcXxZie5V622BtfiM4=",
    );
  });
});

describe("the description", () => {
  test("names the credentials, the record types, no TTL setting and the real service", () => {
    expect(transip.type).toBe("transip");
    expect(transip.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["login", false],
      ["private_key", true],
    ]);
    expect(transip.credentials[1]!.validate!("not a key")).toMatch(/^must be the private key/);
    expect(transip.credentials[1]!.validate!(TRANSIP_FAKE_PRIVATE_KEY)).toBeUndefined();
    expect(transip.ttl).toBeNull();
    expect(transip.defaultApiUrl).toBe("https://api.transip.nl/v6");
  });
});

describe("verify and the token", () => {
  test("a signed login with a fresh nonce and label, not limited to the whitelist; nothing changed", async () => {
    expect(await client().verify()).toEqual({ ok: true, detail: `Key pair accepted for ${TRANSIP_FAKE_LOGIN}` });
    expect(requestLines()).toEqual(["POST /auth"]);
    expect(fake.logins[0]).toMatchObject({
      login: TRANSIP_FAKE_LOGIN,
      read_only: false,
      expiration_time: "30 minutes",
      global_key: true,
    });
    await client().verify();
    expect(fake.logins[1]!.nonce).not.toBe(fake.logins[0]!.nonce);
    expect(fake.logins[1]!.label).not.toBe(fake.logins[0]!.label);
  });

  test("another account's key is refused in TransIP's words", async () => {
    fake.keys.clear();
    expect(await client().verify()).toMatchObject({
      ok: false,
      detail: "TransIP: Signature validation failed (HTTP 401)",
    });
  });

  test("a key that cannot be read fails without a request", async () => {
    const outcome = await client({
      key: "-----BEGIN PRIVATE KEY-----\nnonsense\n-----END PRIVATE KEY-----",
    }).writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "credentials", stopRetrying: true });
    expect(fake.requests).toHaveLength(0);
  });

  test("the token is reused within its life, and replaced once when TransIP refuses it", async () => {
    const built = client();
    await built.writeRecord(target("home.example.com", known), OLD_IP);
    await built.writeRecord(target("home.example.com", known), OLD_IP);
    expect(requestLines()).toEqual(["POST /auth", "GET /domains/example.com/dns", "GET /domains/example.com/dns"]);
    fake.tokens.clear();
    fake.clearRequests();
    expect(await built.writeRecord(target("home.example.com", known), NEW_IP)).toMatchObject({
      ok: true,
      action: "updated",
    });
    expect(requestLines()).toEqual([
      "GET /domains/example.com/dns",
      "POST /auth",
      "GET /domains/example.com/dns",
      "PATCH /domains/example.com/dns",
    ]);
  });

  test("a token older than 25 minutes is not used", async () => {
    let clock = 1_000_000;
    const built = zoneClient(api({ now: () => clock }));
    await built.writeRecord(target("home.example.com", known), OLD_IP);
    clock += 25 * 60 * 1000 + 1;
    fake.clearRequests();
    await built.writeRecord(target("home.example.com", known), OLD_IP);
    expect(requestLines()).toEqual(["POST /auth", "GET /domains/example.com/dns"]);
  });
});

describe("writeRecord", () => {
  test("an existing entry: its content changed, its name, type and expire sent back as read", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: "home A",
      zoneId: "example.com",
      message: "TransIP record home A, expire 3600",
    });
    expect(home()).toEqual({ name: "home", type: "A", content: NEW_IP, expire: 3600 });
    expect(requestLines()).toEqual([
      "POST /auth",
      "GET /domains/home.example.com",
      "GET /domains/example.com",
      "GET /domains/example.com/dns",
      "PATCH /domains/example.com/dns",
    ]);
    expect(fake.requests.at(-1)!.body).toEqual({
      dnsEntry: { name: "home", expire: 3600, type: "A", content: NEW_IP },
    });
  });

  test("no domain holding the name; a configured domain that does not hold it", async () => {
    expect(await client().writeRecord(target("host.other.net"), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message: "TransIP: no zone of this account holds host.other.net",
    });
    fake.clearRequests();
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: "other.org" }), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "refused" });
    expect(fake.requests).toHaveLength(0);
  });
});

describe("failures keep TransIP's words and leave the entry alone", () => {
  const cases: {
    name: string;
    fault: TransipFault;
    message: string | RegExp;
    cause: FailureCause;
    retryAfterSeconds?: number;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "403",
      fault: { status: 403, error: "This API key is not allowed" },
      message: "TransIP: This API key is not allowed (HTTP 403)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "429 without Retry-After names no wait",
      fault: { status: 429 },
      message: "TransIP: Rate limit exceeded (HTTP 429)",
      cause: "throttled",
    },
    { name: "500", fault: { status: 500 }, message: "TransIP: Internal server error (HTTP 500)", cause: "unreachable" },
  ];
  failureTests(
    cases,
    async ({ fault }) => {
      fake.fault(fault, undefined, (r) => r.path !== "/auth");
      return client({ timeoutMs: 1000 }).writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(home()?.content).toBe(OLD_IP);
    },
  );

  test("a refused login stops retries until the provider is edited", async () => {
    fake.keys.clear();
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "credentials",
      stopRetrying: true,
      message: "TransIP: Signature validation failed (HTTP 401)",
    });
  });

  test("a refused PATCH is reported in TransIP's words", async () => {
    fake.fault({ status: 406, error: "Domain is locked" }, 1, (r) => r.method === "PATCH");
    expect(await client().writeRecord(target("home.example.com", known), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message: "TransIP: Domain is locked (HTTP 406)",
    });
    expect(home()?.content).toBe(OLD_IP);
  });
});
