// The small XML reader: what Route 53 sends is read, and what could hurt (entity declarations,
// runaway nesting) or is not one document is refused rather than half-read.

import { describe, expect, test } from "bun:test";
import { childrenNamed, escapeXml, parseXml, textAt } from "../../../src/dns/protocols/xml";

describe("parseXml", () => {
  test("reads elements, text and entities, skips attributes, drops namespace prefixes", () => {
    const root = parseXml(
      '<?xml version="1.0" encoding="UTF-8"?>\n<ErrorResponse xmlns="https://route53.amazonaws.com/doc/2013-04-01/"><Error><Type>Sender</Type><Code>InvalidInput</Code><Message>a &lt; b &amp; &#x41;&#66;</Message></Error><!-- note --><r:RequestId>1</r:RequestId><Empty/></ErrorResponse>',
    );
    expect(root?.name).toBe("ErrorResponse");
    expect(textAt(root, "Error", "Message")).toBe("a < b & AB");
    expect(textAt(root, "RequestId")).toBe("1");
    expect(textAt(root, "Empty")).toBe("");
    expect(childrenNamed(root, "Error")).toHaveLength(1);
  });

  const refused: { name: string; text: string }[] = [
    { name: "an entity declaration", text: '<!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>' },
    { name: "CDATA", text: "<x><![CDATA[y]]></x>" },
    { name: "a mismatched tag", text: "<a><b></a></b>" },
    { name: "an unclosed element", text: "<a><b></b>" },
    { name: "two roots", text: "<a/><b/>" },
    { name: "text outside the root", text: "<a/>junk" },
    { name: "HTML error page", text: "<!DOCTYPE html><html><body>502</body></html>" },
    { name: "nesting past the limit", text: `${"<a>".repeat(100)}${"</a>".repeat(100)}` },
    { name: "no element", text: "plain words" },
    { name: "a truncated document", text: "<a><b>text</b" },
    { name: "a stray <", text: "<a>1 <</a>" },
    { name: "a tag cut off at the end", text: "<a></a><" },
  ];
  for (const { name, text } of refused) {
    test(`refuses ${name}`, () => {
      expect(parseXml(text)).toBeUndefined();
    });
  }

  test("escapeXml makes text safe between tags", () => {
    expect(escapeXml(`<a href="x">&'`)).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&apos;");
    expect(textAt(parseXml(`<v>${escapeXml("1 < 2 & 'q'")}</v>`))).toBe("1 < 2 & 'q'");
  });
});
