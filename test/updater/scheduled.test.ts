// Scheduler passes (docs/api.md, automatic updates) through the real Scheduler against the fakes: what is due, when a
// check writes, one detection per family per pass, croner schedules, and schedules that survive a
// restart of the app on the same data dir.

import { afterEach, beforeEach, describe, expect, setSystemTime, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Cron } from "croner";
import { ECHO_DEFAULT_IPV4, ECHO_DEFAULT_IPV6 } from "../fakes/echo";
import { makeTestApp } from "../support";
import {
  addDomain,
  addProvider,
  domainState,
  duePass,
  expectIntervalRun,
  getDomain,
  historyOf,
  historyRows,
  makeDue,
  NEXT_IPV4,
  OLD_IPV4,
  OLD_IPV6,
  type Rig,
  startRig,
  useRig,
} from "./harness";

/** One Cloudflare and one Dynu provider with A and AAAA records of each kind: eight domains. */
async function eightDomains(rig: Rig) {
  const { cf, dynu, t } = rig;
  cf.addZone("example.com");
  cf.addRecord("example.com", { type: "A", name: "home", content: OLD_IPV4, proxied: true });
  cf.addRecord("example.com", { type: "AAAA", name: "home", content: OLD_IPV6 });
  dynu.addDomain("example.org", { ipv4Address: OLD_IPV4, ipv6Address: OLD_IPV6, ipv6: true });
  dynu.addRecord("example.org", { nodeName: "www", recordType: "A", ipv4Address: OLD_IPV4, ttl: 600 });
  dynu.addRecord("example.org", { nodeName: "www", recordType: "AAAA", ipv6Address: OLD_IPV6, ttl: 600 });
  const cloudflare = await addProvider(t, "cloudflare");
  const dynuProvider = await addProvider(t, "dynu");
  const specs = [
    [cloudflare.id, "home.example.com", "A"],
    [cloudflare.id, "home.example.com", "AAAA"],
    [cloudflare.id, "new.example.com", "A"],
    [cloudflare.id, "new.example.com", "AAAA"],
    [dynuProvider.id, "example.org", "A"],
    [dynuProvider.id, "example.org", "AAAA"],
    [dynuProvider.id, "www.example.org", "A"],
    [dynuProvider.id, "www.example.org", "AAAA"],
  ] as const;
  const domains = [];
  for (const [providerId, name, type] of specs)
    domains.push(await addDomain(t, providerId, name, { record_type: type }));
  return { domains, cloudflare, dynu: dynuProvider };
}

/** What each of the eight records holds at the fakes, by "name type". */
function addresses(rig: Rig): Record<string, string | undefined> {
  const { cf, dynu } = rig;
  return {
    "home.example.com A": cf.record("home.example.com", "A")?.content,
    "home.example.com AAAA": cf.record("home.example.com", "AAAA")?.content,
    "new.example.com A": cf.record("new.example.com", "A")?.content,
    "new.example.com AAAA": cf.record("new.example.com", "AAAA")?.content,
    "example.org A": dynu.domain("example.org")?.ipv4Address,
    "example.org AAAA": dynu.domain("example.org")?.ipv6Address,
    "www.example.org A": dynu.record("www.example.org", "A")?.ipv4Address,
    "www.example.org AAAA": dynu.record("www.example.org", "AAAA")?.ipv6Address,
  };
}

function allAt(ipv4: string, ipv6: string): Record<string, string> {
  return Object.fromEntries(
    ["home.example.com", "new.example.com", "example.org", "www.example.org"].flatMap((name) => [
      [`${name} A`, ipv4],
      [`${name} AAAA`, ipv6],
    ]),
  );
}

