// What each domain's updates depend on, for the pages that show its state: its provider enabled,
// and the public address of its record's family detectable (the latest detection's outcome).

import type { AppContext } from "../context";
import type { DomainView } from "../modules/domains/service";
import { listProviders } from "../modules/providers/service";
import type { UpdateConditions } from "../../views/components";

/** One lookup of the providers, then the conditions of any domain. */
export function updateConditions(ctx: AppContext): (domain: Pick<DomainView, "provider_id" | "record_type">) => UpdateConditions {
  const enabled = new Map(listProviders(ctx).map((provider) => [provider.id, provider.is_enabled]));
  return (domain) => ({
    providerEnabled: enabled.get(domain.provider_id) ?? true,
    detectionFailure: ctx.publicIp.failures[domain.record_type === "AAAA" ? "ipv6" : "ipv4"],
  });
}
