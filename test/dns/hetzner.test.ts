// The Hetzner (Cloud API) client against the faithful fake: what it changes, what it keeps, the
// actions it waits for, how many requests it spends, and how every failure ends up as Hetzner's words.

import { describe, expect, test } from "bun:test";
import { zoneClient } from "../../src/dns/reconcile";
import { createHetznerApi } from "../../src/dns/services/hetzner";
import { HETZNER_FAKE_TOKEN, HETZNER_READONLY_TOKEN, type HetznerFault, startHetznerFake } from "../fakes/hetzner";
import { context, type FailureCase, fails, failureTests, STOP, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startHetznerFake, (fake) => {
  fake.addZone("example.com");
  fake.addRrset("example.com", { name: "home", type: "A", values: [OLD_IP], ttl: 1800, comment: "router" });
  fake.addRrset("example.com", { name: "@", type: "A", values: [OLD_IP], ttl: null });
});
/** The service's client with quick, few looks at an action (a provider row's waits 500 ms between 20). */
const client = (token = HETZNER_FAKE_TOKEN) =>
  zoneClient(createHetznerApi({ token }, context(fake.url), { intervalMs: 5, maxPolls: 5 }));
const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.rrset("example.com", "home", "A");
const known = { zone_id: "example.com" };
const actionLooks = () => fake.requests.filter((r) => r.path.startsWith("/zones/actions/"));
const actionId = () => [...fake.actions.values()][0]?.id;

