// Alibaba Cloud's RPC signature (v1.0, HMAC-SHA1) against the worked examples Alibaba publishes: if
// these hold, the parameter order, the double encoding and the `secret&` key are all right.

import { describe, expect, test } from "bun:test";
import { canonicalQuery, rpcSignature, signedQuery, stringToSign } from "../../../src/dns/signing/alidns-signature";
import { percentEncode } from "../../../src/dns/signing/digest";

describe("Alibaba Cloud's published examples", () => {
  test('Alibaba Cloud DNS, DescribeDomainRecords (the DNS API reference, "Signature mechanism")', () => {
    // alibabacloud.com/help/doc-detail/29747.htm: AccessKeyId testid, AccessKeySecret testsecret.
    const parameters = {
      Format: "XML",
      AccessKeyId: "testid",
      Action: "DescribeDomainRecords",
      SignatureMethod: "HMAC-SHA1",
      DomainName: "example.com",
      SignatureNonce: "f59ed6a9-83fc-473b-9cc6-99c95df3856e",
      SignatureVersion: "1.0",
      Version: "2015-01-09",
      Timestamp: "2016-03-24T16:41:54Z",
    };
    expect(canonicalQuery(parameters)).toBe(
      "AccessKeyId=testid&Action=DescribeDomainRecords&DomainName=example.com&Format=XML&SignatureMethod=HMAC-SHA1" +
        "&SignatureNonce=f59ed6a9-83fc-473b-9cc6-99c95df3856e&SignatureVersion=1.0&Timestamp=2016-03-24T16%3A41%3A54Z&Version=2015-01-09",
    );
    expect(stringToSign("GET", parameters)).toBe(
      "GET&%2F&AccessKeyId%3Dtestid%26Action%3DDescribeDomainRecords%26DomainName%3Dexample.com%26Format%3DXML" +
        "%26SignatureMethod%3DHMAC-SHA1%26SignatureNonce%3Df59ed6a9-83fc-473b-9cc6-99c95df3856e%26SignatureVersion%3D1.0" +
        "%26Timestamp%3D2016-03-24T16%253A41%253A54Z%26Version%3D2015-01-09",
    );
    expect(rpcSignature("GET", parameters, "testsecret")).toBe("uRpHwaSEt3J+6KQD//svCh/x+pI=");
  });

  test('ECS DescribeRegions (the RPC "Request signatures" page of the Alibaba Cloud API documentation)', () => {
    const parameters = {
      Timestamp: "2016-02-23T12:46:24Z",
      Format: "XML",
      AccessKeyId: "testid",
      Action: "DescribeRegions",
      SignatureMethod: "HMAC-SHA1",
      SignatureNonce: "3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf",
      Version: "2014-05-26",
      SignatureVersion: "1.0",
    };
    expect(rpcSignature("GET", parameters, "testsecret")).toBe("OLeaidS1JvxuMvnyHOwuJ+uX5qY=");
  });
});

describe("encoding", () => {
  test("only A-Z a-z 0-9 - _ . ~ stay literal; a space is %20, never +", () => {
    expect(percentEncode("a b*c~d/é+='!()")).toBe("a%20b%2Ac~d%2F%C3%A9%2B%3D%27%21%28%29");
  });

  test("the query sent carries the common parameters and a signature over all of them", () => {
    const query = signedQuery(
      { Action: "DescribeDomains" },
      { accessKeyId: "testid", accessKeySecret: "testsecret" },
      "2015-01-09",
      new Date("2016-03-24T16:41:54.123Z"),
      "nonce-1",
    );
    const sent = Object.fromEntries(new URLSearchParams(query));
    const { Signature, ...signed } = sent;
    expect(signed).toEqual({
      Action: "DescribeDomains",
      AccessKeyId: "testid",
      Format: "JSON",
      SignatureMethod: "HMAC-SHA1",
      SignatureNonce: "nonce-1",
      SignatureVersion: "1.0",
      Timestamp: "2016-03-24T16:41:54Z",
      Version: "2015-01-09",
    });
    expect(Signature).toBe(rpcSignature("GET", signed, "testsecret"));
  });
});
