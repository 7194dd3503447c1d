// Huawei Cloud's SDK-HMAC-SHA256 signer against the official SDK's own test vectors
// (huaweicloud/huaweicloud-sdk-go-v3, core/auth/signer/signer_test.go TestSigner_Sign and
// TestSigner_canonicalQueryString): AccessKey "AccessKey", SecretKey "SecretKey", host
// example.huaweicloud.com, path /path, X-Sdk-Date 20060102T150405Z, only x-sdk-date signed.

import { describe, expect, test } from "bun:test";
import { sha256Hex } from "../../../src/dns/signing/digest";
import { canonicalRequest, sdkDate, signRequest } from "../../../src/dns/signing/huaweicloud-signer";

const CREDENTIALS = { accessKey: "AccessKey", secretKey: "SecretKey" };
const WHEN = new Date("2006-01-02T15:04:05Z");

describe("the official Go SDK's test vectors", () => {
  test("test1: GET /path?limit=1, no body", () => {
    const headers = signRequest(
      { method: "GET", url: new URL("https://example.huaweicloud.com/path?limit=1"), headers: {}, body: "" },
      CREDENTIALS,
      WHEN,
    );
    expect(headers).toEqual({
      "X-Sdk-Date": "20060102T150405Z",
      Authorization:
        "SDK-HMAC-SHA256 Access=AccessKey, SignedHeaders=x-sdk-date, Signature=5a2ce64c865e0e6046321c6f3d5a77ba8413eeaf355c3166c03d58d02ac79624",
    });
  });

  test("test2: POST /path?key=value with the JSON body Go's encoder writes (a trailing newline)", () => {
    const body = '{"Name":"test","Id":1}\n';
    const headers = signRequest(
      { method: "POST", url: new URL("https://example.huaweicloud.com/path?key=value"), headers: {}, body },
      CREDENTIALS,
      WHEN,
    );
    expect(headers.Authorization).toBe(
      "SDK-HMAC-SHA256 Access=AccessKey, SignedHeaders=x-sdk-date, Signature=cecc2af119b18ab70b4d094c0750f3b42c02f254903179a0fc2cc72fc9db4f59",
    );
  });

  test("the canonical query: names sorted, each name's values sorted, RFC 3986 escapes", () => {
    const url = new URL("https://example.huaweicloud.com/");
    for (const [name, value] of [
      ["limit", "1"],
      ["enable", "true"],
      ["test", "一 (&=?!#%.*)"],
      ["path", "/tmp/123"],
      ["multi", "3"],
      ["multi", "1"],
      ["multi", "2"],
    ] as const) {
      url.searchParams.append(name, value);
    }
    const query = canonicalRequest("GET", url, {}, sha256Hex("")).text.split("\n")[2];
    expect(query).toBe(
      "enable=true&limit=1&multi=1&multi=2&multi=3&path=%2Ftmp%2F123&test=%E4%B8%80%20%28%26%3D%3F%21%23%25.%2A%29",
    );
  });
});

describe("the canonical request", () => {
  test("every path ends in a slash; the signed headers are lowercase and sorted", () => {
    const canonical = canonicalRequest(
      "PUT",
      new URL("https://dns.myhuaweicloud.com/v2/zones/z1/recordsets/r1"),
      { Host: "dns.myhuaweicloud.com", "X-Sdk-Date": "20060102T150405Z" },
      sha256Hex("{}"),
    );
    expect(canonical.signedHeaders).toBe("host;x-sdk-date");
    expect(canonical.text).toBe(
      `PUT\n/v2/zones/z1/recordsets/r1/\n\nhost:dns.myhuaweicloud.com\nx-sdk-date:20060102T150405Z\n\nhost;x-sdk-date\n${sha256Hex("{}")}`,
    );
  });

  test("X-Sdk-Date is the UTC moment without separators or milliseconds", () => {
    expect(sdkDate(new Date("2026-11-25T13:09:04.123Z"))).toBe("20261125T130904Z");
  });
});
