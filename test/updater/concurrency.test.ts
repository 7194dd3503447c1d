// What runs side by side and what must not: two updates of one domain (or of the two families of one
// Dynu apex, which share one object at Dynu) never overlap; a provider never sees more than
// DDNS_UPDATE_CONCURRENCY requests at once; history keeps the newest DDNS_HISTORY_RETENTION rows.

import { beforeEach, describe, expect, test } from "bun:test";
import { ECHO_DEFAULT_IPV4, ECHO_DEFAULT_IPV6 } from "../fakes/echo";
import type { LoggedRequest } from "../fakes/server";
import {
  addDomain,
  addProvider,
  forceUpdate,
  historyOf,
  NEXT_IPV4,
  OLD_IPV4,
  OLD_IPV6,
  type Rig,
  untilInFlight,
  useRig,
} from "./harness";

const OTHER_CF_TOKEN = "cf-second-account-token-0123456789";

describe("updates of one record never overlap", () => {
  const current = useRig();
  let rig: Rig;
  beforeEach(() => {
    rig = current();
  });

  test("two forced updates of the same domain at once run one after the other", async () => {
    const zone = rig.cf.addZone("example.com");
    const record = rig.cf.addRecord("example.com", { type: "A", name: "home", content: OLD_IPV4 });
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "home.example.com", {
      external_id: record.id,
      config: { zone_id: zone.id },
    });
    rig.cf.fault({ delayMs: 300 }, undefined, (r) => r.method === "PATCH");

    const [a, b] = await Promise.all([forceUpdate(rig.t, domain.id), forceUpdate(rig.t, domain.id)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const patches = (r: LoggedRequest) => r.method === "PATCH" && r.path.endsWith(record.id);
    // The second read the record only once the first had written it, so found it current.
    expect(rig.cf.requests.filter(patches)).toHaveLength(1);
    expect(rig.cf.maxInFlight(() => true)).toBe(1);
    expect(rig.cf.requests.map((r) => r.method)).toEqual(["GET", "PATCH", "GET"]);
    // The second saw the first one's result.
    const [first, second] = [a.body, b.body].sort((x, y) => x.history_id - y.history_id);
    expect(first).toMatchObject({ previous_ip: OLD_IPV4, changed: true });
    expect(second).toMatchObject({ previous_ip: ECHO_DEFAULT_IPV4, changed: false });
    expect(await historyOf(rig.t, domain.id)).toHaveLength(2);
  });

  test("a forced update during a scheduled check of the same domain waits for it", async () => {
    rig.cf.addZone("example.com");
    rig.cf.addRecord("example.com", { type: "A", name: "home", content: OLD_IPV4 });
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "home.example.com");
    rig.cf.fault({ delayMs: 200 }, undefined, (r) => r.method === "PATCH");

    const pass = rig.t.ctx.scheduler.runPass();
    await untilInFlight(rig.cf, "Cloudflare (the scheduled write)");
    const forced = await forceUpdate(rig.t, domain.id);
    const outcomes = await pass;
    expect(outcomes[0]?.result).toBe("updated");
    expect(forced.status).toBe(200);
    expect(rig.cf.maxInFlight((r) => r.method === "PATCH")).toBe(1);
    expect((await historyOf(rig.t, domain.id)).map((row) => row.trigger)).toEqual(["manual", "schedule"]);
  });

  test("`ddnsd check` during a scheduled update of a domain answers for it too, once that update is done", async () => {
    rig.cf.addZone("example.com");
    rig.cf.addRecord("example.com", { type: "A", name: "home", content: OLD_IPV4 });
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "home.example.com");
    rig.cf.fault({ delayMs: 200 }, 1, (r) => r.method === "PATCH");

    const pass = rig.t.ctx.scheduler.runPass();
    await untilInFlight(rig.cf, "Cloudflare (the scheduled write)");
    const checked = await rig.t.ctx.scheduler.runPass({ all: true });
    expect(checked.map((outcome) => [outcome.hostname, outcome.result])).toEqual([["home.example.com", "unchanged"]]);
    expect((await pass).map((outcome) => outcome.result)).toEqual(["updated"]);
    expect(rig.cf.maxInFlight((r) => r.method === "PATCH")).toBe(1);
    // The check found the record as the scheduled update had just written it: nothing more to record.
    expect((await historyOf(rig.t, domain.id)).map((row) => row.trigger)).toEqual(["schedule"]);
  });

  test("a pass started while a domain is being updated leaves that domain to the running update", async () => {
    rig.cf.addZone("example.com");
    const provider = await addProvider(rig.t, "cloudflare");
    await addDomain(rig.t, provider.id, "home.example.com");
    rig.cf.fault({ delayMs: 200 }, undefined, (r) => r.method === "POST");
    const first = rig.t.ctx.scheduler.runPass();
    await untilInFlight(rig.cf, "Cloudflare (the first pass's create)");
    expect(await rig.t.ctx.scheduler.runPass()).toEqual([]);
    expect((await first).map((o) => o.result)).toEqual(["updated"]);
    expect(rig.cf.writes()).toBe(1);
  });

  test("the A and AAAA domains of one Dynu apex, written in one pass, both stick", async () => {
    // Dynu keeps both addresses on one domain object, and POST /dns/{id} sends the other family's
    // address back as it was read: two such writes side by side would undo each other.
    rig.dynu.addDomain("example.org", { ipv4Address: OLD_IPV4, ipv6Address: OLD_IPV6, ipv6: true, ttl: 90 });
    const provider = await addProvider(rig.t, "dynu");
    await addDomain(rig.t, provider.id, "example.org", { record_type: "A" });
    await addDomain(rig.t, provider.id, "example.org", { record_type: "AAAA" });
    const domainRead = (r: LoggedRequest) => r.method === "GET" && /^\/dns\/\d+$/.test(r.path);
    rig.dynu.fault({ delayMs: 100 }, undefined, domainRead);

    const outcomes = await rig.t.ctx.scheduler.runPass();
    expect(outcomes.map((o) => o.result)).toEqual(["updated", "updated"]);
    expect(rig.dynu.domain("example.org")).toMatchObject({
      ipv4Address: ECHO_DEFAULT_IPV4,
      ipv6Address: ECHO_DEFAULT_IPV6,
      ttl: 90,
    });

    // And again when only IPv4 changes later on.
    rig.echo.ipv4 = NEXT_IPV4;
    await forceUpdate(rig.t, outcomes[0]!.domainId);
    expect(rig.dynu.domain("example.org")).toMatchObject({ ipv4Address: NEXT_IPV4, ipv6Address: ECHO_DEFAULT_IPV6 });
  });
});

