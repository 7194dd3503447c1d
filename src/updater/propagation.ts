// Whether a record is live: after each write, and at each scheduled check of an unchanged record,
// the zone's own name servers are asked for the record directly (no recursion), until every one
// answers its address or 10 minutes have passed, the asks spaced 2 s, 4 s, 8 s … (two minutes at
// most) apart. The name servers are the zone's NS set, found through the resolvers (DDNS_RESOLVERS),
// and the server the service itself writes to where it has one (RFC 2136's, PowerDNS's).
//
// No request goes to a DNS service's API. The asks run inside the scheduler's wake-ups: it asks
// `msUntilDue()` when planning its sleep and calls `runDue()` when it wakes, so no domain has a timer
// of its own. A name server that refuses or does not answer is "unreachable": never an update
// failure, and asked again only on the backoff. What was found lives in memory (after a restart a
// record is "unknown" until its next check); a write's history row gets the outcome's words at the
// end, and a record still not served after the 10 minutes is a `not_served` event (once, until it is
// served again).
//
// The answers also tell a record changed outside ddnsd (drift) from a name server that is merely
// behind (lag): a server answering another address whose zone serial (SOA) is older than the one
// seen serving the record's address is behind; any other is drift, and the update path is asked to
// repair (`repair`: it reads the record at the service and writes the intended address back where
// the service holds another one too; a service that holds the right one was lag after all, and the
// serials it was seen at count as behind from then on). Where no name server answers at all, the
// record is read at the service that way at most once per DDNS_VERIFY_EVERY. At most one such
// request per watch, none while the answers agree: no API request otherwise.

import { isIP } from "node:net";
import {
  addressesIn,
  findZoneServers,
  type NameServerTarget,
  type QueryAnswer,
  query,
  type ZoneFound,
  type ZoneSearch,
  type ZoneServers,
} from "../dns/lookup";
import { formatServer, parseServer, type ServerAddress } from "../dns/protocols/signed-dns";
import { RCODE, rcodeName, soaData, TYPE } from "../dns/protocols/wire";
import type { RecordType } from "../dns/provider";
import { ZoneCache } from "../dns/zone-cache";
import { sameAddress, sameAddresses } from "../dns/zones";
import type { Logger } from "../log";
import { isInternalAddress } from "../net/address";
import type { Store } from "../store";
import type { DomainRow, ProviderRow } from "../store/rows";
import { firstItems } from "../util/message";
import { Slots } from "../util/slots";
import type { EventSink, RecordedUpdate } from "./events";
import type { UpdateOutcome } from "./outcome";

/** How long a record is watched at most after a write or a check. */
export const WATCH_MS = 10 * 60_000;
/** The first wait between two asks; it doubles after each ask that finds the record not served. */
export const FIRST_DELAY_MS = 2_000;
/** The longest wait between two asks. */
export const LONGEST_DELAY_MS = 2 * 60_000;
/**
 * Waits this long or longer end on a shared beat (a multiple of it on the monotonic clock), so the
 * records being watched are asked together, a few wake-ups a minute, rather than each at its own
 * moment; a wait is only ever lengthened by it, never shortened.
 */
export const BEAT_MS = 15_000;
/** Records whose name servers are asked at once; the rest wait for the next wake-up. */
const ROUNDS_AT_ONCE = 8;
/** The most name servers one check asks, one per address, the service's own server included. */
export const MOST_SERVERS = 8;
/** The most sockets open at once for every check together (questions to resolvers included). */
export const MOST_SOCKETS = 32;

export type PropagationState = "served" | "pending" | "unreachable" | "unknown";

/**
 * Whether a name server at `host` may be asked about a provider's records. One at a loopback,
 * private, link-local or CGNAT address is the user's own only where the service writes to a server
 * of theirs (`ownServer`, the description's `nameServer`: RFC 2136's, PowerDNS's) or where
 * DDNS_ALLOW_PRIVATE_IPS says so; elsewhere glue naming one is not followed. The live check and the
 * ACME challenge's wait (modules/acme/served.ts) both ask by this rule.
 */
