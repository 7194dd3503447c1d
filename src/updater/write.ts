// Writing to the provider: its client called within one of its concurrency slots, unless its pause
// holds it back (./pauses.ts); a client that cannot be made (an unknown type, credentials that no
// longer open) is a failed attempt like any other.

import type { Addresses, DnsProvider, RecordTarget } from "../dns/provider";
import { DomainError } from "../errors";
import { addressForRecord } from "../ip/suffix";
import type { Logger } from "../log";
import type { DomainRow, ProviderRow } from "../store/rows";
import { afterAnswer, heldBack, type PacedWrite, type PauseParts } from "./pauses";
import { type ClientParts, providerClient } from "./provider-client";
import type { UpdaterState } from "./state";

/** The FAILED row's message (and a forced update's 502) when a provider's stored credentials no longer open. */
export const CREDENTIALS_UNREADABLE =
  "The provider's stored credentials cannot be decrypted (was DDNS_ENCRYPTION_KEY changed?); enter them again";

/** What writing takes: the client's parts, the pause's, the queues and slots, the log, the detected addresses. */
export interface WriteParts extends ClientParts, PauseParts {
  updater: Pick<UpdaterState, "queue" | "slots" | "throttles">;
  log: Logger;
  /** The newest detected addresses: a sibling record never written yet holds the detected one. */
  publicIp: { ipv4: string | null; ipv6: string | null };
}

/**
 * Calls the provider, within one of its concurrency slots, unless a "slow down" has paused it. Writes to one
 * hostname at one provider run one at a time: a Dynu apex keeps its IPv4 and IPv6 addresses on one
 * object that each write sends back whole, so its A and AAAA updates side by side would undo each other.
 */
export function writeToProvider(
  ctx: WriteParts,
  provider: ProviderRow,
  domain: DomainRow,
  ip: string,
  options: {
    /**
     * The record is known to hold `ip` already: a service that can only be asked by writing
     * (`writesBlind`) is not asked, and the write counts as unchanged.
     */
    knownHeld?: boolean;
    /** A list of sources: every address wanted, and those ddnsd wrote before (`RecordTarget.addressSet`). */
    addressSet?: RecordTarget["addressSet"];
  } = {},
): Promise<PacedWrite> {
  return ctx.updater.queue.run(`${provider.id} ${domain.domainName}`, () =>
    ctx.updater.slots.run(provider.id, async () => {
      const held = heldBack(ctx, provider);
      if (held !== null) return held;
      let client: DnsProvider;
      try {
        client = providerClient(ctx, provider);
      } catch (error) {
        // A type this build has no service for: the reason, as a failed attempt like any other.
        if (error instanceof DomainError)
          return { write: { ok: false, message: error.message, cause: "refused" }, pausedUntil: null };
        // The credentials no longer open (another DDNS_ENCRYPTION_KEY, a damaged row): a failed
        // attempt like any other, with its row and backoff, not a fault that repeats every second.
        ctx.log.error("provider credentials cannot be decrypted", {
          provider_id: provider.id,
          error: error instanceof Error ? error.message : String(error),
        });
        return { write: { ok: false, message: CREDENTIALS_UNREADABLE, cause: "credentials" }, pausedUntil: null };
      }
      if (options.knownHeld && client.writesBlind)
        return {
          write: { ok: true, action: "unchanged", externalId: domain.externalId ?? "", zoneId: "", message: "" },
          pausedUntil: null,
        };
      const write = await client.writeRecord(
        {
          hostname: domain.domainName,
          recordType: domain.recordType,
          externalId: domain.externalId,
          config: domain.config,
          siblings: siblingAddresses(ctx, domain),
          ...(options.addressSet === undefined ? {} : { addressSet: options.addressSet }),
        },
        ip,
      );
      return afterAnswer(ctx, provider.id, write);
    }),
  );
}

/**
 * What the same hostname's other-family domain at the same provider holds now: its last written
 * address, else (never written yet) the address detected for it. A one-shot service that treats a
 * hostname as one thing is sent both, so that writing the A record does not delete the AAAA.
 */
function siblingAddresses(ctx: WriteParts, domain: DomainRow): Addresses {
  const siblings: Addresses = {};
  for (const row of ctx.store.domains.siblings(domain.providerId, domain.domainName, domain.recordType)) {
    const family = row.recordType === "AAAA" ? "ipv6" : "ipv4";
    const detected = row.isEnabled ? ctx.publicIp[family] : null;
    const address = row.lastKnownIp ?? (detected === null ? null : addressForRecord(detected, row.config));
    if (address !== null) siblings[family] = address;
  }
  return siblings;
}
