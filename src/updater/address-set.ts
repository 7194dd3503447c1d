// A domain with several address sources (docs/operations.md, "Several addresses for one name"): each
// source asked in turn, and what the record is to hold made of their answers — every source's address
// (`all`), or the first source's in order that has one (`first`: failover, and back to the first as
// soon as it answers again, since every check starts from it).

import type { Detection } from "../ip/detect";
import {
  type AddressMode,
  addressMode,
  type DomainSource,
  parseDomainSource,
  sourceText,
  storedSources,
} from "../ip/source";
import { addressForRecord } from "../ip/suffix";
import type { IpFamily } from "../net/address";
import type { DomainRow } from "../store/rows";

/** One source of a list, read from its stored form; one that no longer reads is a fixed address that fails its check. */
function readSource(text: string): Exclude<DomainSource, { kind: "push" }> {
  const source = parseDomainSource(text, true);
  if (typeof source === "string" || source.kind === "push") return { kind: "fixed", ip: text };
  return source;
}

/** The sources of a domain with a list of them, in order; null for a domain with one source or the system's. */
export function sourceList(domain: Pick<DomainRow, "addressSource">): Exclude<DomainSource, { kind: "push" }>[] | null {
  const sources = storedSources(domain.addressSource);
  return sources === null || sources.length < 2 ? null : sources.map(readSource);
}

/**
 * The addresses of a list's detection, as the record is to hold them: each source's address (with
 * the domain's IPv6 suffix applied), once each, in the sources' order.
 */
export function wantedAddresses(
  detection: Extract<Detection, { ok: true }>,
  config: Record<string, unknown>,
): string[] {
  const members = detection.set ?? [{ ip: detection.ip, source: detection.source }];
  return [...new Set(members.map((member) => addressForRecord(member.ip, config)))];
}

/**
 * Asks a list's sources (`ask`: one source's detection) and makes one detection of their answers: in
 * `all` mode every source is asked and the addresses of those that answer are kept, the others named
 * as failed; in `first` mode they are asked in order until one answers, those before it named as
 * failed. A failure when none answers, naming each source's reason.
 */
export async function detectList(
  family: IpFamily,
  sources: readonly Exclude<DomainSource, { kind: "push" }>[],
  mode: AddressMode,
  ask: (source: Exclude<DomainSource, { kind: "push" }>) => Promise<Detection>,
): Promise<Detection> {
  const set: { ip: string; source: string }[] = [];
  const failed: { source: string; error: string }[] = [];
  const answers =
    mode === "all"
      ? await Promise.all(sources.map((source) => ask(source).then((answer) => ({ source, answer }))))
      : [];
  if (mode === "first") {
    for (const source of sources) {
      const answer = await ask(source);
      answers.push({ source, answer });
      if (answer.ok) break;
    }
  }
  for (const { source, answer } of answers) {
    const text = sourceText(source);
    if (answer.ok) set.push({ ip: answer.ip, source: text });
    else failed.push({ source: text, error: reason(answer.error) });
  }
  const [first] = set;
  if (first === undefined)
    return {
      ok: false,
      error: `IPv${family} detection failed: no source of the list gave an address (${failed.map((f) => `${f.source}: ${f.error}`).join("; ")})`,
    };
  return { ok: true, ip: first.ip, source: first.source, set, failed };
}

/** A source's failure without the "IPv4 detection failed: " its detection starts with: the list's message says it once. */
function reason(error: string): string {
  return error.replace(/^IPv[46] detection failed: /, "");
}

/** The mode of a domain with a list of sources. */
export function domainAddressMode(domain: Pick<DomainRow, "config">): AddressMode {
  return addressMode(domain.config);
}

/**
 * The addresses ddnsd last wrote for the domain, as the API's `addresses` shows them: the stored set
 * of a domain with several sources, else its one address; null before the first write (what the
 * record then holds is taken as ddnsd's).
 */
export function writtenAddresses(domain: Pick<DomainRow, "addresses" | "lastKnownIp">): readonly string[] | null {
  if (domain.addresses !== null) return domain.addresses;
  return domain.lastKnownIp === null ? null : [domain.lastKnownIp];
}
