// The ten services added in the second wave, each through the whole appliance against its fake (one
// table, one adapter per service in adapters.ts): providers and domains made through the API, forced
// and scheduled updates, nothing sent while nothing changed, failures in the service's own words in
// the history, refused credentials (and no retry where the service bans clients that keep trying),
// "slow down" pausing the provider, the 422s, verify, and for zone services created / TTL kept / apex
// / a delegated sub-zone. Below the table: the pacer (on a clock that skips its waits) keeping a burst under each paced service's
// documented limit, a "slow down" reaching requests that wait their turn, and dyndns2's return codes.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { Pacer } from "../../src/dns/pacing";
import type { RecordType } from "../../src/dns/provider";
import { SERVICES } from "../../src/dns/registry";
import type { Dyndns2Fake } from "../fakes/dyndns2";
import { ECHO_DEFAULT_IPV4, ECHO_DEFAULT_IPV6, type EchoFake, startEchoFake } from "../fakes/echo";
import type { FakeServer } from "../fakes/server";
import { makeTestApp, type TestApp } from "../support";
import {
  domainState,
  duePass,
  expectDelay,
  forceUpdate,
  historyOf,
  makeDue,
  NEXT_IPV4,
  NEXT_IPV6,
  OLD_IPV4,
  OLD_IPV6,
} from "../updater/harness";
import { type ServiceAdapter, ZONE } from "./adapter";
import { ADAPTERS } from "./adapters";
import { adapter as desec } from "./adapters/desec";
import { adapter as digitalocean } from "./adapters/digitalocean";
import { adapter as dyndns2 } from "./adapters/dyndns2";
import { adapter as porkbun } from "./adapters/porkbun";
import { adapter as route53 } from "./adapters/route53";

const OLD: Record<RecordType, string> = { A: OLD_IPV4, AAAA: OLD_IPV6 };
const DETECTED: Record<RecordType, string> = { A: ECHO_DEFAULT_IPV4, AAAA: ECHO_DEFAULT_IPV6 };
const NEXT: Record<RecordType, string> = { A: NEXT_IPV4, AAAA: NEXT_IPV6 };

/**
 * A pacer whose waits take no time: each reservation still follows the service's limit, but the clock
 * jumps instead of sleeping, so the functional tests of Porkbun (1 request per 1.25 s) and deSEC (1 per
 * 2.5 s) do not wait seconds per write. The real pacer is proven in "pacing" below.
 */
function instantPacer(): Pacer {
  let now = 0;
  return new Pacer({ now: () => now, sleep: async (ms) => void (now += ms) });
}

interface ServiceRig<Fake extends FakeServer<any>> {
  fake: Fake;
  echo: EchoFake;
  t: TestApp;
}

function useServiceRig<Fake extends FakeServer<any>>(adapter: ServiceAdapter<Fake>): () => ServiceRig<Fake> {
  let rig: ServiceRig<Fake> | undefined;
  beforeAll(async () => {
    const fake = adapter.start();
    const echo = startEchoFake();
    const t = await makeTestApp({
      ...adapter.env(fake),
      DDNS_IPV4_URLS: `${echo.url}/v4`,
      DDNS_IPV6_URLS: `${echo.url}/v6`,
    });
    await t.token();
    rig = { fake, echo, t };
  });
  beforeEach(() => {
    const { fake, echo, t } = rig!;
    adapter.reset(fake);
    echo.reset();
    t.ctx.sqlite.exec("DELETE FROM history; DELETE FROM domains; DELETE FROM providers;");
    t.ctx.publicIp.ipv4 = t.ctx.publicIp.ipv6 = t.ctx.publicIp.checkedAt = null;
    t.ctx.pacer = instantPacer();
  });
  afterAll(async () => {
    if (!rig) return;
    await rig.t.ctx.scheduler.stop(5_000);
    rig.t.ctx.sqlite.close();
    await Promise.all([rig.fake.stop(), rig.echo.stop()]);
  });
  return () => rig!;
}