export function mayAskNameServer(host: string, ownServer: string | null, allowPrivateIps: boolean): boolean {
  return allowPrivateIps || ownServer !== null || !isInternalAddress(host);
}

/** What one name server answered. */
export interface ServerReport {
  /** The name server's name (from the NS set), or the service's server as configured. */
  name: string;
  /** Where it was asked (`host`, or `host:port` off port 53); null when no address was found for it. */
  address: string | null;
  /** The record's addresses it answers with (empty: none). */
  answer: string[];
  /** Whether it answers the record's address. */
  ok: boolean;
  /** Why it gave no usable answer (refused, timed out, not authoritative …); null when it answered. */
  error: string | null;
}

export interface Propagation {
  state: PropagationState;
  servers: ServerReport[];
  /** When the name servers were last asked (ms since the epoch). */
  checkedAt: number | null;
  /** How long after the write every name server answered the address. */
  servedAfterMs: number | null;
  /** What kept the check short of the whole NS set (the resolvers did not answer …), or that the record is proxied; null otherwise. */
  detail: string | null;
}

export const UNKNOWN: Propagation = {
  state: "unknown",
  servers: [],
  checkedAt: null,
  servedAfterMs: null,
  detail: null,
};

/** Asking a name server, and finding a zone's: the real DNS by default, fakes in the unit tests. */
export interface Lookups {
  findZoneServers(resolvers: readonly ServerAddress[], hostname: string, search: ZoneSearch): Promise<ZoneServers>;
  query(
    server: ServerAddress,
    name: string,
    type: number,
    options: { recursion: boolean; sockets: Slots },
  ): Promise<QueryAnswer>;
}

export interface PropagationClock {
  /** Monotonic ms: when asks are due and how long serving took. */
  monotonic(): number;
  /** Wall-clock ms: `checkedAt`. */
  wall(): number;
}

/** What the live check saw that asks the update path for a repair (updater/update.ts, `runRepair`). */
export interface RepairRequest {
  domainId: number;
  /** The address the record was asked for: a repair writes only while it is still the intended one. */
  address: string;
  /**
   * What the name servers that are not behind answer instead ([]: no address); null when no name
   * server answered (DDNS_VERIFY_EVERY's read).
   */
  seen: readonly string[] | null;
}

/**
 * What a repair came to: the intended address written back (`repaired`), the service found holding it
 * (`held`: the name servers lag), the write failed (`failed`, its row written), or nothing asked
 * (`skipped`: the domain is disabled, failing, paused or meant to hold another address by now).
 */
export type RepairResult = "repaired" | "held" | "failed" | "skipped";

/** What the tracker reads: the domains, providers and history rows, each provider's service, the resolvers. */
export interface PropagationParts {
  store: Pick<Store, "domains" | "history">;
  /** The server a provider's service writes to (from its options), asked besides the NS set. */
  nameServerOf(provider: ProviderRow): string | null;
  /**
   * Whether the record goes through its service's proxy (Cloudflare's `config.proxied: true`): its
   * name servers then answer the proxy's addresses, never the record's, and any address is served.
   */
  proxied(provider: ProviderRow, domain: DomainRow): boolean;
  /**
   * `verifyEverySeconds`: DDNS_VERIFY_EVERY, 0 for never. `allowPrivateIps`: name servers at
   * internal addresses are asked for every provider, not only for one with its own server.
   */
  settings: {
    readonly resolvers: readonly ServerAddress[];
    readonly verifyEverySeconds: number;
    readonly allowPrivateIps: boolean;
  };
  log: Logger;
  /** Where `not_served` goes (the notifier). */
  events: Pick<EventSink, "notServed">;
  /** Reads the record at its service and writes the intended address back where it holds another (the update path). */
  repair?(request: RepairRequest): Promise<RepairResult>;
  clock?: PropagationClock;
  lookups?: Lookups;
}