describe("at most DDNS_UPDATE_CONCURRENCY requests per provider", () => {
  const current = useRig({ env: { DDNS_UPDATE_CONCURRENCY: "3" } });
  let rig: Rig;
  beforeEach(() => {
    rig = current();
  });

  test("twelve due domains on each of three providers: three in flight per provider, never more", async () => {
    rig.cf.tokens.add(OTHER_CF_TOKEN);
    rig.cf.addZone("example.com");
    rig.dynu.addDomain("example.org");
    const cfA = await addProvider(rig.t, "cloudflare");
    const cfB = await addProvider(rig.t, "cloudflare", { credential: OTHER_CF_TOKEN });
    const dynu = await addProvider(rig.t, "dynu");
    for (let i = 0; i < 12; i++) {
      await addDomain(rig.t, cfA.id, `a${i}.example.com`);
      await addDomain(rig.t, cfB.id, `b${i}.example.com`);
      await addDomain(rig.t, dynu.id, `n${i}.example.org`);
    }
    rig.cf.fault({ delayMs: 40 });
    rig.dynu.fault({ delayMs: 40 });

    const outcomes = await rig.t.ctx.scheduler.runPass();
    expect(outcomes).toHaveLength(36);
    expect(outcomes.every((o) => o.result === "updated")).toBe(true);
    const byToken = (token: string) => (r: LoggedRequest) => r.headers.authorization === `Bearer ${token}`;
    expect(rig.cf.maxInFlight(byToken("cf-fake-token-0123456789abcdef"))).toBe(3);
    expect(rig.cf.maxInFlight(byToken(OTHER_CF_TOKEN))).toBe(3);
    expect(rig.dynu.maxInFlight()).toBe(3);
    // Per provider, not overall: the two Cloudflare accounts ran side by side.
    expect(rig.cf.maxInFlight()).toBeGreaterThan(3);
    expect(rig.cf.maxInFlight()).toBeLessThanOrEqual(6);
  });

  test("forced updates share the provider's slots with the scheduler", async () => {
    rig.cf.addZone("example.com");
    const provider = await addProvider(rig.t, "cloudflare");
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) ids.push((await addDomain(rig.t, provider.id, `h${i}.example.com`)).id);
    rig.cf.fault({ delayMs: 40 });
    const forced = ids.slice(0, 4).map((id) => forceUpdate(rig.t, id));
    const pass = rig.t.ctx.scheduler.runPass();
    const answers = await Promise.all(forced);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect((await pass).length).toBeGreaterThanOrEqual(4);
    expect(rig.cf.maxInFlight()).toBe(3);
  });
});

