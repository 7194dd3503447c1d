// TSIG (RFC 8945): a shared secret signs each DNS message with an HMAC, so a name server can tell
// that an UPDATE comes from a key allowed to make it, and the client that the answer comes from the
// server that knows the key. The MAC covers the message as it was before its TSIG record was added
// (original id, additional count without it) followed by the TSIG variables (§4.3.3); an answer's MAC
// also covers the request's MAC first (§4.3.1), which binds the answer to our own request. The
// answer's time signed must be within its fudge of our clock (§5.2.3).

import { createHmac, timingSafeEqual } from "node:crypto";
import { CLASS, decodeMessage, type Message, RCODE, Reader, type ResourceRecord, TYPE, Writer } from "./wire";

/** The algorithms ddnsd signs with, by their names on the wire (RFC 8945 §6); the first is the default. */
export const TSIG_ALGORITHMS = ["hmac-sha256", "hmac-sha512", "hmac-sha384", "hmac-sha224", "hmac-sha1"] as const;
export type TsigAlgorithm = (typeof TSIG_ALGORITHMS)[number];

const DIGEST: Record<TsigAlgorithm, { hash: string; bytes: number }> = {
  "hmac-sha256": { hash: "sha256", bytes: 32 },
  "hmac-sha512": { hash: "sha512", bytes: 64 },
  "hmac-sha384": { hash: "sha384", bytes: 48 },
  "hmac-sha224": { hash: "sha224", bytes: 28 },
  "hmac-sha1": { hash: "sha1", bytes: 20 },
};

/** The usual allowance for clocks that differ (BIND and Knot use the same). */
export const DEFAULT_FUDGE_SECONDS = 300;

export interface TsigKey {
  /** The key's name as the server knows it; compared without case. */
  name: string;
  algorithm: TsigAlgorithm;
  secret: Uint8Array;
}

export function isTsigAlgorithm(name: string): name is TsigAlgorithm {
  return (TSIG_ALGORITHMS as readonly string[]).includes(name);
}

/** Names in the MAC are in canonical form: lowercase, without a trailing dot. */
function canonical(name: string): string {
  return name.toLowerCase().replace(/\.$/, "");
}

export interface TsigRecord {
  keyName: string;
  algorithm: string;
  timeSigned: number;
  fudge: number;
  mac: Uint8Array;
  originalId: number;
  error: number;
  other: Uint8Array;
}

export function readTsig(record: ResourceRecord, bytes: Uint8Array): TsigRecord {
  const reader = new Reader(bytes, record.dataOffset ?? 0);
  const source = record.dataOffset === undefined ? new Reader(record.data) : reader;
  const algorithm = source.name();
  const timeSigned = source.u48();
  const fudge = source.u16();
  const mac = source.raw(source.u16());
  const originalId = source.u16();
  const error = source.u16();
  const other = source.raw(source.u16());
  return { keyName: record.name, algorithm, timeSigned, fudge, mac, originalId, error, other };
}

/** What the MAC is computed over, after the (optional) request MAC and the message itself. */
function variables(tsig: Omit<TsigRecord, "mac" | "originalId">): Uint8Array {
  return new Writer()
    .name(canonical(tsig.keyName))
    .u16(CLASS.ANY)
    .u32(0)
    .name(canonical(tsig.algorithm))
    .u48(tsig.timeSigned)
    .u16(tsig.fudge)
    .u16(tsig.error)
    .u16(tsig.other.length)
    .raw(tsig.other)
    .done();
}

function mac(
  key: TsigKey,
  unsigned: Uint8Array,
  tsig: Omit<TsigRecord, "mac" | "originalId">,
  requestMac?: Uint8Array,
): Uint8Array {
  const hmac = createHmac(DIGEST[key.algorithm].hash, key.secret);
  if (requestMac !== undefined) hmac.update(new Writer().u16(requestMac.length).raw(requestMac).done());
  hmac.update(unsigned);
  hmac.update(variables(tsig));
  return new Uint8Array(hmac.digest());
}

export interface SignOptions {
  /** Seconds since the epoch; the clock's by default. */
  now?: number;
  fudge?: number;
  /** Signing an answer: the request's MAC, which the answer's MAC covers. */
  requestMac?: Uint8Array;
  /** The TSIG error to report (an answer to a request that failed TSIG's checks). */
  error?: number;
  other?: Uint8Array;
}

