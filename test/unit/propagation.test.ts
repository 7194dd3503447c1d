// Whether a record is live (src/updater/propagation.ts), on a fake clock and fake name servers:
// when the name servers are asked (at once, then 2 s, 4 s, 8 s … apart, never sooner), what each
// answer makes of the record's state, the words its history row ends with, and the `not_served`
// event after 10 minutes, once per streak. The real name servers are in test/propagation/.

import { beforeEach, expect, test } from "bun:test";
import type { QueryAnswer, ZoneSearch, ZoneServers } from "../../src/dns/lookup";
import type { ServerAddress } from "../../src/dns/protocols/signed-dns";
import { addressData, encodeName, message, RCODE, TYPE } from "../../src/dns/protocols/wire";
import { createLogger } from "../../src/log";
import type { NotServed } from "../../src/updater/events";
import type { UpdateOutcome } from "../../src/updater/outcome";
import {
  FIRST_DELAY_MS,
  newerSerial,
  PropagationTracker,
  type RepairRequest,
  type RepairResult,
  WATCH_MS,
} from "../../src/updater/propagation";
import { type MemoryStore, memoryStore } from "./store/support";

const NS1 = { host: "192.0.2.53", port: 53 };
const NS2 = { host: "198.51.100.53", port: 53 };
const NEW = "203.0.113.7";
const OLD = "203.0.113.1";

/** What each name server answers, by address: an address list, an rcode, or silence. */
type Behaviour = string[] | { rcode: number } | { silent: true };

let clock: { now: number; monotonic(): number; wall(): number };
let servers: Map<string, Behaviour>;
let zone: ZoneServers;
let asked: string[];
let notServed: NotServed[];
let memory: MemoryStore;
let tracker: PropagationTracker;
let nameServer: string | null;
/** The zone's SOA serial each name server answers with, by address (none: it answers no SOA). */
let serials: Map<string, number>;
/** The repairs the tracker asked for, and what the update path answers them. */
let repairs: RepairRequest[];
let repairResult: RepairResult;
let verifyEverySeconds: number;
let soaAsked: number;
/** Each zone search the tracker started, with what it shares. */
let searches: ZoneSearch[];

/** An SOA record's data, uncompressed, with this serial. */
function soa(serial: number): Uint8Array {
  const numbers = new Uint8Array(20);
  new DataView(numbers.buffer).setUint32(0, serial);
  return new Uint8Array([...encodeName("ns1.example.com"), ...encodeName("hostmaster.example.com"), ...numbers]);
}
let logLines: string[];

function answerOf(server: ServerAddress, name: string, type: number): QueryAnswer {
  const behaviour = servers.get(server.host);
  if (behaviour === undefined || "silent" in behaviour) return { ok: false, reason: "no answer within 3 s" };
  const base = message({ id: 1, qr: true, aa: true, questions: [{ name, type, class: 1 }] });
  if (type === TYPE.SOA) {
    const serial = serials.get(server.host);
    const authorities =
      serial === undefined ? [] : [{ name: "example.com", type: TYPE.SOA, class: 1, ttl: 300, data: soa(serial) }];
    return { ok: true, message: { ...base, authorities }, bytes: new Uint8Array() };
  }
  if ("rcode" in behaviour)
    return { ok: true, message: { ...base, aa: false, rcode: behaviour.rcode }, bytes: new Uint8Array() };
  const answers = behaviour.map((ip) => ({ name, type, class: 1, ttl: 300, data: addressData(ip) }));
  return { ok: true, message: { ...base, answers }, bytes: new Uint8Array() };
}