/** What the scheduler drives. */
export interface PropagationRounds {
  /** Ms until the next ask is due (0: now), or null when none is waiting. */
  msUntilDue(): number | null;
  /** Starts the asks that are due; returns at once. */
  runDue(): void;
  /** Resolves once no ask is under way. */
  idle(): Promise<void>;
  /** Records known to hold an address that no write or scheduled check asks about: each is asked for as an unchanged record is. */
  held(records: readonly HeldRecord[]): void;
}

/** A domain's record and the address it is known to hold (several, for a domain with a list of sources). */
export type HeldRecord = Pick<DomainRow, "id" | "domainName" | "recordType" | "lastKnownIp"> &
  Partial<Pick<DomainRow, "addresses">>;

/** What a name server must answer: each address of the set, and none that the write removed. */
interface Expected {
  addresses: readonly string[];
  removed: readonly string[];
}

interface Watch {
  domainId: number;
  hostname: string;
  recordType: RecordType;
  /** The address the record must be served with (the first of `expected`). */
  address: string;
  /** Every address it must be served with, and those the write removed, which must be gone. */
  expected: Expected;
  /** The write's history row, which gets the outcome's words; null for a check of an unchanged record. */
  historyId: number | null;
  startedAt: number;
  nextAt: number;
  delayMs: number;
  running: boolean;
  /** Found at the first ask and kept for the watch (unless the zone's name servers were not found). */
  targets: Targets | null;
  /** Whether this watch asked for a repair already: one at most, so a lasting difference costs one read per check. */
  repairAsked: boolean;
}

/** The name servers a check asks; `found` false: looked for again at the next ask (the resolvers did not answer). */
interface Targets {
  list: NameServerTarget[];
  detail: string | null;
  found: boolean;
}

interface Known {
  hostname: string;
  recordType: RecordType;
  address: string;
  propagation: Propagation;
  /** When (monotonic) the write of this address began whose serving is awaited; null when none was seen. */
  writtenAt: number | null;
  /** The newest zone serial seen at a name server answering the address: older ones are behind. */
  servedSerial: number | null;
  /** The newest serial a name server answered another address at while the service held this one: lag, until served. */
  behindUpTo: number | null;
}

/** The detail of a proxied record's propagation. */
const PROXIED = "a proxied record: its name servers answer the proxy's addresses, not the record's";

const systemClock: PropagationClock = { monotonic: () => performance.now(), wall: () => Date.now() };

/** "3 s", "2 min", "2 min 5 s". */
export function spokenDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
}

/** Whether zone serial `a` is newer than `b`, in serial number arithmetic (RFC 1982: serials wrap at 2^32). */
export function newerSerial(a: number, b: number): boolean {
  return a !== b && (a - b) >>> 0 < 0x8000_0000;
}

/** served: every name server answers the address; pending: one that answers lags; unreachable: one gives no answer. */
export function stateOf(servers: readonly ServerReport[]): Exclude<PropagationState, "unknown"> {
  if (servers.length > 0 && servers.every((server) => server.ok)) return "served";
  if (servers.some((server) => !server.ok && server.error === null)) return "pending";
  return "unreachable";
}

/** "served by 1 of 2 name servers", with what each lagging one answers (the first five, then how many more). */
export function servedWords(propagation: Pick<Propagation, "servers" | "detail">): string {
  const { servers } = propagation;
  const served = servers.filter((server) => server.ok).length;
  const lagging = servers
    .filter((server) => !server.ok)
    .map((server) => {
      const who =
        server.address === null || server.address === server.name ? server.name : `${server.name} (${server.address})`;
      if (server.error !== null) return `${who} does not answer (${server.error})`;
      return server.answer.length === 0 ? `${who} answers no address` : `${who} answers ${server.answer.join(", ")}`;
    });
  const words = [
    `served by ${served} of ${servers.length} name server${servers.length === 1 ? "" : "s"}`,
    ...firstItems(lagging),
  ];
  if (propagation.detail !== null) words.push(propagation.detail);
  return words.join("; ");
}

