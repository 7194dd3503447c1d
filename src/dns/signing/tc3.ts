// Tencent Cloud API 3.0's signature, TC3-HMAC-SHA256, for DNSPod: SigV4's shape with Tencent's
// names — a canonical request over the method, `/`, the query, the signed headers (`content-type`
// and `host`) and the payload's SHA-256; a string to sign with the timestamp and the scope
// `<UTC date>/<service>/tc3_request`; a key derived from `TC3` + SecretKey through the date, the
// service and `tc3_request`. Checked against the worked example Tencent publishes
// (test/unit/dns/tc3.test.ts), and the DNSPod fake checks every request with the same functions.
//
// Source: Tencent Cloud API 3.0 documentation, "Signature v3" (the same page in every product's API
// documentation, e.g. tencentcloud.com/document/product/1097/42104), and its worked example.

import { createHmac } from "node:crypto";
import { sha256Hex } from "./digest";

const TC3_ALGORITHM = "TC3-HMAC-SHA256";

export interface Tc3Request {
  method: string;
  host: string;
  contentType: string;
  /** The query string as sent (empty for a POST). */
  query: string;
  payload: string;
}

/** The canonical request over `content-type` and `host`, the two headers Tencent requires to be signed. */
export function canonicalRequest(request: Tc3Request): string {
  const headers = `content-type:${request.contentType.trim().toLowerCase()}\nhost:${request.host.trim().toLowerCase()}\n`;
  return [
    request.method.toUpperCase(),
    "/",
    request.query,
    headers,
    "content-type;host",
    sha256Hex(request.payload),
  ].join("\n");
}

/** `YYYY-MM-DD` in UTC of a Unix timestamp in seconds: the scope's date (never the local one). */
export function scopeDate(timestamp: number): string {
  return new Date(timestamp * 1000).toISOString().slice(0, 10);
}

export function stringToSign(canonical: string, timestamp: number, service: string): string {
  return [
    TC3_ALGORITHM,
    String(timestamp),
    `${scopeDate(timestamp)}/${service}/tc3_request`,
    sha256Hex(canonical),
  ].join("\n");
}

/** The hex signature of a string to sign, under the key derived from the SecretKey, date and service. */
export function tc3Signature(secretKey: string, date: string, service: string, toSign: string): string {
  const secretDate = createHmac("sha256", `TC3${secretKey}`).update(date).digest();
  const secretService = createHmac("sha256", secretDate).update(service).digest();
  const secretSigning = createHmac("sha256", secretService).update("tc3_request").digest();
  return createHmac("sha256", secretSigning).update(toSign).digest("hex");
}

/** The `Authorization` header of a request made at `timestamp` (Unix seconds). */
export function tc3Authorization(
  request: Tc3Request,
  credentials: { secretId: string; secretKey: string },
  service: string,
  timestamp: number,
): string {
  const signature = tc3Signature(
    credentials.secretKey,
    scopeDate(timestamp),
    service,
    stringToSign(canonicalRequest(request), timestamp, service),
  );
  return `${TC3_ALGORITHM} Credential=${credentials.secretId}/${scopeDate(timestamp)}/${service}/tc3_request, SignedHeaders=content-type;host, Signature=${signature}`;
}