async function createProvider<Fake extends FakeServer<any>>(
  rig: ServiceRig<Fake>,
  adapter: ServiceAdapter<Fake>,
  credentials = adapter.credentials,
): Promise<number> {
  const options = adapter.options(rig.fake);
  const response = await rig.t.request("POST", "/api/v1/providers", {
    body: { name: `${adapter.type} account`, type: adapter.type, credentials, ...(options ? { options } : {}) },
  });
  expect(response.status).toBe(200);
  expect(response.body.options).toEqual(options ?? {});
  return response.body.id;
}

async function createDomain(
  t: TestApp,
  providerId: number,
  hostname: string,
  type: RecordType,
  fields: Record<string, unknown> = {},
): Promise<number> {
  const response = await t.request("POST", "/api/v1/domains", {
    body: { provider_id: providerId, domain_name: hostname, record_type: type, ...fields },
  });
  expect(response.status).toBe(200);
  return response.body.id;
}

function writesTo(adapter: ServiceAdapter, fake: FakeServer<any>): number {
  return fake.requests.filter((request) => adapter.isWrite(request)).length;
}

function pausedUntil(t: TestApp, providerId: number): number | null {
  return t.ctx.sqlite
    .query<{ paused_until: number | null }, [number]>("SELECT paused_until FROM providers WHERE id = ?")
    .get(providerId)!.paused_until;
}

