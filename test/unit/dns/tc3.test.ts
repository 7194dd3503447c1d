// Tencent Cloud's TC3-HMAC-SHA256 signature against the worked example Tencent publishes in its API
// 3.0 documentation ("Signature v3": CVM DescribeInstances in ap-guangzhou at 1551113065, SecretKey
// Gu5t9xGARNpq86cd98joQYCN3EXAMPLE): each intermediate value the page prints, then the signature.

import { describe, expect, test } from "bun:test";
import { sha256Hex } from "../../../src/dns/signing/digest";
import {
  canonicalRequest,
  scopeDate,
  stringToSign,
  tc3Authorization,
  tc3Signature,
} from "../../../src/dns/signing/tc3";

const EXAMPLE = {
  method: "POST",
  host: "cvm.tencentcloudapi.com",
  contentType: "application/json; charset=utf-8",
  query: "",
  payload: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
};
const TIMESTAMP = 1551113065;
const SECRET_KEY = "Gu5t9xGARNpq86cd98joQYCN3EXAMPLE";
const SIGNATURE = "72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168";

describe("Tencent Cloud's published TC3 example", () => {
  test("the payload hash and the canonical request", () => {
    expect(sha256Hex(EXAMPLE.payload)).toBe("35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064");
    expect(canonicalRequest(EXAMPLE)).toBe(
      "POST\n/\n\ncontent-type:application/json; charset=utf-8\nhost:cvm.tencentcloudapi.com\n\ncontent-type;host\n" +
        "35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064",
    );
  });

  test("the string to sign", () => {
    expect(stringToSign(canonicalRequest(EXAMPLE), TIMESTAMP, "cvm")).toBe(
      "TC3-HMAC-SHA256\n1551113065\n2019-02-25/cvm/tc3_request\n5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031",
    );
  });

  test("the signature and the Authorization header", () => {
    expect(
      tc3Signature(SECRET_KEY, "2019-02-25", "cvm", stringToSign(canonicalRequest(EXAMPLE), TIMESTAMP, "cvm")),
    ).toBe(SIGNATURE);
    expect(
      tc3Authorization(
        EXAMPLE,
        { secretId: "AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE", secretKey: SECRET_KEY },
        "cvm",
        TIMESTAMP,
      ),
    ).toBe(
      `TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE/2019-02-25/cvm/tc3_request, SignedHeaders=content-type;host, Signature=${SIGNATURE}`,
    );
  });

  test("the scope's date is the UTC one, even just after midnight in China (UTC+8)", () => {
    // 1551113065 is 2019-02-26 00:44:25 in UTC+8: the page warns the date must be 2019-02-25.
    expect(scopeDate(TIMESTAMP)).toBe("2019-02-25");
  });
});
