// Where a detection of each family asks for the public address: the choice stored from the admin
// pages or the API (modules/system/address-sources.ts) when there is one, else the environment's
// DDNS_IPV4_SOURCE / DDNS_IPV4_URLS and their IPv6 twins. Read by the updater before each detection
// of a domain that follows the system's source (its `address_source` is null).

import type { AddressSource } from "../ip/source";
import type { IpFamily } from "../net/address";
import type { Store } from "../store";

/** What choosing a source reads: the environment's settings and the stored choice. */
export interface SourceParts {
  settings: { ipv4Source: AddressSource; ipv6Source: AddressSource; ipv4Urls: string[]; ipv6Urls: string[] };
  store: Store;
}

/** A family's source as it is used: what, which URLs (for `web`), and whether the pages or the environment chose it. */
export interface EffectiveSource {
  source: AddressSource;
  /** The echo services asked when `source` is `web`. */
  urls: string[];
  from: "database" | "environment";
}

export function environmentSource(ctx: Pick<SourceParts, "settings">, family: IpFamily): EffectiveSource {
  return {
    source: family === 4 ? ctx.settings.ipv4Source : ctx.settings.ipv6Source,
    urls: family === 4 ? ctx.settings.ipv4Urls : ctx.settings.ipv6Urls,
    from: "environment",
  };
}

/** The source a detection of `family` uses now: the stored choice, else the environment's. */
export function effectiveSource(ctx: SourceParts, family: IpFamily): EffectiveSource {
  const row = ctx.store.addressSources.find(family);
  if (row === undefined) return environmentSource(ctx, family);
  const fallback = environmentSource(ctx, family).urls;
  if (row.kind === "interface" && row.interfaceName !== null) {
    return { source: { kind: "interface", name: row.interfaceName }, urls: fallback, from: "database" };
  }
  if (row.kind === "dns") return { source: { kind: "dns" }, urls: fallback, from: "database" };
  return { source: { kind: "web" }, urls: row.urls ?? fallback, from: "database" };
}
