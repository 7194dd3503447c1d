// Writing a set of addresses at a service that keeps one record per address (docs/operations.md,
// "Several addresses for one name"), in the fewest requests: a record whose address stays is left as
// it is (written only when the config asks for another TTL), one whose address goes is written with a
// new address (so what else it keeps stays) or deleted, and a new address left over gets a record of
// its own. Records are never touched beyond that difference.

import type { Step } from "./provider";
import { sameAddress } from "./zones";

/** One service's records of the name and the requests that change them. */
export interface AddressRecords<Row> {
  /** The name's records of the type, as read. */
  records: readonly Row[];
  /** The address a record holds. */
  address(record: Row): string;
  /** The TTL a record holds, where the service says. */
  ttl(record: Row): number | undefined;
  /** Writes `record` to hold `address` (and the TTL the config asks for), keeping the rest of it. */
  update(record: Row, address: string): Promise<Step<unknown>>;
  /** Creates a record of its own for `address`. */
  create(address: string): Promise<Step<unknown>>;
  /** Deletes `record`. */
  remove(record: Row): Promise<Step<unknown>>;
}

/** Makes the records hold exactly `addresses`; `ttl`: the TTL the config asks for, if any. */
export async function writeAddressRecords<Row>(
  addresses: readonly string[],
  ttl: number | undefined,
  service: AddressRecords<Row>,
): Promise<Step<void>> {
  const holds = (record: Row, address: string) => sameAddress(service.address(record), address);
  const spare = service.records.filter((record) => !addresses.some((address) => holds(record, address)));
  for (const address of addresses) {
    const holding = service.records.find((record) => holds(record, address));
    if (holding !== undefined && (ttl === undefined || service.ttl(holding) === ttl)) continue;
    const reused = holding ?? spare.shift();
    const written = reused === undefined ? await service.create(address) : await service.update(reused, address);
    if (!written.ok) return written;
  }
  for (const record of spare) {
    const deleted = await service.remove(record);
    if (!deleted.ok) return deleted;
  }
  return { ok: true, value: undefined };
}
