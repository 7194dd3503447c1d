// What the end-to-end suite needs to know about each of the ten new services, and nothing else: how
// to start its fake and point a provider at it, the credentials it accepts (and some it refuses), how
// to put a record (or a dynamic host) there and read it back, and how the service says "failed",
// "wrong credentials" and "slow down" in its own words. One adapter per service; the suite is one table.

import type { RecordType } from "../../src/dns/provider";
import { apiUrlSetting } from "../../src/dns/registry";
import { BUNNY_FAKE_API_KEY, startBunnyFake, type BunnyFake } from "../fakes/bunny";
import { startCustomFake, type CustomFake } from "../fakes/custom";
import { DESEC_FAKE_TOKEN, startDesecFake, type DesecFake } from "../fakes/desec";
import { DIGITALOCEAN_FAKE_TOKEN, startDigitalOceanFake, type DigitalOceanFake } from "../fakes/digitalocean";
import { DNSIMPLE_FAKE_ACCOUNT, DNSIMPLE_FAKE_TOKEN, startDnsimpleFake, type DnsimpleFake } from "../fakes/dnsimple";
import { DUCKDNS_FAKE_TOKEN, startDuckDnsFake, type DuckDnsFake } from "../fakes/duckdns";
import { DYNDNS2_FAKE_PASSWORD, DYNDNS2_FAKE_USER, startDyndns2Fake, type Dyndns2Fake } from "../fakes/dyndns2";
import { GANDI_FAKE_TOKEN, startGandiFake, type GandiFake } from "../fakes/gandi";
import { HETZNER_FAKE_TOKEN, startHetznerFake, type HetznerFake } from "../fakes/hetzner";
import { LINODE_FAKE_TOKEN, linodeTtl, startLinodeFake, type LinodeFake } from "../fakes/linode";
import { NAMECOM_FAKE_TOKEN, NAMECOM_FAKE_USERNAME, startNamecomFake, type NamecomFake } from "../fakes/namecom";
import { NAMECHEAP_FAKE_PASSWORD, startNamecheapFake, type NamecheapFake } from "../fakes/namecheap";
import { PORKBUN_FAKE_API_KEY, PORKBUN_FAKE_SECRET, startPorkbunFake, type PorkbunFake } from "../fakes/porkbun";
import { ROUTE53_FAKE_ACCESS_KEY_ID, ROUTE53_FAKE_SECRET, startRoute53Fake, type Route53Fake } from "../fakes/route53";
import type { FakeServer, LoggedRequest } from "../fakes/server";
import { startVultrFake, VULTR_FAKE_API_KEY, type VultrFake } from "../fakes/vultr";

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
  /** The record's one address and TTL as the fake holds it; undefined when there is none. */
  read(fake: Fake, zone: string, hostname: string, type: RecordType): { ip: string; ttl: number | null } | undefined;
  /** A TTL the service accepts, for records the test puts there (deSEC's domains refuse below 3600). */
  ttl: number;
  /** The TTL the service keeps when it is sent `ttl`, where it does not keep every value (Linode rounds). */
  storedTtl?(ttl: number): number;
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

function define<Fake extends FakeServer<any>>(adapter: ServiceAdapter<Fake>): ServiceAdapter<Fake> {
  return adapter;
}

