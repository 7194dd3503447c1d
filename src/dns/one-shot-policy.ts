// The one policy of every one-shot service (DuckDNS, dyndns2 and its dialects, Namecheap, DD24,
// DonDominio, GoIP.de, myaddr.tools, YDNS, custom; docs/design/reconciler.md): a service module offers `send(hostname,
// addresses)` — one request, its answer read into what the service says it did and which addresses
// the hostname holds now — and this module decides what is sent and whether the answer is believed.
//
// What is sent: the record's own address, and, where one request carries both families (the
// service treats a hostname as one thing, and Dyn or deSEC delete the family an update does not
// name), the current address of the same hostname's other-family domain at the same provider. A
// record type the service (or its preset) does not take is refused for good, before any request.
//
// What is believed: an answer that names addresses must name the ones sent. An answer naming another
// address of a family that was sent, or none of the addresses sent (Dyn's `good 127.0.0.1`: "request
// ignored"), means the service did not publish ours; asking again would get the same answer and counts
// against the client as abuse, so retries stop until the provider or domain is edited.

import { isIP } from "node:net";
import { failed } from "./answers";
import { cannotVerify } from "./one-shot";
import type { Addresses, DnsProvider, RecordTarget, RecordType, Step, WriteOutcome } from "./provider";
import { cannotCheck, type ServiceDescription } from "./service";
import { sameAddress } from "./zones";

/** What a service's answer to one send says. */
export interface Sent {
  /** Whether the service says it changed anything; absent when its answer does not say. */
  change?: "changed" | "unchanged";
  /** The addresses the service says the hostname holds now; empty when its answer names none. */
  held: readonly string[];
  /** The service's name for the object updated, saved as the domain's `external_id`. */
  externalId: string;
  /** A zone found on the way (Namecheap's registered domain), saved as `config.zone_id`; "" for none. */
  zoneId?: string;
  /** What the history adds after the updater's sentence, e.g. `DuckDNS domain home`. */
  detail: string;
}

/** A one-shot service's primitive: one request, nothing decided. */
export interface OneShotApi {
  /** The service's name for messages, e.g. "DuckDNS" or "dyndns2 Dyn". */
  readonly service: string;
  /** Why the service cannot check credentials without writing a record. */
  readonly verifyUnavailable: string;
  /**
   * `both`: one request names both of a hostname's addresses (and a family it does not name may be
   * lost); `one`: each request sets one family and leaves the other as it is.
   */
  readonly carries: "both" | "one";
  /** The record types it takes; another is refused for good, with `typeRefusal`'s words. */
  readonly recordTypes: readonly RecordType[];
  readonly typeRefusal?: string;
  /** Sends the hostname's addresses in one request and reads the answer. */
  send(target: RecordTarget, addresses: Addresses): Promise<Step<Sent>>;
}

/**
 * What this policy says in a one-shot service's description, so the description and the client
 * (`oneShotClient`) say it from one place: the service cannot check credentials without sending an
 * update (`why`: in the service's words), it never creates a record, so the domain form does not
 * offer `create_if_missing`, and its record can be sent again to keep the host alive
 * (`config.refresh_every`), by default every `refreshByDefault(options)` seconds where the
 * service's documentation says idle hosts expire (none otherwise).
 */
export function oneShotService(
  why: string,
  refreshByDefault: (options: Record<string, unknown>) => number | null = () => null,
): Pick<ServiceDescription, "canVerify" | "verifyUnavailable" | "createsRecords" | "keepAlive"> {
  return { ...cannotCheck(why), createsRecords: false, keepAlive: { byDefault: refreshByDefault } };
}

/**
 * What a one-shot client takes from its service's description, so each fact has one home: the
 * record types it takes, and why it cannot check credentials.
 */
export function described(
  description: Pick<ServiceDescription, "recordTypes" | "verifyUnavailable">,
): Pick<OneShotApi, "recordTypes" | "verifyUnavailable"> {
  return { recordTypes: description.recordTypes, verifyUnavailable: description.verifyUnavailable ?? "" };
}

/** The client the registry hands the updater for a one-shot service. */
export function oneShotClient(api: OneShotApi): DnsProvider {
  return {
    verify: cannotVerify(api.verifyUnavailable),
    writeRecord: (target, address) => write(api, target, address),
    writesBlind: true,
  };
}

/** The addresses one write of `target` sends: its own, and its sibling's where the request carries both. */
export function addressesToSend(
  api: Pick<OneShotApi, "carries" | "recordTypes">,
  target: RecordTarget,
  address: string,
): Addresses {
  const own = target.recordType === "AAAA" ? "ipv6" : "ipv4";
  const other = own === "ipv4" ? "ipv6" : "ipv4";
  const sibling = target.siblings?.[other];
  const takesOther = api.recordTypes.includes(other === "ipv4" ? "A" : "AAAA");
  return {
    [own]: address,
    ...(api.carries === "both" && takesOther && sibling !== undefined ? { [other]: sibling } : {}),
  };
}

async function write(api: OneShotApi, target: RecordTarget, address: string): Promise<WriteOutcome> {
  if (!api.recordTypes.includes(target.recordType)) {
    return failed(`${api.service}: ${api.typeRefusal ?? `takes ${api.recordTypes.join(" and ")} records only`}`, {
      cause: "refused",
      stopRetrying: true,
    });
  }
  const addresses = addressesToSend(api, target, address);
  const sent = await api.send(target, addresses);
  if (!sent.ok) {
    const { staleZone: _, ...failure } = sent;
    return failure;
  }
  const ignored = ignoredBy(sent.value.held, addresses);
  if (ignored !== undefined) {
    return failed(
      `${api.service}: answered that ${target.hostname} holds ${ignored}, not what was sent (${describe(addresses)}): the update was ignored`,
      {
        cause: "refused",
        stopRetrying: true,
      },
    );
  }
  return {
    ok: true,
    action: sent.value.change === "unchanged" ? "unchanged" : "updated",
    externalId: sent.value.externalId,
    zoneId: sent.value.zoneId ?? "",
    message: sent.value.detail,
  };
}

/**
 * The address an answer names instead of one sent, or undefined when the answer agrees (or names
 * none). An address of a family that was not sent is the hostname's other one, kept by the service.
 */
function ignoredBy(held: readonly string[], sent: Addresses): string | undefined {
  const addresses = held.filter((a) => isIP(a) !== 0);
  if (addresses.length === 0) return undefined;
  const sentOf = (a: string) => (isIP(a) === 6 ? sent.ipv6 : sent.ipv4);
  const wrong = addresses.find((a) => {
    const ours = sentOf(a);
    return ours !== undefined && !sameAddress(a, ours);
  });
  if (wrong !== undefined) return wrong;
  const agrees = addresses.some((a) => {
    const ours = sentOf(a);
    return ours !== undefined && sameAddress(a, ours);
  });
  return agrees ? undefined : addresses.join(", ");
}

function describe(addresses: Addresses): string {
  return [addresses.ipv4, addresses.ipv6].filter((a) => a !== undefined).join(", ");
}
