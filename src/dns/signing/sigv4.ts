// AWS Signature Version 4, for Route 53: about fifty lines over node:crypto, which beat a dependency
// (aws4fetch would wrap `fetch` and bring its own request shape; the SDK is megabytes). Checked
// against AWS's published SigV4 test suite (test/unit/dns/sigv4.test.ts), and the Route 53 fake verifies
// every request's signature with the same canonical form.
//
// Source: docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html (the
// canonical request, string to sign and signing key); the aws-sig-v4-test-suite vectors.

import { createHmac } from "node:crypto";
import { canonicalHeaders, percentEncode, sha256Hex } from "./digest";

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface AwsScope {
  region: string;
  service: string;
}

export interface RequestToSign {
  method: string;
  url: URL;
  /** Headers to send and sign besides `host` and `x-amz-date` (e.g. `content-type`). */
  headers: Record<string, string>;
  body: string;
}

const ALGORITHM = "AWS4-HMAC-SHA256";

/** The headers to send: the request's own, `X-Amz-Date` and `Authorization` (`host` is signed; fetch sends it). */
export function signRequest(
  request: RequestToSign,
  credentials: AwsCredentials,
  scope: AwsScope,
  now: Date = new Date(),
): Record<string, string> {
  const amzDate = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
  const signed: Record<string, string> = {
    ...lowercaseKeys(request.headers),
    host: request.url.host,
    "x-amz-date": amzDate,
  };
  const canonical = canonicalRequest(request.method, request.url, signed, sha256Hex(request.body));
  const credentialScope = `${amzDate.slice(0, 8)}/${scope.region}/${scope.service}/aws4_request`;
  const signatureHex = signature(credentials.secretAccessKey, amzDate, credentialScope, canonical.text);
  const { host: _host, ...sent } = signed;
  return {
    ...sent,
    authorization: `${ALGORITHM} Credential=${credentials.accessKeyId}/${credentialScope}, SignedHeaders=${canonical.signedHeaders}, Signature=${signatureHex}`,
  };
}

/** The canonical request over exactly `headers` (names lowercase), and the list of their names. */
export function canonicalRequest(method: string, url: URL, headers: Record<string, string>, payloadHash: string) {
  const path =
    url.pathname
      .split("/")
      .map((segment) => percentEncode(decodeURIComponent(segment)))
      .join("/") || "/";
  const query = [...url.searchParams]
    .map(([key, value]) => [percentEncode(key), percentEncode(value)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join("&");
  // SigV4 folds a value's inner runs of spaces into one.
  const { text: canonical, signedHeaders } = canonicalHeaders(headers, (value) => value.trim().replace(/\s+/g, " "));
  return { text: [method, path, query, canonical, signedHeaders, payloadHash].join("\n"), signedHeaders };
}

/** The hex signature of a canonical request under `credentialScope` (`date/region/service/aws4_request`). */
export function signature(
  secretAccessKey: string,
  amzDate: string,
  credentialScope: string,
  canonicalRequestText: string,
): string {
  const stringToSign = [ALGORITHM, amzDate, credentialScope, sha256Hex(canonicalRequestText)].join("\n");
  const key = credentialScope.split("/").reduce<Buffer | string>((k, part) => hmac(k, part), `AWS4${secretAccessKey}`);
  return createHmac("sha256", key).update(stringToSign).digest("hex");
}

function hmac(key: Buffer | string, data: string): Buffer {
  return createHmac("sha256", key).update(data).digest();
}

function lowercaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