/** A zone adapter's `seed`/`address`, for records in `ZONE`. */
function inZone<Fake>(zone: ZoneAccess<Fake>) {
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
function relative(hostname: string, zone: string, apex: string): string {
  return hostname === zone ? apex : hostname.slice(0, -(zone.length + 1));
}

const apiUrl = (type: string) => (fake: FakeServer<unknown>) => ({ [apiUrlSetting(type)]: fake.url });
const noOptions = () => undefined;
/** Every request of a one-shot service writes (it cannot read). */
const everyRequest = () => true;
const WRITE_METHODS = new Set(["POST", "PATCH", "PUT", "DELETE"]);
const writeMethod = (request: LoggedRequest) => WRITE_METHODS.has(request.method);

function clear(fake: FakeServer<unknown>): void {
  fake.clearFaults();
  fake.clearRequests();
}

export const duckdns = define<DuckDnsFake>({
  type: "duckdns",
  start: startDuckDnsFake,
  reset(fake) {
    fake.domains.clear();
    clear(fake);
  },
  env: apiUrl("duckdns"),
  options: noOptions,
  credentials: { token: DUCKDNS_FAKE_TOKEN },
  badCredentials: { token: "00000000-0000-4000-8000-000000000000" },
  badCredentialsWords: /^DuckDNS: KO — the token is wrong/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.duckdns.org",
  seed(fake, hostname, type, ip) {
    const name = hostname.replace(/\.duckdns\.org$/, "");
    const domain = fake.domains.get(name) ?? fake.addDomain(name);
    domain[type === "A" ? "ipv4" : "ipv6"] = ip;
  },
  address(fake, hostname, type) {
    return fake.domains.get(hostname.replace(/\.duckdns\.org$/, ""))?.[type === "A" ? "ipv4" : "ipv6"] || undefined;
  },
  findsZone: false,
  isWrite: everyRequest,
  failure: { arrange: (fake) => fake.fault("html"), words: /^DuckDNS: unreadable answer \(HTTP 502\)/ },
  throttle: { arrange: (fake) => fake.fault({ status: 429, retryAfter: 120 }), words: /^DuckDNS: .*HTTP 429/, pauseSeconds: 120 },
  verifyRefusal: null,
});

export const dyndns2 = define<Dyndns2Fake>({
  type: "dyndns2",
  start: () => startDyndns2Fake(),
  reset(fake) {
    fake.hosts.clear();
    fake.style = "noip";
    fake.dualStackAnswers = false;
    clear(fake);
  },
  env: () => ({}),
  options: (fake) => ({ server: fake.url }),
  credentials: { username: DYNDNS2_FAKE_USER, password: DYNDNS2_FAKE_PASSWORD },
  badCredentials: { username: DYNDNS2_FAKE_USER, password: "not-the-password-0123" },
  badCredentialsWords: /^dyndns2 .*: badauth — .*\(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  seed(fake, hostname, type, ip) {
    const host = fake.hosts.get(hostname) ?? fake.addHost(hostname);
    host[type === "A" ? "ipv4" : "ipv6"] = ip;
  },
  address: (fake, hostname, type) => fake.hosts.get(hostname)?.[type === "A" ? "ipv4" : "ipv6"] || undefined,
  findsZone: false,
  isWrite: everyRequest,
  // (`dnserr` pauses the provider: see the dyndns2 answers in end-to-end.test.ts.)
  failure: { arrange: (fake) => fake.fault({ body: "maintenance", status: 500 }), words: /: unreadable answer \(HTTP 500\): "maintenance"/ },
  // `911`: the service is down; no sooner than 30 minutes (docs/services/README.md).
  throttle: { arrange: (fake) => fake.fault({ body: "911" }), words: /: 911 — the service is down or in maintenance/, pauseSeconds: 1800 },
  verifyRefusal: null,
});

export const namecheap = define<NamecheapFake>({
  type: "namecheap",
  start: startNamecheapFake,
  reset(fake) {
    fake.domains.clear();
    clear(fake);
  },
  env: apiUrl("namecheap"),
  options: noOptions,
  credentials: { password: NAMECHEAP_FAKE_PASSWORD },
  badCredentials: { password: "ffffffffffffffffffffffffffffffff" },
  badCredentialsWords: /^Namecheap: Passwords do not match/,
  stopsOnBadCredentials: true,
  recordTypes: ["A"],
  hostname: "home.example.com",
  seed(fake, hostname, _type, ip) {
    const domain = fake.domains.get(ZONE) ?? fake.addDomain(ZONE, {});
    domain.hosts.set(relative(hostname, ZONE, "@"), ip);
  },
  address: (fake, hostname) => fake.domains.get(ZONE)?.hosts.get(relative(hostname, ZONE, "@")),
  findsZone: true,
  isWrite: everyRequest,
  failure: {
    arrange: (fake) =>
      fake.fault({
        xml: '<?xml version="1.0"?><interface-response><ErrCount>1</ErrCount><errors><Err1>Service is temporarily unavailable</Err1></errors><Done>true</Done></interface-response>',
      }),
    words: /^Namecheap: Service is temporarily unavailable/,
  },
  throttle: { arrange: (fake) => fake.fault({ status: 429, retryAfter: 120 }), words: /^Namecheap: .*HTTP 429/, pauseSeconds: 120 },
  verifyRefusal: null,
});

const CUSTOM_SECRET = "custom-secret-0123456789";
/** The requests a custom endpoint answered with an error: what they said was not taken. */
const refused = new WeakSet<LoggedRequest>();
function refusing(match: (request: LoggedRequest) => boolean): (request: LoggedRequest) => boolean {
  return (request) => {
    if (!match(request)) return false;
    refused.add(request);
    return true;
  };
}

export const custom = define<CustomFake>({
  type: "custom",
  start: startCustomFake,
  reset(fake) {
    fake.answer = { status: 200, body: "ok" };
    clear(fake);
    // The endpoint checks the key it is given, as a real one would.
    fake.fault({ status: 401, body: "wrong key" }, Infinity, refusing((request) => request.query.key !== CUSTOM_SECRET));
  },
  env: () => ({}),
  options: (fake) => ({ url: `${fake.url}/update?host={domain}&type={record_type}&ip={ip}&key={secret}` }),
  credentials: { secret: CUSTOM_SECRET },
  badCredentials: { secret: "wrong-secret" },
  // What the endpoint says is all ddnsd knows: it keeps trying (a custom service's codes mean nothing to it).
  badCredentialsWords: /^Custom URL 127\.0\.0\.1:\d+: HTTP 401 "wrong key"/,
  stopsOnBadCredentials: false,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  // The endpoint holds nothing of its own: what it last took for a name and type is the "record".
  seed() {},
  address(fake, hostname, type) {
    const told = fake.requests.filter((r) => r.query.host === hostname && r.query.type === type && !refused.has(r));
    return told.at(-1)?.query.ip;
  },
  findsZone: false,
  isWrite: everyRequest,
  failure: { arrange: (fake) => fake.fault({ status: 500, body: "database is locked" }, Infinity, refusing(() => true)), words: /^Custom URL 127\.0\.0\.1:\d+: HTTP 500 "database is locked"/ },
  throttle: { arrange: (fake) => fake.fault({ status: 429, retryAfter: 120 }, Infinity, refusing(() => true)), words: /^Custom URL 127\.0\.0\.1:\d+: HTTP 429/, pauseSeconds: 120 },
  verifyRefusal: null,
});

const porkbunZone: ZoneAccess<PorkbunFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone, { parked: false });
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) => void fake.addRecord(zone, { name: relative(hostname, zone, ""), type, content: ip, ttl }),
  read(fake, zone, hostname, type) {
    const record = fake.domains.get(zone)?.records.find((r) => r.name === hostname && r.type === type);
    return record && { ip: record.content, ttl: Number(record.ttl) };
  },
  ttl: 1800,
};

