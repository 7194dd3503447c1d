// The one scrubber: every secret value of a provider or a notification taken out of a message
// before it is stored (a history row, `last_error`), shown (an API answer, a page) or logged. A
// service's answer or a network error can quote the request (Bun's error text names the URL, query
// string and all; a proxy's "Cannot GET /api/push/<token>"), so clients cannot be trusted to
// leave secrets out; the update path and the notifier scrub what every client returns.

/** What stands in for a secret value in a message. */
export const SCRUBBED = "••••";

/**
 * A URL's parts that look like a token (a path segment or query value of 8 characters or more
 * with a digit, or of 20 or more): a secret URL (an Uptime Kuma push URL, a Slack webhook) is quoted
 * with other query values added, so the whole URL no longer matches, but its token still does.
 */
function tokenParts(value: string): string[] {
  if (!/^https?:\/\//i.test(value) || !URL.canParse(value)) return [];
  const url = new URL(value);
  const parts = [...url.pathname.split("/").map(safeDecode), ...url.searchParams.values(), url.password];
  return parts.filter((part) => (part.length >= 8 && /\d/.test(part)) || part.length >= 20);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Every way a value may be written in a message: as is, URL-encoded, form-encoded, inside JSON, in base64. */
function forms(value: string): string[] {
  return [
    value,
    encodeURIComponent(value),
    new URLSearchParams({ s: value }).toString().slice(2),
    JSON.stringify(value).slice(1, -1),
    Buffer.from(value).toString("base64"),
    Buffer.from(value).toString("base64").replace(/=+$/, ""),
  ];
}

/** The strings inside a value: itself, or an object's (a headers option's) values. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

/**
 * An `Authorization: Basic …` value, as a service quoting the request writes it (as is, URL- or
 * form-encoded): a user name and password in base64, readable by anyone who decodes it (and the
 * user name is the secret token of some services: easyDNS's).
 */
const BASIC = /\b(Basic(?:\s+|%20|\+))([A-Za-z0-9+/=%]{4,})/gi;

/**
 * Whether a word after `Basic` is a credential (whole, or cut short): it decodes to printable text.
 * An English word does not ("Basic authentication failed" decodes to bytes above 0x7e).
 */
function isCredential(token: string): boolean {
  const base64 = safeDecode(token).replace(/=+$/, "");
  const whole = base64.slice(0, base64.length - (base64.length % 4));
  return whole !== "" && /^[\x20-\x7e]+$/.test(Buffer.from(whole, "base64").toString("latin1"));
}

/** Where an excerpt of an answer is cut short (`excerpt` in net/http.ts). */
const CUT = "…";
/**
 * The fewest of a secret's first characters that are taken out where an excerpt ends: fewer say no
 * more of it than its masked form (`••••3f9a`) does, and hiding them would eat ordinary words.
 */
const SHORTEST_CUT = 4;

/**
 * A function that takes every form of every secret value (strings, or objects of them: headers)
 * out of a text, longest first so that a secret holding another is not half-replaced. A secret cut
 * short where an excerpt of an answer ends (a service quoting the request: `Bearer cf-fake-toke…`)
 * goes too: a client cuts the answer before its words reach the scrubber. So does a quoted Basic
 * credential, whose password is there only in base64, whichever secret is in it.
 */
export function scrubber(secrets: Iterable<unknown>): (text: string) => string {
  const values = [...secrets].flatMap(strings).filter((value) => value !== "");
  const needles = [...new Set(values.flatMap((value) => [value, ...tokenParts(value)]).flatMap(forms))]
    .filter((needle) => needle !== "")
    .sort((a, b) => b.length - a.length);
  if (needles.length === 0) return (text) => text;
  const replace = (text: string, needle: string, by: string) =>
    text.includes(needle) ? text.split(needle).join(by) : text;
  return (text) => {
    let scrubbed = text;
    for (const needle of needles) scrubbed = replace(scrubbed, needle, SCRUBBED);
    scrubbed = scrubbed.replace(BASIC, (whole, scheme: string, token: string) =>
      isCredential(token) ? scheme + SCRUBBED : whole,
    );
    if (!scrubbed.includes(CUT)) return scrubbed;
    for (const needle of needles)
      for (let length = needle.length - 1; length >= SHORTEST_CUT; length--)
        scrubbed = replace(scrubbed, needle.slice(0, length) + CUT, SCRUBBED + CUT);
    return scrubbed;
  };
}

/** `text` with `secrets` scrubbed (the one-off form of `scrubber`). */
export function maskSecrets(text: string, secrets: readonly unknown[]): string {
  return scrubber(secrets)(text);
}