export class PropagationTracker implements PropagationRounds, EventSink {
  private readonly watches = new Map<number, Watch>();
  private readonly known = new Map<number, Known>();
  /** Domains whose `not_served` went out, until they are served again. */
  private readonly notified = new Set<number>();
  private readonly rounds = new Set<Promise<void>>();
  /** Repairs asked for and not finished. */
  private readonly repairs = new Set<Promise<void>>();
  /** When (monotonic) each domain's record was last read at its service: its last write, or a DDNS_VERIFY_EVERY read. */
  private readonly readAt = new Map<number, number>();
  private readonly clock: PropagationClock;
  private readonly lookups: Lookups;
  /** Every check's sockets, together. */
  private readonly sockets = new Slots(MOST_SOCKETS);
  /** The zones' name servers the watches found, shared for a step; cleared when nothing is watched. */
  private readonly zones: ZoneCache<ZoneFound>;
  /** Counts every change to what is known, so answers served again until a write also see these. */
  changes = 0;
  /** Called when an ask falls due sooner than the scheduler planned (a new watch, an ask finished). */
  onDue: () => void = () => {};

  constructor(private readonly parts: PropagationParts) {
    this.clock = parts.clock ?? systemClock;
    this.lookups = parts.lookups ?? { findZoneServers, query };
    this.zones = new ZoneCache(() => this.clock.monotonic());
  }

  detected(): void {}

  /** A write succeeded: its record is watched from now, and its history row gets the outcome. */
  recorded({ before, outcome }: RecordedUpdate): void {
    if (outcome.result !== "updated" || outcome.ip === null) return;
    // The write read the record at its service: DDNS_VERIFY_EVERY counts from here.
    this.readAt.set(before.id, this.clock.monotonic());
    this.watch(before.id, outcome.hostname, outcome.recordType, outcome.ip, outcome.historyId, {
      addresses: outcome.addresses ?? [outcome.ip],
      removed: outcome.removed ?? [],
    });
  }

  /** A scheduled pass: each record found unchanged is asked for once more (and watched while it is not served). */
  passed(outcomes: readonly UpdateOutcome[]): void {
    for (const outcome of outcomes) {
      if (outcome.result === "unchanged" && outcome.ip !== null)
        this.watch(outcome.domainId, outcome.hostname, outcome.recordType, outcome.ip, null, {
          addresses: outcome.addresses ?? [outcome.ip],
          removed: [],
        });
    }
  }

  held(records: readonly HeldRecord[]): void {
    for (const record of records) {
      if (record.lastKnownIp !== null)
        this.watch(record.id, record.domainName, record.recordType, record.lastKnownIp, null, {
          addresses: record.addresses ?? [record.lastKnownIp],
          removed: [],
        });
    }
  }

  private watch(
    domainId: number,
    hostname: string,
    recordType: RecordType,
    ip: string,
    historyId: number | null,
    expected: Expected,
  ): void {
    const current = this.watches.get(domainId);
    // A check of an unchanged record while its write is still watched: the write's watch goes on.
    if (
      historyId === null &&
      current !== undefined &&
      sameAddress(current.address, ip) &&
      sameAddresses(current.expected.addresses, expected.addresses) &&
      current.hostname === hostname &&
      current.recordType === recordType
    )
      return;
    const now = this.clock.monotonic();
    this.watches.set(domainId, {
      domainId,
      hostname,
      recordType,
      address: ip,
      expected,
      historyId,
      startedAt: now,
      nextAt: now,
      delayMs: FIRST_DELAY_MS,
      running: false,
      targets: null,
      repairAsked: false,
    });
    this.onDue();
  }

  /** What is known of the record as the domain holds it now; unknown when it was not checked (or is another record now). */
  propagationOf(domain: Pick<DomainRow, "id" | "domainName" | "recordType" | "lastKnownIp">): Propagation {
    const known = this.known.get(domain.id);
    if (known === undefined || domain.lastKnownIp === null) return UNKNOWN;
    const same =
      known.hostname === domain.domainName &&
      known.recordType === domain.recordType &&
      sameAddress(known.address, domain.lastKnownIp);
    return same ? known.propagation : UNKNOWN;
  }