describe("the default is 4 per provider", () => {
  const current = useRig();

  test("ten due Dynu domains: four in flight at most", async () => {
    const rig = current();
    expect(rig.t.ctx.settings.updateConcurrency).toBe(4);
    const provider = await addProvider(rig.t, "dynu");
    for (let i = 0; i < 10; i++) {
      rig.dynu.addDomain(`h${i}.freeddns.org`);
      await addDomain(rig.t, provider.id, `h${i}.freeddns.org`);
    }
    rig.dynu.fault({ delayMs: 30 });
    await rig.t.ctx.scheduler.runPass();
    expect(rig.dynu.maxInFlight()).toBe(4);
    expect(rig.dynu.writes()).toBe(10);
  });
});

describe("history retention", () => {
  const current = useRig({ env: { DDNS_HISTORY_RETENTION: "3" } });

  test("keeps the newest DDNS_HISTORY_RETENTION rows per domain, successes and failures alike", async () => {
    const rig = current();
    rig.cf.addZone("example.com");
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "home.example.com");
    const other = await addDomain(rig.t, provider.id, "other.example.com");
    expect((await forceUpdate(rig.t, other.id)).status).toBe(200);

    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      if (i === 4) rig.cf.fault({ status: 500 }, 1);
      const response = await forceUpdate(rig.t, domain.id);
      ids.push(i === 4 ? (await historyOf(rig.t, domain.id))[0].id : response.body.history_id);
      expect(response.status).toBe(i === 4 ? 502 : 200);
    }
    const rows = await historyOf(rig.t, domain.id);
    expect(rows.map((r) => r.id)).toEqual(ids.slice(-3).reverse());
    expect(rows.map((r) => r.status)).toEqual(["SUCCESS", "FAILED", "SUCCESS"]);
    // Another domain's rows are its own business.
    expect(await historyOf(rig.t, other.id)).toHaveLength(1);
  });

  test("the rows of refused (409) forced updates are kept the same way, the same refusal again counted on its row", async () => {
    const rig = current();
    rig.cf.addZone("example.com");
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "home.example.com");
    for (let i = 0; i < 2; i++) expect((await forceUpdate(rig.t, domain.id)).status).toBe(200);
    expect((await rig.t.request("PUT", `/api/v1/domains/${domain.id}`, { body: { is_enabled: false } })).status).toBe(
      200,
    );
    for (let i = 0; i < 3; i++) expect((await forceUpdate(rig.t, domain.id)).status).toBe(409);
    const rows = await historyOf(rig.t, domain.id);
    expect(rows.map((r) => [r.status, r.message, r.repeat_count])).toEqual([
      ["FAILED", "The domain is disabled; enable it to update it", 3],
      ["SUCCESS", expect.any(String), 1],
      ["SUCCESS", expect.any(String), 1],
    ]);
  });
});

