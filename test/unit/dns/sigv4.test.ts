// The SigV4 signer against AWS's published test suite (aws-sig-v4-test-suite): the example
// credentials, region us-east-1, service "service", 2015-08-30T12:36:00Z, and the signatures AWS
// publishes for each request. If these hold, the canonical form, the key derivation and the final
// HMAC are all right.

import { describe, expect, test } from "bun:test";
import { sha256Hex } from "../../../src/dns/signing/digest";
import { canonicalRequest, signRequest } from "../../../src/dns/signing/sigv4";

const CREDENTIALS = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };
const SCOPE = { region: "us-east-1", service: "service" };
const WHEN = new Date("2015-08-30T12:36:00Z");
const CREDENTIAL = "AKIDEXAMPLE/20150830/us-east-1/service/aws4_request";

describe("AWS SigV4 test suite", () => {
  const vectors: { name: string; method: string; url: string; signature: string }[] = [
    {
      name: "get-vanilla",
      method: "GET",
      url: "https://example.amazonaws.com/",
      signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
    },
    {
      name: "get-vanilla-query-order-key-case",
      method: "GET",
      url: "https://example.amazonaws.com/?Param2=value2&Param1=value1",
      signature: "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500",
    },
    {
      name: "get-vanilla-empty-query-key",
      method: "GET",
      url: "https://example.amazonaws.com/?Param1=value1",
      signature: "a67d582fa61cc504c4bae71f336f98b97f1ea3c7a6bfe1b6e45aec72011b9aeb",
    },
    {
      name: "get-utf8",
      method: "GET",
      url: "https://example.amazonaws.com/ሴ",
      signature: "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85",
    },
    {
      name: "post-vanilla",
      method: "POST",
      url: "https://example.amazonaws.com/",
      signature: "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b",
    },
    {
      name: "post-vanilla-query",
      method: "POST",
      url: "https://example.amazonaws.com/?Param1=value1",
      signature: "28038455d6de14eafc1f9222cf5aa6f1a96197d7deb8263271d420d138af7f11",
    },
  ];
  for (const { name, method, url, signature } of vectors) {
    test(name, () => {
      const headers = signRequest({ method, url: new URL(url), headers: {}, body: "" }, CREDENTIALS, SCOPE, WHEN);
      expect(headers).toEqual({
        "x-amz-date": "20150830T123600Z",
        authorization: `AWS4-HMAC-SHA256 Credential=${CREDENTIAL}, SignedHeaders=host;x-amz-date, Signature=${signature}`,
      });
    });
  }

  test("the get-vanilla canonical request, line by line", () => {
    const canonical = canonicalRequest(
      "GET",
      new URL("https://example.amazonaws.com/"),
      { Host: "example.amazonaws.com", "X-Amz-Date": "20150830T123600Z" },
      sha256Hex(""),
    );
    expect(canonical.text).toBe(
      "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
  });

  test("a body and a content type are signed; the host carries the port", () => {
    const headers = signRequest(
      {
        method: "POST",
        url: new URL("http://127.0.0.1:8080/2013-04-01/hostedzone/Z1/rrset"),
        headers: { "Content-Type": "text/xml" },
        body: "<x/>",
      },
      CREDENTIALS,
      { region: "us-east-1", service: "route53" },
      WHEN,
    );
    expect(headers["content-type"]).toBe("text/xml");
    expect(headers.authorization).toContain(
      "/20150830/us-east-1/route53/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=",
    );
    const other = signRequest(
      {
        method: "POST",
        url: new URL("http://127.0.0.1:8081/2013-04-01/hostedzone/Z1/rrset"),
        headers: { "Content-Type": "text/xml" },
        body: "<x/>",
      },
      CREDENTIALS,
      { region: "us-east-1", service: "route53" },
      WHEN,
    );
    expect(other.authorization).not.toBe(headers.authorization);
  });
});
