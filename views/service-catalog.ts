// The service picker's catalogue: every DNS service ddnsd speaks (each provider type, and each
// well-known dyndns2 update server as an entry of its own), in the group people look for it in,
// with the other names people type for it ("noip", "he.net", "gcp", "bind" …). The services'
// names and presets come from their descriptions; only the grouping and the aliases live here.

import type { ServiceDescription } from "../src/dns/service";

export type ServiceGroup = "clouds" | "registrars" | "free" | "own" | "generic";

/** The groups in the order the picker shows them. */
export const SERVICE_GROUPS: readonly ServiceGroup[] = ["clouds", "registrars", "free", "own", "generic"];

/** Each provider type's group, and the names people search it by besides its label. */
const TYPE_PLACES: Record<string, { group: ServiceGroup; aliases?: readonly string[] }> = {
  alidns: { group: "clouds", aliases: ["aliyun", "alibaba"] },
  azure: { group: "clouds", aliases: ["microsoft"] },
  baiducloud: { group: "clouds", aliases: ["baidu"] },
  bunny: { group: "clouds", aliases: ["bunny.net"] },
  cloudflare: { group: "clouds", aliases: ["cf"] },
  constellix: { group: "clouds" },
  digitalocean: { group: "clouds", aliases: ["do"] },
  dnsmadeeasy: { group: "clouds", aliases: ["dme"] },
  exoscale: { group: "clouds" },
  gcloud: { group: "clouds", aliases: ["gcp", "google", "google cloud platform"] },
  gcore: { group: "clouds", aliases: ["g-core"] },
  hetzner: { group: "clouds" },
  huaweicloud: { group: "clouds", aliases: ["huawei"] },
  linode: { group: "clouds", aliases: ["akamai"] },
  luadns: { group: "clouds" },
  ns1: { group: "clouds", aliases: ["ibm ns1"] },
  ovh: { group: "clouds", aliases: ["ovh api"] },
  rackspace: { group: "clouds" },
  route53: { group: "clouds", aliases: ["aws", "amazon"] },
  scaleway: { group: "clouds" },
  selectel: { group: "clouds" },
  tencentcloud: { group: "clouds", aliases: ["dnspod", "tencent"] },
  vercel: { group: "clouds" },
  vultr: { group: "clouds" },
  dd24: { group: "registrars", aliases: ["dd24", "domaindiscount24"] },
  dnsimple: { group: "registrars" },
  domeneshop: { group: "registrars", aliases: ["domene.shop"] },
  dondominio: { group: "registrars", aliases: ["dondns"] },
  easydns: { group: "registrars" },
  gandi: { group: "registrars", aliases: ["livedns"] },
  godaddy: { group: "registrars" },
  hostinger: { group: "registrars" },
  infomaniak: { group: "registrars" },
  inwx: { group: "registrars" },
  ionos: { group: "registrars", aliases: ["1&1", "1and1"] },
  loopia: { group: "registrars" },
  mythicbeasts: { group: "registrars" },
  namecheap: { group: "registrars" },
  namecom: { group: "registrars", aliases: ["name.com"] },
  namesilo: { group: "registrars" },
  netcup: { group: "registrars" },
  netcupcloud: { group: "registrars", aliases: ["netcup clouddns", "clouddns"] },
  njalla: { group: "registrars" },
  porkbun: { group: "registrars" },
  servercow: { group: "registrars" },
  spaceship: { group: "registrars" },
  transip: { group: "registrars" },
  cloudns: { group: "registrars", aliases: ["cloudns.net"] },
  desec: { group: "free", aliases: ["dedyn", "dedyn.io"] },
  duckdns: { group: "free", aliases: ["duck"] },
  dynu: { group: "free" },
  dynv6: { group: "free" },
  freedns: { group: "free", aliases: ["afraid", "afraid.org"] },
  goip: { group: "free" },
  ipv64: { group: "free" },
  myaddr: { group: "free" },
  ydns: { group: "free" },
  rfc2136: { group: "own", aliases: ["bind", "nsupdate", "knot", "tsig", "dns update", "windows dns"] },
  powerdns: { group: "own", aliases: ["pdns"] },
  dyndns2: { group: "generic", aliases: ["dyndns", "nic/update", "members.dyndns.org protocol"] },
  custom: { group: "generic", aliases: ["url", "webhook", "http", "get request"] },
};

/** Each dyndns2 preset's group (by its label), and its aliases. */
const PRESET_PLACES: Record<string, { group: ServiceGroup; aliases?: readonly string[] }> = {
  "No-IP": { group: "free", aliases: ["noip", "no ip"] },
  Dyn: { group: "free", aliases: ["dyndns", "dyn.com", "oracle dyn"] },
  "dynv6 (IPv4 only)": { group: "free" },
  "OVH DynHost": { group: "registrars", aliases: ["ovh", "dynhost"] },
  Strato: { group: "registrars" },
  Infomaniak: { group: "registrars" },
  "Hurricane Electric": { group: "free", aliases: ["he", "he.net", "hurricane", "tunnelbroker"] },
  INWX: { group: "registrars" },
  selfHOST: { group: "free", aliases: ["selfhost.de"] },
  Joker: { group: "registrars", aliases: ["joker.com"] },
  "DNS-O-Matic": { group: "free", aliases: ["dnsomatic"] },
  spdyn: { group: "free", aliases: ["securepoint"] },
  ipv64: { group: "free" },
  deSEC: { group: "free", aliases: ["dedyn"] },
  "ChangeIP (IPv4 only)": { group: "free" },
  "OpenDNS (IPv4 only)": { group: "free", aliases: ["cisco umbrella"] },
  Variomedia: { group: "registrars" },
  "All-Inkl": { group: "registrars", aliases: ["allinkl", "kasserver"] },
  DDNSS: { group: "free" },
  WebSupport: { group: "registrars" },
  "NIC.RU (IPv4 only)": { group: "registrars", aliases: ["nicru", "ru-center"] },
  "Now-DNS": { group: "free", aliases: ["nowdns"] },
  "Dynu (dyndns2)": { group: "free" },
  "nsupdate.info (IPv4)": { group: "free" },
  "nsupdate.info (IPv6)": { group: "free" },
  "PowerDNS-Admin (your server)": { group: "own", aliases: ["pdns admin"] },
};