beforeEach(() => {
  clock = { now: 1_000, monotonic: () => clock.now, wall: () => 1_800_000_000_000 + clock.now };
  servers = new Map([
    [NS1.host, [NEW]],
    [NS2.host, [NEW]],
  ]);
  zone = {
    ok: true,
    zone: "example.com",
    servers: [
      { name: "ns1.example.com", server: NS1 },
      { name: "ns2.example.com", server: NS2 },
    ],
  };
  asked = [];
  notServed = [];
  nameServer = null;
  serials = new Map();
  repairs = [];
  repairResult = "repaired";
  verifyEverySeconds = 0;
  soaAsked = 0;
  searches = [];
  logLines = [];
  memory = memoryStore();
  tracker = new PropagationTracker({
    store: memory.store,
    nameServerOf: () => nameServer,
    proxied: (_provider, domain) => domain.config.proxied === true,
    settings: {
      resolvers: [{ host: "192.0.2.1", port: 53 }],
      allowPrivateIps: false,
      get verifyEverySeconds() {
        return verifyEverySeconds;
      },
    },
    log: createLogger({ level: "warn", format: "json", write: (line) => logLines.push(line) }),
    events: { notServed: (report) => notServed.push(report) },
    repair: async (request) => {
      repairs.push(request);
      return repairResult;
    },
    clock,
    lookups: {
      findZoneServers: async (_resolvers, _hostname, search) => {
        searches.push(search);
        // What the real search keeps for the other watches (not read back here), held a minute.
        if (zone.ok) search.shared?.cache.keepZone(zone, 300, 60_000);
        return zone;
      },
      query: async (server, name, type, options) => {
        expect(options.recursion).toBe(false);
        if (type === TYPE.SOA) soaAsked++;
        else asked.push(server.host);
        return answerOf(server, name, type);
      },
    },
  });
});

/** A domain written with NEW, its SUCCESS row; the domain's and row's ids. */
function written(name = "home.example.com"): { domainId: number; historyId: number } {
  const providerId = memory.provider(`p-${name}`);
  const domainId = memory.domain(providerId, name);
  memory.store.domains.update(domainId, { lastKnownIp: NEW, lastUpdateStatus: "SUCCESS" });
  const historyId = memory.store.history.append(
    {
      domainId,
      ipAddress: NEW,
      previousIp: OLD,
      status: "SUCCESS",
      failureCause: null,
      message: `Updated ${name} A → ${NEW}`,
      trigger: "schedule",
      durationMs: 5,
      timestamp: Date.now(),
    },
    1000,
  );
  const before = memory.store.domains.find(domainId)!;
  tracker.recorded({ before, outcome: outcome(domainId, name, "updated", historyId), trigger: "schedule" });
  return { domainId, historyId };
}

function outcome(
  domainId: number,
  hostname: string,
  result: "updated" | "unchanged",
  historyId: number | null,
): UpdateOutcome {
  return {
    domainId,
    hostname,
    recordType: "A",
    result,
    failure: null,
    ip: NEW,
    previousIp: OLD,
    changed: result === "updated",
    written: result === "updated",
    message: "",
    durationMs: 5,
    historyId,
  };
}

/** Lets the clock run to `ms` from now, running every ask that falls due on the way, as the scheduler's wake-ups would. */
async function runFor(ms: number): Promise<void> {
  const end = clock.now + ms;
  for (;;) {
    const wait = tracker.msUntilDue();
    if (wait === null || clock.now + wait > end) break;
    clock.now += wait;
    tracker.runDue();
    await tracker.idle();
  }
  clock.now = end;
}

const stateOf = (domainId: number) => tracker.propagationOf(memory.store.domains.find(domainId)!);

function messageOf(domainId: number, historyId: number): string | undefined {
  return memory.store.history.list(domainId, 10).find((row) => row.id === historyId)?.message;
}

test("a record every name server serves at once: served, the history row says so, nothing asked again", async () => {
  const { domainId, historyId } = written();
  expect(tracker.msUntilDue()).toBe(0);
  await runFor(0);
  const propagation = stateOf(domainId);
  expect(propagation.state).toBe("served");
  expect(propagation.servers).toEqual([
    { name: "ns1.example.com", address: NS1.host, answer: [NEW], ok: true, error: null },
    { name: "ns2.example.com", address: NS2.host, answer: [NEW], ok: true, error: null },
  ]);
  expect(propagation.servedAfterMs).toBe(0);
  expect(propagation.checkedAt).toBe(clock.wall());
  expect(messageOf(domainId, historyId)).toBe(
    `Updated home.example.com A → ${NEW}; served by 2 of 2 name servers after 0 s`,
  );
  expect(tracker.msUntilDue()).toBeNull();
  expect(asked).toHaveLength(2);
});

