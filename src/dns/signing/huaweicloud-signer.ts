// Huawei Cloud's AK/SK signature, SDK-HMAC-SHA256, for Huawei Cloud DNS: SigV4's canonical request
// with Huawei's differences — every path ends in `/`, query values of one name are sorted too, the
// string to sign is the algorithm, the `X-Sdk-Date` and the canonical request's SHA-256 (no scope),
// and the key is the SecretKey itself. Checked against the official SDK's own test vectors
// (test/unit/dns/huaweicloud-signer.test.ts), and the fake checks every request with the same functions.
//
// Sources: Huawei Cloud API Gateway "AK/SK signing and authentication" guide (support.huaweicloud.com,
// API signing); huaweicloud/huaweicloud-sdk-go-v3 core/auth/signer/signer.go and signer_test.go.

import { createHmac } from "node:crypto";
import { canonicalHeaders, percentEncode, sha256Hex } from "./digest";

const SDK_ALGORITHM = "SDK-HMAC-SHA256";

export interface HuaweiRequest {
  method: string;
  url: URL;
  /** Headers to sign besides `X-Sdk-Date` (e.g. `host`); names in any case. */
  headers: Record<string, string>;
  body: string;
}

/** `20060102T150405Z`: the X-Sdk-Date form of a moment, in UTC. */
export function sdkDate(now: Date): string {
  return now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/** The canonical request over exactly `headers` (their names lowercased), and the list of their names. */
export function canonicalRequest(method: string, url: URL, headers: Record<string, string>, payloadHash: string) {
  const segments = url.pathname.split("/").map((segment) => percentEncode(decodeURIComponent(segment)));
  const path = segments.join("/").endsWith("/") ? segments.join("/") : `${segments.join("/")}/`;
  const byName = new Map<string, string[]>();
  for (const [name, value] of url.searchParams) byName.set(name, [...(byName.get(name) ?? []), value]);
  const query = [...byName.keys()]
    .sort()
    .flatMap((name) => (byName.get(name) ?? []).sort().map((value) => `${percentEncode(name)}=${percentEncode(value)}`))
    .join("&");
  const { text: canonical, signedHeaders } = canonicalHeaders(headers, (value) => value.trim());
  return {
    text: [method.toUpperCase(), path, query, canonical, signedHeaders, payloadHash].join("\n"),
    signedHeaders,
  };
}

/** The hex signature of a canonical request made at `date` (the X-Sdk-Date value). */
export function signature(secretKey: string, date: string, canonicalRequestText: string): string {
  const stringToSign = [SDK_ALGORITHM, date, sha256Hex(canonicalRequestText)].join("\n");
  return createHmac("sha256", secretKey).update(stringToSign).digest("hex");
}

/** The headers to add: `X-Sdk-Date` and `Authorization` (the signed ones are the caller's to send). */
export function signRequest(
  request: HuaweiRequest,
  credentials: { accessKey: string; secretKey: string },
  now: Date = new Date(),
): { "X-Sdk-Date": string; Authorization: string } {
  const date = sdkDate(now);
  const canonical = canonicalRequest(
    request.method,
    request.url,
    { ...request.headers, "X-Sdk-Date": date },
    sha256Hex(request.body),
  );
  return {
    "X-Sdk-Date": date,
    Authorization: `${SDK_ALGORITHM} Access=${credentials.accessKey}, SignedHeaders=${canonical.signedHeaders}, Signature=${signature(credentials.secretKey, date, canonical.text)}`,
  };
}
