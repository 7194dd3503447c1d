// The Netcup CloudDNS client against its fake (netcup's REST API): the domain found by name, the
// records of the served revision read, a change made as one committed changeset, and netcup's refusals
// (a refused key in an HTTP 400, a domain not on CloudDNS) in its own words.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FailureCause, RecordConfig, RecordTarget } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createNetcupCloudApi, netcupcloud } from "../../src/dns/services/netcupcloud";
import {
  NETCUPCLOUD_FAKE_KEY,
  type NetcupCloudFake,
  type NetcupCloudFault,
  startNetcupCloudFake,
} from "../fakes/netcupcloud";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: NetcupCloudFake;

beforeEach(() => {
  fake = startNetcupCloudFake();
  fake.addDomain("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", rdata: OLD_IP, ttl: 600 });
  fake.addRecord("example.com", { name: "@", type: "MX", rdata: "10 mail.example.com.", ttl: 3600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { key?: string; timeoutMs?: number } = {}) {
  return zoneClient(
    createNetcupCloudApi(
      { api_key: options.key ?? NETCUPCLOUD_FAKE_KEY },
      { baseUrl: fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

function target(hostname: string, config: RecordConfig = {}, fields: Partial<RecordTarget> = {}): RecordTarget {
  return { hostname, recordType: "A", externalId: null, config, ...fields };
}

const known = { zone_id: "example.com" };
const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const served = (name: string, type = "A") =>
  fake.served("example.com").filter((r) => r.name === name && r.type === type);

describe("the description", () => {
  test("one API key of 64 characters, a legacy key refused with a pointer to the Netcup type", () => {
    expect(netcupcloud.type).toBe("netcupcloud");
    expect(netcupcloud.defaultApiUrl).toBe("https://api.netcup.com/v1");
    expect(netcupcloud.credentials.map((c) => [c.key, c.secret])).toEqual([["api_key", true]]);
    expect(netcupcloud.credentials[0]!.validate!(NETCUPCLOUD_FAKE_KEY)).toBeUndefined();
    expect(netcupcloud.credentials[0]!.validate!("x".repeat(50))).toContain("Netcup type");
  });
});

describe("verify", () => {
  test("a working key is accepted without reading or changing anything", async () => {
    expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted" });
    expect(requestLines()).toEqual(["GET /domain"]);
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${NETCUPCLOUD_FAKE_KEY}`);
  });

  test("a refused key (authenticationError in an HTTP 400) fails in netcup's words", async () => {
    const outcome = await client({ key: "k".repeat(64) }).verify();
    expect(outcome).toEqual({
      ok: false,
      detail: "Netcup CloudDNS: authenticationError: The API key is invalid or expired. (HTTP 400)",
    });
  });
});

describe("writeRecord", () => {
  test("finds the domain by name, reads the served revision, and changes the record in one committed changeset", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toMatchObject({
      ok: true,
      action: "updated",
      zoneId: "example.com",
      message: expect.stringContaining("ttl 600"),
    });
    expect(served("home")).toEqual([expect.objectContaining({ rdata: NEW_IP, ttl: 600 })]);
    expect(served("@", "MX")).toHaveLength(1);
    const post = fake.requests.find((r) => r.method === "POST");
    expect(post?.body).toEqual({
      autoCommit: true,
      strict: true,
      delete: [{ name: "home", type: "A", rdata: OLD_IP, ttl: 600 }],
      create: [{ name: "home", type: "A", rdata: NEW_IP, ttl: 600 }],
    });
    // Each name is asked once (home.example.com, then example.com): the read and the write use the id found.
    expect(requestLines().filter((line) => line === "GET /domain")).toHaveLength(2);
    expect(fake.requests).toHaveLength(5);
  });

  test("the address already there: nothing written", async () => {
    const outcome = await client().writeRecord(target("home.example.com", known), OLD_IP);
    expect(outcome).toMatchObject({ ok: true, action: "unchanged" });
    expect(fake.changesets()).toBe(0);
  });

  test("a missing record is created with TTL 300, or the config's", async () => {
    expect(await client().writeRecord(target("new.example.com", known), NEW_IP)).toMatchObject({
      ok: true,
      action: "created",
    });
    expect(served("new")).toEqual([expect.objectContaining({ rdata: NEW_IP, ttl: 300 })]);
    expect(
      await client().writeRecord(target("example.com", { ...known, ttl: 120 }, { recordType: "AAAA" }), "2001:db8::7"),
    ).toMatchObject({ ok: true, action: "created" });
    expect(served("@", "AAAA")).toEqual([expect.objectContaining({ rdata: "2001:db8::7", ttl: 120 })]);
  });

  test("a draft revision someone staged by hand is not what is served: the committed one is read", async () => {
    fake.addDraft("example.com", [{ name: "home", type: "A", rdata: NEW_IP }]);
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(served("home")).toEqual([expect.objectContaining({ rdata: NEW_IP })]);
  });

  test("listings that page are read to their last page", async () => {
    fake.perPage = 1;
    for (const name of ["a", "b", "c"]) fake.addRecord("example.com", { name, type: "A", rdata: OLD_IP });
    fake.addRecord("example.com", { name: "late", type: "A", rdata: OLD_IP, ttl: 900 });
    expect(await client().writeRecord(target("late.example.com", known), NEW_IP)).toMatchObject({
      ok: true,
      action: "updated",
    });
    expect(served("late")).toEqual([expect.objectContaining({ rdata: NEW_IP, ttl: 900 })]);
  });

  test("the longest domain of the account holding the name; a domain not on CloudDNS is refused for good", async () => {
    fake.addDomain("lab.example.com");
    fake.addRecord("lab.example.com", { name: "pi", type: "A", rdata: OLD_IP });
    expect(await client().writeRecord(target("pi.lab.example.com"), NEW_IP)).toMatchObject({
      ok: true,
      action: "updated",
      zoneId: "lab.example.com",
    });
    fake.addDomain("legacy.org", { isDnsManaged: false });
    const outcome = await client().writeRecord(target("home.legacy.org"), NEW_IP);
    expect(outcome).toMatchObject({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message: expect.stringContaining("use the Netcup type"),
    });
  });
});

describe("failures keep netcup's words and leave the record alone", () => {
  const cases: {
    name: string;
    fault?: NetcupCloudFault;
    key?: string;
    message: string | RegExp;
    cause: FailureCause;
    stopRetrying?: boolean;
    retryAfterSeconds?: number;
  }[] = [
    {
      name: "refused key",
      key: "z".repeat(64),
      message: "Netcup CloudDNS: authenticationError: The API key is invalid or expired. (HTTP 400)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "500",
      fault: { status: 500 },
      message: "Netcup CloudDNS: internalError: Internal error. (HTTP 500)",
      cause: "unreachable",
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      if (c.fault) fake.fault(c.fault);
      const outcome = await client({ key: c.key, timeoutMs: 1000 }).writeRecord(
        target("home.example.com", known),
        NEW_IP,
      );
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toMatch(c.message);
      expect(outcome.cause).toBe(c.cause);
      expect(outcome.stopRetrying).toBe(c.stopRetrying);
      expect(outcome.retryAfterSeconds).toBe(c.retryAfterSeconds);
      expect(served("home")).toEqual([expect.objectContaining({ rdata: OLD_IP })]);
    });
  }

  test("a refused changeset is reported; the record stays", async () => {
    fake.fault({ status: 422, code: "validationError", message: "The zone is locked." }, 1, (r) => r.method === "POST");
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "Netcup CloudDNS: validationError: The zone is locked. (HTTP 422)",
    });
    expect(served("home")).toEqual([expect.objectContaining({ rdata: OLD_IP })]);
  });
});
