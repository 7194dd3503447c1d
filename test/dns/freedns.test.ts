// The FreeDNS client against its fake: the listing read first, the record's own update URL called
// only when the address differs, its key never shown, and FreeDNS's refusals.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { RecordConfig, RecordTarget, RecordType } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createFreednsApi } from "../../src/dns/services/freedns";
import {
  FREEDNS_FAKE_PASSWORD,
  FREEDNS_FAKE_USER,
  type FreednsFake,
  freednsLoginHash,
  startFreednsFake,
} from "../fakes/freedns";

const OLD_V4 = "198.51.100.1";
const NEW_V4 = "203.0.113.7";
const OLD_V6 = "2001:db8::1";
const NEW_V6 = "2001:db8::7";

let fake: FreednsFake;

beforeEach(() => {
  fake = startFreednsFake();
  fake.addRecord("home.mooo.com", "A", OLD_V4);
  fake.addRecord("home.mooo.com", "AAAA", OLD_V6);
  fake.addRecord("other.mooo.com", "A", OLD_V4);
});

afterEach(async () => {
  await fake.stop();
});

function client(password = FREEDNS_FAKE_PASSWORD) {
  return zoneClient(
    createFreednsApi(
      { username: FREEDNS_FAKE_USER, password },
      { baseUrl: fake.url, fetch, timeoutMs: 2000, userAgent: "ddnsd/test" },
    ),
  );
}

function target(hostname: string, recordType: RecordType = "A", config: RecordConfig = {}): RecordTarget {
  return { hostname, recordType, externalId: null, config };
}

const updates = () => fake.requests.filter((r) => r.path === "/dynamic/update.php");

describe("the listing", () => {
  test("is asked with v=2 and the SHA-1 of username|password; the password itself is never sent", async () => {
    expect(await client().verify()).toEqual({ ok: true, detail: "Login accepted (3 dynamic DNS records)" });
    expect(fake.requests[0]?.query).toEqual({
      action: "getdyndns",
      v: "2",
      sha: freednsLoginHash(FREEDNS_FAKE_USER, FREEDNS_FAKE_PASSWORD),
    });
    expect(JSON.stringify(fake.requests)).not.toContain(FREEDNS_FAKE_PASSWORD);
  });

  test("a wrong login is refused for good, in FreeDNS's words", async () => {
    const outcome = await client("wrong").writeRecord(target("home.mooo.com"), NEW_V4);
    expect(outcome).toMatchObject({
      ok: false,
      cause: "credentials",
      stopRetrying: true,
      message: expect.stringContaining("ERROR: Could not authenticate."),
    });
    expect(updates()).toHaveLength(0);
    expect((await client("wrong").verify()).ok).toBe(false);
  });
});

