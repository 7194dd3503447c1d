// The TransIP client against its fake: the signed login and the token it keeps, what it changes, what
// it keeps, how many requests it spends, and how every failure ends up in TransIP's own words.

import { describe, expect, test } from "bun:test";
import { zoneClient } from "../../src/dns/reconcile";
import { createTransipApi, transip, transipSignature } from "../../src/dns/services/transip";
import { startTransipFake, TRANSIP_FAKE_LOGIN, TRANSIP_FAKE_PRIVATE_KEY, type TransipFault } from "../fakes/transip";
import { context, fails, failureTests, STOP, serviceClient, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startTransipFake, (fake) => {
  fake.addDomain("example.com");
  fake.addEntry("example.com", { name: "home", type: "A", content: OLD_IP, expire: 3600 });
});
const client = (private_key = TRANSIP_FAKE_PRIVATE_KEY) =>
  serviceClient("transip", fake.url, { login: TRANSIP_FAKE_LOGIN, private_key });

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.entry("example.com", "home", "A");
const known = { zone_id: "example.com" };

test("the login signature is the body signed with RSA SHA-512, base64: the vector openssl (the official SDK's signer) gives", () => {
  // openssl dgst -sha512 -sign key.pem body.json | base64, with the fake's throwaway key.
  const body =
    '{"login":"ddnsd-user","nonce":"0123456789abcdef0123456789abcdef","read_only":false,"expiration_time":"30 minutes","label":"ddnsd 1","global_key":true}';
  expect(transipSignature(body, TRANSIP_FAKE_PRIVATE_KEY)).toBe(
    "Z3slosGrrCTpfDqiYBzs9nCvU4VRx1qJY6F/1sTJtZHg5OoM2ioB6amzvYECTgk0grUEGm7WwcnWN6SZTDj8w/8DhRAmHI5TDap5JZspe5I5137cA+qt5c/deJb5bWUlpREvPylRiMzRHXswHLcOzD9OeZcXxZie5V622BtfiM4=",
  );
});

test("the description names the credentials, the record types, no TTL setting and the real service", () => {
  expect(transip.credentials.map((c) => [c.key, c.secret])).toEqual([
    ["login", false],
    ["private_key", true],
  ]);
  expect(transip.credentials[1]!.validate!("not a key")).toMatch(/^must be the private key/);
  expect(transip.credentials[1]!.validate!(TRANSIP_FAKE_PRIVATE_KEY)).toBeUndefined();
  expect(transip.ttl).toBeNull();
  expect(transip.defaultApiUrl).toBe("https://api.transip.nl/v6");
});

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

test("a key that cannot be read fails without a request", async () => {
  const outcome = await client("-----BEGIN PRIVATE KEY-----\nnonsense\n-----END PRIVATE KEY-----").writeRecord(
    target("home.example.com", known),
    NEW_IP,
  );
  expect(outcome).toMatchObject({ ok: false, cause: "credentials", stopRetrying: true });
  expect(fake.requests).toHaveLength(0);
});

test("the token is reused within its life, replaced once when TransIP refuses it, and not used past 25 minutes", async () => {
  let clock = 1_000_000;
  const built = zoneClient(
    createTransipApi(
      { login: TRANSIP_FAKE_LOGIN, private_key: TRANSIP_FAKE_PRIVATE_KEY },
      context(fake.url),
      () => clock,
    ),
  );
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
  clock += 25 * 60 * 1000 + 1;
  fake.clearRequests();
  await built.writeRecord(target("home.example.com", known), NEW_IP);
  expect(requestLines()).toEqual(["POST /auth", "GET /domains/example.com/dns"]);
});

test("an existing entry: its content changed, its name, type and expire sent back as read", async () => {
  const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
  expect(withoutHeld(outcome)).toEqual({
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

describe("failures keep TransIP's words and leave the entry alone", () => {
  failureTests(
    [
      fails(
        { status: 403, error: "This API key is not allowed" },
        "TransIP: This API key is not allowed (HTTP 403)",
        "credentials",
        STOP,
      ),
      // A 429 without Retry-After names no wait.
      fails({ status: 429 }, "TransIP: Rate limit exceeded (HTTP 429)", "throttled"),
      fails({ status: 500 }, "TransIP: Internal server error (HTTP 500)", "unreachable"),
    ],
    ({ arrange }: { arrange: TransipFault }) => {
      fake.fault(arrange, undefined, (r) => r.path !== "/auth");
      return client().writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(home()?.content).toBe(OLD_IP);
    },
  );
});
