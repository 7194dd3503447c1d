// The Rackspace Cloud DNS client against the faithful fake (Identity v2.0 in front of Cloud DNS v1.0):
// the login and its service catalog, what a write changes and keeps, the asynchronous jobs it
// follows to their end, how many requests it spends, and how every failure ends up in Rackspace's words.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FailureCause } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createRackspaceApi } from "../../src/dns/services/rackspace";
import {
  RACKSPACE_FAKE_KEY,
  RACKSPACE_FAKE_TENANT,
  RACKSPACE_FAKE_USER,
  type RackspaceFake,
  type RackspaceFault,
  startRackspaceFake,
} from "../fakes/rackspace";
import { failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";
const DNS = `/dns/v1.0/${RACKSPACE_FAKE_TENANT}`;

let fake: RackspaceFake;
let domainId: string;
let waits: number[];

beforeEach(() => {
  fake = startRackspaceFake();
  domainId = fake.addDomain("example.com").id;
  fake.addRecord("example.com", {
    name: "home.example.com",
    type: "A",
    data: OLD_IP,
    ttl: 1800,
    comment: "home router",
  });
  fake.addRecord("example.com", { name: "example.com", type: "A", data: OLD_IP, ttl: 600 });
  waits = [];
});

afterEach(async () => {
  await fake.stop();
});

function api(options: { key?: string; timeoutMs?: number; now?: () => number } = {}) {
  return createRackspaceApi(
    { username: RACKSPACE_FAKE_USER, api_key: options.key ?? RACKSPACE_FAKE_KEY },
    { baseUrl: fake.identityUrl, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    // The waits between polls are recorded, not slept.
    { now: options.now ?? Date.now, sleep: async (ms) => void waits.push(ms) },
  );
}
const client = (options: Parameters<typeof api>[0] = {}) => zoneClient(api(options));

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.records("example.com", "home.example.com", "A");
const dnsOnly = (r: { path: string }) => r.path.startsWith("/dns");

describe("the login", () => {
  test("sends the user name and API key, and uses the catalog's Cloud DNS endpoint with the token", async () => {
    await client().verify();
    expect(requestLines()).toEqual(["POST /identity/tokens", `GET ${DNS}/domains`]);
    expect(fake.requests[0]?.body).toEqual({
      auth: { "RAX-KSKEY:apiKeyCredentials": { username: RACKSPACE_FAKE_USER, apiKey: RACKSPACE_FAKE_KEY } },
    });
    expect(fake.requests[1]?.headers["x-auth-token"]).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(fake.requests.slice(1))).not.toContain(RACKSPACE_FAKE_KEY);
  });

  test("is reused while the token lives; a token the API no longer accepts is replaced once", async () => {
    const rackspaceApi = api();
    await rackspaceApi.verify();
    await rackspaceApi.verify();
    fake.revokeTokens();
    expect((await rackspaceApi.verify()).ok).toBe(true);
    expect(requestLines().filter((l) => l.includes("tokens"))).toHaveLength(2);
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the domain by exact name, reads the record, PUTs the address, and follows the job to its end", async () => {
    fake.pollsUntilDone = 2;
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    const [record] = home();
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: record!.id,
      zoneId: domainId,
      message: `Rackspace Cloud DNS record ${record!.id}, ttl 1800`,
    });
    expect(record).toMatchObject({ data: NEW_IP, ttl: 1800, comment: "home router" });
    const jobPolls = requestLines().filter((l) => l.includes("/status/"));
    expect(requestLines().slice(0, 5)).toEqual([
      "POST /identity/tokens",
      `GET ${DNS}/domains`,
      `GET ${DNS}/domains`,
      `GET ${DNS}/domains/${domainId}/records`,
      `PUT ${DNS}/domains/${domainId}/records/${record!.id}`,
    ]);
    expect(jobPolls).toHaveLength(3);
    expect(fake.requests.filter((r) => r.path.includes("/status/")).map((r) => r.query.showDetails)).toEqual([
      "true",
      "true",
      "true",
    ]);
    // Waits grow between polls.
    expect(waits).toEqual([250, 500, 1000]);
    expect(fake.requests.slice(1, 3).map((r) => r.query.name)).toEqual(["home.example.com", "example.com"]);
    expect(fake.requests[3]?.query).toMatchObject({ type: "A", name: "home.example.com" });
    expect(fake.requests[4]?.body).toEqual({ name: "home.example.com", data: NEW_IP });
  });

  test("with the domain known, a change costs the domain, the record, the PUT and one poll", async () => {
    await client().writeRecord(target("home.example.com", { zone_id: domainId }), NEW_IP);
    expect(
      requestLines()
        .filter((l) => !l.includes("tokens"))
        .map((l) => l.replace(/status\/.*/, "status/…")),
    ).toEqual([
      `GET ${DNS}/domains/${domainId}`,
      `GET ${DNS}/domains/${domainId}/records`,
      `PUT ${DNS}/domains/${domainId}/records/${home()[0]!.id}`,
      `GET ${DNS}/status/…`,
    ]);
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it with TTL 300 and takes its id from the finished job", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    const [record] = fake.records("example.com", "new.example.com", "A");
    expect(record).toMatchObject({ data: NEW_IP, ttl: 300 });
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: record!.id,
      zoneId: domainId,
      message: `Rackspace Cloud DNS record ${record!.id}, ttl 300`,
    });
    expect(fake.requests.find((r) => r.method === "POST" && dnsOnly(r))?.body).toEqual({
      records: [{ name: "new.example.com", type: "A", data: NEW_IP, ttl: 300 }],
    });
  });

  test("a TTL under 300 is refused at once in Rackspace's words", async () => {
    const outcome = await client().writeRecord(target("new.example.com", { ttl: 60 }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "Rackspace Cloud DNS: TTL must be 300 or greater. (HTTP 400)",
    });
  });

  test("a job that ends in ERROR is a failure in its words", async () => {
    fake.failNextJob = { code: 409, message: "Record already exists" };
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "refused" });
    expect(!outcome.ok && outcome.message).toMatch(
      /^Rackspace Cloud DNS: Record already exists \(job [0-9a-f-]+, code 409\)$/,
    );
  });
});