  msUntilDue(): number | null {
    if (this.rounds.size >= ROUNDS_AT_ONCE) return null; // a round that ends wakes the scheduler
    let earliest: number | null = null;
    for (const watch of this.watches.values()) {
      if (!watch.running && (earliest === null || watch.nextAt < earliest)) earliest = watch.nextAt;
    }
    return earliest === null ? null : Math.max(0, earliest - this.clock.monotonic());
  }

  runDue(): void {
    const now = this.clock.monotonic();
    for (const watch of this.watches.values()) {
      if (this.rounds.size >= ROUNDS_AT_ONCE) return;
      if (watch.running || watch.nextAt > now) continue;
      watch.running = true;
      const round = this.round(watch)
        .catch((error: unknown) => {
          this.parts.log.error("asking the name servers failed", {
            domain_id: watch.domainId,
            error: error instanceof Error ? error.message : String(error),
          });
          this.planNext(watch, this.clock.monotonic());
        })
        .finally(() => {
          watch.running = false;
          this.rounds.delete(round);
          this.onDue();
        });
      this.rounds.add(round);
    }
  }

  /** Resolves once no ask (nor a repair it asked for) is under way. */
  async idle(): Promise<void> {
    while (this.rounds.size + this.repairs.size > 0) await Promise.allSettled([...this.rounds, ...this.repairs]);
  }

  /** One ask of every name server of the watched record, and what follows from the answers. */
  private async round(watch: Watch): Promise<void> {
    const loaded = this.parts.store.domains.withProvider(watch.domainId);
    const domain = loaded?.domain;
    if (!loaded || !domain || domain.domainName !== watch.hostname || domain.recordType !== watch.recordType) {
      // Deleted, or another record now: nothing left to watch.
      this.drop(watch);
      if (!loaded) this.known.delete(watch.domainId);
      return;
    }
    // Found once per watch; looked for again at each ask while the resolvers did not answer.
    if (watch.targets === null || !watch.targets.found)
      watch.targets = await this.targets(loaded.provider, watch.hostname, watch.delayMs);
    const type = watch.recordType === "AAAA" ? TYPE.AAAA : TYPE.A;
    const proxied = this.parts.proxied(loaded.provider, domain);
    const ownServer = this.parts.nameServerOf(loaded.provider);
    const servers = await Promise.all(
      watch.targets.list.map((target) =>
        this.ask(target, watch.hostname, type, proxied ? null : watch.expected, ownServer),
      ),
    );
    if (this.watches.get(watch.domainId) !== watch) return; // a newer write took over meanwhile
    const now = this.clock.monotonic();
    const state = stateOf(servers);
    const before = this.known.get(watch.domainId);
    const sameRecord =
      before !== undefined &&
      sameAddress(before.address, watch.address) &&
      before.hostname === watch.hostname &&
      before.recordType === watch.recordType;
    // How long after the write every name server answered: kept from the write until it is served,
    // also when that takes longer than the write's watch.
    const writtenAt = watch.historyId !== null ? watch.startedAt : sameRecord ? before.writtenAt : null;
    const servedAfterMs =
      state !== "served"
        ? null
        : watch.historyId === null && sameRecord && before.propagation.servedAfterMs !== null
          ? before.propagation.servedAfterMs
          : writtenAt !== null
            ? Math.round(now - writtenAt)
            : null;
    const detail = proxied ? [PROXIED, watch.targets.detail].filter(Boolean).join("; ") : watch.targets.detail;
    const propagation: Propagation = { state, servers, checkedAt: this.clock.wall(), servedAfterMs, detail };
    const known: Known = {
      hostname: watch.hostname,
      recordType: watch.recordType,
      address: watch.address,
      propagation,
      writtenAt,
      servedSerial: sameRecord ? before.servedSerial : null,
      // A write makes every earlier serial old (from its first ask on); once served, none lags any more.
      behindUpTo:
        sameRecord && state !== "served" && (watch.historyId === null || before.writtenAt === watch.startedAt)
          ? before.behindUpTo
          : null,
    };
    this.known.set(watch.domainId, known);
    await this.weigh(watch, known, servers, proxied);
    this.changes++;
    if (state === "served") {
      this.notified.delete(watch.domainId);
      if (watch.historyId !== null)
        this.conclude(
          watch,
          `served by ${servers.length} of ${servers.length} name server${servers.length === 1 ? "" : "s"} after ${spokenDuration(now - watch.startedAt)}`,
        );
      this.drop(watch);
      return;
    }
    if (now - watch.startedAt >= WATCH_MS) {
      const words = `not served after ${spokenDuration(WATCH_MS)}: ${servedWords(propagation)}`;
      if (watch.historyId !== null) this.conclude(watch, words);
      // Said once per streak (each check watches the record again): at warn with the event, then at debug.
      const first = !this.notified.has(watch.domainId);
      this.parts.log[first ? "warn" : "debug"]("record not served by every name server", {
        domain_id: watch.domainId,
        domain: watch.hostname,
        type: watch.recordType,
        state,
        detail: words,
      });
      if (first) {
        this.notified.add(watch.domainId);
        this.parts.events.notServed?.({
          domainId: watch.domainId,
          hostname: watch.hostname,
          recordType: watch.recordType,
          providerId: domain.providerId,
          ip: watch.address,
          message: words,
        });
      }
      this.drop(watch);
      return;
    }
    this.planNext(watch, now);
  }

