// Detection of the public address: asks a source — a domain's own (`address_source`) or, for a
// domain without one, the family's system source (the one chosen in the pages, else
// DDNS_IPV4_SOURCE / DDNS_IPV6_SOURCE) — and remembers each source's answer for the status endpoint
// and the pages. A scheduled pass asks each distinct source once for all its domains.

import type { RecordType } from "../dns/provider";
import { type Detection, type DetectionFailure, detectPublicIp } from "../ip/detect";
import { type DnsQuestion, detectByDns } from "../ip/dns";
import { interfaceAddress } from "../ip/interface";
import type { SourceAnswer } from "../ip/public-ip";
import { type AddressSource, type DomainSource, sourceText } from "../ip/source";
import type { Logger } from "../log";
import { type IpFamily, isGlobalAddress, parseIpAddress } from "../net/address";
import type { FetchLike } from "../net/outbound";
import { effectiveSource, type SourceParts } from "./address-source";
import type { EventSink } from "./events";

/** What detecting takes: the source's parts, how requests leave, where the answer is kept and told. */
export interface DetectParts extends SourceParts {
  settings: SourceParts["settings"] & {
    allowPrivateIps: boolean;
    httpTimeoutMs: number;
    ipv4Dns: DnsQuestion[];
    ipv6Dns: DnsQuestion[];
    echoAgree: number;
  };
  fetch: FetchLike;
  /** The newest addresses, since when each family fails, and each source's own answer (the app's `publicIp`). */
  publicIp: {
    ipv4: string | null;
    ipv6: string | null;
    checkedAt: number | null;
    failures: { ipv4: DetectionFailure | null; ipv6: DetectionFailure | null };
    answers: Map<string, SourceAnswer>;
  };
  log: Logger;
  events: Pick<EventSink, "detected">;
}

/** The address family a record type holds. */
export function familyOf(recordType: RecordType): IpFamily {
  return recordType === "AAAA" ? 6 : 4;
}

/** The family's system source as it is in effect now, with its echo services' URLs. */
function systemSource(ctx: DetectParts, family: IpFamily): { source: AddressSource; urls: string[] } {
  const { source, urls } = effectiveSource(ctx, family);
  return { source, urls };
}

/** Asks one source (not `push`: a push brings its own address) for the family's address, as it is configured now. */
async function ask(
  ctx: DetectParts,
  family: IpFamily,
  source: Exclude<DomainSource, { kind: "push" }>,
  urls: string[],
): Promise<Detection> {
  const allowPrivate = ctx.settings.allowPrivateIps;
  switch (source.kind) {
    case "interface":
      return interfaceAddress(family, source.name, { allowPrivate });
    case "dns":
      return detectByDns(family, {
        questions: family === 4 ? ctx.settings.ipv4Dns : ctx.settings.ipv6Dns,
        timeoutMs: ctx.settings.httpTimeoutMs,
        allowPrivate,
      });
    case "fixed":
      // Checked like a detected address: the setting may have changed since it was stored.
      if (parseIpAddress(source.ip, family) === null)
        return { ok: false, error: `IPv${family} detection failed: fixed:${source.ip} is not an IPv${family} address` };
      if (!allowPrivate && !isGlobalAddress(source.ip)) {
        return {
          ok: false,
          error: `IPv${family} detection failed: fixed:${source.ip} is not a globally routable address (DDNS_ALLOW_PRIVATE_IPS allows it)`,
        };
      }
      return { ok: true, ip: source.ip, source: `fixed:${source.ip}` };
    case "web":
      return detectPublicIp(family, {
        urls,
        fetch: ctx.fetch,
        timeoutMs: ctx.settings.httpTimeoutMs,
        allowPrivate,
        agree: ctx.settings.echoAgree,
      });
  }
}

