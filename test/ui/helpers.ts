// Requests to the admin pages the way a browser makes them: a session cookie, same-origin
// form posts, and htmx's headers when asked for.

import { TEST_PASSWORD, type TestApp } from "../support";

export const ORIGIN = "http://localhost";

export interface PageResponse {
  status: number;
  headers: Headers;
  text: string;
}

export interface PageOptions {
  cookie?: string | null;
  /** A form post (urlencoded) with these fields. */
  form?: Record<string, string>;
  method?: string;
  /** Extra headers; an empty value removes a header `page` would send (e.g. `origin: ""`). */
  headers?: Record<string, string>;
  /** Send htmx's request headers. */
  htmx?: boolean;
}

export async function page(t: TestApp, path: string, options: PageOptions = {}): Promise<PageResponse> {
  const method = options.method ?? (options.form ? "POST" : "GET");
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  if (method !== "GET") headers.origin = ORIGIN;
  if (options.form) headers["content-type"] = "application/x-www-form-urlencoded";
  if (options.htmx) Object.assign(headers, { "hx-request": "true", "hx-current-url": `${ORIGIN}/domains` });
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value === "") delete headers[name];
    else headers[name] = value;
  }
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  const response = await t.app.handle(new Request(`${ORIGIN}${path}`, { method, headers, body }));
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Signs in through the page and returns the `Cookie` header value of the session. */
export async function signIn(t: TestApp, password = TEST_PASSWORD): Promise<string> {
  const response = await page(t, "/login", { form: { username: "admin", password } });
  const cookie = response.headers.get("set-cookie");
  if (response.status !== 303 || !cookie) throw new Error(`sign-in failed: ${response.status} ${response.text}`);
  return cookie.split(";")[0]!;
}

/** The notice the next page at `path` shows, from the flash cookie a redirect set: "notice-<tone>: <text>". */
export async function noticeShown(
  t: TestApp,
  cookie: string,
  response: { headers: Headers },
  path: string,
): Promise<string> {
  const flash = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.startsWith("ddnsd_flash="));
  if (flash === undefined) return "(no notice)";
  const next = await page(t, path, { cookie: `${cookie}; ${flash}` });
  const match = /<div class="notice (notice-\w+)" role="\w+"><span>([^<]*)<\/span>/.exec(next.text);
  return match ? `${match[1]}: ${match[2]}` : "(no notice)";
}

/** How often `needle` occurs in `haystack`. */
export function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** How many elements match `selector` when a real HTML parser reads the page. */
export function elementCount(html: string, selector: string): number {
  let n = 0;
  new HTMLRewriter()
    .on(selector, {
      element() {
        n++;
      },
    })
    .transform(html);
  return n;
}

const NAMED: Record<string, string> = { quot: '"', amp: "&", lt: "<", gt: ">", apos: "'" };

/** HTMLRewriter hands attributes over raw; a browser would decode their character references. */
function decodeEntities(text: string): string {
  return text.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref.startsWith("#x") || ref.startsWith("#X")) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
    if (ref.startsWith("#")) return String.fromCodePoint(Number(ref.slice(1)));
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

/** The values of `attribute` on the elements matching `selector`, decoded as a browser would. */
export function attributeValues(html: string, selector: string, attribute: string): string[] {
  const values: string[] = [];
  new HTMLRewriter()
    .on(selector, {
      element(element) {
        const value = element.getAttribute(attribute);
        if (value !== null) values.push(decodeEntities(value));
      },
    })
    .transform(html);
  return values;
}

/** The domain form as a browser sends it, every field present (empty unless given). */
export function domainForm(providerId: number, fields: Record<string, string> = {}): Record<string, string> {
  return {
    provider_id: String(providerId),
    domain_name: "home.example.com",
    record_type: "A",
    cron_schedule: "",
    ttl: "",
    proxied: "",
    create_if_missing: "on",
    is_enabled: "on",
    zone_id: "",
    external_id: "",
    ipv6_suffix: "",
    ipv6_prefix_length: "",
    ...fields,
  };
}
