// What the request signers share (Route 53's SigV4, Tencent's TC3, Huawei's SDK-HMAC-SHA256,
// Alibaba's RPC signature): the SHA-256 hex digest they hash payloads and canonical requests with,
// RFC 3986 percent-encoding, and the canonical headers of SigV4's form, which Huawei's copies.

import { createHash } from "node:crypto";

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** RFC 3986 encoding: only `A-Z a-z 0-9 - _ . ~` stay literal; a space is `%20`. */
export function percentEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The canonical headers over exactly `headers`: names lowercased and sorted, one `name:value` line
 * each (the value as `tidy` leaves it), and the signed headers, the names joined with `;`.
 */
export function canonicalHeaders(
  headers: Record<string, string>,
  tidy: (value: string) => string,
): { text: string; signedHeaders: string } {
  const lowered = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), tidy(value)]));
  const names = [...lowered.keys()].sort();
  return {
    text: names.map((name) => `${name}:${lowered.get(name)}\n`).join(""),
    signedHeaders: names.join(";"),
  };
}
