// Push-only domains (address_source `push`) whose router has gone quiet: no push for
// DDNS_PUSH_STALE_AFTER (a domain never pushed counts from its creation). The schedule never writes
// such a record, so a router that stopped pushing (unplugged, reconfigured, its key deleted) would
// otherwise go unnoticed while the record ages. The dashboard and /metrics show it; the scheduler's
// wake-ups (once a minute at least) tell the notifications once per quiet spell.

import type { Store } from "../store";
import type { DomainRow } from "../store/rows";
import type { EventSink } from "./events";

/** Whether a push-only record has waited longer than `staleAfterSeconds` for a push. */
export function isPushStale(
  domain: Pick<DomainRow, "pushedAt" | "createdAt">,
  now: number,
  staleAfterSeconds: number,
): boolean {
  return now - (domain.pushedAt ?? domain.createdAt) > staleAfterSeconds * 1000;
}

/** What watching takes: the push-only domains, the setting, where to tell. */
export interface PushWatchParts {
  store: Pick<Store, "domains">;
  settings: { readonly pushStaleAfterSeconds: number };
  events: Pick<EventSink, "pushStale">;
}

/** Tells each push-only record's going stale once, until a push makes it fresh again (kept in memory: a restart tells an ongoing one again). */
export class PushWatch {
  private readonly told = new Set<number>();

  check(ctx: PushWatchParts, now: number): void {
    const stale = new Set<number>();
    for (const domain of ctx.store.domains.pushOnly()) {
      if (!isPushStale(domain, now, ctx.settings.pushStaleAfterSeconds)) continue;
      stale.add(domain.id);
      if (this.told.has(domain.id)) continue;
      this.told.add(domain.id);
      ctx.events.pushStale?.(domain);
    }
    for (const id of this.told) if (!stale.has(id)) this.told.delete(id);
  }
}
