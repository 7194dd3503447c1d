// The Selectel client against the faithful fake (Keystone in front of the DNS API v2): the token and
// when it is asked for again, what a write changes and keeps (TTL, comment), how many requests it
// spends, and how every failure ends up as Selectel's own words.

import { describe, expect, test } from "bun:test";
import { createSelectelApi } from "../../src/dns/services/selectel";
import {
  SELECTEL_FAKE_ACCOUNT,
  SELECTEL_FAKE_PASSWORD,
  SELECTEL_FAKE_PROJECT,
  SELECTEL_FAKE_USER,
  type SelectelFault,
  startSelectelFake,
} from "../fakes/selectel";
import { context, fails, failureTests, STOP, serviceClient, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startSelectelFake, (fake) => {
  fake.addZone("example.com");
  const home = { name: "home.example.com", type: "A", contents: [OLD_IP], ttl: 1800, comment: "home router" };
  fake.addRrset("example.com", home);
  fake.addRrset("example.com", { name: "myhome.example.com", type: "A", contents: ["198.51.100.9"], ttl: 600 });
});
const credentials = (project_id = SELECTEL_FAKE_PROJECT) => ({
  account_id: SELECTEL_FAKE_ACCOUNT,
  username: SELECTEL_FAKE_USER,
  password: SELECTEL_FAKE_PASSWORD,
  project_id,
});
const client = (project?: string) =>
  serviceClient("selectel", fake.apiUrl, credentials(project), { identity_url: fake.identityUrl });
/** The service's primitives on a clock of their own. */
const api = (now?: () => number) => createSelectelApi(credentials(), fake.identityUrl, context(fake.apiUrl), now);

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.rrsets("example.com", "home.example.com", "A");
const zoneId = () => [...fake.zones.keys()][0]!;
const dnsOnly = (r: { path: string }) => r.path.startsWith("/dns");

test("the token: a password login scoped to the project, sent as X-Auth-Token, never with the password; reused while it lives, asked for again once it expires, replaced once when the API no longer accepts it", async () => {
  let clock = Date.now();
  const selectelApi = api(() => clock);
  await selectelApi.verify();
  expect(fake.requests[0]?.body).toEqual({
    auth: {
      identity: {
        methods: ["password"],
        password: {
          user: { name: SELECTEL_FAKE_USER, domain: { name: SELECTEL_FAKE_ACCOUNT }, password: SELECTEL_FAKE_PASSWORD },
        },
      },
      scope: { project: { id: SELECTEL_FAKE_PROJECT } },
    },
  });
  expect(fake.requests[1]?.headers["x-auth-token"]).toStartWith("gAAAAA");
  expect(JSON.stringify(fake.requests.slice(1))).not.toContain(SELECTEL_FAKE_PASSWORD);
  await selectelApi.verify();
  clock += 24 * 3600 * 1000;
  await selectelApi.verify();
  // Back on the fake's clock, the token it gave is alive until the API refuses it.
  clock = Date.now();
  fake.revokeTokens();
  expect((await selectelApi.verify()).ok).toBe(true);
  const login = "POST /identity/auth/tokens";
  const zones = "GET /dns/zones";
  expect(requestLines()).toEqual([login, zones, zones, login, zones, zones, login, zones]);
});

test("an existing set: finds the zone by exact name, reads exactly this set, PATCHes the address with the TTL and comment it had; with the zone known, two requests", async () => {
  const id = zoneId();
  const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
  const [set] = home();
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "updated",
    externalId: set!.id,
    zoneId: id,
    message: `Selectel record ${set!.id}, ttl 1800`,
  });
  expect(set).toMatchObject({ ttl: 1800, comment: "home router", records: [{ content: NEW_IP, disabled: false }] });
  expect(fake.requests.slice(1, 3).map((r) => r.query.filter)).toEqual(["home.example.com", "example.com"]);
  expect(fake.requests[3]?.query).toMatchObject({ name: "home.example.com.", rrset_types: "A" });
  expect(fake.requests[4]?.body).toEqual({
    ttl: 1800,
    records: [{ content: NEW_IP, disabled: false }],
    comment: "home router",
  });
  // The set whose name merely contains this one's is untouched.
  expect(fake.rrsets("example.com", "myhome.example.com", "A")[0]?.records[0]?.content).toBe("198.51.100.9");
  fake.clearRequests();
  await client().writeRecord(target("home.example.com", { zone_id: id }), OLD_IP);
  expect(requestLines()).toEqual([
    "POST /identity/auth/tokens",
    `GET /dns/zones/${id}/rrset`,
    `PATCH /dns/zones/${id}/rrset/${set!.id}`,
  ]);
});

test("the zone listing is followed by next_offset; a missing set is created there with TTL 3600", async () => {
  for (let i = 0; i < 1100; i++) fake.addZone(`d${String(i).padStart(4, "0")}.example.org`);
  const zone = fake.addZone("example.org");
  const outcome = await client().writeRecord(target("home.example.org"), NEW_IP);
  const listed = fake.requests.filter((r) => r.path === "/dns/zones" && r.query.filter === "example.org");
  expect(listed.map((r) => r.query.offset)).toEqual(["0", "1000"]);
  const [set] = fake.rrsets("example.org", "home.example.org", "A");
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "created",
    externalId: set!.id,
    zoneId: zone.id,
    message: `Selectel record ${set!.id}, ttl 3600`,
  });
  expect(fake.requests.at(-1)?.body).toEqual({
    name: "home.example.org.",
    type: "A",
    ttl: 3600,
    records: [{ content: NEW_IP, disabled: false }],
  });
});

describe("failures keep Selectel's words and leave the record alone", () => {
  type Arrange = { fault?: SelectelFault; project?: string; hostname?: string; ttl?: number };
  failureTests(
    [
      fails(
        { project: "f".repeat(32) },
        /^Selectel: User ddnsd has no access to project f+ \(HTTP 401\)$/,
        "credentials",
        STOP,
      ),
      fails(
        { fault: { status: 403, error: "forbidden", description: "access denied" } },
        "Selectel: access denied (forbidden, HTTP 403)",
        "credentials",
        STOP,
      ),
      fails(
        { hostname: "new.example.com", ttl: 30 },
        "Selectel: ttl must be between 60 and 604800 (body.ttl) (bad_request, HTTP 400)",
        "refused",
      ),
    ],
    async ({ arrange }: { arrange: Arrange }) => {
      if (arrange.fault) fake.fault(arrange.fault, undefined, dnsOnly);
      const config = { zone_id: zoneId(), ttl: arrange.ttl };
      return client(arrange.project).writeRecord(target(arrange.hostname ?? "home.example.com", config), NEW_IP);
    },
    ({ arrange }: { arrange: Arrange }) => {
      // A refusal of the login or of the first request is not retried.
      if (!arrange.ttl) expect(fake.requests.filter(dnsOnly).length).toBeLessThanOrEqual(1);
      expect(home()[0]).toMatchObject({ ttl: 1800, records: [{ content: OLD_IP }] });
      expect(fake.rrsets("example.com", "new.example.com", "A")).toEqual([]);
    },
  );

  test("the identity service answering an error page", async () => {
    fake.fault("html", undefined, (r) => r.path.startsWith("/identity"));
    const outcome = await client().verify();
    expect(outcome).toMatchObject({ ok: false });
    expect(outcome.detail).toStartWith("Selectel: unreadable answer (HTTP 502)");
  });
});
