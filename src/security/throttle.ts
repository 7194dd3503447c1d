// Sign-in throttling (docs/api.md, limits), shared by the API login and the admin sign-in page: after 5
// failed sign-ins in a row from one client address, that address is refused for 1 s, doubling with
// each further failure up to 15 minutes. A refused attempt checks no password; a success resets.
// The client address is the socket's, or the first X-Forwarded-For entry when the socket's address
// is a trusted proxy (DDNS_TRUSTED_PROXIES); an IPv6 client is counted by its /64, the network one
// subscriber is given, so that stepping through its addresses gains no guesses. Wrong update keys
// (the router push) and wrong API tokens are counted the same way, each apart from sign-ins.

import { inNetworks, ipv6Literal, ipv6Value, type Network } from "../ip/detect";

const FREE_FAILURES = 5;
const FIRST_PAUSE_MS = 1_000;
const LONGEST_PAUSE_MS = 15 * 60_000;
/** Addresses remembered at once; past it the oldest idle ones are forgotten first. */
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
export type Guessed = "password" | "update key" | "API token";

interface Failures {
  count: number;
  /** Refused until then (ms since the epoch); 0 while under the free failures. */
  refusedUntil: number;
}

export class SignInThrottle {
  /** The socket's address of each request being served (server.ts records it; tests have none). */
  private readonly peers = new WeakMap<Request, string>();
  private readonly failures = new Map<string, Failures>();
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
   * seconds it must still wait; `failures`, the client's failures in a row so far. A client's attempts run one after another, so a burst of guesses from one address
   * is refused as soon as its fifth fails, not all checked side by side.
   */
  attempt(
    address: string,
    check: () => Promise<boolean>,
    guessed: Guessed = "password",
  ): Promise<{ ok: boolean; refused: number | null; pausedMs: number; failures: number }> {
    const client = `${guessed} ${throttledClient(address)}`;
    const previous = this.inProgress.get(client) ?? Promise.resolve();
    const run = previous.then(async () => {
      const refused = this.refusedFor(client);
      if (refused !== null) return { ok: false, refused, pausedMs: 0, failures: this.failures.get(client)?.count ?? 0 };
      const ok = await check();
      if (ok) this.succeeded(client);
      const pausedMs = ok ? 0 : this.failed(client);
      return { ok, refused: null, pausedMs, failures: this.failures.get(client)?.count ?? 0 };
    });
    const tail = run.catch(() => undefined);
    this.inProgress.set(client, tail);
    void tail.then(() => {
      if (this.inProgress.get(client) === tail) this.inProgress.delete(client);
    });
    return run;
  }

  /** Seconds the client must still wait, or null when it may try a password now. */
  private refusedFor(client: string): number | null {
    const entry = this.failures.get(client);
    const left = entry === undefined ? 0 : entry.refusedUntil - this.now();
    return left > 0 ? Math.ceil(left / 1000) : null;
  }

  /** Counts a failure; returns the pause it starts (ms), 0 while under the free failures. */
  private failed(client: string): number {
    const entry = this.failures.get(client) ?? { count: 0, refusedUntil: 0 };
    this.failures.delete(client); // re-inserted last: the map's order is oldest activity first
    entry.count++;
    const pause =
      entry.count < FREE_FAILURES ? 0 : Math.min(FIRST_PAUSE_MS * 2 ** (entry.count - FREE_FAILURES), LONGEST_PAUSE_MS);
    if (pause > 0) entry.refusedUntil = this.now() + pause;
    this.failures.set(client, entry);
    if (this.failures.size > ADDRESSES_KEPT) this.failures.delete(this.failures.keys().next().value!);
    return pause;
  }

  private succeeded(client: string): void {
    this.failures.delete(client);
  }
}
