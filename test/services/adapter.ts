// What the end-to-end suite and the services bench need to know about one DNS service, and nothing
// else: how to start its fake and point a provider at it, the credentials it accepts (and some it
// refuses), how to put a record (or a dynamic host) there and read it back, and how the service
// says "failed", "wrong credentials" and "slow down" in its own words. Each service's adapter is
// its own file in test/services/adapters/, exporting `adapter`; adapters.ts collects them.

import type { RecordType } from "../../src/dns/provider";
import { apiUrlSetting } from "../../src/dns/registry";
import type { FakeServer, LoggedRequest } from "../fakes/server";

/** A way the service answers that the test arranges before a call, and the words it must leave in the history. */
export interface Answer<Fake> {
  arrange(fake: Fake): void;
  words: RegExp;
}

/** The services that keep records in zones the account holds (read, then write only what differs). */
export interface ZoneAccess<Fake> {
  addZone(fake: Fake, zone: string): void;
  /** `hostname` is the full name; the adapter turns it into the service's name inside `zone`. */
  addRecord(fake: Fake, zone: string, hostname: string, type: RecordType, ip: string, ttl: number): void;
  /** For a service that keeps a name's addresses as one set (an rrset): puts a set of several there. */
  addSet?(fake: Fake, zone: string, hostname: string, type: RecordType, ips: readonly string[], ttl: number): void;
  /**
   * Every address the name holds in that type, as the fake keeps them: for a service whose
   * description says `holdsAddressSets` (several addresses for one name, written as one set).
   */
  readAll?(fake: Fake, zone: string, hostname: string, type: RecordType): string[];
  /** The record's one address and TTL as the fake holds it; undefined when there is none. */
  read(fake: Fake, zone: string, hostname: string, type: RecordType): { ip: string; ttl: number | null } | undefined;
  /**
   * A zone id in the service's own form that names no zone of the account any more (a zone deleted
   * since it was saved), where the zone's name is not its id: what `config.zone_id` holds when it has
   * gone stale. Null where a zone id the service does not know is refused, not looked up afresh.
   */
  goneZoneId?: string | null;
  /** A TTL the service accepts, for records the test puts there (deSEC's domains refuse below 3600). */
  ttl: number;
  /** The TTL the service keeps when it is sent `ttl`, where it does not keep every value (Linode rounds). */
  storedTtl?(ttl: number): number;
  /** The name's TXT values at the fake, for a service whose description says `holdsTxt`. */
  txt?: TxtAccess<Fake>;
}

/** A zone's TXT values as the fake holds them (`name` the full name), unquoted. */
export interface TxtAccess<Fake> {
  /** Puts `value` among the name's TXT values, as someone else (another tool, a person) would. */
  add(fake: Fake, zone: string, name: string, value: string): void;
  /** The name's TXT values, in any order; [] when it has none. */
  values(fake: Fake, zone: string, name: string): string[];
}

export interface ServiceAdapter<Fake extends FakeServer<any> = FakeServer<any>> {
  type: string;
  start(): Fake;
  /** Back to a fresh service between tests (same port). */
  reset(fake: Fake): void;
  /** Settings for the app: `DDNS_<TYPE>_API_URL` for the services that have one. */
  env(fake: Fake): Record<string, string>;
  /** The provider's `options` (dyndns2's `server`, custom's `url`). */
  options(fake: Fake): Record<string, unknown> | undefined;
  credentials: Record<string, string>;
  /** Credentials the service refuses, and what it says. */
  badCredentials: Record<string, string>;
  badCredentialsWords: RegExp;
  /** Whether the client gives up on refused credentials until the provider is edited (services ban clients that keep trying). */
  stopsOnBadCredentials: boolean;
  recordTypes: readonly RecordType[];
  /** Where the ordinary test record lives. */
  hostname: string;
  /** Makes `hostname type` exist at the service, holding `ip`. */
  seed(fake: Fake, hostname: string, type: RecordType, ip: string): void;
  /** The address the service publishes for `hostname type`; undefined when none. */
  address(fake: Fake, hostname: string, type: RecordType): string | undefined;
  /** Whether a write finds a zone (or Namecheap's registered domain) to save as `config.zone_id`. */
  findsZone: boolean;
  /** Requests that change something at the service. */
  isWrite(request: LoggedRequest): boolean;
  /** A failure in the service's own words (not credentials, not throttling). */
  failure: Answer<Fake>;
  /** The service's "slow down", answered to every request until `clearFaults()`, and the shortest pause it asks for. */
  throttle: Answer<Fake> & { pauseSeconds: number };
  /** For a service that can check credentials: what a refused check says. Null: verify answers `ok: null`. */
  verifyRefusal: RegExp | null;
  zone?: ZoneAccess<Fake>;
}

/** The zone every zone service's ordinary record sits in. */
export const ZONE = "example.com";

export function define<Fake extends FakeServer<any>>(adapter: ServiceAdapter<Fake>): ServiceAdapter<Fake> {
  return adapter;
}

/** A zone adapter's `seed`/`address`, for records in `ZONE`. */
export function inZone<Fake>(zone: ZoneAccess<Fake>) {
  return {
    findsZone: true,
    seed(fake: Fake, hostname: string, type: RecordType, ip: string) {
      zone.addZone(fake, ZONE);
      zone.addRecord(fake, ZONE, hostname, type, ip, zone.ttl);
    },
    address: (fake: Fake, hostname: string, type: RecordType) => zone.read(fake, ZONE, hostname, type)?.ip,
    zone,
  };
}

/** `home` for `home.example.com` in `example.com`; `apex` for the zone itself. */
export function relative(hostname: string, zone: string, apex: string): string {
  return hostname === zone ? apex : hostname.slice(0, -(zone.length + 1));
}

export const apiUrl = (type: string) => (fake: FakeServer<unknown>) => ({ [apiUrlSetting(type)]: fake.url });
export const noOptions = () => undefined;
/** Every request of a one-shot service writes (it cannot read). */
export const everyRequest = () => true;
const WRITE_METHODS = new Set(["POST", "PATCH", "PUT", "DELETE"]);
export const writeMethod = (request: LoggedRequest) => WRITE_METHODS.has(request.method);

export function clear(fake: FakeServer<unknown>): void {
  fake.clearFaults();
  fake.clearRequests();
}