test("a lagging secondary: pending with what it answers, asked again 2 s, 4 s, 8 s apart, then served after the time it took", async () => {
  servers.set(NS2.host, [OLD]);
  const { domainId, historyId } = written();
  await runFor(0);
  expect(stateOf(domainId).state).toBe("pending");
  expect(stateOf(domainId).servers[1]).toEqual({
    name: "ns2.example.com",
    address: NS2.host,
    answer: [OLD],
    ok: false,
    error: null,
  });
  expect(tracker.msUntilDue()).toBe(FIRST_DELAY_MS);
  await runFor(FIRST_DELAY_MS - 1);
  expect(asked).toHaveLength(2); // not a moment sooner
  await runFor(1);
  expect(asked).toHaveLength(4);
  expect(tracker.msUntilDue()).toBe(4_000);
  await runFor(4_000);
  expect(tracker.msUntilDue()).toBe(8_000);
  servers.set(NS2.host, [NEW]); // the NOTIFY arrived
  await runFor(8_000);
  const propagation = stateOf(domainId);
  expect(propagation.state).toBe("served");
  expect(propagation.servedAfterMs).toBe(14_000);
  expect(messageOf(domainId, historyId)).toEndWith("; served by 2 of 2 name servers after 14 s");
  expect(tracker.msUntilDue()).toBeNull();
});

test("a name server that does not answer is unreachable and named; asked only on the backoff; after 10 minutes the row says so and not_served goes out once", async () => {
  servers.set(NS2.host, { silent: true });
  const { domainId, historyId } = written();
  await runFor(0);
  expect(stateOf(domainId).state).toBe("unreachable");
  expect(stateOf(domainId).servers[1]).toMatchObject({
    name: "ns2.example.com",
    ok: false,
    error: "no answer within 3 s",
  });
  await runFor(WATCH_MS - 1);
  expect(messageOf(domainId, historyId)).toBe(`Updated home.example.com A → ${NEW}`);
  // At once, then 2, 4, 8, 16, 32, 64 and 128 s later, then every two minutes: never more often.
  const asksOfNs2 = () => asked.filter((host) => host === NS2.host).length;
  expect(asksOfNs2()).toBe(10);
  await runFor(1);
  // The last ask at the end of the 10 minutes.
  expect(asksOfNs2()).toBe(11);
  expect(messageOf(domainId, historyId)).toBe(
    `Updated home.example.com A → ${NEW}; not served after 10 min: served by 1 of 2 name servers; ns2.example.com (${NS2.host}) does not answer (no answer within 3 s)`,
  );
  expect(notServed).toEqual([
    {
      domainId,
      hostname: "home.example.com",
      recordType: "A",
      providerId: expect.any(Number),
      ip: NEW,
      message: expect.stringContaining("ns2.example.com"),
    },
  ]);
  expect(tracker.msUntilDue()).toBeNull();

  // The next check of the unchanged record watches it again; still not served: no second event.
  tracker.passed([outcome(domainId, "home.example.com", "unchanged", null)]);
  await runFor(WATCH_MS);
  expect(notServed).toHaveLength(1);
  // Served again, then lagging again: a new streak, a new event.
  servers.set(NS2.host, [NEW]);
  tracker.passed([outcome(domainId, "home.example.com", "unchanged", null)]);
  await runFor(0);
  expect(stateOf(domainId).state).toBe("served");
  servers.set(NS2.host, { rcode: RCODE.REFUSED });
  tracker.passed([outcome(domainId, "home.example.com", "unchanged", null)]);
  await runFor(0);
  expect(stateOf(domainId).servers[1]).toMatchObject({ ok: false, error: "REFUSED" });
  await runFor(WATCH_MS);
  expect(notServed).toHaveLength(2);
});

test("a check of an unchanged record asks once when served, writes no row, and keeps how long serving took after the write", async () => {
  servers.set(NS2.host, [OLD]);
  const { domainId, historyId } = written();
  await runFor(0);
  servers.set(NS2.host, [NEW]);
  await runFor(FIRST_DELAY_MS);
  const words = messageOf(domainId, historyId);
  expect(stateOf(domainId).servedAfterMs).toBe(2_000);
  const before = asked.length;
  clock.now += 300_000;
  tracker.passed([outcome(domainId, "home.example.com", "unchanged", null)]);
  await runFor(0);
  expect(asked.length).toBe(before + 2);
  expect(stateOf(domainId)).toMatchObject({ state: "served", servedAfterMs: 2_000, checkedAt: clock.wall() });
  expect(messageOf(domainId, historyId)).toBe(words);
  expect(tracker.msUntilDue()).toBeNull();
});

