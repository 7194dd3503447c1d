// XML-RPC as the Loopia client writes and reads it: every type of the spec (xmlrpc.com/spec), text
// escaped on the way out and decoded on the way in, a fault told apart from a value, and anything
// that is not a method response read as nothing rather than guessed at.

import { describe, expect, test } from "bun:test";
import {
  decodeMethodCall,
  decodeMethodResponse,
  encodeFault,
  encodeMethodCall,
  encodeMethodResponse,
} from "../../../src/dns/protocols/xmlrpc";

describe("a method call", () => {
  test("is written with its parameters in order, text escaped, and reads back the same", () => {
    const params = [
      "user@loopiaapi",
      `p<a>s&s"'`,
      42,
      true,
      1.5,
      ["a", 1],
      { type: "A", ttl: 300, rdata: "203.0.113.7" },
    ];
    const text = encodeMethodCall("updateZoneRecord", params);
    expect(text).toStartWith(
      '<?xml version="1.0" encoding="UTF-8"?>\n<methodCall><methodName>updateZoneRecord</methodName>',
    );
    expect(text).toContain("<value><string>p&lt;a&gt;s&amp;s&quot;&apos;</string></value>");
    expect(text).toContain(
      "<param><value><int>42</int></value></param><param><value><boolean>1</boolean></value></param><param><value><double>1.5</double></value></param>",
    );
    expect(decodeMethodCall(text)).toEqual({ method: "updateZoneRecord", params });
  });
});

describe("a method response", () => {
  test("an array of structs, as getZoneRecords answers, pretty-printed with i4 and a bare string", () => {
    const text = `<?xml version="1.0" encoding="UTF-8"?>
<methodResponse>
  <params>
    <param>
      <value>
        <array><data>
          <value><struct>
            <member><name>type</name><value>A</value></member>
            <member><name>ttl</name><value><i4>3600</i4></value></member>
            <member><name>rdata</name><value><string>198.51.100.1</string></value></member>
            <member><name>note</name><value><string/></value></member>
          </struct></value>
        </data></array>
      </value>
    </param>
  </params>
</methodResponse>`;
    expect(decodeMethodResponse(text)).toEqual({
      ok: true,
      value: [{ type: "A", ttl: 3600, rdata: "198.51.100.1", note: "" }],
    });
  });

  test("a status string, and a fault", () => {
    expect(decodeMethodResponse(encodeMethodResponse("AUTH_ERROR"))).toEqual({ ok: true, value: "AUTH_ERROR" });
    expect(decodeMethodResponse(encodeFault(429, "Too many requests"))).toEqual({
      ok: false,
      faultCode: 429,
      faultString: "Too many requests",
    });
  });

  test("what is no method response reads as nothing", () => {
    expect(decodeMethodResponse("<html><body>502 Bad Gateway</body></html>")).toBeUndefined();
    expect(decodeMethodResponse("<methodResponse><params><param><value><array><data>")).toBeUndefined();
    expect(
      decodeMethodResponse(
        "<methodResponse><params><param><value><dateTime>x</dateTime></value></param></params></methodResponse>",
      ),
    ).toBeUndefined();
    expect(decodeMethodResponse('<!DOCTYPE x [<!ENTITY a "b">]><methodResponse/>')).toBeUndefined();
  });
});
