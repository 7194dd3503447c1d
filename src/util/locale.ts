// The languages the pages and notifications speak, and how a browser's wish is read: the
// `Accept-Language` header (RFC 9110: tags by `q`, the first that names one of ours wins) or a tag a
// person chose (the language buttons' value, the cookie, the user's column). English is the fallback.

/** The languages offered, by their BCP 47 tag (the page's `lang`). */
export const LOCALES = ["en", "de", "zh-CN"] as const;
export type Locale = (typeof LOCALES)[number];

/**
 * A page's locale: one of ours, or `xx`, the pseudo-locale that wraps every catalogue string in
 * ⟦…⟧ so a test sees any text left outside the catalogue. Never offered, never chosen from a browser.
 */
export type PageLocale = Locale | "xx";

/** Each language's name in itself, for the buttons that choose it. */
export const LOCALE_NAMES: Record<Locale, string> = { en: "English", de: "Deutsch", "zh-CN": "中文" };

/** One of ours for a language tag (`de-AT` → `de`, `zh`, `zh-Hans-SG` → `zh-CN`), or null. */
export function localeOf(tag: string | null | undefined): Locale | null {
  const primary = tag?.trim().toLowerCase().split(/[-_]/)[0];
  if (primary === "en") return "en";
  if (primary === "de") return "de";
  if (primary === "zh") return "zh-CN";
  return null;
}

/** The page locale a stored or sent tag names: ours, the pseudo-locale, or null. */
export function pageLocaleOf(tag: string | null | undefined): PageLocale | null {
  return tag === "xx" ? "xx" : localeOf(tag);
}

/** The language a browser asks for first among ours (`de-DE,de;q=0.9,en;q=0.8` → `de`), else English. */
export function fromAcceptLanguage(header: string | null): Locale {
  if (header === null) return "en";
  const wished = header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.split(";").map((piece) => piece.trim());
      const q = params.find((param) => param.startsWith("q="));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { tag, weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((wish) => wish.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const wish of wished) {
    const locale = localeOf(wish.tag);
    if (locale !== null) return locale;
  }
  return "en";
}