test("the resolvers do not answer: unreachable with the reason; the service's own server is still asked, and alone serves the record", async () => {
  zone = { ok: false, reason: "the NS query for home.example.com failed: resolver 192.0.2.1: no answer within 3 s" };
  const first = written();
  await runFor(0);
  expect(stateOf(first.domainId)).toMatchObject({
    state: "unreachable",
    servers: [],
    detail: expect.stringContaining("the zone's name servers were not found"),
  });

  nameServer = `${NS1.host}:5353`;
  const second = written("other.example.com");
  await runFor(0);
  expect(stateOf(second.domainId)).toMatchObject({
    state: "served",
    servers: [{ name: `${NS1.host}:5353`, address: `${NS1.host}:5353`, answer: [NEW], ok: true, error: null }],
    detail: expect.stringContaining("only the service's server was asked"),
  });
});

test("resolvers that did not answer are asked again at the next ask: the NS set found then is asked", async () => {
  const found = zone;
  zone = { ok: false, reason: "the NS query for home.example.com failed: resolver 192.0.2.1: no answer within 3 s" };
  const { domainId } = written();
  await runFor(0);
  expect(stateOf(domainId).state).toBe("unreachable");
  zone = found;
  await runFor(FIRST_DELAY_MS);
  expect(stateOf(domainId)).toMatchObject({ state: "served", detail: null });
});

test("a proxied record is served when every name server answers an address (the proxy's), not the record's own", async () => {
  servers.set(NS1.host, ["104.16.1.1"]);
  servers.set(NS2.host, ["104.16.1.1"]);
  const providerId = memory.provider("proxy");
  const domainId = memory.domain(providerId, "shop.example.com");
  memory.store.domains.update(domainId, { lastKnownIp: NEW, lastUpdateStatus: "SUCCESS", config: { proxied: true } });
  tracker.recorded({
    before: memory.store.domains.find(domainId)!,
    outcome: outcome(domainId, "shop.example.com", "updated", null),
    trigger: "manual",
  });
  await runFor(0);
  expect(stateOf(domainId)).toMatchObject({
    state: "served",
    detail: expect.stringContaining("a proxied record"),
    servers: [{ answer: ["104.16.1.1"], ok: true }, { ok: true }],
  });
  // Not proxied, the same answers are a record not served.
  memory.store.domains.update(domainId, { config: {} });
  tracker.passed([outcome(domainId, "shop.example.com", "unchanged", null)]);
  await runFor(0);
  expect(stateOf(domainId).state).toBe("pending");
});

test("the service's own server is asked beside the NS set, once when it is one of them", async () => {
  nameServer = NS1.host;
  const { domainId } = written();
  await runFor(0);
  expect(stateOf(domainId).servers.map((server) => server.name)).toEqual(["ns1.example.com", "ns2.example.com"]);
  nameServer = "192.0.2.99";
  servers.set("192.0.2.99", [NEW]);
  const other = written("other.example.com");
  await runFor(0);
  expect(stateOf(other.domainId).servers.map((server) => server.address)).toEqual([NS1.host, NS2.host, "192.0.2.99"]);
});

test("unknown until asked, and again once the domain is another record (renamed) or holds another address", async () => {
  const { domainId } = written();
  expect(stateOf(domainId).state).toBe("unknown");
  await runFor(0);
  expect(stateOf(domainId).state).toBe("served");
  memory.store.domains.update(domainId, { lastKnownIp: OLD });
  expect(stateOf(domainId).state).toBe("unknown");
  memory.store.domains.update(domainId, { lastKnownIp: NEW, domainName: "renamed.example.com" });
  expect(stateOf(domainId).state).toBe("unknown");
});

test("a deleted domain's watch ends at its next ask, and what was known of it goes", async () => {
  servers.set(NS2.host, [OLD]);
  const { domainId } = written();
  await runFor(0);
  expect(stateOf(domainId).state).toBe("pending");
  memory.store.history.deleteForDomain(domainId);
  memory.store.domains.delete(domainId);
  await runFor(FIRST_DELAY_MS);
  expect(tracker.msUntilDue()).toBeNull();
  expect(tracker.servedRecords()).toEqual([]);
});

test("ddnsd_record_served's source: each record asked, served or not; records not asked are left out", async () => {
  servers.set(NS2.host, [OLD]);
  written("a.example.com");
  await runFor(0);
  const providerId = memory.provider("quiet");
  memory.domain(providerId, "never.example.com");
  expect(tracker.servedRecords()).toEqual([{ domain: "a.example.com", recordType: "A", served: false }]);
  servers.set(NS2.host, [NEW]);
  await runFor(FIRST_DELAY_MS);
  expect(tracker.servedRecords()).toEqual([{ domain: "a.example.com", recordType: "A", served: true }]);
});