/** The message with its TSIG record appended, and the MAC (an answer to it must cover this MAC). */
export function sign(
  unsigned: Uint8Array,
  key: TsigKey,
  options: SignOptions = {},
): { bytes: Uint8Array; mac: Uint8Array } {
  const tsig = {
    keyName: key.name,
    algorithm: key.algorithm,
    timeSigned: options.now ?? Math.floor(Date.now() / 1000),
    fudge: options.fudge ?? DEFAULT_FUDGE_SECONDS,
    error: options.error ?? 0,
    other: options.other ?? new Uint8Array(),
  };
  const digest = mac(key, unsigned, tsig, options.requestMac);
  const id = ((unsigned[0] as number) << 8) | (unsigned[1] as number);
  const data = new Writer()
    .name(canonical(key.algorithm))
    .u48(tsig.timeSigned)
    .u16(tsig.fudge)
    .u16(digest.length)
    .raw(digest)
    .u16(id)
    .u16(tsig.error)
    .u16(tsig.other.length)
    .raw(tsig.other)
    .done();
  const record = new Writer()
    .name(canonical(key.name))
    .u16(TYPE.TSIG)
    .u16(CLASS.ANY)
    .u32(0)
    .u16(data.length)
    .raw(data)
    .done();
  const bytes = new Uint8Array(unsigned.length + record.length);
  bytes.set(unsigned);
  bytes.set(record, unsigned.length);
  const additionals = (((unsigned[10] as number) << 8) | (unsigned[11] as number)) + 1;
  bytes[10] = additionals >>> 8;
  bytes[11] = additionals & 0xff;
  return { bytes, mac: digest };
}

/**
 * What checking a signed message found:
 * - `valid`: our key's MAC, within the time allowed;
 * - `unsigned`: no TSIG record (a name server answers a signed request unsigned only when it does not
 *   know TSIG at all, or it is not the server it claims to be);
 * - `server-error`: the other side's TSIG record reports an error (BADSIG, BADKEY, BADTIME: `error`)
 *   and, for BADSIG and BADKEY, carries no MAC (it could not sign with a key it could not use);
 * - `badkey`: signed with another key or algorithm; `badsig`: the MAC is wrong; `badtime`: the MAC is
 *   right but the time signed is further from our clock than its fudge.
 */
export type TsigCheck =
  | { status: "valid"; message: Message; tsig: TsigRecord }
  | { status: "unsigned"; message: Message }
  | { status: "server-error" | "badkey" | "badsig" | "badtime"; message: Message; tsig: TsigRecord; error: number };

/**
 * Checks a signed message (an answer to our request, with the request's MAC and the request itself,
 * whose header and question it must echo before anything else of it is read; or a request, without).
 */
export function verify(
  bytes: Uint8Array,
  key: TsigKey,
  options: { requestMac?: Uint8Array; answering?: Message; now?: number } = {},
): TsigCheck {
  const message = decodeMessage(bytes, options.answering);
  const record = message.additionals.at(-1);
  if (record === undefined || record.type !== TYPE.TSIG) return { status: "unsigned", message };
  const tsig = readTsig(record, bytes);
  if (canonical(tsig.keyName) !== canonical(key.name) || canonical(tsig.algorithm) !== key.algorithm) {
    return { status: tsig.error !== 0 ? "server-error" : "badkey", message, tsig, error: tsig.error || RCODE.BADKEY };
  }
  if (tsig.mac.length === 0 && tsig.error !== 0) return { status: "server-error", message, tsig, error: tsig.error };

  // The message as it was signed: without the TSIG record, with the additional count before it and
  // the id it had then (a forwarder may have changed the header's).
  const unsigned = bytes.slice(0, record.start);
  unsigned[0] = tsig.originalId >>> 8;
  unsigned[1] = tsig.originalId & 0xff;
  const additionals = message.additionals.length - 1;
  unsigned[10] = additionals >>> 8;
  unsigned[11] = additionals & 0xff;
  const expected = mac(key, unsigned, tsig, options.requestMac);
  // A truncated MAC (RFC 8945 §5.2.2.1) is accepted down to half the digest, and never below 10 bytes.
  const least = Math.max(10, Math.ceil(DIGEST[key.algorithm].bytes / 2));
  const matches =
    tsig.mac.length >= least &&
    tsig.mac.length <= expected.length &&
    timingSafeEqual(tsig.mac, expected.subarray(0, tsig.mac.length));
  if (!matches) return { status: "badsig", message, tsig, error: RCODE.BADSIG };
  if (tsig.error !== 0) return { status: "server-error", message, tsig, error: tsig.error };
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - tsig.timeSigned) > tsig.fudge) return { status: "badtime", message, tsig, error: RCODE.BADTIME };
  return { status: "valid", message, tsig };
}