describe("writes", () => {
  test("A: the record's own update URL with &address=, and only that record changes", async () => {
    const outcome = await client().writeRecord(target("home.mooo.com"), NEW_V4);
    expect(outcome).toMatchObject({ ok: true, action: "updated", externalId: "home.mooo.com/A", zoneId: "" });
    expect(updates()).toHaveLength(1);
    expect(updates()[0]?.query.address).toBe(NEW_V4);
    expect(fake.recordsOf("home.mooo.com", "A")[0]?.address).toBe(NEW_V4);
    expect(fake.recordsOf("home.mooo.com", "AAAA")[0]?.address).toBe(OLD_V6);
    expect(fake.recordsOf("other.mooo.com", "A")[0]?.address).toBe(OLD_V4);
  });

  test("AAAA: the AAAA record's URL, not the A record's", async () => {
    expect(await client().writeRecord(target("home.mooo.com", "AAAA"), NEW_V6)).toMatchObject({
      ok: true,
      action: "updated",
    });
    expect(fake.recordsOf("home.mooo.com", "AAAA")[0]?.address).toBe(NEW_V6);
    expect(fake.recordsOf("home.mooo.com", "A")[0]?.address).toBe(OLD_V4);
  });

  test("the answer is read before it is masked: a password that occurs in the address still lets the update count", async () => {
    fake.logins.add(freednsLoginHash(FREEDNS_FAKE_USER, "203.0.113"));
    const outcome = await client("203.0.113").writeRecord(target("home.mooo.com"), NEW_V4);
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(fake.recordsOf("home.mooo.com", "A")[0]?.address).toBe(NEW_V4);
  });

  test("an address already there sends no update", async () => {
    expect(await client().writeRecord(target("home.mooo.com"), OLD_V4)).toMatchObject({
      ok: true,
      action: "unchanged",
    });
    expect(updates()).toHaveLength(0);
  });

  test("a record without an address (NULL) takes an IPv4 address", async () => {
    fake.addRecord("new.mooo.com", "A", "");
    expect(await client().writeRecord(target("new.mooo.com"), NEW_V4)).toMatchObject({ ok: true, action: "updated" });
    expect(fake.recordsOf("new.mooo.com", "A")[0]?.address).toBe(NEW_V4);
  });

  test("a missing record is never created, and says where to make it", async () => {
    const outcome = await client().writeRecord(target("absent.mooo.com"), NEW_V4);
    expect(outcome).toMatchObject({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message: expect.stringContaining("Subdomains"),
    });
    expect(updates()).toHaveLength(0);
    expect(
      await client().writeRecord(target("absent.mooo.com", "A", { create_if_missing: false }), NEW_V4),
    ).toMatchObject({ ok: false, cause: "refused" });
  });

  test("a name with an A record and an AAAA record without an address (NULL): the A record is the one with the IPv4 address", async () => {
    fake.reset();
    fake.addRecord("dual.mooo.com", "A", OLD_V4);
    fake.addRecord("dual.mooo.com", "AAAA", "");
    expect(await client().writeRecord(target("dual.mooo.com"), NEW_V4)).toMatchObject({ ok: true, action: "updated" });
    expect(fake.recordsOf("dual.mooo.com", "A")[0]?.address).toBe(NEW_V4);
    expect(fake.recordsOf("dual.mooo.com", "AAAA")[0]?.address).toBe("");
  });

  test("a name with two records without an address is left alone, saying which is unclear, and retried", async () => {
    fake.reset();
    fake.addRecord("blank.mooo.com", "A", "");
    fake.addRecord("blank.mooo.com", "AAAA", "");
    const outcome = await client().writeRecord(target("blank.mooo.com"), NEW_V4);
    expect(outcome).toMatchObject({
      ok: false,
      cause: "refused",
      message: expect.stringContaining("2 records without an address"),
    });
    expect(outcome).not.toHaveProperty("stopRetrying");
    expect(updates()).toHaveLength(0);
  });

  test("a name with two A records is left alone", async () => {
    fake.addRecord("home.mooo.com", "A", "192.0.2.9");
    expect(await client().writeRecord(target("home.mooo.com"), NEW_V4)).toMatchObject({ ok: false, cause: "refused" });
    expect(updates()).toHaveLength(0);
  });

  test("no message carries the record's update key or the login hash", async () => {
    const key = fake.recordsOf("home.mooo.com", "A")[0]!.key;
    fake.fault(
      { status: 500, body: `boom ${key} ${freednsLoginHash(FREEDNS_FAKE_USER, FREEDNS_FAKE_PASSWORD)}` },
      1,
      "/dynamic/update.php",
    );
    const outcome = await client().writeRecord(target("home.mooo.com"), NEW_V4);
    expect(outcome.ok).toBe(false);
    expect(JSON.stringify(outcome)).not.toContain(key);
    expect(JSON.stringify(outcome)).not.toContain(freednsLoginHash(FREEDNS_FAKE_USER, FREEDNS_FAKE_PASSWORD));
  });
});

describe("answers to the update", () => {
  test("'has not changed' means the record holds the address: a success", async () => {
    fake.fault({ status: 200, body: `ERROR: Address ${NEW_V4} has not changed.\n` }, 1, "/dynamic/update.php");
    expect(await client().writeRecord(target("home.mooo.com"), NEW_V4)).toMatchObject({ ok: true });
  });

  test("'Unable to locate this record' is retried: the next write reads the listing, with the record's new update URL, afresh", async () => {
    fake.fault(
      {
        status: 200,
        body: "ERROR: Unable to locate this record (changed password recently? deleted and re-created this dns entry?)\n",
      },
      1,
      "/dynamic/update.php",
    );
    const refused = await client().writeRecord(target("home.mooo.com"), NEW_V4);
    expect(refused).toMatchObject({
      ok: false,
      cause: "refused",
      message: expect.stringContaining("Unable to locate this record"),
    });
    expect(refused).not.toHaveProperty("stopRetrying");
    expect(await client().writeRecord(target("home.mooo.com"), NEW_V4)).toMatchObject({ ok: true, action: "updated" });
    expect(fake.recordsOf("home.mooo.com", "A")[0]?.address).toBe(NEW_V4);
  });

  test("an answer naming a longer address that merely starts with the one sent is no success", async () => {
    fake.fault(
      { status: 200, body: `Updated 1 host(s) home.mooo.com to ${NEW_V4}0 in 0.123 seconds\n` },
      1,
      "/dynamic/update.php",
    );
    expect(await client().writeRecord(target("home.mooo.com"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "unreachable",
    });
  });

  test("a 429 is a slow-down with its wait", async () => {
    fake.fault({ status: 429, retryAfter: 120 });
    expect(await client().writeRecord(target("home.mooo.com"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "throttled",
      retryAfterSeconds: 120,
    });
  });

  test("a gateway's page is no usable answer", async () => {
    fake.fault("html");
    expect(await client().writeRecord(target("home.mooo.com"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "unreachable",
    });
  });
});