  /**
   * Whether the answers show the record changed outside ddnsd, or (no name server answered) its
   * DDNS_VERIFY_EVERY read is due: either asks the update path for a repair, once per watch.
   */
  private async weigh(watch: Watch, known: Known, servers: readonly ServerReport[], proxied: boolean): Promise<void> {
    const repair = this.parts.repair;
    if (repair === undefined || watch.repairAsked || watch.targets === null) return;
    const targets = watch.targets.list;
    const others = servers.flatMap((server, i) => (!server.ok && server.error === null ? [i] : []));
    if (others.length === 0) {
      const verifyMs = this.parts.settings.verifyEverySeconds * 1000;
      const last = this.readAt.get(watch.domainId);
      const now = this.clock.monotonic();
      if (verifyMs === 0 || servers.some((server) => server.error === null)) return;
      if (last !== undefined && now - last < verifyMs) return;
      this.readAt.set(watch.domainId, now);
      this.askRepair(watch, known, repair, { domainId: watch.domainId, address: watch.address, seen: null }, []);
      return;
    }
    // A proxied record's name servers answer the proxy's addresses: they tell nothing of its own.
    if (proxied) return;
    // Only while some name server answers another address: the zone's serial at each that answers.
    const serials = await Promise.all(
      servers.map((server, i) => (server.error === null ? this.serialAt(targets[i]!, watch.hostname) : null)),
    );
    if (this.watches.get(watch.domainId) !== watch) return;
    for (const [i, server] of servers.entries()) {
      const serial = serials[i];
      if (server.ok && serial != null && (known.servedSerial === null || newerSerial(serial, known.servedSerial)))
        known.servedSerial = serial;
    }
    const behind = (serial: number | null | undefined) =>
      serial != null &&
      ((known.servedSerial !== null && newerSerial(known.servedSerial, serial)) ||
        (known.behindUpTo !== null && !newerSerial(serial, known.behindUpTo)));
    const drifted = others.filter((i) => !behind(serials[i]));
    if (drifted.length === 0) return;
    const seen = [...new Set(drifted.flatMap((i) => servers[i]!.answer))];
    const at = drifted.map((i) => serials[i] ?? null);
    this.askRepair(watch, known, repair, { domainId: watch.domainId, address: watch.address, seen }, at);
  }

