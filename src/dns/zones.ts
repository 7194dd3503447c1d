// Splitting a hostname into the zone that holds it and the name inside that zone, for the services
// whose API speaks in zones (PROVIDERS.md, "Splitting a name into zone + relative name"). Never "the
// last two labels": `a.b.example.co.uk` may live in `example.co.uk` or in a delegated `b.example.co.uk`.

/** Whether `zone` is the hostname itself or one of its parents, at a label boundary. */
export function zoneHolds(zone: string, hostname: string): boolean {
  return hostname === zone || hostname.endsWith(`.${zone}`);
}

/** The longest of `zones` that holds the hostname (names lowercase, no trailing dot), or undefined. */
export function longestZone(hostname: string, zones: Iterable<string>): string | undefined {
  let best: string | undefined;
  for (const zone of zones) {
    if (zoneHolds(zone, hostname) && (best === undefined || zone.length > best.length)) best = zone;
  }
  return best;
}

/** The hostname relative to a zone that holds it: `""` for the apex, e.g. `home` or `a.b`. */
export function relativeName(hostname: string, zone: string): string {
  return hostname === zone ? "" : hostname.slice(0, -(zone.length + 1));
}

/** The name of a hostname's zone from a domain's config (`config.zone_id`), when one is set. */
export function configuredZone(zoneId: unknown): string | undefined {
  return typeof zoneId === "string" && zoneId.trim() !== "" ? zoneId.trim().toLowerCase().replace(/\.$/, "") : undefined;
}

/** Why a zone named in the config cannot be used for the hostname. */
export function foreignZoneMessage(service: string, zone: string, hostname: string): string {
  return `${service}: config.zone_id ${zone} does not hold ${hostname}; correct config.zone_id or remove it`;
}
