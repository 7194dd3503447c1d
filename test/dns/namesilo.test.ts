// The NameSilo client against its fake: what it changes, what it keeps, how many requests it spends,
// and how every failure NameSilo can give (most of them HTTP 200 with a reply code) ends up as
// NameSilo's own words with its cause.

import { describe, expect, test } from "bun:test";
import { namesilo } from "../../src/dns/services/namesilo";
import { NAMESILO_DEFAULT_TTL, NAMESILO_FAKE_API_KEY, type NamesiloFault, startNamesiloFake } from "../fakes/namesilo";
import {
  type FailureCase,
  fails,
  failureTests,
  STOP,
  serviceClient,
  target,
  useFake,
  withoutHeld,
  wrote,
} from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startNamesiloFake, (fake) => {
  fake.addDomain("example.com");
  fake.addRecord("example.com", { host: "home", type: "A", value: OLD_IP, ttl: 86400 });
  fake.addRecord("example.com", { host: "", type: "A", value: OLD_IP, ttl: 3600 });
});
const client = () => serviceClient("namesilo", fake.url, { api_key: NAMESILO_FAKE_API_KEY });
const requestLines = () => fake.requests.map((r) => `${r.path} ${r.query.domain ?? ""}`.trim());
const home = () => fake.record("example.com", "home", "A");
const known = { zone_id: "example.com" };

test("the description: the credential with the page where it is made, the TTL range, the real service", () => {
  expect(namesilo.credentials.map((c) => [c.key, c.secret])).toEqual([["api_key", true]]);
  expect(namesilo.credentials[0]?.url).toBe("https://www.namesilo.com/account/api-manager");
  expect(namesilo.ttl).toMatchObject({ min: 3600, max: 2592000 });
  expect(namesilo.defaultApiUrl).toBe("https://www.namesilo.com/api");
});

test("verify: a valid key is accepted, read-only", async () => {
  expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted" });
  expect(fake.requests.map((r) => r.path)).toEqual(["/listDomains"]);
  expect(fake.requests[0]?.query).toMatchObject({ version: "1", type: "json", key: NAMESILO_FAKE_API_KEY });
  expect(fake.writes()).toBe(0);
});

describe("an existing record", () => {
  test("finds the domain by trying the name and its parents, reads the records, updates with the TTL it read (which the update would reset); then one read and one write", async () => {
    const id = home()!.record_id;
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    const now = home()!;
    expect(withoutHeld(outcome)).toEqual(
      wrote("updated", now.record_id, "example.com", `NameSilo record ${now.record_id}, ttl 86400`),
    );
    expect(now).toMatchObject({ value: NEW_IP, ttl: 86400 });
    expect(fake.requests[3]?.query).toMatchObject({ rrid: id, rrhost: "home", rrvalue: NEW_IP, rrttl: "86400" });
    await client().writeRecord(target("home.example.com", known), OLD_IP);
    expect(requestLines()).toEqual([
      "/dnsListRecords home.example.com",
      "/dnsListRecords example.com",
      "/dnsListRecords example.com",
      "/dnsUpdateRecord example.com",
      "/dnsListRecords example.com",
      "/dnsUpdateRecord example.com",
    ]);
  });

  test("a domain with one record, listed as a bare object, is read", async () => {
    fake.addDomain("solo.org");
    fake.addRecord("solo.org", { host: "home", type: "A", value: OLD_IP, ttl: 3600 });
    const outcome = await client().writeRecord(target("home.solo.org", { zone_id: "solo.org" }), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(fake.domains.get("solo.org")).toHaveLength(1);
    expect(fake.record("solo.org", "home", "A")?.value).toBe(NEW_IP);
  });
});

test("a missing record is created with NameSilo's default TTL", async () => {
  const outcome = await client().writeRecord(target("new.example.com", known), NEW_IP);
  const created = fake.record("example.com", "new", "A")!;
  expect(withoutHeld(outcome)).toEqual(
    wrote(
      "created",
      created.record_id,
      "example.com",
      `NameSilo record ${created.record_id}, ttl ${NAMESILO_DEFAULT_TTL}`,
    ),
  );
  expect(fake.requests.at(-1)?.query).toMatchObject({ rrtype: "A", rrhost: "new", rrvalue: NEW_IP, rrttl: "7207" });
});

describe("failures keep NameSilo's words and leave the record alone", () => {
  failureTests<FailureCase & { arrange: NamesiloFault }>(
    [
      fails({ code: 112 }, "NameSilo: API not available to Sub-Accounts (code 112, HTTP 200)", "credentials", STOP),
      fails(
        { code: 113 },
        "NameSilo: This API account cannot be accessed from your IP (code 113, HTTP 200)",
        "credentials",
        STOP,
      ),
      fails({ code: 201 }, "NameSilo: Internal system error (code 201, HTTP 200)", "unreachable"),
      fails({ code: 210, detail: "Try again later" }, "NameSilo: Try again later (code 210, HTTP 200)", "refused"),
      // No Retry-After: the client names no wait.
      fails({ status: 429 }, "NameSilo: Too many requests (code 429, HTTP 429)", "throttled"),
    ],
    async ({ arrange }) => {
      fake.fault(arrange);
      return client().writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()?.value).toBe(OLD_IP);
    },
  );

  test("the key never appears in a message", async () => {
    fake.fault("malformed");
    expect((await client().verify()).detail).not.toContain(NAMESILO_FAKE_API_KEY);
  });
});
