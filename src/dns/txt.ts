// The TXT primitives of a zone service (docs/certificates.md), in the two shapes services keep a
// name's TXT values in: one record per value (Cloudflare, Porkbun, OVH …), where adding creates a
// record and removing deletes exactly the records holding the value; or one set holding every value
// (deSEC, Gandi, GoDaddy, Route 53 …), written whole from what was just read, without the value or
// with it. A service module gives the requests; the reconciler (reconcile.ts, `reconcileTxt`)
// decides whether anything is written at all.

import type { Step } from "./provider";
import type { TxtApi, Zone } from "./reconcile";

/** A TXT record as a service keeps it: its id, and its text without the quotes. */
export interface TxtRecord {
  id: string;
  value: string;
}

/** The requests of a service that keeps one TXT record per value. */
export interface TxtRecords {
  /** The name's TXT records. */
  list(zone: Zone, name: string): Promise<Step<TxtRecord[]>>;
  create(zone: Zone, name: string, value: string): Promise<Step<unknown>>;
  delete(zone: Zone, record: TxtRecord): Promise<Step<unknown>>;
}

/** The requests of a service that keeps a name's TXT values as one set. */
export interface TxtSet {
  /** The name's TXT values; [] when it has none. */
  read(zone: Zone, name: string): Promise<Step<string[]>>;
  /** Makes the name's set hold exactly `values` (none: the set goes); `existed` whether it did before. */
  write(zone: Zone, name: string, values: readonly string[], existed: boolean): Promise<Step<unknown>>;
}

const DONE: Step<void> = { ok: true, value: undefined };

export function txtRecords(service: TxtRecords): TxtApi {
  return {
    async read(zone, name) {
      const listed = await service.list(zone, name);
      return listed.ok ? { ok: true, value: listed.value.map((record) => record.value) } : listed;
    },
    async add(zone, name, _current, value) {
      const created = await service.create(zone, name, value);
      return created.ok ? DONE : created;
    },
    async remove(zone, name, _current, value) {
      // Listed afresh for the ids: only the records holding the value go.
      const listed = await service.list(zone, name);
      if (!listed.ok) return listed;
      for (const record of listed.value.filter((held) => held.value === value)) {
        const deleted = await service.delete(zone, record);
        if (!deleted.ok) return deleted;
      }
      return DONE;
    },
  };
}

export function txtSet(service: TxtSet): TxtApi {
  return {
    read: (zone, name) => service.read(zone, name),
    async add(zone, name, current, value) {
      const written = await service.write(zone, name, [...current, value], current.length > 0);
      return written.ok ? DONE : written;
    },
    async remove(zone, name, current, value) {
      const written = await service.write(
        zone,
        name,
        current.filter((held) => held !== value),
        true,
      );
      return written.ok ? DONE : written;
    },
  };
}

/** A TXT text in the double quotes most services keep it in, `"` and `\` escaped. */
export function quotedTxt(value: string): string {
  return `"${value.replace(/["\\]/g, "\\$&")}"`;
}

/** A TXT record's text however a service spells it: its quoted strings joined (as a resolver reads them), or the text as it is. */
export function unquotedTxt(content: unknown): string {
  const text = String(content ?? "");
  const strings = [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)];
  if (strings.length === 0 || !/^\s*"/.test(text)) return text;
  return strings.map((match) => match[1]!.replace(/\\(.)/g, "$1")).join("");
}
