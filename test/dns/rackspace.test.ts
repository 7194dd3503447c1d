// The Rackspace Cloud DNS client against the faithful fake (Identity v2.0 in front of Cloud DNS v1.0):
// the login and its service catalog, what a write changes and keeps, the asynchronous jobs it
// follows to their end, how many requests it spends, and how every failure ends up in Rackspace's words.

import { describe, expect, test } from "bun:test";
import { zoneClient } from "../../src/dns/reconcile";
import { createRackspaceApi } from "../../src/dns/services/rackspace";
import {
  RACKSPACE_FAKE_KEY,
  RACKSPACE_FAKE_TENANT,
  RACKSPACE_FAKE_USER,
  type RackspaceFault,
  startRackspaceFake,
} from "../fakes/rackspace";
import { context, type FailureCase, fails, failureTests, STOP, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";
const DNS = `/dns/v1.0/${RACKSPACE_FAKE_TENANT}`;

let domainId: string;
/** The waits between a job's polls, recorded instead of slept. */
let waits: number[];
const fake = useFake(startRackspaceFake, (fake) => {
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

/** The service's API with the waits between a job's polls recorded, not slept (a provider row's sleeps them). */
const api = () =>
  createRackspaceApi({ username: RACKSPACE_FAKE_USER, api_key: RACKSPACE_FAKE_KEY }, context(fake.identityUrl), {
    now: Date.now,
    sleep: async (ms) => void waits.push(ms),
  });
const client = () => zoneClient(api());
const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.records("example.com", "home.example.com", "A");
const dnsOnly = (r: { path: string }) => r.path.startsWith("/dns");

test("the login sends the user name and API key, the catalog's Cloud DNS endpoint is used with the token; the token is reused while it lives, and one the API no longer accepts replaced once", async () => {
  const rackspace = api();
  await rackspace.verify();
  expect(requestLines()).toEqual(["POST /identity/tokens", `GET ${DNS}/domains`]);
  expect(fake.requests[0]?.body).toEqual({
    auth: { "RAX-KSKEY:apiKeyCredentials": { username: RACKSPACE_FAKE_USER, apiKey: RACKSPACE_FAKE_KEY } },
  });
  expect(fake.requests[1]?.headers["x-auth-token"]).toMatch(/^[0-9a-f]{32}$/);
  expect(JSON.stringify(fake.requests.slice(1))).not.toContain(RACKSPACE_FAKE_KEY);
  await rackspace.verify();
  fake.revokeTokens();
  expect((await rackspace.verify()).ok).toBe(true);
  expect(requestLines().filter((l) => l.includes("tokens"))).toHaveLength(2);
});

test("an existing record: finds the domain by exact name, reads the record, PUTs the address, and follows the job to its end; then four requests", async () => {
  fake.pollsUntilDone = 2;
  const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
  const [record] = home();
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "updated",
    externalId: record!.id,
    zoneId: domainId,
    message: `Rackspace Cloud DNS record ${record!.id}, ttl 1800`,
  });
  expect(record).toMatchObject({ data: NEW_IP, ttl: 1800, comment: "home router" });
  expect(requestLines().slice(0, 5)).toEqual([
    "POST /identity/tokens",
    `GET ${DNS}/domains`,
    `GET ${DNS}/domains`,
    `GET ${DNS}/domains/${domainId}/records`,
    `PUT ${DNS}/domains/${domainId}/records/${record!.id}`,
  ]);
  // Three polls, each asking for the job's details.
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

  // With the domain known: the domain, the record, the PUT and one poll.
  fake.clearRequests();
  fake.pollsUntilDone = 0;
  await client().writeRecord(target("home.example.com", { zone_id: domainId }), OLD_IP);
  expect(
    requestLines()
      .filter((l) => !l.includes("tokens"))
      .map((l) => l.replace(/status\/.*/, "status/…")),
  ).toEqual([
    `GET ${DNS}/domains/${domainId}`,
    `GET ${DNS}/domains/${domainId}/records`,
    `PUT ${DNS}/domains/${domainId}/records/${record!.id}`,
    `GET ${DNS}/status/…`,
  ]);
});

describe("writeRecord on a missing record", () => {
  test("creates it with TTL 300 and takes its id from the finished job", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    const [record] = fake.records("example.com", "new.example.com", "A");
    expect(record).toMatchObject({ data: NEW_IP, ttl: 300 });
    expect(withoutHeld(outcome)).toEqual({
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

test("a job that does not finish is reported after ten polls, and the next pass reads again", async () => {
  fake.pollsUntilDone = 50;
  const outcome = await client().writeRecord(target("home.example.com", { zone_id: domainId }), NEW_IP);
  expect(outcome).toMatchObject({ ok: false, cause: "unreachable" });
  expect(!outcome.ok && outcome.message).toContain("had not finished after 10 checks");
  expect(fake.requests.filter((r) => r.path.includes("/status/"))).toHaveLength(10);
  expect(waits.at(-1)).toBe(2000);
});

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

test("zone discovery: the domain of exactly the name is chosen, though the filter also answers sub-domains", async () => {
  const sub = fake.addDomain("b.example.com").id;
  const outcome = await client().writeRecord(target("x.b.example.com"), NEW_IP);
  expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: sub });
  expect(fake.records("b.example.com", "x.b.example.com", "A")).toHaveLength(1);
});

describe("failures keep Rackspace's words and leave the record alone", () => {
  failureTests<FailureCase & { arrange: { fault: RackspaceFault; login?: boolean } }>(
    [
      // A user without DNS access.
      fails(
        { fault: { status: 403, body: { forbidden: { code: 403, message: "Access denied." } } } },
        "Rackspace Cloud DNS: Access denied. (HTTP 403)",
        "credentials",
        STOP,
      ),
      // A login whose catalog has no Cloud DNS.
      fails(
        {
          login: true,
          fault: {
            status: 200,
            body: { access: { token: { id: "t", expires: "2999-01-01T00:00:00Z" }, serviceCatalog: [] } },
          },
        },
        "Rackspace Cloud DNS: the login gave no token or no Cloud DNS endpoint; is Cloud DNS enabled for this account?",
        "credentials",
        STOP,
      ),
    ],
    ({ arrange }) => {
      fake.fault(arrange.fault, 1, arrange.login ? (r) => r.path === "/identity/tokens" : dnsOnly);
      return client().writeRecord(target("home.example.com", { zone_id: domainId }), NEW_IP);
    },
    () => {
      expect(fake.requests.filter(dnsOnly).length).toBeLessThanOrEqual(1);
      expect(home()[0]).toMatchObject({ data: OLD_IP, ttl: 1800 });
    },
  );
});
