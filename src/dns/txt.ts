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

/** A name's TXT set as read: its values, and its TTL where the service says (a write sends it back). */
export interface HeldTxt {
  values: string[];
  ttl?: number;
  /** The service's own object, for a write that must name the set exactly as it was read (Cloud DNS's deletions). */
  raw?: unknown;
}

/** The requests of a service that keeps a name's TXT values as one set. */
export interface TxtSet {
  /** The name's TXT set; no values when it has none. */
  read(zone: Zone, name: string): Promise<Step<HeldTxt>>;
  /** Makes the name's set hold exactly `values` (none: the set goes), `held` being what was read. */
  write(zone: Zone, name: string, values: readonly string[], held: HeldTxt): Promise<Step<unknown>>;
}

/** The TTL of a TXT set or record made for a challenge, where the service takes one that short: the value lives minutes. */
export const CHALLENGE_TTL = 60;

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
  // What the reconciler's read found, for the write that follows it (its TTL, which values exist).
  const read = new Map<string, HeldTxt>();
  const key = (zone: Zone, name: string) => `${zone.id} ${name}`;
  async function write(zone: Zone, name: string, current: readonly string[], values: readonly string[]) {
    const held = read.get(key(zone, name)) ?? { values: [...current] };
    read.delete(key(zone, name));
    const written = await service.write(zone, name, values, held);
    return written.ok ? DONE : written;
  }
  return {
    async read(zone, name) {
      const held = await service.read(zone, name);
      if (!held.ok) return held;
      read.set(key(zone, name), held.value);
      return { ok: true, value: held.value.values };
    },
    add: (zone, name, current, value) => write(zone, name, current, [...current, value]),
    remove: (zone, name, current, value) =>
      write(
        zone,
        name,
        current,
        current.filter((held) => held !== value),
      ),
  };
}

/**
 * The service's own objects of a set as read (`held.raw`, one per value, in the order of
 * `held.values`), by value: what a write sends back, untouched, for each value it keeps.
 */
export function readByValue(held: HeldTxt): Map<string, Record<string, unknown>> {
  const read = Array.isArray(held.raw) ? (held.raw as Record<string, unknown>[]) : [];
  return new Map(read.map((object, i) => [held.values[i]!, object] as const));
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