for (const adapter of ADAPTERS) {
  const description = SERVICES.find((service) => service.type === adapter.type)!;

  describe(`${description.label} (${adapter.type}) through the appliance`, () => {
    const current = useServiceRig(adapter);

    for (const type of adapter.recordTypes) {
      test(`${type}: forced writes the detected address; a scheduled pass after a change writes the new one; an unchanged pass sends nothing`, async () => {
        const rig = current();
        const { fake, echo, t } = rig;
        adapter.seed(fake, adapter.hostname, type, OLD[type]);
        const providerId = await createProvider(rig, adapter);
        const id = await createDomain(t, providerId, adapter.hostname, type);

        const forced = await forceUpdate(t, id);
        expect(forced.status).toBe(200);
        expect(adapter.address(fake, adapter.hostname, type)).toBe(DETECTED[type]);
        expect(writesTo(adapter, fake)).toBe(1);
        const [row] = await historyOf(t, id);
        expect(row).toMatchObject({
          status: "SUCCESS",
          trigger: "manual",
          ip_address: DETECTED[type],
          // What the record held, as a zone service reads it; a one-shot service cannot be read.
          previous_ip: description.createsRecords === false ? null : OLD[type],
        });
        expect(row.message).toStartWith(`Updated ${adapter.hostname} ${type} → ${DETECTED[type]}`);
        // A service without zones finds none, and nothing is stored as one.
        const stored = (await t.request("GET", `/api/v1/domains/${id}`)).body;
        if (adapter.findsZone) expect(stored.config.zone_id).toBeString();
        else expect(stored.config).not.toHaveProperty("zone_id");

        // Nothing changed: not one request, let alone a write.
        fake.clearRequests();
        const unchanged = await duePass(t);
        expect(unchanged).toEqual([expect.objectContaining({ domainId: id, result: "unchanged" })]);
        expect(fake.requests).toHaveLength(0);

        if (type === "A") echo.ipv4 = NEXT.A;
        else echo.ipv6 = NEXT.AAAA;
        const scheduled = await duePass(t);
        expect(scheduled).toEqual([
          expect.objectContaining({ domainId: id, result: "updated", ip: NEXT[type], changed: true }),
        ]);
        expect(adapter.address(fake, adapter.hostname, type)).toBe(NEXT[type]);
        expect(writesTo(adapter, fake)).toBe(1);
        const rows = await historyOf(t, id);
        expect(rows[0]).toMatchObject({
          status: "SUCCESS",
          trigger: "schedule",
          ip_address: NEXT[type],
          previous_ip: DETECTED[type],
        });
        expect(rows).toHaveLength(2);
      });
    }

    if (adapter.recordTypes.length === 2) {
      test("A and AAAA of one name are both kept on the current addresses, neither undoing the other", async () => {
        const rig = current();
        const { fake, echo, t } = rig;
        adapter.seed(fake, adapter.hostname, "A", OLD.A);
        adapter.seed(fake, adapter.hostname, "AAAA", OLD.AAAA);
        const providerId = await createProvider(rig, adapter);
        await createDomain(t, providerId, adapter.hostname, "A");
        await createDomain(t, providerId, adapter.hostname, "AAAA");

        expect(await duePass(t)).toHaveLength(2);
        echo.ipv4 = NEXT.A;
        echo.ipv6 = NEXT.AAAA;
        const outcomes = await duePass(t);
        expect(outcomes.map((o) => o.result)).toEqual(["updated", "updated"]);
        expect(adapter.address(fake, adapter.hostname, "A")).toBe(NEXT.A);
        expect(adapter.address(fake, adapter.hostname, "AAAA")).toBe(NEXT.AAAA);

        fake.clearRequests();
        expect((await duePass(t)).map((o) => o.result)).toEqual(["unchanged", "unchanged"]);
        expect(fake.requests).toHaveLength(0);
      });
    }

    test("a failure shows the service's own words in the history, and is retried", async () => {
      const rig = current();
      const { fake, t } = rig;
      adapter.seed(fake, adapter.hostname, "A", OLD.A);
      const providerId = await createProvider(rig, adapter);
      const id = await createDomain(t, providerId, adapter.hostname, "A");
      const held = adapter.address(fake, adapter.hostname, "A");
      adapter.failure.arrange(fake);

      const outcomes = await duePass(t);
      expect(outcomes).toEqual([expect.objectContaining({ result: "failed", failure: "provider" })]);
      const [row] = await historyOf(t, id);
      expect(row.status).toBe("FAILED");
      expect(row.message).toMatch(adapter.failure.words);
      expect(adapter.address(fake, adapter.hostname, "A")).toBe(held);
      expect(domainState(t, id)).toMatchObject({ failure_count: 1, last_update_status: "FAILED" });
      expect(domainState(t, id).next_run_at).not.toBeNull();
      expect(pausedUntil(t, providerId)).toBeNull();

      fake.clearFaults();
      await duePass(t);
      expect(adapter.address(fake, adapter.hostname, "A")).toBe(DETECTED.A);
    });

    test(`refused credentials: a failure row${adapter.stopsOnBadCredentials ? ", and no further attempt until the provider is edited" : ", retried with backoff"}`, async () => {
      const rig = current();
      const { fake, t } = rig;
      adapter.seed(fake, adapter.hostname, "A", OLD.A);
      const providerId = await createProvider(rig, adapter, adapter.badCredentials);
      const id = await createDomain(t, providerId, adapter.hostname, "A");
      const held = adapter.address(fake, adapter.hostname, "A");

      const forced = await forceUpdate(t, id);
      expect(forced.status).toBe(502);
      expect(forced.body.detail).toMatch(adapter.badCredentialsWords);
      const [row] = await historyOf(t, id);
      expect(row).toMatchObject({ status: "FAILED", message: forced.body.detail });
      for (const secret of Object.values(adapter.badCredentials).filter((value) => value.length > 12)) {
        expect(row.message).not.toContain(secret);
      }

      if (adapter.stopsOnBadCredentials) {
        expect(row.message).toEndWith("not retried until the provider or domain is edited");
        expect(domainState(t, id).next_run_at).toBeNull();
        fake.clearRequests();
        expect(await t.ctx.scheduler.runPass()).toHaveLength(0);
        expect(fake.requests).toHaveLength(0);

        const edited = await t.request("PUT", `/api/v1/providers/${providerId}`, {
          body: { credentials: adapter.credentials },
        });
        expect(edited.status).toBe(200);
        expect(domainState(t, id).next_run_at).not.toBeNull();
      } else {
        expect(domainState(t, id).next_run_at).not.toBeNull();
      }
      expect(adapter.address(fake, adapter.hostname, "A")).toBe(held);
    });

    test('"slow down" pauses the provider, the history says so, and the next pass does not call it', async () => {
      const rig = current();
      const { fake, t } = rig;
      adapter.seed(fake, adapter.hostname, "A", OLD.A);
      const providerId = await createProvider(rig, adapter);
      const id = await createDomain(t, providerId, adapter.hostname, "A");
      adapter.throttle.arrange(fake);

      const started = Date.now();
      await duePass(t);
      const [row] = await historyOf(t, id);
      expect(row.status).toBe("FAILED");
      expect(row.message).toMatch(adapter.throttle.words);
      const until = pausedUntil(t, providerId);
      expect(until).not.toBeNull();
      expect(until!).toBeGreaterThanOrEqual(started + adapter.throttle.pauseSeconds * 1000);
      // The domain waits for the pause, not for its own backoff alone.
      expect(domainState(t, id).next_run_at!).toBeGreaterThanOrEqual(until!);
      // Route 53 retries a throttled call twice inside the write, never more; the others not at all.
      expect(fake.requests.length).toBeLessThanOrEqual(adapter.type === "route53" ? 3 : 2);

      // The scheduler leaves the paused provider's domains alone, even when they are due; a forced
      // update is told why, and the service is not called either way.
      fake.clearFaults();
      fake.clearRequests();
      makeDue(t);
      expect(await t.ctx.scheduler.runPass()).toHaveLength(0);
      const forced = await forceUpdate(t, id);
      expect(forced.status).toBe(502);
      expect(forced.body.detail).toBe(
        `${adapter.type} account asked to wait until ${new Date(until!).toISOString()} (rate limited); not called`,
      );
      expect(fake.requests).toHaveLength(0);
      expect(await historyOf(t, id)).toHaveLength(2);
    });

    const unsupported = (["A", "AAAA"] as const).filter((type) => !adapter.recordTypes.includes(type));
    for (const type of unsupported) {
      test(`a ${type} domain is refused with 422 and nothing is stored`, async () => {
        const rig = current();
        const providerId = await createProvider(rig, adapter);
        const response = await rig.t.request("POST", "/api/v1/domains", {
          body: { provider_id: providerId, domain_name: adapter.hostname, record_type: type },
        });
        expect(response.status).toBe(422);
        expect(response.body.detail).toBe(
          `record_type: must be "${adapter.recordTypes.join('" or "')}" for a ${description.label} provider`,
        );
        expect((await rig.t.request("GET", "/api/v1/domains")).body).toHaveLength(0);
      });
    }

    if (description.hostname) {
      const rule = description.hostname;
      test(`a name outside ${rule.suffix.slice(1)} is refused with 422`, async () => {
        const rig = current();
        const providerId = await createProvider(rig, adapter);
        const response = await rig.t.request("POST", "/api/v1/domains", {
          body: { provider_id: providerId, domain_name: "home.example.com", record_type: "A" },
        });
        expect(response.status).toBe(422);
        expect(response.body.detail).toContain(rule.message);
        expect((await rig.t.request("GET", "/api/v1/domains")).body).toHaveLength(0);
      });
    }

    if (adapter.verifyRefusal === null) {
      test("verify answers ok: null without a request to the service", async () => {
        const rig = current();
        const providerId = await createProvider(rig, adapter);
        const response = await rig.t.request("POST", `/api/v1/providers/${providerId}/verify`);
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ ok: null, detail: description.verifyUnavailable!, cause: null });
        expect(rig.fake.requests).toHaveLength(0);
      });
    } else {
      const refusal = adapter.verifyRefusal;
      test("verify: ok with the right credentials, the service's words with wrong ones, nothing written", async () => {
        const rig = current();
        const good = await createProvider(rig, adapter);
        const accepted = await rig.t.request("POST", `/api/v1/providers/${good}/verify`);
        expect(accepted.status).toBe(200);
        expect(accepted.body.ok).toBe(true);

        // With the same options (a token endpoint, a server) as the good one: only the credentials differ.
        const options = adapter.options(rig.fake);
        const bad = await rig.t.request("POST", "/api/v1/providers", {
          body: {
            name: "wrong",
            type: adapter.type,
            credentials: adapter.badCredentials,
            ...(options ? { options } : {}),
          },
        });
        const refused = await rig.t.request("POST", `/api/v1/providers/${bad.body.id}/verify`);
        expect(refused.status).toBe(200);
        expect(refused.body.ok).toBe(false);
        expect(refused.body.detail).toMatch(refusal);
        expect(writesTo(adapter, rig.fake)).toBe(0);
      });
    }

    const zone = adapter.zone;
    if (zone) {
      test("a forced update of a record that already holds the address writes nothing", async () => {
        const rig = current();
        const { fake, t } = rig;
        adapter.seed(fake, adapter.hostname, "A", DETECTED.A);
        const id = await createDomain(t, await createProvider(rig, adapter), adapter.hostname, "A");
        const forced = await forceUpdate(t, id);
        expect(forced.status).toBe(200);
        expect(writesTo(adapter, fake)).toBe(0);
        expect((await historyOf(t, id))[0]).toMatchObject({ status: "SUCCESS", ip_address: DETECTED.A });
      });

      test("a missing record is created; an existing one keeps its TTL; a TTL set on the domain is written", async () => {
        const rig = current();
        const { fake, t } = rig;
        zone.addZone(fake, ZONE);
        zone.addRecord(fake, ZONE, "kept.example.com", "A", OLD.A, zone.ttl);
        const providerId = await createProvider(rig, adapter);
        const created = await createDomain(t, providerId, "new.example.com", "A");
        const kept = await createDomain(t, providerId, "kept.example.com", "A");
        // A service whose records have no TTL of their own (Netcup's zone TTL) is asked for none.
        const ttl = description.ttl === null ? undefined : description.ttl.min + 60;
        const set = await createDomain(
          t,
          providerId,
          "set.example.com",
          "AAAA",
          ttl === undefined ? {} : { config: { ttl } },
        );
        zone.addRecord(fake, ZONE, "set.example.com", "AAAA", OLD.AAAA, zone.ttl);

        const outcomes = await duePass(t);
        expect(outcomes.map((o) => o.result)).toEqual(["updated", "updated", "updated"]);
        expect(zone.read(fake, ZONE, "new.example.com", "A")?.ip).toBe(DETECTED.A);
        expect((await historyOf(t, created))[0].message).toStartWith(`Created new.example.com A → ${DETECTED.A}`);
        expect(zone.read(fake, ZONE, "kept.example.com", "A")).toEqual({ ip: DETECTED.A, ttl: zone.ttl });
        expect((await historyOf(t, kept))[0].message).toStartWith(`Updated kept.example.com A → ${DETECTED.A}`);
        expect(zone.read(fake, ZONE, "set.example.com", "AAAA")).toEqual({
          ip: DETECTED.AAAA,
          ttl: ttl === undefined ? zone.ttl : (zone.storedTtl?.(ttl) ?? ttl),
        });
        expect((await historyOf(t, set))[0].status).toBe("SUCCESS");
      });

      test("create_if_missing false leaves a missing record missing", async () => {
        const rig = current();
        const { fake, t } = rig;
        zone.addZone(fake, ZONE);
        const id = await createDomain(t, await createProvider(rig, adapter), "absent.example.com", "A", {
          config: { create_if_missing: false },
        });
        await duePass(t);
        expect(zone.read(fake, ZONE, "absent.example.com", "A")).toBeUndefined();
        expect(writesTo(adapter, fake)).toBe(0);
        expect((await historyOf(t, id))[0]).toMatchObject({ status: "FAILED" });
        expect((await historyOf(t, id))[0].message).toContain("create_if_missing is false");
      });

      test("a record deleted and made again at the service (a new id) is still found and written", async () => {
        const rig = current();
        const { fake, echo, t } = rig;
        adapter.seed(fake, adapter.hostname, "A", OLD.A);
        const id = await createDomain(t, await createProvider(rig, adapter), adapter.hostname, "A");
        await duePass(t);
        const savedId = (await t.request("GET", `/api/v1/domains/${id}`)).body.external_id;
        expect(savedId).toBeString();

        // Someone removes the record in the service's console and adds it again by hand.
        adapter.reset(fake);
        adapter.seed(fake, "decoy.example.com", "A", OLD.A);
        adapter.seed(fake, adapter.hostname, "A", OLD.A);
        echo.ipv4 = NEXT.A;
        const outcomes = await duePass(t);
        expect(outcomes).toEqual([expect.objectContaining({ result: "updated", ip: NEXT.A })]);
        expect(adapter.address(fake, adapter.hostname, "A")).toBe(NEXT.A);
        expect(adapter.address(fake, "decoy.example.com", "A")).toBe(OLD.A);
        expect(writesTo(adapter, fake)).toBe(1);
      });

      test("the apex, and a name inside a delegated sub-zone (written there, never in the parent)", async () => {
        const rig = current();
        const { fake, t } = rig;
        zone.addZone(fake, ZONE);
        zone.addRecord(fake, ZONE, ZONE, "A", OLD.A, zone.ttl);
        zone.addZone(fake, "lab.example.com");
        zone.addRecord(fake, "lab.example.com", "pi.lab.example.com", "A", OLD.A, zone.ttl);
        const providerId = await createProvider(rig, adapter);
        const apex = await createDomain(t, providerId, ZONE, "A");
        const delegated = await createDomain(t, providerId, "pi.lab.example.com", "A");

        expect((await duePass(t)).map((o) => o.result)).toEqual(["updated", "updated"]);
        expect(zone.read(fake, ZONE, ZONE, "A")).toEqual({ ip: DETECTED.A, ttl: zone.ttl });
        expect(zone.read(fake, "lab.example.com", "pi.lab.example.com", "A")).toEqual({
          ip: DETECTED.A,
          ttl: zone.ttl,
        });
        expect(zone.read(fake, ZONE, "pi.lab.example.com", "A")).toBeUndefined();
        expect((await historyOf(t, apex))[0].status).toBe("SUCCESS");
        expect((await historyOf(t, delegated))[0].status).toBe("SUCCESS");
      });
    }
  });
}

