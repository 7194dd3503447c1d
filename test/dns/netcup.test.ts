// The Netcup client against its fake: the session it logs in for and keeps, what it changes, what it
// keeps, how many requests it spends, and how every failure ends up in Netcup's own words with its cause.

import { describe, expect, setSystemTime, test } from "bun:test";
import { netcup } from "../../src/dns/services/netcup";
import {
  NETCUP_FAKE_API_KEY,
  NETCUP_FAKE_API_PASSWORD,
  NETCUP_FAKE_CUSTOMER,
  type NetcupFault,
  startNetcupFake,
} from "../fakes/netcup";
import {
  type FailureCase,
  failed,
  fails,
  failureTests,
  serviceClient,
  target,
  useFake,
  withoutHeld,
  wrote,
} from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startNetcupFake, (fake) => {
  fake.addDomain("example.com");
  fake.addRecord("example.com", { hostname: "home", type: "A", destination: OLD_IP });
  fake.addRecord("example.com", { hostname: "@", type: "A", destination: OLD_IP });
  fake.addRecord("example.com", { hostname: "@", type: "MX", destination: "mail.example.com" });
});
const client = () =>
  serviceClient("netcup", fake.url, {
    customer_number: NETCUP_FAKE_CUSTOMER,
    api_key: NETCUP_FAKE_API_KEY,
    api_password: NETCUP_FAKE_API_PASSWORD,
  });
const actions = () => fake.requests.map((r) => (r.body as { action: string }).action);
const home = () => fake.record("example.com", "home", "A");
const known = { zone_id: "example.com" };
/** A fault on the requests of one action alone. */
const onAction = (action: string) => (r: { body: unknown }) => (r.body as { action: string }).action === action;

test("the description: the credentials (a customer number of digits), no TTL of its own, the real service", () => {
  expect(netcup.credentials.map((c) => [c.key, c.secret])).toEqual([
    ["customer_number", false],
    ["api_key", true],
    ["api_password", true],
  ]);
  expect(netcup.credentials.every((c) => c.url?.startsWith("https://www.customercontrolpanel.de/"))).toBe(true);
  expect(netcup.credentials[0]!.validate!("12a")).toBe("must be the customer number: digits only");
  expect(netcup.credentials[0]!.validate!("123456")).toBeUndefined();
  expect(netcup.ttl).toBeNull();
  expect(netcup.defaultApiUrl).toBe("https://ccp.netcup.net/run/webservice/servers/endpoint.php");
});

test("verify: valid credentials, one login, nothing changed", async () => {
  expect(await client().verify()).toEqual({
    ok: true,
    detail: `API key accepted for customer ${NETCUP_FAKE_CUSTOMER}`,
  });
  expect(fake.requests).toHaveLength(1);
  expect(fake.requests[0]?.body).toEqual({
    action: "login",
    param: { customernumber: NETCUP_FAKE_CUSTOMER, apikey: NETCUP_FAKE_API_KEY, apipassword: NETCUP_FAKE_API_PASSWORD },
  });
  expect(fake.changes()).toBe(0);
});

