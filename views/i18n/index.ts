// The catalogue of this request's language: `msg()` in a view gives the messages of the locale the
// request was served in (views/page-facts.ts decides it). The pseudo-locale `xx` is en with every
// message wrapped in ⟦…⟧: a page rendered in it shows at a glance, and to a test, any visible text
// that did not come from the catalogue. How to add a language: docs/translations.md.

import type { Locale, PageLocale } from "../../src/util/locale";
import { pageFacts } from "../page-facts";
import { de } from "./de";
import { en, type Messages } from "./en";
import { zhCN } from "./zh-CN";

export type { Link, Messages } from "./en";

/** The markers the pseudo-locale puts around every message. */
export const PSEUDO_OPEN = "⟦";
export const PSEUDO_CLOSE = "⟧";

function pseudo<T>(messages: T): T {
  if (typeof messages === "string") return `${PSEUDO_OPEN}${messages}${PSEUDO_CLOSE}` as T;
  if (typeof messages === "function")
    return ((...args: unknown[]) => `${PSEUDO_OPEN}${messages(...args)}${PSEUDO_CLOSE}`) as T;
  return Object.fromEntries(
    Object.entries(messages as Record<string, unknown>).map(([key, value]) => [key, pseudo(value)]),
  ) as T;
}

const CATALOGUES: Record<PageLocale, Messages> = { en, de, "zh-CN": zhCN, xx: pseudo(en) };

/** The messages of `locale`. */
export function messagesOf(locale: PageLocale): Messages {
  return CATALOGUES[locale];
}

/** The messages of this request's language. */
export function msg(): Messages {
  return CATALOGUES[pageFacts().locale];
}

/** This request's language as a page's `lang` (the pseudo-locale's text is English). */
export function pageLang(): Locale {
  const { locale } = pageFacts();
  return locale === "xx" ? "en" : locale;
}