describe("scheduled passes", () => {
  const current = useRig();
  let rig: Rig;
  beforeEach(() => {
    rig = current();
  });

  test("the first pass writes every new domain; passes while the IP stays the same write nothing", async () => {
    const { domains } = await eightDomains(rig);
    const first = await rig.t.ctx.scheduler.runPass();
    expect(first.map((o) => o.result)).toEqual(Array(8).fill("updated"));
    expect(addresses(rig)).toEqual(allAt(ECHO_DEFAULT_IPV4, ECHO_DEFAULT_IPV6));
    expect(historyRows(rig.t)).toBe(8);

    for (let pass = 0; pass < 3; pass++) {
      rig.cf.clearRequests();
      rig.dynu.clearRequests();
      rig.echo.clearRequests();
      const before = Date.now();
      const outcomes = await duePass(rig.t);
      expect(outcomes.map((o) => o.result)).toEqual(Array(8).fill("unchanged"));
      expect(rig.cf.requests).toHaveLength(0);
      expect(rig.dynu.requests).toHaveLength(0);
      expect(rig.echo.requests.map((r) => r.path).sort()).toEqual(["/v4", "/v6"]);
      for (const domain of domains) {
        const state = domainState(rig.t, domain.id);
        expect(state.last_checked_at).toBeGreaterThanOrEqual(before);
        expectIntervalRun(state.next_run_at, before, 300);
      }
    }
    // A check that finds nothing to change writes no row.
    expect(historyRows(rig.t)).toBe(8);
  });

  test("domains due together share one detection per family", async () => {
    await eightDomains(rig);
    await rig.t.ctx.scheduler.runPass();
    expect(rig.echo.hits("/v4")).toBe(1);
    expect(rig.echo.hits("/v6")).toBe(1);

    // Only IPv4 domains due: the IPv6 echo is not asked at all.
    rig.echo.clearRequests();
    const v4Only = rig.t.ctx.sqlite.query<{ id: number }, []>("SELECT id FROM domains WHERE record_type = 'A'").all();
    makeDue(
      rig.t,
      v4Only.map((d) => d.id),
    );
    const outcomes = await rig.t.ctx.scheduler.runPass();
    expect(outcomes).toHaveLength(4);
    expect(rig.echo.requests.map((r) => r.path)).toEqual(["/v4"]);

    // Nothing due: nobody is asked anything.
    rig.echo.clearRequests();
    expect(await rig.t.ctx.scheduler.runPass()).toEqual([]);
    expect(rig.echo.requests).toHaveLength(0);
  });

  test("domains on the default interval are due together, however their checks were spread, so one detection serves them", async () => {
    rig.cf.addZone("example.com");
    const provider = await addProvider(rig.t, "cloudflare");
    const ids: number[] = [];
    // Added (and first checked) at different moments, as a user adds domains over time.
    for (const name of ["a", "b", "c"]) {
      ids.push((await addDomain(rig.t, provider.id, `${name}.example.com`)).id);
      await rig.t.ctx.scheduler.runPass();
      await Bun.sleep(30);
    }
    const intervalMs = 300_000;
    const next = ids.map((id) => domainState(rig.t, id).next_run_at!);
    for (const at of next) {
      expect(at % intervalMs).toBe(0); // on the interval's grid
      expect(at - Date.now()).toBeLessThanOrEqual(intervalMs);
    }
    rig.echo.clearRequests();
    rig.cf.clearRequests();
    const outcomes = await rig.t.ctx.scheduler.runPass({ now: Math.max(...next) });
    expect(outcomes.map((o) => o.result)).toEqual(["unchanged", "unchanged", "unchanged"]);
    expect(rig.echo.requests).toHaveLength(1);
    expect(rig.cf.requests).toHaveLength(0);
  });

  test("an IPv4 change is written to the A records only, one write each", async () => {
    const { domains } = await eightDomains(rig);
    await rig.t.ctx.scheduler.runPass();
    rig.cf.clearRequests();
    rig.dynu.clearRequests();
    rig.echo.ipv4 = NEXT_IPV4;

    const outcomes = await duePass(rig.t);
    const byName = Object.fromEntries(outcomes.map((o) => [`${o.hostname} ${o.recordType}`, o]));
    for (const [key, outcome] of Object.entries(byName)) {
      expect(outcome.result).toBe(key.endsWith(" A") ? "updated" : "unchanged");
    }
    expect(addresses(rig)).toEqual(allAt(NEXT_IPV4, ECHO_DEFAULT_IPV6));
    // What the scheduled writes leave alone: proxying, TTLs, the apex's other family (checked above).
    expect(rig.cf.record("home.example.com", "A")?.proxied).toBe(true);
    expect(rig.dynu.record("www.example.org", "A")?.ttl).toBe(600);
    expect(rig.dynu.domain("example.org")).toMatchObject({ ipv4: true, ipv6: true, ttl: 90 });
    // Steady state: a read and a write per record, a Dynu domain's own address included.
    expect(rig.cf.requests.map((r) => r.method).sort()).toEqual(["GET", "GET", "PATCH", "PATCH"]);
    expect(rig.dynu.requests.filter((r) => r.method === "POST")).toHaveLength(2);
    expect(rig.dynu.requests).toHaveLength(4);

    for (const domain of domains.filter((d) => d.record_type === "A")) {
      const rows = await historyOf(rig.t, domain.id);
      expect(rows).toHaveLength(2);
      expect(rows[0]).toMatchObject({
        status: "SUCCESS",
        trigger: "schedule",
        ip_address: NEXT_IPV4,
        previous_ip: ECHO_DEFAULT_IPV4,
      });
      expect((await getDomain(rig.t, domain.id)).last_known_ip).toBe(NEXT_IPV4);
    }
    for (const domain of domains.filter((d) => d.record_type === "AAAA")) {
      expect(await historyOf(rig.t, domain.id)).toHaveLength(1);
    }
  });

  test("makeDue makes a domain due even within the millisecond of its unchanged check (what the check held gives way)", async () => {
    const { domains } = await eightDomains(rig);
    await rig.t.ctx.scheduler.runPass();
    // The clock stands still: the unchanged check and the next due time fall in one millisecond, as
    // they do when a check that sends nothing takes less than one.
    setSystemTime(new Date(Date.now()));
    try {
      expect((await duePass(rig.t)).map((o) => o.result)).toEqual(Array(8).fill("unchanged"));
      rig.echo.ipv4 = NEXT_IPV4;
      const outcomes = await duePass(rig.t);
      expect(outcomes).toHaveLength(domains.length);
      expect(outcomes.filter((o) => o.result === "updated").map((o) => o.recordType)).toEqual(Array(4).fill("A"));
    } finally {
      setSystemTime();
    }
  });

  test("after a failed attempt the next check writes even though the IP is the same", async () => {
    rig.cf.addZone("example.com");
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "home.example.com");
    rig.cf.fault({ status: 500 }, 1);
    expect((await rig.t.ctx.scheduler.runPass())[0]).toMatchObject({ result: "failed", ip: ECHO_DEFAULT_IPV4 });
    expect(rig.cf.record("home.example.com", "A")).toBeUndefined();

    const retry = await duePass(rig.t);
    expect(retry[0]).toMatchObject({ result: "updated", ip: ECHO_DEFAULT_IPV4, previousIp: null, changed: true });
    expect(rig.cf.record("home.example.com", "A")?.content).toBe(ECHO_DEFAULT_IPV4);
    expect((await duePass(rig.t))[0]?.result).toBe("unchanged");
    expect(domainState(rig.t, domain.id).failure_count).toBe(0);
  });

  test("after the echo services fail, records whose address did not change are not written again", async () => {
    await eightDomains(rig);
    await rig.t.ctx.scheduler.runPass();
    rig.echo.fault({ status: 503 });
    const outage = await duePass(rig.t);
    expect(outage.map((o) => o.failure)).toEqual(Array(8).fill("detection"));
    // No attempt reached a record: each keeps the status of its last write.
    for (const { id } of rig.t.ctx.sqlite.query<{ id: number }, []>("SELECT id FROM domains").all()) {
      expect(domainState(rig.t, id).last_update_status).toBe("SUCCESS");
    }
    rig.echo.clearFaults();
    rig.cf.clearRequests();
    rig.dynu.clearRequests();
    const back = await duePass(rig.t);
    expect(back.map((o) => o.result)).toEqual(Array(8).fill("unchanged"));
    expect(rig.cf.writes() + rig.dynu.writes()).toBe(0);
  });

  test("not-yet-due, disabled domains and domains of disabled providers are not checked", async () => {
    rig.cf.addZone("example.com");
    const enabled = await addProvider(rig.t, "cloudflare");
    const disabled = await addProvider(rig.t, "cloudflare", { is_enabled: false });
    const due = await addDomain(rig.t, enabled.id, "due.example.com");
    const later = await addDomain(rig.t, enabled.id, "later.example.com");
    await addDomain(rig.t, enabled.id, "off.example.com", { is_enabled: false });
    await addDomain(rig.t, disabled.id, "other.example.com");
    rig.t.ctx.sqlite.query("UPDATE domains SET next_run_at = ? WHERE id = ?").run(Date.now() + 60_000, later.id);

    const outcomes = await rig.t.ctx.scheduler.runPass();
    expect(outcomes.map((o) => o.hostname)).toEqual(["due.example.com"]);
    expect(rig.cf.record("later.example.com", "A")).toBeUndefined();
    expect(rig.cf.record("off.example.com", "A")).toBeUndefined();
    expect(rig.cf.record("other.example.com", "A")).toBeUndefined();
    expect(domainState(rig.t, due.id).last_update_status).toBe("SUCCESS");
  });

  test("a cron_schedule sets next_run_at from croner; without one, DDNS_UPDATE_INTERVAL does", async () => {
    rig.cf.addZone("example.com");
    const provider = await addProvider(rig.t, "cloudflare");
    const cases = [
      { name: "five.example.com", cron: "*/5 * * * *" },
      { name: "seconds.example.com", cron: "*/10 * * * * *" },
      { name: "nightly.example.com", cron: "30 3 * * *" },
      { name: "interval.example.com", cron: null },
    ];
    const ids: number[] = [];
    for (const c of cases) ids.push((await addDomain(rig.t, provider.id, c.name, { cron_schedule: c.cron })).id);
    const before = Date.now();
    await rig.t.ctx.scheduler.runPass();
    const after = Date.now();
    cases.forEach((c, i) => {
      const next = domainState(rig.t, ids[i]!).next_run_at!;
      if (c.cron === null) {
        expectIntervalRun(next, before, 300);
      } else {
        // The first croner run after the moment the domain's check finished.
        const fromBefore = new Cron(c.cron, { paused: true }).nextRun(new Date(before))!.getTime();
        const fromAfter = new Cron(c.cron, { paused: true }).nextRun(new Date(after))!.getTime();
        expect([fromBefore, fromAfter]).toContain(next);
      }
    });
  });
});