export const porkbun = define<PorkbunFake>({
  type: "porkbun",
  start: startPorkbunFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("porkbun"),
  options: noOptions,
  credentials: { api_key: PORKBUN_FAKE_API_KEY, secret_api_key: PORKBUN_FAKE_SECRET },
  badCredentials: { api_key: "pk1_wrong0123456789abcdef0123456789abcdef", secret_api_key: PORKBUN_FAKE_SECRET },
  badCredentialsWords: /^Porkbun: Invalid API key/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(porkbunZone),
  // Every Porkbun call is a POST; only these change anything.
  isWrite: (request) => /^\/dns\/(edit|create)/.test(request.path),
  failure: { arrange: (fake) => fake.fault({ status: 400, message: "Domain is locked for maintenance." }), words: /^Porkbun: Domain is locked for maintenance\./ },
  // Porkbun's "slow down" is a 503 HTML page, not a 429 (docs/services/README.md).
  throttle: { arrange: (fake) => fake.fault("throttled"), words: /^Porkbun: 503 Service Temporarily Unavailable \(rate limited, HTTP 503\); pausing 60 s$/, pauseSeconds: 60 },
  verifyRefusal: /^Porkbun: Invalid API key/,
});

const desecZone: ZoneAccess<DesecFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) => void fake.addRRset(zone, { subname: relative(hostname, zone, ""), type, records: [ip], ttl }),
  read(fake, zone, hostname, type) {
    const rrset = fake.rrset(zone, relative(hostname, zone, ""), type);
    return rrset && rrset.records.length === 1 ? { ip: rrset.records[0]!, ttl: rrset.ttl } : undefined;
  },
  ttl: 3600,
};

