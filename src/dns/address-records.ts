// A set of several addresses at a service that keeps one record per address (DNSimple, Domeneshop,
// Exoscale, dynv6 …): the requests `ZoneApi.writeAddressSet` makes there. A record whose address
// stays is kept (changed only when the config asks for another TTL); one whose address goes is
// reused for a new address, or deleted when none is left over; a new address left over gets a record
// of its own. So a set of two whose one address changes costs one request, as a single record does.

import type { Step } from "./provider";
import { sameAddress } from "./zones";

/** The requests on one service's records; each answers the record as the service now keeps it. */
export interface AddressRecords {
  /** A new record of the set holding `address`. */
  create(address: string): Promise<Step<Record<string, unknown>>>;
  /** `record` made to hold `address`, with the config's TTL. */
  change(record: Record<string, unknown>, address: string): Promise<Step<Record<string, unknown>>>;
  delete(record: Record<string, unknown>): Promise<Step<unknown>>;
}

/**
 * Makes `records` (the set as read, one record per address, the address in `field`) hold exactly
 * `addresses`; `kept(record)`: whether a record already has the settings the config asks for.
 * Answers the set's records after the write, in the order of `addresses`.
 */
export async function writeAddressRecords(
  records: readonly Record<string, unknown>[],
  addresses: readonly string[],
  field: string,
  kept: (record: Record<string, unknown>) => boolean,
  service: AddressRecords,
): Promise<Step<Record<string, unknown>[]>> {
  const holds = (record: Record<string, unknown>, address: string) => sameAddress(String(record[field]), address);
  const spare = records.filter((record) => !addresses.some((address) => holds(record, address)));
  const written: Record<string, unknown>[] = [];
  for (const address of addresses) {
    const holding = records.find((record) => holds(record, address));
    if (holding !== undefined && kept(holding)) {
      written.push(holding);
      continue;
    }
    const reused = holding ?? spare.shift();
    const answer = reused === undefined ? await service.create(address) : await service.change(reused, address);
    if (!answer.ok) return answer;
    written.push(answer.value);
  }
  for (const record of spare) {
    const deleted = await service.delete(record);
    if (!deleted.ok) return deleted;
  }
  return { ok: true, value: written };
}