test("an AAAA record's addresses compare as addresses", async () => {
  const providerId = memory.provider("v6");
  const domainId = memory.domain(providerId, "v6.example.com", "AAAA");
  memory.store.domains.update(domainId, { lastKnownIp: "2001:0db8:0:0::1", lastUpdateStatus: "SUCCESS" });
  servers.set(NS1.host, ["2001:db8::1"]);
  servers.set(NS2.host, ["2001:db8::1"]);
  tracker.recorded({
    before: memory.store.domains.find(domainId)!,
    outcome: { ...outcome(domainId, "v6.example.com", "updated", null), recordType: "AAAA", ip: "2001:0db8:0:0::1" },
    trigger: "manual",
  });
  await runFor(0);
  expect(stateOf(domainId)).toMatchObject({
    state: "served",
    servers: [{ answer: ["2001:db8::1"], ok: true }, { ok: true }],
  });
});

test("a record known to hold its address (a push-only record at start) is asked about as an unchanged one; one that holds none is not", async () => {
  const providerId = memory.provider("p-pushed");
  const held = memory.domain(providerId, "pushed.example.com");
  const never = memory.domain(providerId, "never.example.com");
  memory.store.domains.update(held, { lastKnownIp: NEW });
  tracker.held([memory.store.domains.find(held)!, memory.store.domains.find(never)!]);
  await runFor(0);
  expect(asked).toEqual([NS1.host, NS2.host]);
  expect(stateOf(held)).toMatchObject({ state: "served", servedAfterMs: null });
  expect(stateOf(never).state).toBe("unknown");
});

const OTHER = "198.51.100.77";
const check = (domainId: number) => tracker.passed([outcome(domainId, "home.example.com", "unchanged", null)]);

test("name servers answering another address at a serial not older than the one seen with the write: drift, one repair asked per check", async () => {
  serials.set(NS1.host, 2).set(NS2.host, 1);
  servers.set(NS2.host, [OLD]);
  const { domainId } = written();
  await runFor(0);
  // The secondary answers the old address at serial 1, older than the 2 the primary serves NEW at: lag.
  expect(stateOf(domainId).state).toBe("pending");
  expect(repairs).toEqual([]);
  servers.set(NS2.host, [NEW]);
  await runFor(FIRST_DELAY_MS);
  expect(stateOf(domainId).state).toBe("served");
  // Served, the answers agree: a check asks no serial and asks for no repair.
  const soaBefore = soaAsked;
  check(domainId);
  await runFor(0);
  expect(soaAsked).toBe(soaBefore);

  // Changed outside ddnsd: both answer another address at a newer serial.
  servers.set(NS1.host, [OTHER]).set(NS2.host, [OTHER]);
  serials.set(NS1.host, 3).set(NS2.host, 3);
  clock.now += 300_000;
  check(domainId);
  await runFor(0);
  expect(repairs).toEqual([{ domainId, address: NEW, seen: [OTHER] }]);
  expect(stateOf(domainId).state).toBe("pending");
  // The rest of the watch asks the name servers again, never the service.
  await runFor(WATCH_MS);
  expect(repairs).toHaveLength(1);
  // The next check asks again (the repair failed, say).
  check(domainId);
  await runFor(0);
  expect(repairs).toHaveLength(2);
});

test("a secondary behind the write stays lag when the primary is changed outside ddnsd: only the primary's answer is drift", async () => {
  serials.set(NS1.host, 2).set(NS2.host, 1);
  servers.set(NS2.host, [OLD]);
  const { domainId } = written();
  await runFor(0);
  expect(repairs).toEqual([]);
  servers.set(NS1.host, []); // deleted at the primary, its serial moved on
  serials.set(NS1.host, 3);
  await runFor(FIRST_DELAY_MS);
  expect(repairs).toEqual([{ domainId, address: NEW, seen: [] }]);
});

