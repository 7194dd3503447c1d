// Time-based one-time passwords (RFC 6238, the defaults every authenticator app uses: HMAC-SHA1,
// 30-second steps, 6 digits) from a base32 shared secret (RFC 4648), for services whose API login
// asks for the second factor (INWX).

import { createHmac } from "node:crypto";

/** A code's lifetime: every authenticator's codes change every 30 seconds. */
export const TOTP_STEP_MS = 30_000;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** The secret's bytes; undefined when it is not base32 (spaces, dashes and padding are ignored, case too). */
export function decodeBase32(text: string): Buffer | undefined {
  const clean = text.toUpperCase().replace(/[\s-]/g, "").replace(/=+$/, "");
  if (clean === "") return undefined;
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = ALPHABET.indexOf(char);
    if (index === -1) return undefined;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** The code for `nowMs` (RFC 6238 §4 with RFC 4226 §5.3's dynamic truncation). */
export function totp(secret: Buffer, nowMs: number, digits = 6): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(nowMs / TOTP_STEP_MS)));
  const hmac = createHmac("sha1", secret).update(counter).digest();
  const offset = hmac[hmac.length - 1]! & 0x0f;
  const code = (hmac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(code).padStart(digits, "0");
}
