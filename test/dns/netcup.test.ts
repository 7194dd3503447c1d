// The Netcup client against its fake: the session it logs in for and keeps, what it changes, what it
// keeps, how many requests it spends, and how every failure ends up in Netcup's own words with its cause.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FailureCause } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createNetcupApi, netcup } from "../../src/dns/services/netcup";
import {
  NETCUP_FAKE_API_KEY,
  NETCUP_FAKE_API_PASSWORD,
  NETCUP_FAKE_CUSTOMER,
  type NetcupFake,
  type NetcupFault,
  startNetcupFake,
} from "../fakes/netcup";
import { failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: NetcupFake;

beforeEach(() => {
  fake = startNetcupFake();
  fake.addDomain("example.com");
  fake.addRecord("example.com", { hostname: "home", type: "A", destination: OLD_IP });
  fake.addRecord("example.com", { hostname: "@", type: "A", destination: OLD_IP });
  fake.addRecord("example.com", { hostname: "@", type: "MX", destination: "mail.example.com" });
});

afterEach(async () => {
  await fake.stop();
});

function api(options: { password?: string; timeoutMs?: number; baseUrl?: string; now?: () => number } = {}) {
  return createNetcupApi(
    {
      customer_number: NETCUP_FAKE_CUSTOMER,
      api_key: NETCUP_FAKE_API_KEY,
      api_password: options.password ?? NETCUP_FAKE_API_PASSWORD,
    },
    { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    options.now,
  );
}
const client = (options: Parameters<typeof api>[0] = {}) => zoneClient(api(options));

const actions = () => fake.requests.map((r) => (r.body as { action: string }).action);
const home = () => fake.record("example.com", "home", "A");
const known = { zone_id: "example.com" };

describe("the description", () => {
  test("names the credentials, the record types, no TTL of its own and the real service", () => {
    expect(netcup.type).toBe("netcup");
    expect(netcup.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["customer_number", false],
      ["api_key", true],
      ["api_password", true],
    ]);
    expect(netcup.credentials.every((c) => c.url?.startsWith("https://www.customercontrolpanel.de/"))).toBe(true);
    expect(netcup.credentials[0]!.validate!("12a")).toBe("must be the customer number: digits only");
    expect(netcup.credentials[0]!.validate!("123456")).toBeUndefined();
    expect(netcup.recordTypes).toEqual(["A", "AAAA"]);
    expect(netcup.ttl).toBeNull();
    expect(netcup.defaultApiUrl).toBe("https://ccp.netcup.net/run/webservice/servers/endpoint.php");
  });
});

describe("verify", () => {
  test("valid credentials: one login, nothing changed", async () => {
    expect(await client().verify()).toEqual({
      ok: true,
      detail: `API key accepted for customer ${NETCUP_FAKE_CUSTOMER}`,
    });
    expect(actions()).toEqual(["login"]);
    expect(fake.requests[0]?.body).toEqual({
      action: "login",
      param: {
        customernumber: NETCUP_FAKE_CUSTOMER,
        apikey: NETCUP_FAKE_API_KEY,
        apipassword: NETCUP_FAKE_API_PASSWORD,
      },
    });
    expect(fake.changes()).toBe(0);
  });
});

describe("the session", () => {
  test("is logged in for once and carried by every action; the password is sent only to log in", async () => {
    const zones = api();
    const built = zoneClient(zones);
    await built.writeRecord(target("home.example.com", known), NEW_IP);
    await built.writeRecord(target("example.com", known), NEW_IP);
    expect(actions()).toEqual(["login", "infoDnsRecords", "updateDnsRecords", "infoDnsRecords", "updateDnsRecords"]);
    const ids = fake.requests.slice(1).map((r) => (r.body as { param: Record<string, unknown> }).param);
    expect(new Set(ids.map((p) => p.apisessionid)).size).toBe(1);
    expect(
      ids.every(
        (p) =>
          p.apipassword === undefined && p.customernumber === NETCUP_FAKE_CUSTOMER && p.apikey === NETCUP_FAKE_API_KEY,
      ),
    ).toBe(true);
  });

  test("one Netcup has ended is replaced by a new login, once, and the action repeated", async () => {
    const built = client();
    await built.writeRecord(target("home.example.com", known), OLD_IP);
    fake.expireSessions();
    fake.clearRequests();
    const outcome = await built.writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(actions()).toEqual(["infoDnsRecords", "login", "infoDnsRecords", "updateDnsRecords"]);
    expect(fake.logins()).toBe(2);
  });

  test("a session older than ten minutes is not used: the client logs in afresh", async () => {
    let clock = 1_000_000;
    const built = zoneClient(api({ now: () => clock }));
    await built.writeRecord(target("home.example.com", known), OLD_IP);
    clock += 10 * 60 * 1000 + 1;
    fake.clearRequests();
    await built.writeRecord(target("home.example.com", known), OLD_IP);
    expect(actions()).toEqual(["login", "infoDnsRecords"]);
  });

  test("a session refused twice in a row is a failure, not a loop", async () => {
    fake.fault(
      { statuscode: 4001, shortmessage: "The session id is not in a valid format." },
      undefined,
      (r) => (r.body as { action: string }).action !== "login",
    );
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "Netcup: The session id is not in a valid format. (statuscode 4001)",
    });
    expect(actions()).toEqual(["login", "infoDnsRecords", "login", "infoDnsRecords"]);
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the domain, reads the records, and changes only the destination: five requests", async () => {
    const id = home()!.id;
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: id,
      zoneId: "example.com",
      message: `Netcup record ${id}`,
    });
    expect(home()).toMatchObject({ destination: NEW_IP, priority: "0", state: "yes" });
    expect(actions()).toEqual(["login", "infoDnsZone", "infoDnsZone", "infoDnsRecords", "updateDnsRecords"]);
    expect((fake.requests[4]!.body as { param: Record<string, unknown> }).param).toMatchObject({
      domainname: "example.com",
      dnsrecordset: {
        dnsrecords: [{ id, hostname: "home", type: "A", priority: "0", destination: NEW_IP, deleterecord: false }],
      },
    });
  });

  test("the apex is the record with hostname @; the MX beside it stays", async () => {
    const outcome = await client().writeRecord(target("example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(fake.record("example.com", "@", "A")?.destination).toBe(NEW_IP);
    expect(fake.record("example.com", "@", "MX")?.destination).toBe("mail.example.com");
    expect(home()?.destination).toBe(OLD_IP);
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it without an id, and reports the id Netcup gave it", async () => {
    const outcome = await client().writeRecord(target("new.example.com", known), NEW_IP);
    const created = fake.record("example.com", "new", "A");
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: created!.id,
      zoneId: "example.com",
      message: `Netcup record ${created!.id}`,
    });
    expect((fake.requests.at(-1)!.body as { param: { dnsrecordset: unknown } }).param.dnsrecordset).toEqual({
      dnsrecords: [{ hostname: "new", type: "A", destination: NEW_IP, deleterecord: false }],
    });
  });

  test("an AAAA at the apex of an empty zone", async () => {
    fake.addDomain("empty.org");
    await client().writeRecord(target("empty.org", {}, { recordType: "AAAA" }), "2001:db8::7");
    expect(fake.record("empty.org", "@", "AAAA")?.destination).toBe("2001:db8::7");
  });

  test("an empty zone answered with Netcup's 5029 counts as no records", async () => {
    fake.fault(
      { statuscode: 5029, shortmessage: "Can not get DNS records for zone.", longmessage: "Domain not found." },
      1,
      (r) => (r.body as { action: string }).action === "infoDnsRecords",
    );
    const outcome = await client().writeRecord(target("new.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created" });
  });
});

