// Writing an address set at a service that keeps one record per address (Porkbun, Vercel, OVH …):
// only the difference is sent. A record whose address stays is left alone (edited only for a TTL the
// config asks for), a record whose address goes is edited to hold a new address where the service
// edits records (one request instead of a delete and a create), and otherwise created and deleted.
// Records are only ever the name's own records of that type, so nothing else is touched.

import type { Step } from "./provider";
import type { RecordSet, Zone, ZoneApi } from "./reconcile";
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

/** How a service that keeps one record per address reaches each record of a set as read (`RecordSet.members`). */
export interface SetMembers {
  /** The address a record holds. */
  address(record: Record<string, unknown>): string;
  /** The TTL a record holds, where the service says. */
  ttl(record: Record<string, unknown>): number | undefined;
  /** The set made of one record, as the service's `updateRecordSet` takes it. */
  asSet(record: Record<string, unknown>): RecordSet;
  /** Deletes one record. */
  delete(zone: Zone, record: Record<string, unknown>): Promise<Step<unknown>>;
}

/**
 * `ZoneApi.writeAddressSet` through the service's own one-record requests (`updateRecordSet`,
 * `createRecordSet`): only the difference is sent, a record whose address stays is rewritten only
 * for a TTL the config asks for (as the service keeps it: `storedTtl`). Answers the set as written.
 */
export async function writeSetByRecords(
  api: Pick<ZoneApi, "updateRecordSet" | "createRecordSet" | "storedTtl">,
  members: SetMembers,
  [zone, hostname, type, current, addresses, settings]: Parameters<NonNullable<ZoneApi["writeAddressSet"]>>,
): Promise<Step<RecordSet>> {
  const ttl = settings.ttl ?? current?.ttl;
  const askedTtl = settings.ttl === undefined ? undefined : (api.storedTtl?.(settings.ttl) ?? settings.ttl);
  let setId = current?.id;
  const done = await writePerAddress(current?.members ?? [], addresses, {
    address: members.address,
    stale: (record) => askedTtl !== undefined && members.ttl(record) !== askedTtl,
    edit: (record, address) => api.updateRecordSet(zone, hostname, type, members.asSet(record), address, settings),
    create: async (address) => {
      const created = await api.createRecordSet(zone, hostname, type, address, ttl === undefined ? {} : { ttl });
      if (created.ok) setId ??= created.value.id;
      return created;
    },
    delete: (record) => members.delete(zone, record),
  });
  if (!done.ok) return done;
  return { ok: true, value: { id: setId ?? "", values: [...addresses], ...(ttl === undefined ? {} : { ttl }) } };
}
