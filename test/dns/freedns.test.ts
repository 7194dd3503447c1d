// The FreeDNS client against its fake: the listing read first, the record's own update URL called
// only when the address differs, its key never shown, and FreeDNS's refusals.

import { describe, expect, test } from "bun:test";
import { FREEDNS_FAKE_PASSWORD, FREEDNS_FAKE_USER, freednsLoginHash, startFreednsFake } from "../fakes/freedns";
import { fails, failureTests, STOP, serviceClient, target, useFake } from "./support";

const OLD_V4 = "198.51.100.1";
const NEW_V4 = "203.0.113.7";
const OLD_V6 = "2001:db8::1";

const fake = useFake(startFreednsFake, (fake) => {
  fake.addRecord("home.mooo.com", "A", OLD_V4);
  fake.addRecord("home.mooo.com", "AAAA", OLD_V6);
  fake.addRecord("other.mooo.com", "A", OLD_V4);
});
const client = (password = FREEDNS_FAKE_PASSWORD) =>
  serviceClient("freedns", fake.url, { username: FREEDNS_FAKE_USER, password });

const updates = () => fake.requests.filter((r) => r.path === "/dynamic/update.php");
const address = (hostname: string, type: "A" | "AAAA" = "A") => fake.recordsOf(hostname, type)[0]?.address;
const answerUpdate = (body: string) => fake.fault({ status: 200, body }, 1, "/dynamic/update.php");

test("the listing is asked with v=2 and the SHA-1 of username|password; the password itself is never sent", async () => {
  expect(await client().verify()).toEqual({ ok: true, detail: "Login accepted (3 dynamic DNS records)" });
  expect(fake.requests[0]?.query).toEqual({
    action: "getdyndns",
    v: "2",
    sha: freednsLoginHash(FREEDNS_FAKE_USER, FREEDNS_FAKE_PASSWORD),
  });
  expect(JSON.stringify(fake.requests)).not.toContain(FREEDNS_FAKE_PASSWORD);
});

describe("writes", () => {
  test("A: the record's own update URL with &address=, and only that record changes", async () => {
    const outcome = await client().writeRecord(target("home.mooo.com"), NEW_V4);
    expect(outcome).toMatchObject({ ok: true, action: "updated", externalId: "home.mooo.com/A", zoneId: "" });
    expect(updates()).toHaveLength(1);
    expect(updates()[0]?.query.address).toBe(NEW_V4);
    expect(address("home.mooo.com")).toBe(NEW_V4);
    expect(address("home.mooo.com", "AAAA")).toBe(OLD_V6);
    expect(address("other.mooo.com")).toBe(OLD_V4);
  });

  test("the answer is read before it is masked: a password that occurs in the address still lets the update count", async () => {
    fake.logins.add(freednsLoginHash(FREEDNS_FAKE_USER, "203.0.113"));
    expect(await client("203.0.113").writeRecord(target("home.mooo.com"), NEW_V4)).toMatchObject({
      ok: true,
      action: "updated",
    });
    expect(address("home.mooo.com")).toBe(NEW_V4);
  });

  test("a record without an address (NULL) takes an IPv4 address; beside an A record, an AAAA without one is left as it is", async () => {
    fake.addRecord("new.mooo.com", "A", "");
    expect(await client().writeRecord(target("new.mooo.com"), NEW_V4)).toMatchObject({ ok: true, action: "updated" });
    expect(address("new.mooo.com")).toBe(NEW_V4);
    fake.addRecord("dual.mooo.com", "A", OLD_V4);
    fake.addRecord("dual.mooo.com", "AAAA", "");
    expect(await client().writeRecord(target("dual.mooo.com"), NEW_V4)).toMatchObject({ ok: true, action: "updated" });
    expect(address("dual.mooo.com")).toBe(NEW_V4);
    expect(address("dual.mooo.com", "AAAA")).toBe("");
  });

  test("no message carries the record's update key or the login hash", async () => {
    const key = fake.recordsOf("home.mooo.com", "A")[0]!.key;
    const hash = freednsLoginHash(FREEDNS_FAKE_USER, FREEDNS_FAKE_PASSWORD);
    fake.fault({ status: 500, body: `boom ${key} ${hash}` }, 1, "/dynamic/update.php");
    const outcome = await client().writeRecord(target("home.mooo.com"), NEW_V4);
    expect(outcome.ok).toBe(false);
    expect(JSON.stringify(outcome)).not.toContain(key);
    expect(JSON.stringify(outcome)).not.toContain(hash);
  });
});

describe("refusals, and answers to the update", () => {
  type Arrange = { hostname?: string; blanks?: boolean; answer?: string };
  failureTests(
    [
      // A missing record is never created: the words say where to make it.
      fails({ hostname: "absent.mooo.com" }, /Subdomains/, "refused", STOP),
      // Two records without an address: which is meant is unclear; retried.
      fails({ hostname: "blank.mooo.com", blanks: true }, /2 records without an address/, "refused"),
      // An answer naming a longer address that merely starts with the one sent is no success.
      fails(
        { answer: `Updated 1 host(s) home.mooo.com to ${NEW_V4}0 in 0.123 seconds\n` },
        `which does not say home.mooo.com holds ${NEW_V4}`,
        "unreachable",
      ),
    ],
    async ({ arrange }: { arrange: Arrange }) => {
      if (arrange.blanks) for (const type of ["A", "AAAA"] as const) fake.addRecord("blank.mooo.com", type, "");
      if (arrange.answer) answerUpdate(arrange.answer);
      return client().writeRecord(target(arrange.hostname ?? "home.mooo.com"), NEW_V4);
    },
    ({ arrange }: { arrange: Arrange }) => {
      if (!arrange.answer) expect(updates()).toHaveLength(0);
    },
  );

  test("'has not changed' means the record holds the address: a success", async () => {
    answerUpdate(`ERROR: Address ${NEW_V4} has not changed.\n`);
    expect(await client().writeRecord(target("home.mooo.com"), NEW_V4)).toMatchObject({ ok: true });
  });

  test("'Unable to locate this record' is retried: the next write reads the listing, with the record's new update URL, afresh", async () => {
    answerUpdate(
      "ERROR: Unable to locate this record (changed password recently? deleted and re-created this dns entry?)\n",
    );
    const refused = await client().writeRecord(target("home.mooo.com"), NEW_V4);
    expect(refused).toMatchObject({
      ok: false,
      cause: "refused",
      message: expect.stringContaining("Unable to locate this record"),
    });
    expect(refused).not.toHaveProperty("stopRetrying");
    expect(await client().writeRecord(target("home.mooo.com"), NEW_V4)).toMatchObject({ ok: true, action: "updated" });
    expect(address("home.mooo.com")).toBe(NEW_V4);
  });
});