describe("domain discovery", () => {
  test("each parent of the name is asked for, longest first; the first the account has wins", async () => {
    fake.addDomain("example.co.uk");
    const outcome = await client().writeRecord(target("x.y.example.co.uk"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: "example.co.uk" });
    expect(fake.record("example.co.uk", "x.y", "A")?.destination).toBe(NEW_IP);
    const asked = fake.requests
      .filter((r) => (r.body as { action: string }).action === "infoDnsZone")
      .map((r) => (r.body as { param: { domainname: string } }).param.domainname);
    expect(asked).toEqual(["x.y.example.co.uk", "y.example.co.uk", "example.co.uk"]);
  });

  test("a domain on CloudDNS (statuscode 5028) is refused for good, naming the type that reaches it", async () => {
    fake.cloudDomains.add("cloud.de");
    const found = await client().writeRecord(target("home.cloud.de"), NEW_IP);
    expect(found).toMatchObject({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message: expect.stringContaining("use the Netcup CloudDNS type (netcupcloud)"),
    });
    const configured = await client().writeRecord(target("home.cloud.de", { zone_id: "cloud.de" }), NEW_IP);
    expect(configured).toMatchObject({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message: expect.stringContaining("(statuscode 5028) — the domain is on Netcup CloudDNS"),
    });
    expect(fake.changes()).toBe(0);
  });
});

describe("failures keep Netcup's words and leave the record alone", () => {
  const cases: {
    name: string;
    fault?: NetcupFault;
    password?: string;
    message: string | RegExp;
    cause: FailureCause;
    retryAfterSeconds?: number;
    stopRetrying?: boolean;
    requests: number;
  }[] = [
    {
      name: "wrong API password",
      password: "revoked",
      message: /^Netcup: Validation Error\. The login failed\./,
      stopRetrying: true,
      cause: "credentials",
      requests: 1,
    },
    {
      name: "429 without Retry-After names no wait",
      fault: { httpStatus: 429 },
      message: "Netcup: Too Many Requests (HTTP 429)",
      cause: "throttled",
      requests: 1,
    },
    {
      name: "500",
      fault: { httpStatus: 500 },
      message: "Netcup: Too Many Requests (HTTP 500)",
      cause: "unreachable",
      requests: 1,
    },
  ];
  failureTests(
    cases,
    async ({ fault, password }) => {
      if (fault) fake.fault(fault);
      return client({ password, timeoutMs: 1000 }).writeRecord(target("home.example.com", known), NEW_IP);
    },
    ({ requests }) => {
      expect(fake.requests).toHaveLength(requests);
      expect(home()?.destination).toBe(OLD_IP);
    },
  );

  test("a refused update is reported in Netcup's words; the record stays", async () => {
    fake.fault(
      { statuscode: 4013, shortmessage: "Validation Error.", longmessage: "Domain is locked." },
      1,
      (r) => (r.body as { action: string }).action === "updateDnsRecords",
    );
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "Netcup: Validation Error. Domain is locked. (statuscode 4013)",
    });
    expect(home()?.destination).toBe(OLD_IP);
  });
});
