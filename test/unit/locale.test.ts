// Reading which language a browser wants, and the catalogues every language holds.

import { describe, expect, test } from "bun:test";
import { fromAcceptLanguage, localeOf, pageLocaleOf } from "../../src/util/locale";
import { messagesOf } from "../../views/i18n";

describe("languages", () => {
  test.each([
    ["de-DE,de;q=0.9,en;q=0.8", "de"],
    ["en-GB,en;q=0.9,de;q=0.8", "en"],
    ["zh-TW,zh;q=0.9", "zh-CN"],
    ["fr-FR,fr;q=0.9,de;q=0.5,en;q=0.4", "de"],
    ["en;q=0.2, zh-Hans-CN;q=0.8", "zh-CN"],
    ["de;q=0, en", "en"],
    ["fr, es", "en"],
    ["", "en"],
  ] as const)("Accept-Language %p asks for %p", (header, locale) => {
    expect(fromAcceptLanguage(header)).toBe(locale);
  });

  test("a tag chosen names one of ours or nothing; the pseudo-locale only as a page's", () => {
    expect([localeOf("de-AT"), localeOf("zh"), localeOf("EN"), localeOf("fr"), localeOf(null)]).toEqual([
      "de",
      "zh-CN",
      "en",
      null,
      null,
    ]);
    expect([localeOf("xx"), pageLocaleOf("xx"), pageLocaleOf("de")]).toEqual([null, "xx", "de"]);
  });

  test("German says a count in its plural, Chinese needs none; the pseudo-locale marks every message", () => {
    expect([messagesOf("de").common.domainCount(1), messagesOf("de").common.domainCount(3)]).toEqual([
      "1 Domain",
      "3 Domains",
    ]);
    expect(messagesOf("zh-CN").common.domainCount(3)).toBe("3 个域名");
    expect(messagesOf("xx").nav.providers).toBe("⟦Providers⟧");
    expect(messagesOf("xx").common.domainCount(2)).toBe("⟦2 domains⟧");
  });
});
