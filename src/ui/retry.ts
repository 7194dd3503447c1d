// Fixes take effect at once: after a save that may have cured what made domains fail (a provider's
// credentials, a domain's own settings), those domains are tried again in the same request and the
// notice says how it went, instead of leaving them red until their next run.

import { msg } from "../../views/i18n";
import { Conflict, DetectionFailed, ProviderFailed, StorageFull } from "../errors";
import { type DomainView, forceUpdate } from "../modules/domains/service";
import type { UpdateParts } from "../updater/update";

/** The refusals a forced update ends in, by what the pages call them; anything else is a bug and propagates. */
export const UPDATE_FAILURES = [
  [Conflict, "refused"],
  [DetectionFailed, "detection"],
  [ProviderFailed, "provider"],
  [StorageFull, "storage"],
] as const;

/** At most this many are tried within the request (each is a call to the service); the rest keep their schedule. */
const RETRIED_AT_ONCE = 10;

export interface Retried {
  tried: number;
  /** Those still failing, with the failure's words. */
  failing: { name: string; detail: string }[];
}

/** Whether a domain is one a fix should retry: switched on, and its newest update failed. */
export const isFailing = (domain: Pick<DomainView, "is_enabled" | "last_update_status">): boolean =>
  domain.is_enabled && domain.last_update_status === "FAILED";

/** Tries the failing ones of `domains` again now, one after another (the provider's pacing holds). */
export async function retryFailing(ctx: UpdateParts, domains: readonly DomainView[]): Promise<Retried> {
  const due = domains.filter(isFailing).slice(0, RETRIED_AT_ONCE);
  const failing: Retried["failing"] = [];
  for (const domain of due) {
    try {
      await forceUpdate(ctx, domain.id);
    } catch (error) {
      if (!UPDATE_FAILURES.some(([kind]) => error instanceof kind)) throw error;
      failing.push({ name: `${domain.domain_name} (${domain.record_type})`, detail: (error as Error).message });
    }
  }
  return { tried: due.length, failing };
}

/** The notice's sentence for a retry ("" when nothing was retried). */
export function retriedWords({ tried, failing }: Retried): string {
  if (tried === 0) return "";
  const words = msg().retry;
  const first = failing[0];
  if (first === undefined) return ` ${words.allOk(tried)}`;
  return ` ${words.someFailing(tried, tried - failing.length, first.name, failing.length - 1, first.detail)}`;
}