export const desec = define<DesecFake>({
  type: "desec",
  start: startDesecFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("desec"),
  options: noOptions,
  credentials: { token: DESEC_FAKE_TOKEN },
  badCredentials: { token: "desec-wrong-token-0123456789abcdef" },
  badCredentialsWords: /^deSEC: Invalid token/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(desecZone),
  isWrite: writeMethod,
  failure: { arrange: (fake) => fake.fault({ status: 500, detail: "The database is being migrated." }), words: /^deSEC: The database is being migrated\./ },
  throttle: { arrange: (fake) => fake.fault({ status: 429, retryAfter: 90 }), words: /^deSEC: .*\(HTTP 429\); pausing 90 s$/, pauseSeconds: 90 },
  verifyRefusal: /^deSEC: Invalid token/,
});

const digitalOceanZone: ZoneAccess<DigitalOceanFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) => void fake.addRecord(zone, { type, name: relative(hostname, zone, "@"), data: ip, ttl }),
  read(fake, zone, hostname, type) {
    const record = fake.record(zone, relative(hostname, zone, "@"), type);
    return record && { ip: record.data, ttl: record.ttl };
  },
  ttl: 1800,
};

export const digitalocean = define<DigitalOceanFake>({
  type: "digitalocean",
  start: startDigitalOceanFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("digitalocean"),
  options: noOptions,
  credentials: { token: DIGITALOCEAN_FAKE_TOKEN },
  badCredentials: { token: "dop_v1_wrong0123456789abcdef0123456789abcdef" },
  badCredentialsWords: /^DigitalOcean: Unable to authenticate you/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(digitalOceanZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 500, id: "server_error", message: "Server was unable to give you a response." }),
    words: /^DigitalOcean: Server was unable to give you a response\./,
  },
  throttle: { arrange: (fake) => fake.fault({ status: 429, retryAfter: 75 }), words: /^DigitalOcean: .*\(too_many_requests, HTTP 429\); pausing 75 s$/, pauseSeconds: 75 },
  verifyRefusal: /^DigitalOcean: Unable to authenticate you/,
});

const gandiZone: ZoneAccess<GandiFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) => void fake.addRrset(zone, { name: relative(hostname, zone, "@"), type, values: [ip], ttl }),
  read(fake, zone, hostname, type) {
    const rrset = fake.rrset(zone, relative(hostname, zone, "@"), type);
    return rrset && rrset.rrset_values.length === 1 ? { ip: rrset.rrset_values[0]!, ttl: rrset.rrset_ttl } : undefined;
  },
  ttl: 1800,
};

