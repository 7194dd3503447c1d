// The INWX client against its fake: the session it logs in for (and unlocks with a TOTP code when
// the account has two-factor login) and logs out of, what it changes and keeps, and how INWX's
// result codes end up as failures with their cause.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createInwxApi, inwx, inwxClient } from "../../src/dns/services/inwx";
import { decodeBase32, totp } from "../../src/dns/signing/totp";
import {
  INWX_FAKE_PASSWORD,
  INWX_FAKE_TFA_SECRET,
  INWX_FAKE_TFA_USER,
  INWX_FAKE_USER,
  type InwxFake,
  type InwxFault,
  inwxMethod,
  startInwxFake,
} from "../fakes/inwx";
import { context, fails, failureTests, STOP, serviceClient, target, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

// Not useFake: the two-factor tests set the fake's clock, a field of the fake itself.
let fake: InwxFake;
beforeEach(() => {
  fake = startInwxFake();
  fake.addDomain("example.com");
  fake.addRecord("example.com", { name: "home.example.com", type: "A", content: OLD_IP, ttl: 600 });
});
afterEach(async () => {
  await fake.stop();
});

const client = (username = INWX_FAKE_USER, shared_secret = "") =>
  serviceClient("inwx", fake.url, { username, password: INWX_FAKE_PASSWORD, shared_secret });
const known = { zone_id: "example.com" };
const home = () => fake.records("example.com", "home.example.com", "A");
const paramsOf = (method: string) =>
  fake.requests
    .filter((r) => inwxMethod(r) === method)
    .map((r) => (r.body as { params: Record<string, unknown> }).params);

// RFC 6238 Appendix B: the SHA-1 seed "12345678901234567890"; its 8-digit codes end in the 6-digit ones.
const seed = decodeBase32(INWX_FAKE_TFA_SECRET)!;
test("TOTP codes for two-factor login: the shared secret decodes to the RFC's seed, which gives the RFC's codes, 8 digits and 6", () => {
  expect(seed.toString()).toBe("12345678901234567890");
  expect(decodeBase32("gezd gnbv-gy3t qojq gezd gnbv gy3t qojq")!.toString()).toBe("12345678901234567890");
  expect(decodeBase32("not base32!")).toBeUndefined();
  for (const [seconds, code] of [
    [59, "94287082"],
    [1111111109, "07081804"],
    [1234567890, "89005924"],
    [20000000000, "65353130"],
  ] as const) {
    expect(totp(seed, seconds * 1000, 8)).toBe(code);
    expect(totp(seed, seconds * 1000)).toBe(code.slice(2));
  }
});

test("the description names the login, the optional two-factor secret and the real service", () => {
  expect(inwx.credentials.map((c) => [c.key, c.secret, c.optional ?? false])).toEqual([
    ["username", false, false],
    ["password", true, false],
    ["shared_secret", true, true],
  ]);
  expect(inwx.credentials[2]!.validate!("not base32!")).toBe("must be the base32 secret (letters A–Z and digits 2–7)");
  expect(inwx.credentials[2]!.validate!(INWX_FAKE_TFA_SECRET)).toBeUndefined();
  expect(inwx.recordTypes).toEqual(["A", "AAAA"]);
  expect(inwx.defaultApiUrl).toBe("https://api.domrobot.com/jsonrpc");
});

test("verify logs in and out, and changes nothing", async () => {
  expect(await client().verify()).toMatchObject({ ok: true });
  expect(fake.methods()).toEqual(["account.login", "account.logout"]);
  expect(paramsOf("account.login")).toEqual([{ user: INWX_FAKE_USER, pass: INWX_FAKE_PASSWORD, lang: "en" }]);
  expect(fake.sessions.size).toBe(0);
});

test("a write changes only the content (TTL, name and id kept), carries the session cookie, sends the password only to log in, and logs out", async () => {
  const before = home()[0]!;
  expect(withoutHeld(await client().writeRecord(target("home.example.com", known), NEW_IP))).toEqual({
    ok: true,
    action: "updated",
    externalId: String(before.id),
    zoneId: "example.com",
    message: `INWX record ${before.id}, ttl 600`,
  });
  expect(home()).toEqual([{ ...before, content: NEW_IP }]);
  expect(fake.methods()).toEqual(["account.login", "nameserver.info", "nameserver.updateRecord", "account.logout"]);
  expect(paramsOf("nameserver.info")).toEqual([{ domain: "example.com", name: "home.example.com", type: "A" }]);
  expect(paramsOf("nameserver.updateRecord")).toEqual([{ id: before.id, content: NEW_IP }]);
  const cookies = fake.requests.slice(1).map((r) => r.headers.cookie);
  expect(new Set(cookies).size).toBe(1);
  expect(cookies[0]).toMatch(/^domrobot=\w+$/);
  expect(fake.requests.slice(1).some((r) => JSON.stringify(r.body).includes(INWX_FAKE_PASSWORD))).toBe(false);
  expect(fake.sessions.size).toBe(0);
});

test("two-factor login: the session is unlocked with the current code; a second write within the same 30 seconds waits for the next code, as INWX refuses one used before", async () => {
  let clock = 1_764_000_000_000;
  const waits: number[] = [];
  fake.now = () => clock;
  const twoFactor = () =>
    inwxClient(
      createInwxApi(
        { username: INWX_FAKE_TFA_USER, password: INWX_FAKE_PASSWORD, shared_secret: INWX_FAKE_TFA_SECRET },
        context(fake.url),
        () => clock,
        async (ms) => {
          waits.push(ms);
          clock += ms;
        },
      ),
    );
  fake.addRecord("example.com", { name: "home.example.com", type: "AAAA", content: "2001:db8::1" });
  // A write per record, each its own client and session: the A and the AAAA of one name.
  const first = await twoFactor().writeRecord(target("home.example.com", known), NEW_IP);
  expect(first).toMatchObject({ ok: true, action: "updated" });
  expect(fake.methods()).toEqual([
    "account.login",
    "account.unlock",
    "nameserver.info",
    "nameserver.updateRecord",
    "account.logout",
  ]);
  expect(paramsOf("account.unlock")).toEqual([{ tan: totp(seed, clock) }]);
  clock += 5_000;
  const second = await twoFactor().writeRecord(
    target("home.example.com", known, { recordType: "AAAA" }),
    "2001:db8::7",
  );
  expect(second).toMatchObject({ ok: true, action: "updated" });
  expect(waits).toEqual([25_000]);
  const tans = paramsOf("account.unlock").map((p) => p.tan);
  expect(tans).toHaveLength(2);
  expect(tans[0]).not.toBe(tans[1]);
  expect(fake.records("example.com", "home.example.com", "AAAA")[0]!.content).toBe("2001:db8::7");
});

test("a missing record: each parent asked for, longest first (2303 means not this one); created with the full name, INWX's id kept", async () => {
  fake.addDomain("example.co.uk");
  const outcome = await client().writeRecord(target("x.y.example.co.uk", {}, { recordType: "AAAA" }), "2001:db8::7");
  const [created] = fake.records("example.co.uk", "x.y.example.co.uk", "AAAA");
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "created",
    externalId: String(created!.id),
    zoneId: "example.co.uk",
    message: `INWX record ${created!.id}, ttl 3600`,
  });
  expect(paramsOf("nameserver.info").map((p) => p.domain)).toEqual([
    "x.y.example.co.uk",
    "y.example.co.uk",
    "example.co.uk",
    "example.co.uk",
  ]);
  expect(paramsOf("nameserver.createRecord")).toEqual([
    { domain: "example.co.uk", name: "x.y.example.co.uk", type: "AAAA", content: "2001:db8::7", ttl: 3600 },
  ]);
});