test("no serial to go by: the service is read once; holding the address, the serials seen count as behind until a newer one", async () => {
  repairResult = "held";
  servers.set(NS1.host, [OLD]).set(NS2.host, [OLD]);
  serials.set(NS1.host, 5).set(NS2.host, 5);
  const { domainId } = written();
  await runFor(0);
  expect(repairs).toHaveLength(1);
  await runFor(WATCH_MS);
  check(domainId);
  await runFor(WATCH_MS);
  // Serial 5 was lag by the service's own word: not read again.
  expect(repairs).toHaveLength(1);
  expect(stateOf(domainId).state).toBe("pending");
  serials.set(NS1.host, 6);
  check(domainId);
  await runFor(WATCH_MS);
  expect(repairs).toHaveLength(2);
  // A name server that gives no serial cannot be told behind: read once per check.
  serials.clear();
  for (const _ of [1, 2]) {
    check(domainId);
    await runFor(WATCH_MS);
  }
  expect(repairs).toHaveLength(4);
});

test("no name server answers: the record is read at its service once per DDNS_VERIFY_EVERY, counted from its write; 0: never", async () => {
  verifyEverySeconds = 3600;
  servers.set(NS1.host, { silent: true }).set(NS2.host, { rcode: RCODE.REFUSED });
  const { domainId } = written();
  await runFor(0);
  expect(stateOf(domainId).state).toBe("unreachable");
  expect(repairs).toEqual([]);
  // Checks every 10 minutes (each watched to its end) until an hour after the write.
  for (let minutes = 10; minutes < 60; minutes += 10) {
    await runFor(WATCH_MS);
    check(domainId);
  }
  await runFor(WATCH_MS - 1);
  expect(repairs).toEqual([]);
  await runFor(1);
  check(domainId);
  await runFor(0);
  expect(repairs).toEqual([{ domainId, address: NEW, seen: null }]);
  // Within the next period: the checks ask the name servers only.
  for (const _ of [1, 2, 3]) {
    await runFor(WATCH_MS);
    check(domainId);
  }
  await runFor(WATCH_MS);
  expect(repairs).toHaveLength(1);
  // One name server answering the address: the live check sees the record, nothing is read.
  servers.set(NS2.host, [NEW]);
  clock.now += 3_600_000;
  check(domainId);
  await runFor(WATCH_MS);
  expect(repairs).toHaveLength(1);
  verifyEverySeconds = 0;
  servers.set(NS2.host, { silent: true });
  clock.now += 3_600_000;
  check(domainId);
  await runFor(WATCH_MS);
  expect(repairs).toHaveLength(1);
});

test("served_after_ms is set when the record becomes served after the 10-minute watch, counted from the write", async () => {
  repairResult = "held";
  servers.set(NS2.host, [OLD]);
  const { domainId } = written();
  await runFor(WATCH_MS);
  expect(stateOf(domainId)).toMatchObject({ state: "pending", servedAfterMs: null });
  servers.set(NS2.host, [NEW]);
  clock.now += 300_000;
  check(domainId);
  await runFor(0);
  expect(stateOf(domainId)).toMatchObject({ state: "served", servedAfterMs: WATCH_MS + 300_000 });
  // The next check keeps it.
  clock.now += 300_000;
  check(domainId);
  await runFor(0);
  expect(stateOf(domainId).servedAfterMs).toBe(WATCH_MS + 300_000);
});

test("zone serials compare in serial number arithmetic: 1 is newer than 4294967295", () => {
  expect(newerSerial(3, 2)).toBe(true);
  expect(newerSerial(2, 3)).toBe(false);
  expect(newerSerial(2, 2)).toBe(false);
  expect(newerSerial(1, 4_294_967_295)).toBe(true);
  expect(newerSerial(4_294_967_295, 1)).toBe(false);
});

test("1,000 lagging name servers: 8 asked; the history row, the log line and not_served name five, then how many more, within 2,000 characters", async () => {
  const lagging = Array.from({ length: 1000 }, (_, i) => ({
    name: `ns${String(i).padStart(4, "0")}.example.com`,
    server: { host: `81.2.${i >> 8}.${i & 255}`, port: 53 },
  }));
  zone = { ok: true, zone: "example.com", servers: lagging };
  for (const target of lagging) servers.set(target.server.host, [OLD]);
  const { domainId, historyId } = written();
  await runFor(WATCH_MS);
  expect(new Set(asked).size).toBe(8);
  expect(stateOf(domainId).servers).toHaveLength(8);
  expect(stateOf(domainId).detail).toBe("8 of the zone's 1000 name servers asked (at most 8, one per address)");
  const words = messageOf(domainId, historyId)!;
  expect(words).toContain(
    "not served after 10 min: served by 0 of 8 name servers; ns0000.example.com (81.2.0.0) answers",
  );
  expect(words).toContain("ns0004.example.com (81.2.0.4)");
  expect(words).not.toContain("ns0005.example.com");
  expect(words).toContain("; and 3 more; 8 of the zone's 1000 name servers asked");
  expect(words.length).toBeLessThanOrEqual(2000);
  const [event] = notServed;
  expect(event!.message.length).toBeLessThanOrEqual(2000);
  expect(event!.message).toContain("and 3 more");
  const line = logLines
    .map((text) => JSON.parse(text))
    .find((entry) => entry.msg === "record not served by every name server");
  expect(line.detail).toContain("and 3 more");
  expect(line.detail.length).toBeLessThanOrEqual(2000);
});

