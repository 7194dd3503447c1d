// Writing an address set at a service that keeps one record per address (Porkbun, Vercel, OVH …):
// only the difference is sent. A record whose address stays is left alone (edited only for a TTL the
// config asks for), a record whose address goes is edited to hold a new address where the service
// edits records (one request instead of a delete and a create), and otherwise created and deleted.
// Records are only ever the name's own records of that type, so nothing else is touched.

import type { Step } from "./provider";
import { sameAddress } from "./zones";

/** One record per address, as the service's own requests reach them. */
export interface PerAddress<R, W = R> {
  /** The address a record holds. */
  address(record: R): string;
  /** Whether a record that keeps its address still needs an edit (its TTL is not the one asked for). */
  stale?(record: R): boolean;
  /** Makes the record hold `address` (where the service edits a record in place). */
  edit?(record: R, address: string): Promise<Step<W>>;
  create(address: string): Promise<Step<W>>;
  delete(record: R): Promise<Step<unknown>>;
}

/**
 * Makes `records` (the name's, of one type) hold exactly `addresses`; the records that hold them
 * after (those kept as read, and what each edit or create answered: `W`, where a service answers
 * something other than a record).
 */
export async function writePerAddress<R, W = R>(
  records: readonly R[],
  addresses: readonly string[],
  service: PerAddress<R, W>,
): Promise<Step<(R | W)[]>> {
  const spare = records.filter((record) => !addresses.some((address) => sameAddress(service.address(record), address)));
  const result: (R | W)[] = [];
  for (const address of addresses) {
    const holding = records.find((record) => sameAddress(service.address(record), address));
    if (holding !== undefined && !(service.edit && service.stale?.(holding))) {
      result.push(holding);
      continue;
    }
    const reused = holding ?? (service.edit ? spare.shift() : undefined);
    const written = reused !== undefined ? await service.edit!(reused, address) : await service.create(address);
    if (!written.ok) return written;
    result.push(written.value);
  }
  for (const record of spare) {
    const deleted = await service.delete(record);
    if (!deleted.ok) return deleted;
  }
  return { ok: true, value: result };
}