type Arrange = { fault?: InwxFault; user?: string; secret?: string };

describe("failures keep INWX's words and leave the record alone", () => {
  // A login INWX could not complete for its own reasons is not a refused password: it is asked again later.
  failureTests(
    [
      fails(
        { fault: { code: 2400, msg: "Command failed" } },
        "INWX: account.login: Command failed (code 2400)",
        "refused",
      ),
      fails(
        { fault: { code: 2500, msg: "Command failed; server closing connection" } },
        "INWX: account.login: Command failed; server closing connection (code 2500)",
        "refused",
      ),
      fails({ fault: { httpStatus: 503 } }, 'INWX: unreadable answer (HTTP 503): "Service Unavailable"', "unreachable"),
      fails(
        { user: INWX_FAKE_TFA_USER },
        "INWX: the account asks for a second factor (GOOGLE-AUTH); set the shared secret of its two-factor login, or use an account without one",
        "credentials",
        STOP,
      ),
      fails(
        { user: INWX_FAKE_TFA_USER, secret: "JBSWY3DPEHPK3PXP" },
        "INWX: account.unlock: Authentication error: Invalid TAN (code 2200)",
        "credentials",
        STOP,
      ),
    ],
    ({ arrange }: { arrange: Arrange }) => {
      if (arrange.fault) fake.fault(arrange.fault);
      return client(arrange.user, arrange.secret).writeRecord(target("home.example.com", known), NEW_IP);
    },
    ({ arrange }: { arrange: Arrange }) => {
      // A failed login is the only request: there is no session to log out of.
      if (arrange.fault) expect(fake.requests).toHaveLength(1);
      expect(fake.changes()).toBe(0);
      expect(home()[0]!.content).toBe(OLD_IP);
    },
  );

  test("a refused update is reported in INWX's words with its reason, logs out, and the record stays", async () => {
    fake.fault(
      { code: 2304, msg: "Object status prohibits operation", reason: "Domain is locked" },
      1,
      (r) => inwxMethod(r) === "nameserver.updateRecord",
    );
    expect(await client().writeRecord(target("home.example.com", known), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message: "INWX: nameserver.updateRecord: Object status prohibits operation: Domain is locked (code 2304)",
    });
    expect(fake.methods().at(-1)).toBe("account.logout");
    expect(fake.sessions.size).toBe(0);
    expect(home()[0]!.content).toBe(OLD_IP);
  });
});