describe("edits made while an update is in flight", () => {
  const current = useRig();
  let rig: Rig;
  let domainId: number;
  beforeEach(async () => {
    rig = current();
    rig.cf.addZone("example.com");
    rig.cf.addRecord("example.com", { type: "A", name: "home", content: OLD_IPV4 });
    const provider = await addProvider(rig.t, "cloudflare");
    domainId = (await addDomain(rig.t, provider.id, "home.example.com")).id;
    rig.cf.fault({ delayMs: 300 }, 1, (r) => r.method === "PATCH");
  });

  /** Runs `edit` while the update's PATCH is at the provider, then waits for the update. */
  async function editDuringUpdate(edit: Record<string, unknown>) {
    const forced = forceUpdate(rig.t, domainId);
    await untilInFlight(rig.cf, "Cloudflare (the update's PATCH)");
    const edited = await rig.t.request("PUT", `/api/v1/domains/${domainId}`, { body: edit });
    expect(edited.status).toBe(200);
    return forced;
  }

  test("a config change is kept, not overwritten by the update's result", async () => {
    const forced = await editDuringUpdate({ config: { proxied: true, ttl: 300 } });
    expect(forced.status).toBe(200);
    const domain = await rig.t.request("GET", `/api/v1/domains/${domainId}`);
    expect(domain.body.config).toMatchObject({ proxied: true, ttl: 300, zone_id: expect.any(String) });
    expect(domain.body.last_update_status).toBe("SUCCESS");
  });

  test("an external_id set meanwhile is kept until the next write finds the record by name", async () => {
    const forced = await editDuringUpdate({ external_id: "typed-in-while-writing" });
    expect(forced.status).toBe(200);
    const home = rig.cf.record("home.example.com", "A")!;
    expect(home.content).toBe(ECHO_DEFAULT_IPV4);
    const domain = await rig.t.request("GET", `/api/v1/domains/${domainId}`);
    // The user's id, not the one the write found; and not marked current, so not trusted.
    expect(domain.body).toMatchObject({ external_id: "typed-in-while-writing", last_known_ip: null });

    rig.cf.clearRequests();
    expect((await forceUpdate(rig.t, domainId)).status).toBe(200);
    const zoneId = (await rig.t.request("GET", `/api/v1/domains/${domainId}`)).body.config.zone_id;
    expect(rig.cf.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      // Nothing of the first write was saved (it was about the record as it was before the edit);
      // the typed-in id is not followed, and the record already holds the address: nothing written.
      "GET /zones",
      "GET /zones",
      `GET /zones/${zoneId}/dns_records`,
    ]);
    expect((await rig.t.request("GET", `/api/v1/domains/${domainId}`)).body).toMatchObject({
      external_id: home.id,
      last_known_ip: ECHO_DEFAULT_IPV4,
      last_update_status: "SUCCESS",
    });
  });

  test("a zone_id set meanwhile is kept; the rest of the outcome is recorded", async () => {
    const zoneId = "f".repeat(32);
    const forced = await editDuringUpdate({ config: { zone_id: zoneId, ttl: 300 } });
    expect(forced.status).toBe(200);
    const domain = await rig.t.request("GET", `/api/v1/domains/${domainId}`);
    expect(domain.body.config).toEqual({ zone_id: zoneId, ttl: 300 });
    expect(domain.body).toMatchObject({
      external_id: rig.cf.record("home.example.com", "A")!.id,
      last_known_ip: ECHO_DEFAULT_IPV4,
      last_update_status: "SUCCESS",
    });
  });

  test("a zone_id removed meanwhile stays removed", async () => {
    expect((await forceUpdate(rig.t, domainId)).status).toBe(200); // saves the zone id (and takes the slow PATCH)
    expect((await rig.t.request("GET", `/api/v1/domains/${domainId}`)).body.config.zone_id).toEqual(expect.any(String));
    rig.cf.fault({ delayMs: 300 }, 1, (r) => r.method === "PATCH");
    rig.echo.ipv4 = NEXT_IPV4; // a new address, so that the update writes
    const forced = await editDuringUpdate({ config: { proxied: false } });
    expect(forced.status).toBe(200);
    expect((await rig.t.request("GET", `/api/v1/domains/${domainId}`)).body.config).toEqual({ proxied: false });
  });

  test("a renamed domain is not marked current by the write to its old name; the next check writes the new name", async () => {
    const forced = await editDuringUpdate({ domain_name: "renamed.example.com" });
    // The old record was written, and the history says so.
    expect(forced.status).toBe(200);
    expect(rig.cf.record("home.example.com", "A")?.content).toBe(ECHO_DEFAULT_IPV4);
    expect((await historyOf(rig.t, domainId))[0].message).toContain("home.example.com");

    const domain = await rig.t.request("GET", `/api/v1/domains/${domainId}`);
    expect(domain.body).toMatchObject({
      domain_name: "renamed.example.com",
      last_update_status: null,
      last_known_ip: null,
      external_id: null,
    });
    const [outcome] = await rig.t.ctx.scheduler.runPass();
    expect(outcome).toMatchObject({ hostname: "renamed.example.com", result: "updated" });
    expect(rig.cf.record("renamed.example.com", "A")?.content).toBe(ECHO_DEFAULT_IPV4);
  });
});