export const gandi = define<GandiFake>({
  type: "gandi",
  start: () => startGandiFake(),
  reset: (fake) => fake.reset(),
  env: apiUrl("gandi"),
  options: noOptions,
  credentials: { token: GANDI_FAKE_TOKEN },
  badCredentials: { token: "gandi-wrong-pat-0123456789abcdef" },
  badCredentialsWords: /^Gandi: .*\(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(gandiZone),
  isWrite: writeMethod,
  failure: { arrange: (fake) => fake.fault({ status: 500, message: "LiveDNS backend unavailable" }), words: /^Gandi: LiveDNS backend unavailable/ },
  throttle: { arrange: (fake) => fake.fault({ status: 429, retryAfter: 80 }), words: /^Gandi: .*\(HTTP 429\); pausing 80 s$/, pauseSeconds: 80 },
  verifyRefusal: /^Gandi: .*\(HTTP 401\)/,
});

const route53Zone: ZoneAccess<Route53Fake> = {
  addZone(fake, zone) {
    if (![...fake.zones.values()].some((z) => z.name.replace(/\.$/, "") === zone)) fake.addZone(zone);
  },
  addRecord(fake, zone, hostname, type, ip, ttl) {
    const hosted = [...fake.zones.values()].find((z) => z.name.replace(/\.$/, "") === zone)!;
    fake.addSet(hosted.id, { name: hostname, type, ttl, values: [ip] });
  },
  read(fake, zone, hostname, type) {
    const hosted = [...fake.zones.values()].find((z) => z.name.replace(/\.$/, "") === zone);
    const set = hosted?.sets.find((s) => s.name.replace(/\.$/, "") === hostname && s.type === type && !s.setIdentifier);
    return set && set.values.length === 1 ? { ip: set.values[0]!, ttl: set.ttl ?? null } : undefined;
  },
  ttl: 1800,
};

export const route53 = define<Route53Fake>({
  type: "route53",
  start: startRoute53Fake,
  reset: (fake) => fake.reset(),
  env: apiUrl("route53"),
  options: noOptions,
  credentials: { access_key_id: ROUTE53_FAKE_ACCESS_KEY_ID, secret_access_key: ROUTE53_FAKE_SECRET },
  badCredentials: { access_key_id: ROUTE53_FAKE_ACCESS_KEY_ID, secret_access_key: "fake/Wrong+Key0123456789abcdefghijklmnopq" },
  badCredentialsWords: /^Route 53: .*SignatureDoesNotMatch/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(route53Zone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 400, code: "InvalidInput", message: "The request is being processed elsewhere" }),
    words: /^Route 53: The request is being processed elsewhere \(InvalidInput, HTTP 400\)/,
  },
  // Route 53's "slow down" is HTTP 400 Throttling without Retry-After; retried twice in the call, then a pause.
  throttle: { arrange: (fake) => fake.fault({ status: 400, code: "Throttling" }), words: /^Route 53: Rate exceeded \(Throttling, HTTP 400\); pausing 60 s$/, pauseSeconds: 60 },
  verifyRefusal: /^Route 53: .*SignatureDoesNotMatch/,
});

const hetznerZone: ZoneAccess<HetznerFake> = {
  addZone(fake, zone) {
    if (![...fake.zones.values()].some((z) => z.name === zone)) fake.addZone(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) => void fake.addRrset(zone, { name: relative(hostname, zone, "@"), type, values: [ip], ttl }),
  read(fake, zone, hostname, type) {
    const rrset = fake.rrset(zone, relative(hostname, zone, "@"), type);
    return rrset && rrset.records.length === 1 ? { ip: rrset.records[0]!.value, ttl: rrset.ttl } : undefined;
  },
  ttl: 1800,
};

export const hetzner = define<HetznerFake>({
  type: "hetzner",
  start() {
    const fake = startHetznerFake();
    // Actions end at once: the client's polling is the client tests' business, and each look costs 500 ms.
    fake.actionLooks = 0;
    return fake;
  },
  reset(fake) {
    fake.reset();
    fake.actionLooks = 0;
  },
  env: apiUrl("hetzner"),
  options: noOptions,
  credentials: { token: HETZNER_FAKE_TOKEN },
  badCredentials: { token: "hcloud-wrong-token-0123456789abcdef" },
  badCredentialsWords: /^Hetzner: .*\(unauthorized, HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(hetznerZone),
  isWrite: writeMethod,
  failure: { arrange: (fake) => fake.fault({ status: 503, code: "maintenance", message: "cannot perform operation due to maintenance" }), words: /^Hetzner: cannot perform operation due to maintenance \(maintenance, HTTP 503\)/ },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, code: "rate_limit_exceeded", message: "limit of 3600 requests per hour reached", resetInSeconds: 300 }),
    words: /^Hetzner: limit of 3600 requests per hour reached \(rate_limit_exceeded, HTTP 429\); pausing (29\d|300) s$/,
    pauseSeconds: 250,
  },
  verifyRefusal: /^Hetzner: .*\(unauthorized, HTTP 401\)/,
});