/**
 * The pacer on a clock of its own that jumps over its waits instead of sleeping them (deSEC's burst
 * would take three real waits of 2.5 s): each wait is woken in turn, the clock set to its end, once
 * what runs now has run. It notes on that clock when each request leaves for the service: the
 * departures are what the windows are checked against, exactly, however busy the machine is.
 */
function notingPacer(): { pacer: Pacer; departures: number[] } {
  let now = 0;
  const sleepers: { at: number; wake: () => void }[] = [];
  const wakeEarliest = () => {
    sleepers.sort((a, b) => a.at - b.at);
    const next = sleepers.shift()!;
    now = next.at;
    next.wake();
  };
  const sleep = (ms: number) =>
    new Promise<void>((wake) => {
      sleepers.push({ at: now + ms, wake });
      setTimeout(wakeEarliest, 0);
    });
  const departures: number[] = [];
  const pacer = new Pacer({ now: () => now, sleep });
  const fetchFor = pacer.fetchFor.bind(pacer);
  pacer.fetchFor = (providerId, limits, fetch, timeoutMs) =>
    fetchFor(
      providerId,
      limits,
      (input, init) => {
        departures.push(now);
        return fetch(input, init);
      },
      timeoutMs,
    );
  return { pacer, departures };
}
/** The "slow down" below waits on the real clock (Porkbun's 1.25 s); a stuck one still ends. */
const PACED_TEST_TIMEOUT_MS = 30_000;

