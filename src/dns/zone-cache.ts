// What the zone searches of one kind (the live checks', updater/propagation.ts) share for a short
// while, so that 20 records of one zone asked at once cost the resolvers one search of the zone, not
// 20: a zone's name servers once found (for their NS TTL, at most the hold the caller gives), and
// that no resolver answered at all (for that hold). Each hostname's own NS question is still asked
// (it may be a zone of its own, delegated); only the questions past it are shared. Entries end with
// their hold, and the owner clears the cache when nothing needs it any more: bounded by the zones
// being watched, never more than MOST_ZONES.

/** The most zones held at once; past it the oldest goes. */
const MOST_ZONES = 256;

/** `Found`: a zone search's result (lookup.ts, ZoneServers found), named by its zone. */
export class ZoneCache<Found extends { zone: string }> {
  private readonly zones = new Map<string, { found: Found; until: number }>();
  /** Why no resolver answered, until when (monotonic ms). */
  private down: { reason: string; until: number } | null = null;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The name servers found for `zone` while they are held. */
  zone(zone: string): Found | undefined {
    const entry = this.zones.get(zone);
    if (entry === undefined) return undefined;
    if (entry.until > this.now()) return entry.found;
    this.zones.delete(zone);
    return undefined;
  }

  /** Holds a zone's name servers for `ttlSeconds` (their NS records' TTL), at most `holdMs`. */
  keepZone(found: Found, ttlSeconds: number, holdMs: number): void {
    const now = this.now();
    for (const [zone, entry] of this.zones) if (entry.until <= now) this.zones.delete(zone);
    this.zones.delete(found.zone);
    if (this.zones.size >= MOST_ZONES) this.zones.delete(this.zones.keys().next().value as string);
    this.zones.set(found.zone, { found, until: now + Math.min(ttlSeconds * 1000, holdMs) });
  }

  /** Why no resolver answered, while that is held; null when they are asked. */
  resolversDown(): string | null {
    if (this.down === null) return null;
    if (this.down.until > this.now()) return this.down.reason;
    this.down = null;
    return null;
  }

  /** No resolver answered (refused, silent, unreadable): they are not asked again for `holdMs`. */
  keepResolversDown(reason: string, holdMs: number): void {
    this.down = { reason, until: this.now() + holdMs };
  }

  /** A resolver answered: the next question goes to them again. */
  resolversUp(): void {
    this.down = null;
  }

  clear(): void {
    this.zones.clear();
    this.down = null;
  }
}