describe("schedules survive a restart", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "ddnsd-restart-"));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test("reopened on the same data dir, due domains run and the not-yet-due don't", async () => {
    const rig = await startRig({ dataDir: dir });
    try {
      rig.cf.addZone("example.com");
      const cloudflare = await addProvider(rig.t, "cloudflare");
      const pausedProvider = await addProvider(rig.t, "dynu");
      rig.dynu.addDomain("x.freeddns.org", { ipv4Address: OLD_IPV4 });
      const due = await addDomain(rig.t, cloudflare.id, "due.example.com");
      const later = await addDomain(rig.t, cloudflare.id, "later.example.com");
      const paused = await addDomain(rig.t, pausedProvider.id, "x.freeddns.org");
      await rig.t.ctx.scheduler.runPass();
      expect(rig.cf.writes()).toBe(2);

      const now = Date.now();
      const sqlite = rig.t.ctx.sqlite;
      sqlite.query("UPDATE domains SET next_run_at = ? WHERE id IN (?, ?)").run(now - 1_000, due.id, paused.id);
      sqlite.query("UPDATE domains SET next_run_at = ? WHERE id = ?").run(now + 3_600_000, later.id);
      sqlite.query("UPDATE providers SET paused_until = ? WHERE id = ?").run(now + 600_000, pausedProvider.id);
      sqlite.close();

      // The appliance restarts while the public IP changes.
      rig.echo.ipv4 = NEXT_IPV4;
      rig.cf.clearRequests();
      rig.dynu.clearRequests();
      const reopened = await makeTestApp(rig.env, dir);
      rig.t = reopened;
      expect(domainState(reopened, later.id).next_run_at).toBe(now + 3_600_000);

      const outcomes = await reopened.ctx.scheduler.runPass();
      expect(outcomes.map((o) => [o.hostname, o.result])).toEqual([["due.example.com", "updated"]]);
      expect(rig.cf.record("due.example.com", "A")?.content).toBe(NEXT_IPV4);
      expect(rig.cf.record("later.example.com", "A")?.content).toBe(ECHO_DEFAULT_IPV4);
      expect(rig.dynu.requests).toHaveLength(0); // its provider is still paused after the restart
      expect((await historyOf(reopened, due.id))[0]).toMatchObject({
        previous_ip: ECHO_DEFAULT_IPV4,
        ip_address: NEXT_IPV4,
      });
    } finally {
      await rig.stop();
    }
  });
});