describe("pacing: a burst after an address change stays under each service's documented limit", () => {
  const bursts: [ServiceAdapter, number][] = [
    [porkbun, 3],
    [desec, 2],
    [digitalocean, 6],
    [route53, 6],
  ];
  for (const [adapter, count] of bursts) {
    const description = SERVICES.find((service) => service.type === adapter.type)!;
    const limits = description.rateLimits!;
    // The burst is small: the service's shortest window (listed first) binds; none of the others is passed.
    const [shortest] = limits;

    describe(`${description.label}: ${limits.map((l) => `${l.requests} per ${l.perSeconds} s`).join(", ")}`, () => {
      const current = useServiceRig(adapter);

      test(
        `${count} domains, every record written, in no window more requests than it allows`,
        async () => {
          const rig = current();
          const { fake, echo, t } = rig;
          const names = Array.from({ length: count }, (_, i) => `host${i}.example.com`);
          for (const name of names) adapter.seed(fake, name, "A", OLD.A);
          const providerId = await createProvider(rig, adapter);
          for (const name of names) await createDomain(t, providerId, name, "A");
          await duePass(t);
          for (const name of names) expect(adapter.address(fake, name, "A")).toBe(DETECTED.A);

          const { pacer, departures } = notingPacer();
          t.ctx.pacer = pacer;
          echo.ipv4 = NEXT.A;
          fake.clearRequests();
          const outcomes = await duePass(t);
          expect(outcomes.map((o) => o.result)).toEqual(names.map(() => "updated"));
          for (const name of names) expect(adapter.address(fake, name, "A")).toBe(NEXT.A);
          expect(writesTo(adapter, fake)).toBe(count);

          // Every request went through the pacer, and no window ever held more than its limit.
          expect(departures).toHaveLength(fake.requests.length);
          expect(departures.length).toBeGreaterThan(shortest!.requests);
          for (const limit of limits) {
            for (let i = 0; i + limit.requests < departures.length; i++) {
              expect(departures[i + limit.requests]! - departures[i]!).toBeGreaterThanOrEqual(limit.perSeconds * 1000);
            }
          }
          expect(pausedUntil(t, providerId)).toBeNull();
        },
        PACED_TEST_TIMEOUT_MS,
      );
    });
  }
});