test("name servers at internal addresses are not asked for a provider without its own server, unless private addresses are allowed", async () => {
  const internal = [
    "127.0.0.1",
    "10.0.0.53",
    "192.168.1.1",
    "172.16.0.1",
    "169.254.1.1",
    "100.64.0.1",
    "fd00::53",
    "::1",
  ];
  zone = {
    ok: true,
    zone: "example.com",
    servers: internal.map((host, i) => ({ name: `ns${i}.example.com`, server: { host, port: 53 } })),
  };
  for (const host of internal) servers.set(host, [NEW]);
  const { domainId } = written();
  await runFor(0);
  expect(asked).toEqual([]);
  expect(stateOf(domainId).state).toBe("unreachable");
  expect(stateOf(domainId).servers.map((server) => server.error)).toEqual(
    internal.map(() => "not asked: a loopback, private, link-local or CGNAT address (DDNS_ALLOW_PRIVATE_IPS)"),
  );
  // The provider's service writes to a server of the user's own (RFC 2136, PowerDNS): its zone's are asked.
  nameServer = "127.0.0.1";
  await runFor(FIRST_DELAY_MS);
  expect(asked.sort()).toEqual([...internal].sort());
  expect(stateOf(domainId).state).toBe("served");
});

test("a set of addresses: served once each server answers every address and none removed; foreign ones may stand beside", async () => {
  const SECOND = "203.0.113.8";
  const FOREIGN = "198.51.100.9";
  const providerId = memory.provider("p-set");
  const domainId = memory.domain(providerId, "set.example.com");
  memory.store.domains.update(domainId, { lastKnownIp: NEW, addresses: [NEW, SECOND], lastUpdateStatus: "SUCCESS" });
  const before = memory.store.domains.find(domainId)!;
  servers.set(NS1.host, [SECOND, FOREIGN, NEW]);
  servers.set(NS2.host, [NEW]);
  tracker.recorded({
    before,
    outcome: {
      ...outcome(domainId, "set.example.com", "updated", null),
      addresses: [NEW, SECOND],
      removed: [OLD],
    },
    trigger: "schedule",
  });
  await runFor(0);
  // ns2 lacks the second address.
  expect(stateOf(domainId).state).toBe("pending");
  expect(stateOf(domainId).servers.map((server) => server.ok)).toEqual([true, false]);
  // ns2 still answers the address the write removed.
  servers.set(NS2.host, [NEW, SECOND, OLD]);
  await runFor(FIRST_DELAY_MS);
  expect(stateOf(domainId).state).toBe("pending");
  servers.set(NS2.host, [SECOND, NEW]);
  await runFor(4_000);
  expect(stateOf(domainId).state).toBe("served");
  expect(stateOf(domainId).servers.map((server) => server.answer)).toEqual([
    [SECOND, FOREIGN, NEW],
    [SECOND, NEW],
  ]);
});

test("the watches' zone searches share one cache, held for the watch's step, emptied once nothing is watched", async () => {
  servers.set(NS2.host, [OLD]); // pending: both records stay watched
  const first = written("a.example.com");
  const second = written("b.example.com");
  await runFor(0);
  expect(searches).toHaveLength(2);
  const cache = searches[0]!.shared!.cache;
  expect(searches[1]!.shared!.cache).toBe(cache);
  expect(searches.map((search) => search.shared!.holdMs)).toEqual([FIRST_DELAY_MS, FIRST_DELAY_MS]);
  expect(cache.zone("example.com")?.servers).toHaveLength(2);
  // Served: both watches end, and with them what the cache held.
  servers.set(NS2.host, [NEW]);
  await runFor(FIRST_DELAY_MS);
  expect([stateOf(first.domainId).state, stateOf(second.domainId).state]).toEqual(["served", "served"]);
  expect(cache.zone("example.com")).toBeUndefined();
});
