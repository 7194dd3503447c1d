// The Hetzner (Cloud API) client against the faithful fake: what it changes, what it keeps, the
// actions it waits for, how many requests it spends, and how every failure ends up as Hetzner's words.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { zoneClient } from "../../src/dns/reconcile";
import { createHetznerApi } from "../../src/dns/services/hetzner";
import {
  HETZNER_FAKE_TOKEN,
  HETZNER_READONLY_TOKEN,
  type HetznerFake,
  type HetznerFault,
  type HetznerZone,
  startHetznerFake,
} from "../fakes/hetzner";
import { target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";
const POLLING = { intervalMs: 5, maxPolls: 5 };

let fake: HetznerFake;
let zone: HetznerZone;

beforeEach(() => {
  fake = startHetznerFake();
  zone = fake.addZone("example.com");
  fake.addRrset("example.com", { name: "home", type: "A", values: [OLD_IP], ttl: 1800, comment: "router" });
  fake.addRrset("example.com", { name: "@", type: "A", values: [OLD_IP], ttl: null });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { token?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createHetznerApi(
      { token: options.token ?? HETZNER_FAKE_TOKEN },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
      POLLING,
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.rrset("example.com", "home", "A");

describe("verify", () => {
  test("a valid token is accepted, read-only, with one small request", async () => {
    fake.addZone("other.org");
    expect(await client().verify()).toEqual({ ok: true, detail: "Token accepted (2 zones)" });
    expect(requestLines()).toEqual(["GET /zones"]);
    expect(fake.requests[0]?.query).toEqual({ per_page: "1" });
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${HETZNER_FAKE_TOKEN}`);
    expect(fake.writes()).toBe(0);
  });

  test("a bad token is refused in Hetzner's words", async () => {
    expect(await client({ token: "nope" }).verify()).toMatchObject({
      ok: false,
      detail: "Hetzner: unable to authenticate (unauthorized, HTTP 401)",
    });
  });
});

describe("writeRecord on an existing record set", () => {
  test("finds the zone, reads the set, sets the record and waits for the action; TTL and comment stay", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: "home/A",
      zoneId: "example.com",
      message: "Hetzner record home/A, ttl 1800",
    });
    expect(home()).toMatchObject({ ttl: 1800, records: [{ value: NEW_IP, comment: "router" }] });
    const action = [...fake.actions.values()][0];
    expect(requestLines()).toEqual([
      "GET /zones",
      "GET /zones",
      "GET /zones/example.com/rrsets/home/A",
      "POST /zones/example.com/rrsets/home/A/actions/set_records",
      `GET /zones/actions/${action?.id}`,
    ]);
    expect(fake.requests.slice(0, 2).map((r) => r.query.name)).toEqual(["home.example.com", "example.com"]);
    expect(fake.requests[3]?.body).toEqual({ records: [{ value: NEW_IP, comment: "router" }] });
    expect(action?.status).toBe("success");
  });

  test("steady state (zone from config): read, set, one look at the action", async () => {
    await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(requestLines()).toHaveLength(3);
    expect(requestLines()[0]).toBe("GET /zones/example.com/rrsets/home/A");
  });

  test("an action that stays running a while is looked at until it succeeds", async () => {
    fake.actionLooks = 3;
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(outcome.ok).toBe(true);
    expect(fake.requests.filter((r) => r.path.startsWith("/zones/actions/"))).toHaveLength(3);
  });

  test("an action still running after the last look is a failure, and the looks are bounded", async () => {
    fake.actionLooks = 100;
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    const action = [...fake.actions.values()][0];
    expect(outcome).toEqual({
      ok: false,
      cause: "unreachable",
      message: `Hetzner: action ${action?.id} still running after 5 checks; the next update will see how it ended`,
    });
    expect(fake.requests.filter((r) => r.path.startsWith("/zones/actions/"))).toHaveLength(5);
  });

  test("an action that ends in error carries the action's own error", async () => {
    fake.failNextAction = { code: "action_failed", message: "record could not be set" };
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    const action = [...fake.actions.values()][0];
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: `Hetzner: action ${action?.id} failed: record could not be set (action_failed)`,
    });
    expect(home()?.records).toEqual([{ value: OLD_IP, comment: "router" }]);
  });

  test("a TTL from config is set with change_ttl, after the records", async () => {
    const outcome = await client().writeRecord(
      target("home.example.com", { zone_id: "example.com", ttl: 300 }),
      NEW_IP,
    );
    expect(outcome).toMatchObject({ ok: true, message: "Hetzner record home/A, ttl 300" });
    expect(home()).toMatchObject({ ttl: 300, records: [{ value: NEW_IP }] });
    expect(fake.requests.filter((r) => r.method === "POST").map((r) => r.path.split("/").at(-1))).toEqual([
      "set_records",
      "change_ttl",
    ]);
  });

  test("only the TTL differs: only change_ttl is sent", async () => {
    await client().writeRecord(target("home.example.com", { zone_id: "example.com", ttl: 300 }), OLD_IP);
    expect(fake.requests.filter((r) => r.method === "POST").map((r) => r.path.split("/").at(-1))).toEqual([
      "change_ttl",
    ]);
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

  test("a secondary zone is refused before any write, and not retried", async () => {
    fake.addZone("sec.org", { mode: "secondary" });
    const outcome = await client().writeRecord(target("home.sec.org"), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "Hetzner: zone sec.org is in secondary mode; only a primary zone's records can be changed",
      stopRetrying: true,
    });
    expect(fake.writes()).toBe(0);
  });

  test("a secondary zone named in config: Hetzner's 422 incorrect_zone_mode, not retried", async () => {
    fake.addZone("sec.org", { mode: "secondary" });
    fake.addRrset("sec.org", { name: "home", type: "A", values: [OLD_IP] });
    const outcome = await client().writeRecord(target("home.sec.org", { zone_id: "sec.org" }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "Hetzner: This operation is not supported for this Zone's mode. (incorrect_zone_mode, HTTP 422)",
      stopRetrying: true,
    });
  });
});

describe("writeRecord on a missing record set", () => {
  test("creates it (zone-default TTL) and waits for the action", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    expect(outcome).toEqual({
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

  test("creates it with the TTL from config, AAAA beside the A", async () => {
    const outcome = await client().writeRecord(
      target("home.example.com", { ttl: 120 }, { recordType: "AAAA" }),
      "2001:db8::7",
    );
    expect(outcome).toMatchObject({ ok: true, action: "created", externalId: "home/AAAA" });
    expect(fake.rrset("example.com", "home", "AAAA")).toMatchObject({ ttl: 120, records: [{ value: "2001:db8::7" }] });
    expect(home()?.records[0]?.value).toBe(OLD_IP);
  });
});

describe("zone discovery and configured zones", () => {
  test("no zone holds the name: a failure naming it, the bare TLD never asked", async () => {
    expect(await client().writeRecord(target("host.nowhere.org"), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message: "Hetzner: no zone of this project holds host.nowhere.org",
    });
    expect(fake.requests.map((r) => r.query.name)).toEqual(["host.nowhere.org", "nowhere.org"]);
  });

  test("a numeric zone id from config is looked up for its name", async () => {
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: String(zone.id) }), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, zoneId: "example.com" });
    expect(requestLines()[0]).toBe(`GET /zones/${zone.id}`);
  });

  test("a configured zone id of another zone is refused, nothing written", async () => {
    const other = fake.addZone("other.org");
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: String(other.id) }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: `Hetzner: zone ${other.id} is other.org, which does not hold home.example.com; correct config.zone_id or remove it`,
    });
    expect(fake.writes()).toBe(0);
  });

  test("a configured zone that is gone is found afresh, once", async () => {
    const outcome = await client().writeRecord(target("new.sub.example.com", { zone_id: "sub.example.com" }), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: "example.com", externalId: "new.sub/A" });
    expect(requestLines().slice(0, 3)).toEqual([
      "GET /zones/sub.example.com/rrsets/new/A",
      "GET /zones/sub.example.com",
      "GET /zones",
    ]);
  });
});

describe("failures keep Hetzner's words and leave the record alone", () => {
  const cases: {
    name: string;
    fault?: HetznerFault;
    token?: string;
    message: string | RegExp;
    cause: string;
    retryAfterSeconds?: number | "near 30";
    stopRetrying?: boolean;
  }[] = [
    // The wait Hetzner names is passed on; the updater decides the pause (an hour at most).
    {
      name: "429 with RateLimit-Reset",
      fault: { status: 429, resetInSeconds: 30 },
      message: "Hetzner: limit of 3600 requests per hour reached (rate_limit_exceeded, HTTP 429)",
      cause: "throttled",
      retryAfterSeconds: "near 30",
    },
    {
      name: "locked",
      fault: { status: 423 },
      message: /^Hetzner: the item you are trying to access is locked .*\(locked, HTTP 423\)$/,
      cause: "refused",
    },
    {
      name: "protected: not retried",
      fault: { status: 403, code: "protected", message: "rrset is protected" },
      message: "Hetzner: rrset is protected (protected, HTTP 403)",
      cause: "credentials",
      stopRetrying: true,
    },
  ];
  for (const { name, fault, token, message, cause, retryAfterSeconds, stopRetrying } of cases) {
    test(name, async () => {
      if (fault) fake.fault(fault);
      const outcome = await client({ token, timeoutMs: 1000 }).writeRecord(
        target("home.example.com", { zone_id: "example.com" }),
        NEW_IP,
      );
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toMatch(message);
      expect(outcome.cause).toBe(cause as never);
      if (retryAfterSeconds === "near 30") {
        expect(outcome.retryAfterSeconds).toBeGreaterThanOrEqual(29);
        expect(outcome.retryAfterSeconds).toBeLessThanOrEqual(31);
      } else {
        expect(outcome.retryAfterSeconds).toBe(retryAfterSeconds);
      }
      expect(outcome.stopRetrying).toBe(stopRetrying);
      expect(fake.requests).toHaveLength(1);
      expect(home()?.records[0]?.value).toBe(OLD_IP);
    });
  }

  test("a read-only token can read but not write: Hetzner's words, not retried", async () => {
    const outcome = await client({ token: HETZNER_READONLY_TOKEN }).writeRecord(
      target("home.example.com", { zone_id: "example.com" }),
      NEW_IP,
    );
    expect(outcome).toEqual({
      ok: false,
      cause: "credentials",
      message: "Hetzner: The token is read-only (token_readonly, HTTP 403)",
      stopRetrying: true,
    });
    expect(home()?.records[0]?.value).toBe(OLD_IP);
  });

  test("a failing look at the action is reported", async () => {
    fake.fault({ status: 503 }, 1, (r) => r.path.startsWith("/zones/actions/"));
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "unreachable",
      message: "Hetzner: service unavailable (unavailable, HTTP 503)",
    });
  });
});