const linodeZone: ZoneAccess<LinodeFake> = {
  addZone(fake, zone) {
    if (!fake.domain(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) => void fake.addRecord(zone, { name: relative(hostname, zone, ""), type, target: ip, ttl }),
  read(fake, zone, hostname, type) {
    const records = fake.domain(zone)?.records.filter((r) => r.name === relative(hostname, zone, "") && r.type === type) ?? [];
    return records.length === 1 ? { ip: records[0]!.target, ttl: records[0]!.ttl_sec } : undefined;
  },
  // One of Linode's own values: others are rounded.
  ttl: 3600,
  storedTtl: linodeTtl,
};

export const linode = define<LinodeFake>({
  type: "linode",
  start: startLinodeFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("linode"),
  options: noOptions,
  credentials: { token: LINODE_FAKE_TOKEN },
  badCredentials: { token: "linode-wrong-token-0123456789abcdef" },
  badCredentialsWords: /^Linode: Invalid Token \(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(linodeZone),
  isWrite: writeMethod,
  failure: { arrange: (fake) => fake.fault({ status: 400, reason: "Domain is in edit mode" }), words: /^Linode: Domain is in edit mode \(HTTP 400\)/ },
  throttle: { arrange: (fake) => fake.fault({ status: 429, retryAfter: 70 }), words: /^Linode: Too Many Requests \(HTTP 429\); pausing 70 s$/, pauseSeconds: 70 },
  verifyRefusal: /^Linode: Invalid Token/,
});

const vultrZone: ZoneAccess<VultrFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) => void fake.addRecord(zone, { name: relative(hostname, zone, ""), type, data: ip, ttl }),
  read(fake, zone, hostname, type) {
    const records = fake.domains.get(zone)?.filter((r) => r.name === relative(hostname, zone, "") && r.type === type) ?? [];
    return records.length === 1 ? { ip: records[0]!.data, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 1800,
};

export const vultr = define<VultrFake>({
  type: "vultr",
  start: startVultrFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("vultr"),
  options: noOptions,
  credentials: { api_key: VULTR_FAKE_API_KEY },
  badCredentials: { api_key: "VULTRWRONGKEY0123456789ABCDEFGHIJKLM" },
  badCredentialsWords: /^Vultr: Invalid API token\. \(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(vultrZone),
  isWrite: writeMethod,
  failure: { arrange: (fake) => fake.fault({ status: 500, error: "DNS backend unavailable" }), words: /^Vultr: DNS backend unavailable \(HTTP 500\)/ },
  throttle: { arrange: (fake) => fake.fault({ status: 429, retryAfter: 65 }), words: /^Vultr: .*\(HTTP 429\); pausing 65 s$/, pauseSeconds: 65 },
  verifyRefusal: /^Vultr: Invalid API token/,
});

const dnsimpleZone: ZoneAccess<DnsimpleFake> = {
  addZone(fake, zone) {
    if (!fake.zones.has(zone)) fake.addZone(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) => void fake.addRecord(zone, { name: relative(hostname, zone, ""), type, content: ip, ttl }),
  read(fake, zone, hostname, type) {
    const records = fake.zones.get(zone)?.records.filter((r) => r.name === relative(hostname, zone, "") && r.type === type) ?? [];
    return records.length === 1 ? { ip: records[0]!.content, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 1800,
};

export const dnsimple = define<DnsimpleFake>({
  type: "dnsimple",
  start: startDnsimpleFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("dnsimple"),
  options: noOptions,
  credentials: { account_id: DNSIMPLE_FAKE_ACCOUNT, token: DNSIMPLE_FAKE_TOKEN },
  badCredentials: { account_id: DNSIMPLE_FAKE_ACCOUNT, token: "dnsimplewrongtoken0123456789abcdef" },
  badCredentialsWords: /^DNSimple: Authentication failed \(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(dnsimpleZone),
  isWrite: writeMethod,
  failure: { arrange: (fake) => fake.fault({ status: 400, message: "Zone is locked" }), words: /^DNSimple: Zone is locked \(HTTP 400\)/ },
  throttle: { arrange: (fake) => fake.fault({ status: 429, retryAfter: 90 }), words: /^DNSimple: API rate limit exceeded \(HTTP 429\); pausing 90 s$/, pauseSeconds: 90 },
  verifyRefusal: /^DNSimple: Authentication failed/,
});

const bunnyZone: ZoneAccess<BunnyFake> = {
  addZone(fake, zone) {
    if (!fake.zone(zone)) fake.addZone(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) => void fake.addRecord(zone, { name: relative(hostname, zone, ""), type, value: ip, ttl }),
  read(fake, zone, hostname, type) {
    const records = fake.zone(zone)?.Records.filter((r) => r.Name === relative(hostname, zone, "") && r.Type === (type === "A" ? 0 : 1)) ?? [];
    return records.length === 1 ? { ip: records[0]!.Value, ttl: records[0]!.Ttl } : undefined;
  },
  ttl: 1800,
};

export const bunny = define<BunnyFake>({
  type: "bunny",
  start: startBunnyFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("bunny"),
  options: noOptions,
  credentials: { api_key: BUNNY_FAKE_API_KEY },
  badCredentials: { api_key: "bunny-wrong-0123-4567-89ab-cdef01234567-0123-456" },
  badCredentialsWords: /^Bunny: Authorization has been denied for this request\. \(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(bunnyZone),
  isWrite: writeMethod,
  failure: { arrange: (fake) => fake.fault({ status: 500, errorKey: "dnszone.unavailable", message: "DNS is under maintenance" }), words: /^Bunny: DNS is under maintenance \(dnszone\.unavailable, HTTP 500\)/ },
  throttle: { arrange: (fake) => fake.fault({ status: 429, retryAfter: 75 }), words: /^Bunny: .*\(error_429, HTTP 429\); pausing 75 s$/, pauseSeconds: 75 },
  verifyRefusal: /^Bunny: Authorization has been denied/,
});

const namecomZone: ZoneAccess<NamecomFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) => void fake.addRecord(zone, { host: relative(hostname, zone, ""), type, answer: ip, ttl }),
  read(fake, zone, hostname, type) {
    const records = fake.domains.get(zone)?.filter((r) => r.host === relative(hostname, zone, "") && r.type === type) ?? [];
    return records.length === 1 ? { ip: records[0]!.answer, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 1800,
};

export const namecom = define<NamecomFake>({
  type: "namecom",
  start: startNamecomFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("namecom"),
  options: noOptions,
  credentials: { username: NAMECOM_FAKE_USERNAME, token: NAMECOM_FAKE_TOKEN },
  badCredentials: { username: NAMECOM_FAKE_USERNAME, token: "namecomwrongtoken0123456789abcdef0123456" },
  badCredentialsWords: /^Name\.com: Permission Denied: Authentication Error/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(namecomZone),
  isWrite: writeMethod,
  failure: { arrange: (fake) => fake.fault({ status: 400, message: "Invalid Argument", details: "Domain is locked" }), words: /^Name\.com: Invalid Argument: Domain is locked \(HTTP 400\)/ },
  throttle: { arrange: (fake) => fake.fault({ status: 429, retryAfter: 85 }), words: /^Name\.com: Too Many Requests \(HTTP 429\); pausing 85 s$/, pauseSeconds: 85 },
  verifyRefusal: /^Name\.com: Permission Denied/,
});

export const ADAPTERS: readonly ServiceAdapter[] = [duckdns, dyndns2, namecheap, custom, porkbun, desec, digitalocean, gandi, route53, hetzner, linode, vultr, dnsimple, bunny, namecom] as ServiceAdapter[];