test("verify: a valid token is accepted with one small read", async () => {
  fake.addZone("other.org");
  expect(await client().verify()).toEqual({ ok: true, detail: "Token accepted (2 zones)" });
  expect(requestLines()).toEqual(["GET /zones"]);
  expect(fake.requests[0]?.query).toEqual({ per_page: "1" });
  expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${HETZNER_FAKE_TOKEN}`);
});

describe("writeRecord on an existing record set", () => {
  test("finds the zone, reads the set, sets the record and waits for the action; TTL and comment stay; then read, set, looks until it ends", async () => {
    expect(withoutHeld(await client().writeRecord(target("home.example.com"), NEW_IP))).toEqual({
      ok: true,
      action: "updated",
      externalId: "home/A",
      zoneId: "example.com",
      message: "Hetzner record home/A, ttl 1800",
    });
    expect(home()).toMatchObject({ ttl: 1800, records: [{ value: NEW_IP, comment: "router" }] });
    const action = [...fake.actions.values()][0];
    expect(fake.requests.slice(0, 2).map((r) => r.query.name)).toEqual(["home.example.com", "example.com"]);
    expect(fake.requests[3]?.body).toEqual({ records: [{ value: NEW_IP, comment: "router" }] });
    expect(requestLines()).toEqual([
      "GET /zones",
      "GET /zones",
      "GET /zones/example.com/rrsets/home/A",
      "POST /zones/example.com/rrsets/home/A/actions/set_records",
      `GET /zones/actions/${action?.id}`,
    ]);
    // With the zone known: read and set; an action that stays running a while is looked at until it succeeds.
    fake.clearRequests();
    fake.actionLooks = 3;
    await client().writeRecord(target("home.example.com", known), OLD_IP);
    const look = `GET /zones/actions/${[...fake.actions.values()][1]?.id}`;
    expect(requestLines()).toEqual([
      "GET /zones/example.com/rrsets/home/A",
      "POST /zones/example.com/rrsets/home/A/actions/set_records",
      look,
      look,
      look,
    ]);
    expect(home()?.records[0]?.value).toBe(OLD_IP);
  });

  test("an action still running after the last look is a failure, and the looks are bounded", async () => {
    fake.actionLooks = 100;
    expect(await client().writeRecord(target("home.example.com", known), NEW_IP)).toEqual({
      ok: false,
      cause: "unreachable",
      message: `Hetzner: action ${actionId()} still running after 5 checks; the next update will see how it ended`,
    });
    expect(actionLooks()).toHaveLength(5);
  });

  test("an action that ends in error carries the action's own error", async () => {
    fake.failNextAction = { code: "action_failed", message: "record could not be set" };
    expect(await client().writeRecord(target("home.example.com", known), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message: `Hetzner: action ${actionId()} failed: record could not be set (action_failed)`,
    });
    expect(home()?.records).toEqual([{ value: OLD_IP, comment: "router" }]);
  });

  test("a TTL from config is set with change_ttl, after the records; when only the TTL differs, only change_ttl", async () => {
    const posts = () => fake.requests.filter((r) => r.method === "POST").map((r) => r.path.split("/").at(-1));
    const outcome = await client().writeRecord(target("home.example.com", { ...known, ttl: 300 }), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, message: "Hetzner record home/A, ttl 300" });
    expect(home()).toMatchObject({ ttl: 300, records: [{ value: NEW_IP }] });
    expect(posts()).toEqual(["set_records", "change_ttl"]);
    await client().writeRecord(target("home.example.com", { ...known, ttl: 600 }), NEW_IP);
    expect(posts()).toEqual(["set_records", "change_ttl", "change_ttl"]);
    expect(home()?.ttl).toBe(600);
  });

  test("an external id never redirects the write: the set is always addressed by name and type", async () => {
    await client().writeRecord(target("home.example.com", {}, { externalId: "@/A" }), NEW_IP);
    expect(home()?.records[0]?.value).toBe(NEW_IP);
    expect(fake.rrset("example.com", "@", "A")?.records[0]?.value).toBe(OLD_IP);
  });

  test("the apex is @ and its zone-default TTL (null) stays null", async () => {
    const outcome = await client().writeRecord(target("example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, externalId: "@/A", message: "Hetzner record @/A, ttl of the zone" });
    expect(fake.rrset("example.com", "@", "A")).toMatchObject({ ttl: null, records: [{ value: NEW_IP }] });
  });

  test("a secondary zone is refused before any write, and not retried; named in config, Hetzner's 422 says so", async () => {
    fake.addZone("sec.org", { mode: "secondary" });
    fake.addRrset("sec.org", { name: "home", type: "A", values: [OLD_IP] });
    expect(await client().writeRecord(target("home.sec.org"), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message: "Hetzner: zone sec.org is in secondary mode; only a primary zone's records can be changed",
      stopRetrying: true,
    });
    expect(fake.writes()).toBe(0);
    expect(await client().writeRecord(target("home.sec.org", { zone_id: "sec.org" }), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message: "Hetzner: This operation is not supported for this Zone's mode. (incorrect_zone_mode, HTTP 422)",
      stopRetrying: true,
    });
  });
});

test("a missing record set is created (zone-default TTL) and the action waited for", async () => {
  expect(withoutHeld(await client().writeRecord(target("new.example.com"), NEW_IP))).toEqual({
    ok: true,
    action: "created",
    externalId: "new/A",
    zoneId: "example.com",
    message: "Hetzner record new/A, ttl of the zone",
  });
  expect(fake.rrset("example.com", "new", "A")).toMatchObject({ ttl: null, records: [{ value: NEW_IP }] });
  expect(fake.requests.find((r) => r.method === "POST")?.body).toEqual({
    name: "new",
    type: "A",
    records: [{ value: NEW_IP }],
  });
  expect(requestLines().at(-1)).toStartWith("GET /zones/actions/");
});

test("zones are searched by name, never asking for the bare TLD", async () => {
  expect(await client().writeRecord(target("host.nowhere.org"), NEW_IP)).toMatchObject({ ok: false });
  expect(fake.requests.map((r) => r.query.name)).toEqual(["host.nowhere.org", "nowhere.org"]);
});

test("a numeric zone id from config is looked up for its name", async () => {
  const { id } = [...fake.zones.values()][0]!;
  const outcome = await client().writeRecord(target("home.example.com", { zone_id: String(id) }), NEW_IP);
  expect(outcome).toMatchObject({ ok: true, zoneId: "example.com" });
  expect(requestLines()[0]).toBe(`GET /zones/${id}`);
});

describe("failures keep Hetzner's words and leave the record alone", () => {
  failureTests<FailureCase & { arrange: { fault?: HetznerFault; token?: string } }>(
    [
      fails(
        { fault: { status: 423 } },
        /^Hetzner: the item you are trying to access is locked .*\(locked, HTTP 423\)$/,
        "refused",
      ),
      fails(
        { fault: { status: 403, code: "protected", message: "rrset is protected" } },
        "Hetzner: rrset is protected (protected, HTTP 403)",
        "credentials",
        STOP,
      ),
      // A read-only token can read but not write.
      fails(
        { token: HETZNER_READONLY_TOKEN },
        "Hetzner: The token is read-only (token_readonly, HTTP 403)",
        "credentials",
        STOP,
      ),
    ],
    async ({ arrange }) => {
      if (arrange.fault) fake.fault(arrange.fault);
      return client(arrange.token).writeRecord(target("home.example.com", known), NEW_IP);
    },
    ({ arrange }) => {
      expect(fake.requests).toHaveLength(arrange.fault ? 1 : 2);
      expect(home()?.records[0]?.value).toBe(OLD_IP);
    },
  );

  test("a failing look at the action is reported", async () => {
    fake.fault({ status: 503 }, 1, (r) => r.path.startsWith("/zones/actions/"));
    expect(await client().writeRecord(target("home.example.com", known), NEW_IP)).toEqual({
      ok: false,
      cause: "unreachable",
      message: "Hetzner: service unavailable (unavailable, HTTP 503)",
    });
  });
});