  /** Asks for the repair; where the service holds the address, the serials the differing answers came at are lag. */
  private askRepair(
    watch: Watch,
    known: Known,
    repair: NonNullable<PropagationParts["repair"]>,
    request: RepairRequest,
    serials: readonly (number | null)[],
  ): void {
    watch.repairAsked = true;
    this.parts.log.info(request.seen === null ? "reading the record at its service" : "record changed outside ddnsd", {
      domain_id: watch.domainId,
      domain: watch.hostname,
      type: watch.recordType,
      expected: watch.address,
      answered: request.seen === null ? undefined : request.seen.join(", ") || "no address",
    });
    const asked = repair(request)
      .then((result) => {
        if (result !== "held" || this.known.get(watch.domainId) !== known) return;
        for (const serial of serials) {
          if (serial !== null && (known.behindUpTo === null || newerSerial(serial, known.behindUpTo)))
            known.behindUpTo = serial;
        }
      })
      .catch((error: unknown) => {
        this.parts.log.error("repairing the record failed", {
          domain_id: watch.domainId,
          error: error instanceof Error ? error.message : String(error),
        });
      })
      .finally(() => this.repairs.delete(asked));
    this.repairs.add(asked);
  }

  /** The zone's SOA serial as one name server answers it (the hostname's own SOA, or its zone's in the authority section); null when it gives none. */
  private async serialAt(target: NameServerTarget, hostname: string): Promise<number | null> {
    if (target.server === null) return null;
    const answer = await this.lookups.query(target.server, hostname, TYPE.SOA, {
      recursion: false,
      sockets: this.sockets,
    });
    if (!answer.ok || !answer.message.aa) return null;
    const record = [...answer.message.answers, ...answer.message.authorities].find((r) => r.type === TYPE.SOA);
    if (record === undefined) return null;
    try {
      return soaData(record, answer.bytes).serial;
    } catch {
      return null; // an SOA that does not read: no serial to go by
    }
  }

  /** The next ask after the backoff, and the last one at the end of the 10 minutes. */
  private planNext(watch: Watch, now: number): void {
    const end = watch.startedAt + WATCH_MS;
    const due = now + watch.delayMs;
    const onBeat = watch.delayMs >= BEAT_MS ? Math.ceil(due / BEAT_MS) * BEAT_MS : due;
    watch.nextAt = Math.min(onBeat, end);
    watch.delayMs = Math.min(watch.delayMs * 2, LONGEST_DELAY_MS);
  }

  private drop(watch: Watch): void {
    if (this.watches.get(watch.domainId) === watch) this.watches.delete(watch.domainId);
    if (this.watches.size === 0) this.zones.clear();
  }