describe("jobs", () => {
  test("one that does not finish is reported after ten polls, and the next pass reads again", async () => {
    fake.pollsUntilDone = 50;
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: domainId }), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "unreachable" });
    expect(!outcome.ok && outcome.message).toContain("had not finished after 10 checks");
    expect(fake.requests.filter((r) => r.path.includes("/status/"))).toHaveLength(10);
    expect(waits.at(-1)).toBe(2000);
  });
});

describe("callbacks", () => {
  test("a callback away from the DNS endpoint's origin is not followed, so the token goes nowhere else", async () => {
    fake.fault(
      {
        status: 202,
        body: { status: "RUNNING", jobId: "j-1", callbackUrl: "http://192.0.2.1/v1.0/110011/status/j-1" },
      },
      1,
      (r) => r.method === "PUT",
    );
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: domainId }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message:
        "Rackspace Cloud DNS: a job's callback pointed away from the DNS endpoint (http://192.0.2.1); not followed",
    });
  });
});

describe("zone discovery", () => {
  test("the domain of exactly the name is chosen, though the filter also answers sub-domains", async () => {
    const sub = fake.addDomain("b.example.com").id;
    const outcome = await client().writeRecord(target("x.b.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: sub });
    expect(fake.records("b.example.com", "x.b.example.com", "A")).toHaveLength(1);
  });
});

describe("failures keep Rackspace's words and leave the record alone", () => {
  const cases: {
    name: string;
    fault?: RackspaceFault;
    key?: string;
    message: string | RegExp;
    cause: FailureCause;
    stopRetrying?: boolean;
    retryAfterSeconds?: number;
  }[] = [
    {
      name: "wrong API key",
      key: "wrong",
      message: "Rackspace Cloud DNS: Username or api key is invalid. (HTTP 401)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "a user without DNS access (403)",
      fault: { status: 403, body: { forbidden: { code: 403, message: "Access denied." } } },
      message: "Rackspace Cloud DNS: Access denied. (HTTP 403)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "over the limit (413) with a wait",
      fault: {
        status: 413,
        body: { overLimit: { code: 413, message: "OverLimit Retry...", details: "Error Details..." } },
        retryAfter: 30,
      },
      message: "Rackspace Cloud DNS: OverLimit Retry...; Error Details... (HTTP 413)",
      cause: "throttled",
      retryAfterSeconds: 30,
    },
    {
      name: "dnsFault (500)",
      fault: { status: 500, body: { message: "The DNS service has experienced a fault.", code: 500, details: "" } },
      message: "Rackspace Cloud DNS: The DNS service has experienced a fault. (HTTP 500)",
      cause: "unreachable",
    },
  ];
  failureTests(
    cases,
    async ({ fault, key }) => {
      if (fault) fake.fault(fault, undefined, dnsOnly);
      return client({ key, timeoutMs: 1000 }).writeRecord(target("home.example.com", { zone_id: domainId }), NEW_IP);
    },
    () => {
      expect(fake.requests.filter(dnsOnly).length).toBeLessThanOrEqual(1);
      expect(home()[0]).toMatchObject({ data: OLD_IP, ttl: 1800 });
    },
  );

  test("a login whose catalog has no Cloud DNS stops retrying", async () => {
    fake.fault(
      { status: 200, body: { access: { token: { id: "t", expires: "2999-01-01T00:00:00Z" }, serviceCatalog: [] } } },
      1,
      (r) => r.path === "/identity/tokens",
    );
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: domainId }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "credentials",
      stopRetrying: true,
      message:
        "Rackspace Cloud DNS: the login gave no token or no Cloud DNS endpoint; is Cloud DNS enabled for this account?",
    });
  });
});