describe("the session", () => {
  test("is logged in for once and carried by every action, the password sent only to log in; one Netcup has ended is replaced by a new login, once, and the action repeated", async () => {
    const built = client();
    await built.writeRecord(target("home.example.com", known), NEW_IP);
    await built.writeRecord(target("example.com", known), NEW_IP);
    expect(actions()).toEqual(["login", "infoDnsRecords", "updateDnsRecords", "infoDnsRecords", "updateDnsRecords"]);
    const params = fake.requests.slice(1).map((r) => (r.body as { param: Record<string, unknown> }).param);
    expect(new Set(params.map((p) => p.apisessionid)).size).toBe(1);
    for (const param of params)
      expect(param).toMatchObject({ customernumber: NETCUP_FAKE_CUSTOMER, apikey: NETCUP_FAKE_API_KEY });
    expect(params.some((p) => "apipassword" in p)).toBe(false);
    fake.expireSessions();
    fake.clearRequests();
    const outcome = await built.writeRecord(target("home.example.com", known), OLD_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(actions()).toEqual(["infoDnsRecords", "login", "infoDnsRecords", "updateDnsRecords"]);
    expect(fake.logins()).toBe(2);
  });

  test("a session older than ten minutes is not used: the client logs in afresh", async () => {
    setSystemTime(new Date("2026-01-01T00:00:00Z"));
    try {
      const built = client();
      await built.writeRecord(target("home.example.com", known), OLD_IP);
      setSystemTime(new Date("2026-01-01T00:10:00.001Z"));
      fake.clearRequests();
      await built.writeRecord(target("home.example.com", known), OLD_IP);
      expect(actions()).toEqual(["login", "infoDnsRecords"]);
    } finally {
      setSystemTime();
    }
  });

  test("a session refused twice in a row is a failure, not a loop", async () => {
    fake.fault(
      { statuscode: 4001, shortmessage: "The session id is not in a valid format." },
      undefined,
      (r) => !onAction("login")(r),
    );
    expect(await client().writeRecord(target("home.example.com", known), NEW_IP)).toEqual(
      failed("refused", "Netcup: The session id is not in a valid format. (statuscode 4001)"),
    );
    expect(actions()).toEqual(["login", "infoDnsRecords", "login", "infoDnsRecords"]);
  });
});

test("an existing record: finds the domain, reads the records, and sends only its destination: five requests", async () => {
  const id = home()!.id;
  expect(withoutHeld(await client().writeRecord(target("home.example.com"), NEW_IP))).toEqual(
    wrote("updated", id, "example.com", `Netcup record ${id}`),
  );
  expect(home()).toMatchObject({ destination: NEW_IP, priority: "0", state: "yes" });
  expect(actions()).toEqual(["login", "infoDnsZone", "infoDnsZone", "infoDnsRecords", "updateDnsRecords"]);
  expect((fake.requests[4]!.body as { param: Record<string, unknown> }).param).toMatchObject({
    domainname: "example.com",
    dnsrecordset: {
      dnsrecords: [{ id, hostname: "home", type: "A", priority: "0", destination: NEW_IP, deleterecord: false }],
    },
  });
});

describe("a missing record", () => {
  test("is created without an id, and reported with the id Netcup gave it", async () => {
    const outcome = await client().writeRecord(target("new.example.com", known), NEW_IP);
    const created = fake.record("example.com", "new", "A")!;
    expect(withoutHeld(outcome)).toEqual(wrote("created", created.id, "example.com", `Netcup record ${created.id}`));
    expect((fake.requests.at(-1)!.body as { param: { dnsrecordset: unknown } }).param.dnsrecordset).toEqual({
      dnsrecords: [{ hostname: "new", type: "A", destination: NEW_IP, deleterecord: false }],
    });
  });

  test("an empty zone answered with Netcup's 5029 counts as no records", async () => {
    const empty = {
      statuscode: 5029,
      shortmessage: "Can not get DNS records for zone.",
      longmessage: "Domain not found.",
    };
    fake.fault(empty, 1, onAction("infoDnsRecords"));
    const outcome = await client().writeRecord(target("new.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created" });
  });
});

test("a domain on CloudDNS (statuscode 5028) is refused for good, naming the type that reaches it", async () => {
  fake.cloudDomains.add("cloud.de");
  expect(await client().writeRecord(target("home.cloud.de"), NEW_IP)).toMatchObject({
    ok: false,
    cause: "refused",
    stopRetrying: true,
    message: expect.stringContaining("use the Netcup CloudDNS type (netcupcloud)"),
  });
  expect(await client().writeRecord(target("home.cloud.de", { zone_id: "cloud.de" }), NEW_IP)).toMatchObject({
    ok: false,
    cause: "refused",
    stopRetrying: true,
    message: expect.stringContaining("(statuscode 5028) — the domain is on Netcup CloudDNS"),
  });
  expect(fake.changes()).toBe(0);
});

describe("failures keep Netcup's words and leave the record alone", () => {
  failureTests<FailureCase & { arrange: NetcupFault }>(
    [
      // No Retry-After: the client names no wait.
      fails({ httpStatus: 429 }, "Netcup: Too Many Requests (HTTP 429)", "throttled"),
      fails({ httpStatus: 500 }, "Netcup: Too Many Requests (HTTP 500)", "unreachable"),
    ],
    async ({ arrange }) => {
      fake.fault(arrange);
      return client().writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()?.destination).toBe(OLD_IP);
    },
  );
});