  /** The write's history row ends with what the name servers came to. */
  private conclude(watch: Watch, words: string): void {
    if (watch.historyId === null) return;
    try {
      this.parts.store.history.appendToMessage(watch.historyId, `; ${words}`);
    } catch (error) {
      // A full disk or a closed database: the state is still shown; only the row keeps its words.
      this.parts.log.warn("the history row could not be completed", {
        history_id: watch.historyId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
    this.parts.log.info("name servers asked", {
      domain_id: watch.domainId,
      domain: watch.hostname,
      type: watch.recordType,
      result: words,
    });
  }

  /**
   * The zone's name servers and the service's own server, each address once, MOST_SERVERS at most.
   * What the search finds is shared with the other watches for this watch's step (`stepMs`, at most
   * a beat): records of one zone, or resolvers that do not answer, cost one search a step.
   */
  private async targets(provider: ProviderRow, hostname: string, stepMs: number): Promise<Targets> {
    const resolvers = this.parts.settings.resolvers;
    const [zone, configured] = await Promise.all([
      this.lookups.findZoneServers(resolvers, hostname, {
        most: MOST_SERVERS,
        sockets: this.sockets,
        shared: { cache: this.zones, holdMs: Math.min(stepMs, BEAT_MS) },
      }),
      this.configuredServer(provider),
    ]);
    const sameAs = (a: ServerAddress | null, b: ServerAddress | null) =>
      a !== null && b !== null && a.host === b.host && a.port === b.port;
    const found = zone.ok ? zone.servers : [];
    const own = configured !== null && !found.some((target) => sameAs(target.server, configured.server));
    const list = [...found.slice(0, MOST_SERVERS - (own ? 1 : 0)), ...(own && configured ? [configured] : [])];
    if (!zone.ok)
      return {
        list,
        found: false,
        detail:
          list.length > 0
            ? `only the service's server was asked: ${zone.reason}`
            : `the zone's name servers were not found: ${zone.reason}`,
      };
    const named = Math.max(zone.named ?? 0, zone.servers.length);
    const asked = list.length - (own ? 1 : 0);
    return {
      list,
      found: true,
      detail:
        named > asked
          ? `${asked} of the zone's ${named} name servers asked (at most ${MOST_SERVERS}, one per address)`
          : null,
    };
  }

  /** The server the provider's service writes to, its name resolved through the resolvers when it is not an address. */
  private async configuredServer(provider: ProviderRow): Promise<NameServerTarget | null> {
    const text = this.parts.nameServerOf(provider);
    if (text === null) return null;
    const server = parseServer(text);
    if (typeof server === "string") return null;
    if (isIP(server.host) !== 0) return { name: formatServer(server), server };
    for (const type of [TYPE.A, TYPE.AAAA]) {
      for (const resolver of this.parts.settings.resolvers) {
        const found = await this.lookups.query(resolver, server.host, type, { recursion: true, sockets: this.sockets });
        const address = found.ok ? addressesIn(found.message, server.host, type)[0] : undefined;
        if (address !== undefined) return { name: formatServer(server), server: { host: address, port: server.port } };
      }
    }
    return { name: formatServer(server), server: null };
  }

  /**
   * Asks one name server for the record, without recursion: it serves the record when it answers each
   * address `expected` and none it removed (addresses someone else added may stand beside them);
   * `expected` null: any address is the record's (a proxied one). One at an internal address is
   * asked only as `mayAskNameServer` allows.
   */
  private async ask(
    target: NameServerTarget,
    hostname: string,
    type: number,
    expected: Expected | null,
    ownServer: string | null,
  ): Promise<ServerReport> {
    const report = (fields: Pick<ServerReport, "answer" | "ok" | "error">): ServerReport => ({
      name: target.name,
      address: target.server === null ? null : formatServer(target.server),
      ...fields,
    });
    if (target.server === null) return report({ answer: [], ok: false, error: "no address found for it" });
    if (!mayAskNameServer(target.server.host, ownServer, this.parts.settings.allowPrivateIps))
      return report({
        answer: [],
        ok: false,
        error: "not asked: a loopback, private, link-local or CGNAT address (DDNS_ALLOW_PRIVATE_IPS)",
      });
    const answer = await this.lookups.query(target.server, hostname, type, { recursion: false, sockets: this.sockets });
    if (!answer.ok) return report({ answer: [], ok: false, error: answer.reason });
    const { rcode, aa } = answer.message;
    if (rcode !== RCODE.NOERROR && rcode !== RCODE.NXDOMAIN)
      return report({ answer: [], ok: false, error: rcodeName(rcode) });
    if (!aa) return report({ answer: [], ok: false, error: "not authoritative for the zone" });
    const addresses = addressesIn(answer.message, hostname, type);
    const answers = (address: string) => addresses.some((served) => sameAddress(served, address));
    const ok =
      expected === null ? addresses.length > 0 : expected.addresses.every(answers) && !expected.removed.some(answers);
    return report({ answer: addresses, ok, error: null });
  }

  /** Each record's served state as far as it is known and still the domain's: the `ddnsd_record_served` gauge. */
  servedRecords(): { domain: string; recordType: RecordType; served: boolean }[] {
    const records: { domain: string; recordType: RecordType; served: boolean }[] = [];
    for (const domain of this.parts.store.domains.list()) {
      const { state } = this.propagationOf(domain);
      if (state !== "unknown")
        records.push({ domain: domain.domainName, recordType: domain.recordType, served: state === "served" });
    }
    return records;
  }
}