/** Keeps a source's answer for the address card: the address or the failure, and since when it says so. */
function remember(ctx: DetectParts, family: IpFamily, text: string, result: Detection, now: number): SourceAnswer {
  const key = `${family} ${text}`;
  const before = ctx.publicIp.answers.get(key);
  const ip = result.ok ? result.ip : null;
  const error = result.ok ? null : result.error;
  const same = before !== undefined && before.ip === ip && (before.error === null) === (error === null);
  const answer: SourceAnswer = {
    family,
    source: text,
    via: result.ok ? result.source : null,
    ip,
    error,
    since: same ? before.since : now,
    checkedAt: now,
  };
  ctx.publicIp.answers.set(key, answer);
  return answer;
}

/** How long a source's answer is shown again, rather than the source asked anew, when it is asked only to be shown. */
const SHOWN_ANSWER_MAX_AGE_MS = 60_000;

/** The questions asked only to be shown and not answered yet, per app (its answers map), by `<family> <source>`. */
const beingShown = new WeakMap<object, Map<string, Promise<SourceAnswer>>>();

/**
 * What a source gives now, only to be shown (the domain form's "Ask now"): its newest answer when it
 * is younger than a minute, else the source asked once (forms asking at the same time share the
 * question), so that looking again and again does not hammer the echo services or the resolvers.
 * The answer is kept like any other (the address card lists it), but no record depends on it: it
 * is not the family's public address, and it is neither logged, told nor counted as a detection.
 */
export function askToShow(ctx: DetectParts, family: IpFamily, source: AddressSource): Promise<SourceAnswer> {
  const text = sourceText(source);
  const key = `${family} ${text}`;
  const known = ctx.publicIp.answers.get(key);
  if (known !== undefined && Date.now() - known.checkedAt < SHOWN_ANSWER_MAX_AGE_MS) return Promise.resolve(known);
  let asking = beingShown.get(ctx.publicIp.answers);
  if (asking === undefined) beingShown.set(ctx.publicIp.answers, (asking = new Map()));
  const pending = asking.get(key);
  if (pending !== undefined) return pending;
  const question = ask(ctx, family, source, systemSource(ctx, family).urls)
    .then((result) => remember(ctx, family, text, result, Date.now()))
    .finally(() => asking.delete(key));
  asking.set(key, question);
  return question;
}

/**
 * Asks the family's system source (the one chosen in the pages, else DDNS_IPV4_SOURCE /
 * DDNS_IPV6_SOURCE) once, and remembers the answer as the family's public address.
 */
export function detectFamily(ctx: DetectParts, family: IpFamily): Promise<Detection> {
  return detectFrom(ctx, family, null);
}

/**
 * Asks `source` (a domain's own; null for the family's system source) once. Every answer is kept for
 * the address card; the system source's is also the family's public address and, when it fails,
 * the family's failure. Failures are logged and told (notifications, counters).
 */
export async function detectFrom(
  ctx: DetectParts,
  family: IpFamily,
  source: Exclude<DomainSource, { kind: "push" }> | null,
): Promise<Detection> {
  const system = systemSource(ctx, family);
  const asked = source ?? system.source;
  const result = await ask(ctx, family, asked, system.urls);
  const now = Date.now();
  remember(ctx, family, sourceText(asked), result, now);
  if (source === null) {
    const key = family === 4 ? "ipv4" : "ipv6";
    ctx.publicIp.checkedAt = now;
    if (result.ok) {
      ctx.publicIp[key] = result.ip;
      ctx.publicIp.failures[key] = null;
    } else {
      // The pages say since when it fails, not just that the last try did.
      ctx.publicIp.failures[key] = { since: ctx.publicIp.failures[key]?.since ?? now, error: result.error };
    }
  }
  // Each failed question at debug: a pass says an outage once per family (scheduler.ts), not per ask.
  if (!result.ok)
    ctx.log.debug("public IP detection failed", {
      family: `IPv${family}`,
      source: sourceText(asked),
      reason: result.error,
    });
  ctx.events.detected(family, result);
  return result;
}