describe("edits made while the public IP is being detected", () => {
  const current = useRig();

  /** Every column of the domain row, to show nothing changed. */
  const row = (rig: Rig, id: number) => rig.t.ctx.sqlite.query("SELECT * FROM domains WHERE id = ?").get(id);

  const disablers = [
    {
      what: "the domain",
      disable: (rig: Rig, ids: { domain: number; provider: number }) =>
        rig.t.request("PUT", `/api/v1/domains/${ids.domain}`, { body: { is_enabled: false } }),
    },
    {
      what: "its provider",
      disable: (rig: Rig, ids: { domain: number; provider: number }) =>
        rig.t.request("PUT", `/api/v1/providers/${ids.provider}`, { body: { is_enabled: false } }),
    },
  ];

  for (const { what, disable } of disablers) {
    test(`${what} disabled during a scheduled check's detection: not written, no row, no state change`, async () => {
      const rig = current();
      rig.cf.addZone("example.com");
      rig.cf.addRecord("example.com", { type: "A", name: "home", content: OLD_IPV4 });
      const provider = await addProvider(rig.t, "cloudflare", { name: "Cloudflare home" });
      const domain = await addDomain(rig.t, provider.id, "home.example.com");

      rig.echo.fault({ delayMs: 500 }, 1, "/v4");
      const pass = rig.t.ctx.scheduler.runPass();
      await untilInFlight(rig.echo, "the echo service (the pass's detection)");
      expect((await disable(rig, { domain: domain.id, provider: provider.id })).status).toBe(200);
      const before = row(rig, domain.id);

      expect(await pass).toEqual([]);
      expect(rig.cf.requests).toHaveLength(0);
      expect(rig.cf.record("home.example.com", "A")?.content).toBe(OLD_IPV4);
      expect(await historyOf(rig.t, domain.id)).toHaveLength(0);
      expect(row(rig, domain.id)).toEqual(before);
    });

    test(`${what} disabled during a forced update's detection: 409 as if refused up front, with its row`, async () => {
      const rig = current();
      rig.cf.addZone("example.com");
      rig.cf.addRecord("example.com", { type: "A", name: "home", content: OLD_IPV4 });
      const provider = await addProvider(rig.t, "cloudflare", { name: "Cloudflare home" });
      const domain = await addDomain(rig.t, provider.id, "home.example.com");

      rig.echo.fault({ delayMs: 500 }, 1, "/v4");
      const forced = forceUpdate(rig.t, domain.id);
      await untilInFlight(rig.echo, "the echo service (the forced update's detection)");
      expect((await disable(rig, { domain: domain.id, provider: provider.id })).status).toBe(200);
      const before = row(rig, domain.id);

      const response = await forced;
      expect(response.status).toBe(409);
      // The same answer the route gives when it is disabled before the request.
      const upFront = await forceUpdate(rig.t, domain.id);
      expect(upFront.status).toBe(409);
      expect(response.body).toEqual(upFront.body);
      expect(response.body.detail).toContain("disabled");

      expect(rig.cf.requests).toHaveLength(0);
      expect(rig.cf.record("home.example.com", "A")?.content).toBe(OLD_IPV4);
      // The refusal and the same refusal up front: one row counting both.
      const rows = await historyOf(rig.t, domain.id);
      expect(rows.map((r) => r.repeat_count)).toEqual([2]);
      for (const r of rows) {
        expect(r).toMatchObject({
          status: "FAILED",
          ip_address: null,
          previous_ip: null,
          trigger: "manual",
          duration_ms: 0,
          message: response.body.detail,
        });
      }
      expect(row(rig, domain.id)).toEqual(before);
    });
  }

  test("a domain renamed during a scheduled check's detection stays due and is written under its new name", async () => {
    const rig = current();
    rig.cf.addZone("example.com");
    rig.cf.addRecord("example.com", { type: "A", name: "home", content: OLD_IPV4 });
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "home.example.com");
    expect((await forceUpdate(rig.t, domain.id)).status).toBe(200);
    rig.t.ctx.sqlite.query("UPDATE domains SET next_run_at = ? WHERE id = ?").run(Date.now(), domain.id);

    rig.echo.fault({ delayMs: 300 }, 1, "/v4");
    const pass = rig.t.ctx.scheduler.runPass();
    await untilInFlight(rig.echo, "the echo service (the pass's detection)");
    const renamed = await rig.t.request("PUT", `/api/v1/domains/${domain.id}`, {
      body: { domain_name: "renamed.example.com" },
    });
    expect(renamed.status).toBe(200);
    await pass;

    // Checked as the renamed domain it now is: never written, so written — not "unchanged" under the old name's state.
    expect(rig.cf.record("renamed.example.com", "A")?.content).toBe(ECHO_DEFAULT_IPV4);
    const after = await rig.t.request("GET", `/api/v1/domains/${domain.id}`);
    expect(after.body).toMatchObject({
      domain_name: "renamed.example.com",
      last_update_status: "SUCCESS",
      last_known_ip: ECHO_DEFAULT_IPV4,
    });
  });
});