describe('a "slow down" while a burst waits its turn', () => {
  const current = useServiceRig(porkbun);

  test(
    "the requests still waiting in the pacer are not sent once the provider is paused",
    async () => {
      const rig = current();
      const { fake, t } = rig;
      const names = ["a.example.com", "b.example.com", "c.example.com"];
      for (const name of names) porkbun.seed(fake, name, "A", OLD.A);
      const providerId = await createProvider(rig, porkbun);
      for (const name of names) await createDomain(t, providerId, name, "A");
      t.ctx.pacer = new Pacer();
      porkbun.throttle.arrange(fake);

      const outcomes = await duePass(t);
      expect(outcomes.map((o) => o.result)).toEqual(["failed", "failed", "failed"]);
      // The first request was told to slow down; the two that waited behind it never left.
      expect(fake.requests).toHaveLength(1);
      const until = new Date(pausedUntil(t, providerId)!).toISOString();
      const messages = outcomes.map((o) => o.message).sort();
      expect(messages.filter((m) => porkbun.throttle.words.test(m))).toHaveLength(1);
      // Held back by the same "slow down": counted as it, with the pause in force.
      expect(
        messages.filter((m) =>
          m.startsWith(`Porkbun: not sent: the provider is paused until ${until} (rate limited); pausing `),
        ),
      ).toHaveLength(2);
      for (const name of names) expect(porkbun.address(fake, name, "A")).toBe(OLD.A);
    },
    PACED_TEST_TIMEOUT_MS,
  );
});