/**
 * The entries most homes look for first (the free dynamic DNS services and the cloud most domains
 * sit at), shown above the groups while nothing is searched: by provider type, or a preset's label.
 */
const POPULAR: readonly string[] = ["cloudflare", "duckdns", "No-IP", "dynv6", "desec", "freedns", "dynu"];

/** The popular entries, in that order. */
export function popularEntries(entries: readonly CatalogEntry[]): CatalogEntry[] {
  return POPULAR.flatMap((name) => entries.find((e) => (e.server === undefined ? e.type : e.label) === name) ?? []);
}

/**
 * Names of routers and their DDNS menus, which people type into the picker: a router is no DNS
 * service, but it can push its address to ddnsd, and the picker says so.
 */
const ROUTER_NAMES: readonly string[] = [
  "fritzbox",
  "myfritz",
  "unifi",
  "openwrt",
  "pfsense",
  "opnsense",
  "speedport",
  "router",
  "mikrotik",
  "ubiquiti",
  "asus",
  "tplink",
];

/** Whether a search names a router rather than a DNS service (three letters at least: "fritz", "unifi" …). */
export function namesRouter(query: string): boolean {
  const wanted = searchKey(query);
  return wanted.length >= 3 && ROUTER_NAMES.some((name) => name.includes(wanted));
}

/** What the page's script matches a search against to show the router hint. */
export const ROUTER_KEYS = ROUTER_NAMES.join(" ");

export interface CatalogEntry {
  /** What the picker calls it: the service's label, or the preset's. */
  label: string;
  /** The provider type the form opens with. */
  type: string;
  /** For a dyndns2 preset: its update server, filled in on the form. */
  server?: string;
  group: ServiceGroup;
  /** Everything a search matches against, normalised (`searchKey`). */
  keys: string[];
}

/** A search term or a name as the search compares them: lower case, letters and digits only ("No-IP" → "noip", "he.net" → "henet"). */
export function searchKey(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

/** A preset's update server as its entry names it: its host. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * Every entry of the picker, from the services' descriptions: one per provider type and one per
 * dyndns2 preset. A service or preset the catalogue does not place falls in "Generic" (a unit
 * test keeps every one placed).
 */
export function serviceCatalog(services: readonly ServiceDescription[]): CatalogEntry[] {
  const entries: CatalogEntry[] = [];
  for (const service of services) {
    const place = TYPE_PLACES[service.type] ?? { group: "generic" as const };
    // The picker shows dyndns2 itself as "any other update server" (in the page's language); found by that in English too.
    const label = service.type === "dyndns2" ? "dyndns2 (any other update server)" : service.label;
    entries.push({
      label,
      type: service.type,
      group: place.group,
      keys: [label, service.type, ...(place.aliases ?? [])].map(searchKey),
    });
    for (const preset of service.options.flatMap((option) => (option.key === "server" ? (option.presets ?? []) : []))) {
      const presetPlace = PRESET_PLACES[preset.label] ?? { group: "generic" as const };
      const host = hostOf(preset.value);
      entries.push({
        label: preset.label,
        type: service.type,
        server: preset.value,
        group: presetPlace.group,
        keys: [preset.label, host, ...(presetPlace.aliases ?? [])].map(searchKey),
      });
    }
  }
  return entries;
}

/** Whether an entry is placed in the catalogue (for the test that keeps every service placed). */
export function isPlaced(entry: { type: string; server?: string; label: string }): boolean {
  return entry.server === undefined ? entry.type in TYPE_PLACES : entry.label in PRESET_PLACES;
}

/** Whether an entry goes by a name the search names (every entry for an empty search). */
export function entryMatches(entry: Pick<CatalogEntry, "keys">, query: string): boolean {
  const wanted = searchKey(query);
  return wanted === "" || entry.keys.some((key) => key.includes(wanted));
}

export interface CatalogGroup {
  key: ServiceGroup;
  /** Every entry of the group, sorted by name, each saying whether the search found it. */
  entries: (CatalogEntry & { found: boolean })[];
}

/**
 * The catalogue by group, each group's entries sorted by name and marked found or not: the page
 * keeps the ones not found, hidden, so that a search typed with JavaScript can show them again.
 */
export function searchCatalog(entries: readonly CatalogEntry[], query: string): CatalogGroup[] {
  return SERVICE_GROUPS.map((key) => ({
    key,
    entries: entries
      .filter((entry) => entry.group === key)
      .sort((a, b) => a.label.localeCompare(b.label, "en", { sensitivity: "base" }))
      .map((entry) => ({ ...entry, found: entryMatches(entry, query) })),
  }));
}

/** Where an entry leads: the provider form for its type, with a preset's server filled in. */
export function entryHref(entry: Pick<CatalogEntry, "type" | "server">): string {
  const query = new URLSearchParams({ type: entry.type });
  if (entry.server !== undefined) query.set("server", entry.server);
  return `/providers/new?${query}`;
}
