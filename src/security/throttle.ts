// Sign-in throttling (docs/api.md, limits), shared by the API login and the admin sign-in page. Two
// counts, both checked before any password is:
// - per client address and username: after 5 failed sign-ins in a row for one username from one
//   address, that pair is refused for 1 s, doubling with each further failure up to 15 minutes; a
//   success clears that username's count only, so signing in to one's own account between guesses
//   at another's gains nothing;
// - per client address across usernames: 20 failures within 15 minutes refuse the address for every
//   username until the oldest of them is 15 minutes old, whatever succeeded in between, so spreading
//   guesses over many usernames gains nothing either.
// The client address is the socket's, or the first X-Forwarded-For entry when the socket's address
// is a trusted proxy (DDNS_TRUSTED_PROXIES); an IPv6 client is counted by its /64, the network one
// subscriber is given, so that stepping through its addresses gains no guesses. Wrong update keys
// (the router push), wrong certificate keys and wrong API tokens are counted the same way (with no
// username), each apart from sign-ins.

import { inNetworks, ipv6Literal, ipv6Value, type Network } from "../net/address";

const FREE_FAILURES = 5;
const FIRST_PAUSE_MS = 1_000;
const LONGEST_PAUSE_MS = 15 * 60_000;
/** One address's failures across usernames: at most this many within the window. */
const ADDRESS_FAILURES = 20;
const ADDRESS_WINDOW_MS = 15 * 60_000;
/** Counts remembered at once (of each kind); past it the oldest idle ones are forgotten first. */
const ADDRESSES_KEPT = 10_000;

export function throttledMessage(seconds: number): string {
  return `Too many failed sign-ins; try again in ${seconds} s`;
}

/** What a client's failures are counted by: its IPv4 address (an IPv4-mapped one too), or its IPv6 /64. */
export function throttledClient(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined) return mapped;
  const value = ipv6Value(address);
  return value === null ? address : `${ipv6Literal((value >> 64n) << 64n)}/64`;
}

/** What is being guessed: the counts of the two are kept apart. */
export type Guessed = "password" | "update key" | "certificate key" | "API token";

interface Failures {
  count: number;
  /** Refused until then (ms since the epoch); 0 while under the free failures. */
  refusedUntil: number;
}

/** Forgets the oldest entry of `map` (its order is oldest activity first) once it holds too many. */
function bounded<V>(map: Map<string, V>): void {
  if (map.size > ADDRESSES_KEPT) map.delete(map.keys().next().value!);
}

export class SignInThrottle {
  /** The socket's address of each request being served (server.ts records it; tests have none). */
  private readonly peers = new WeakMap<Request, string>();
  /** Failures in a row per client address and username. */
  private readonly failures = new Map<string, Failures>();
  /** Each client address's failures across usernames: when each happened, within the window. */
  private readonly recent = new Map<string, number[]>();
  /** Each client's attempt in progress: one at a time, so each sees the outcome of the one before. */
  private readonly inProgress = new Map<string, Promise<unknown>>();

  constructor(
    private readonly trustedProxies: readonly Network[],
    private readonly now: () => number = Date.now,
  ) {}

  rememberPeer(request: Request, address: string | null): void {
    if (address !== null) this.peers.set(request, address);
  }

  /** A request rebuilt from another (its path under DDNS_BASE_PATH cut off) came from the same socket. */
  samePeer(from: Request, to: Request): void {
    this.rememberPeer(to, this.peers.get(from) ?? null);
  }

  /** The socket's address, unless a trusted proxy sent the request on behalf of someone else. */
  private peerAddress(request: Request): string {
    return this.peers.get(request) ?? "unknown";
  }

  /** Whether the request came through a trusted proxy (whose X-Forwarded-* headers count). */
  viaTrustedProxy(request: Request): boolean {
    return inNetworks(this.peerAddress(request), this.trustedProxies);
  }

  clientAddress(request: Request): string {
    const peer = this.peerAddress(request);
    if (!this.viaTrustedProxy(request)) return peer;
    const first = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    return first ? first : peer;
  }

  /**
   * Runs `check` (the password or update key check) unless the client is refused: `refused` is the
   * seconds it must still wait; `failures`, the failures in a row of this username from this
   * address so far. `username` is what is signed in to ("" where nothing is named, as with an
   * update key). A client address's attempts run one after another, whatever the username, so a
   * burst of guesses is refused as soon as the count allows no more, not all checked side by side.
   */
  attempt(
    address: string,
    check: () => Promise<boolean>,
    guessed: Guessed = "password",
    username = "",
  ): Promise<{ ok: boolean; refused: number | null; pausedMs: number; failures: number }> {
    const client = `${guessed} ${throttledClient(address)}`;
    const account = `${client} ${username.toLowerCase()}`;
    const previous = this.inProgress.get(client) ?? Promise.resolve();
    const run = previous.then(async () => {
      const failures = () => this.failures.get(account)?.count ?? 0;
      const refused = this.refusedFor(client, account);
      if (refused !== null) return { ok: false, refused, pausedMs: 0, failures: failures() };
      const ok = await check();
      if (ok) this.failures.delete(account);
      const pausedMs = ok ? 0 : this.failed(client, account);
      return { ok, refused: null, pausedMs, failures: failures() };
    });
    const tail = run.catch(() => undefined);
    this.inProgress.set(client, tail);
    void tail.then(() => {
      if (this.inProgress.get(client) === tail) this.inProgress.delete(client);
    });
    return run;
  }

  /** The address's failures still within the window, oldest first. */
  private recentFailures(client: string): number[] {
    const since = this.now() - ADDRESS_WINDOW_MS;
    const times = (this.recent.get(client) ?? []).filter((at) => at > since);
    if (times.length === 0) this.recent.delete(client);
    return times;
  }

  /** Until when (ms since the epoch) the address is refused for every username; 0 while it is not. */
  private addressRefusedUntil(times: readonly number[]): number {
    return times.length >= ADDRESS_FAILURES ? times[times.length - ADDRESS_FAILURES]! + ADDRESS_WINDOW_MS : 0;
  }

  /** Seconds the client must still wait, or null when it may try a password now. */
  private refusedFor(client: string, account: string): number | null {
    const until = Math.max(
      this.failures.get(account)?.refusedUntil ?? 0,
      this.addressRefusedUntil(this.recentFailures(client)),
    );
    const left = until - this.now();
    return left > 0 ? Math.ceil(left / 1000) : null;
  }

  /** Counts a failure for both counts; returns the pause it starts (ms), 0 while under both limits. */
  private failed(client: string, account: string): number {
    const now = this.now();
    const entry = this.failures.get(account) ?? { count: 0, refusedUntil: 0 };
    this.failures.delete(account); // re-inserted last: the map's order is oldest activity first
    entry.count++;
    const pause =
      entry.count < FREE_FAILURES ? 0 : Math.min(FIRST_PAUSE_MS * 2 ** (entry.count - FREE_FAILURES), LONGEST_PAUSE_MS);
    if (pause > 0) entry.refusedUntil = now + pause;
    this.failures.set(account, entry);
    bounded(this.failures);

    // The window never needs more than its last ADDRESS_FAILURES entries.
    const times = [...this.recentFailures(client), now].slice(-ADDRESS_FAILURES);
    this.recent.delete(client);
    this.recent.set(client, times);
    bounded(this.recent);
    return Math.max(pause, this.addressRefusedUntil(times) - now);
  }
}