describe("dyndns2 answers through the appliance (docs/services/README.md)", () => {
  const current = useServiceRig(dyndns2);
  const { hostname } = dyndns2;

  async function domainAt(rig: ServiceRig<Dyndns2Fake>): Promise<number> {
    dyndns2.seed(rig.fake, hostname, "A", OLD.A);
    return createDomain(rig.t, await createProvider(rig, dyndns2), hostname, "A");
  }

  const stopCodes = [
    "badauth",
    "!donator",
    "notfqdn",
    "nohost",
    "numhost",
    "abuse",
    "badagent",
    "badsys",
    "!yours",
    "!active",
  ];
  for (const code of stopCodes) {
    test(`"${code}": failed, not retried until the domain is edited, then written`, async () => {
      const rig = current();
      const { fake, t } = rig;
      const id = await domainAt(rig);
      fake.fault({ body: code }, 1);

      await duePass(t);
      const [row] = await historyOf(t, id);
      expect(row.status).toBe("FAILED");
      expect(row.message).toMatch(
        new RegExp(
          `^dyndns2 127\\.0\\.0\\.1:\\d+: ${code} — .+ \\(HTTP 200\\) — not retried until the provider or domain is edited$`,
        ),
      );
      expect(domainState(t, id).next_run_at).toBeNull();
      expect(await t.ctx.scheduler.runPass()).toHaveLength(0);
      expect(fake.updates()).toBe(1);

      const edited = await t.request("PUT", `/api/v1/domains/${id}`, { body: { description: "fixed at the service" } });
      expect(edited.status).toBe(200);
      expect(domainState(t, id).next_run_at).not.toBeNull();
      await t.ctx.scheduler.runPass();
      expect(dyndns2.address(fake, hostname, "A")).toBe(DETECTED.A);
    });
  }

  for (const style of ["noip", "dyn", "desec"] as const) {
    test(`badauth as ${style} answers it (the body read before the status) stops retrying`, async () => {
      const rig = current();
      rig.fake.style = style;
      dyndns2.seed(rig.fake, hostname, "A", OLD.A);
      const id = await createDomain(rig.t, await createProvider(rig, dyndns2, dyndns2.badCredentials), hostname, "A");
      await duePass(rig.t);
      const [row] = await historyOf(rig.t, id);
      expect(row.message).toMatch(/: badauth — the username or password is wrong \(HTTP (401|200)\) — not retried/);
      expect(domainState(rig.t, id).next_run_at).toBeNull();
    });
  }

  test("dnserr pauses the provider for 5 minutes: none of its hostnames asks sooner", async () => {
    const rig = current();
    const id = await domainAt(rig);
    rig.fake.fault({ body: "dnserr" }, 1);
    const started = Date.now();
    await duePass(rig.t);
    expect(domainState(rig.t, id)).toMatchObject({ failure_count: 1, last_update_status: "FAILED" });
    const providerId = (await rig.t.request("GET", `/api/v1/domains/${id}`)).body.provider_id;
    expectDelay(pausedUntil(rig.t, providerId), started, 300);
    expect(domainState(rig.t, id).next_run_at!).toBeGreaterThanOrEqual(pausedUntil(rig.t, providerId)!);
    expect((await historyOf(rig.t, id))[0].message).toMatch(
      /dnserr — the service's DNS failed \(HTTP 200\); pausing 300 s$/,
    );
  });

  test("911 pauses the provider for 30 minutes at least, even when Retry-After asks for less", async () => {
    const rig = current();
    const id = await domainAt(rig);
    rig.fake.fault({ body: "911", retryAfter: 60 }, 1);
    const started = Date.now();
    await duePass(rig.t);
    const providerId = (await rig.t.request("GET", `/api/v1/domains/${id}`)).body.provider_id;
    expectDelay(pausedUntil(rig.t, providerId), started, 1800);
    expect(domainState(rig.t, id).next_run_at!).toBeGreaterThanOrEqual(pausedUntil(rig.t, providerId)!);
  });

  test("a dual-stack success line (good 1.2.3.4,2001:db8::1) is a success for either record", async () => {
    const rig = current();
    rig.fake.dualStackAnswers = true;
    dyndns2.seed(rig.fake, hostname, "A", OLD.A);
    dyndns2.seed(rig.fake, hostname, "AAAA", OLD.AAAA);
    const providerId = await createProvider(rig, dyndns2);
    await createDomain(rig.t, providerId, hostname, "A");
    await createDomain(rig.t, providerId, hostname, "AAAA");
    expect((await duePass(rig.t)).map((o) => o.result)).toEqual(["updated", "updated"]);
    expect(dyndns2.address(rig.fake, hostname, "A")).toBe(DETECTED.A);
    expect(dyndns2.address(rig.fake, hostname, "AAAA")).toBe(DETECTED.AAAA);
  });
});
