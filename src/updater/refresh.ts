// Keep-alive (docs/operations.md, "Keep-alive"): some one-shot services retire a host nobody has
// updated for weeks, and a record whose address never changes is never written. A domain at such a
// service is sent its unchanged address again once its record was last written longer ago than its
// period: its `config.refresh_every`, else its service's default (only where the service's own
// documentation says idle hosts expire), `"0"` for none. Zone services keep their records: they
// have no period.

import type { DomainRow, ProviderRow } from "../store/rows";
import { parseDuration } from "../util/time";
import { type ClientParts, providerOptions } from "./provider-client";

/** What deciding a refresh reads: the services' descriptions, the provider's options, the history. */
export type RefreshParts = Pick<ClientParts, "services" | "keys" | "store">;

/** The domain's keep-alive period in seconds, or null when its record is never sent again unchanged. */
export function refreshPeriod(ctx: RefreshParts, domain: DomainRow, provider: ProviderRow): number | null {
  const service = ctx.services.get(provider.type);
  if (service.keepAlive === undefined) return null;
  const own = domain.config.refresh_every;
  // Checked when the domain was saved (modules/domains); "0" turns a service's default off.
  if (typeof own === "string") {
    const seconds = parseDuration(own);
    return seconds === null || seconds === 0 ? null : seconds;
  }
  try {
    return service.keepAlive.byDefault(providerOptions(ctx, provider));
  } catch {
    // Sealed options that no longer open: no write can succeed either, and the next one says why.
    return null;
  }
}

/**
 * Whether a check that found the record current must send it anyway: its period has passed since
 * the service last took it (the newest successful row; the last change when the history no longer
 * has one). `period` is the domain's, from refreshPeriod.
 */
export function refreshDue(ctx: RefreshParts, domain: DomainRow, period: number, now: number): boolean {
  const lastWritten = ctx.store.history.lastSuccessAt(domain.id) ?? domain.lastChangedAt;
  return lastWritten === null || now - lastWritten >= period * 1000;
}
