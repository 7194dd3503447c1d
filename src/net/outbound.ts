// The one way a request leaves ddnsd — to a DNS service, an echo service, a notification channel:
// the app's fetch wrapped once (app.ts, over the proxy's), so no caller can forget a rule.
//
// - Redirects are followed here, one hop at a time, not by Bun's fetch: Bun drops only
//   `Authorization` when a redirect leads to another origin, so an `X-API-Key`, a webhook's own
//   headers or a signature would reach whatever host a spoofed or compromised service names. A
//   redirect to another origin (scheme, host or port) is followed only when the request carries no
//   credential: no header beyond a few harmless ones, no query string, no user name in the URL, no
//   body sent again (307/308). Otherwise the request fails, naming only the other origin.
// - Answers are read to a bound (`DDNS_MAX_ANSWER_BYTES`): the body is streamed through a counter
//   that cancels the transfer the moment it passes the bound, so memory never follows an answer's
//   size (a declared `Content-Length` over the bound fails before a byte is read).

/**
 * The `fetch` every outbound caller is handed (this module's, over the proxy's); tests hand in the
 * global one pointed at a fake on 127.0.0.1.
 */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface OutboundSettings {
  /** The largest answer body read, in bytes (after decompression). */
  maxAnswerBytes: number;
}

/** Headers that carry no credential: a request holding only these may follow a redirect anywhere. */
const HARMLESS_HEADERS = new Set([
  "accept",
  "accept-encoding",
  "accept-language",
  "cache-control",
  "content-type",
  "user-agent",
]);
const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Statuses whose answer has no body (a Response built with one throws). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/** Why ddnsd stopped reading or following an answer; its message is the whole reason. */
export class OutboundRefused extends Error {}

/** "1 MiB", "64 KiB", "1000 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

export function answerTooLarge(maxBytes: number): string {
  return `answer larger than ${formatBytes(maxBytes)}`;
}

/** `fetch` with ddnsd's redirect rule and answer bound (above). `redirect: "manual"` still hands a 3xx back as it is. */
export function outboundFetch(fetch: FetchLike, settings: OutboundSettings): FetchLike {
  return async (input, init = {}) => {
    let url = new URL(input instanceof Request ? input.url : input.toString());
    let hop: RequestInit =
      input instanceof Request ? { method: input.method, headers: input.headers, body: input.body, ...init } : init;
    for (let redirects = 0; ; redirects++) {
      const response = await fetch(url.href, { ...hop, redirect: "manual" });
      const location = REDIRECTS.has(response.status) ? response.headers.get("location") : null;
      if (location === null || init.redirect === "manual") return bounded(response, settings.maxAnswerBytes);
      await response.body?.cancel();
      if (redirects === MAX_REDIRECTS) throw new OutboundRefused(`more than ${MAX_REDIRECTS} redirects`);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new OutboundRefused("redirected to an address that is not a URL");
      }
      if (next.protocol !== "http:" && next.protocol !== "https:")
        throw new OutboundRefused("redirected to an address that is not http(s)");
      const following = nextHop(hop, response.status);
      if (next.origin !== url.origin && carriesCredentials(url, following)) {
        throw new OutboundRefused(
          `redirected to another origin (${next.origin}); not followed, since the request carries credentials`,
        );
      }
      url = next;
      hop = following;
    }
  };
}

/** The request a redirect asks for: 307/308 repeat it; 303, and 301/302 after a POST, become a GET without body (as browsers do). */
function nextHop(init: RequestInit, status: number): RequestInit {
  const method = (init.method ?? "GET").toUpperCase();
  if (
    status === 307 ||
    status === 308 ||
    ((status === 301 || status === 302) && method !== "POST") ||
    method === "HEAD"
  )
    return init;
  const headers = new Headers(init.headers);
  headers.delete("content-type");
  headers.delete("content-length");
  return { ...init, method: "GET", headers, body: undefined };
}

/** Whether following a request to another origin could hand over a credential. */
function carriesCredentials(url: URL, init: RequestInit): boolean {
  if (url.username !== "" || url.password !== "" || url.search !== "") return true;
  if (init.body !== undefined && init.body !== null) return true;
  for (const name of new Headers(init.headers).keys()) if (!HARMLESS_HEADERS.has(name)) return true;
  return false;
}

/**
 * Names of credentials, in headers (`Authorization`, `Cookie`, `X-Auth-Token`, `X-API-Key`), query
 * parameters and body fields (Netcup's `apisessionid`, an OAuth grant's signed `assertion`): not an
 * `X-TC-Action` or a date, whose values a message may well name.
 */
const CREDENTIAL_NAME = /auth|cookie|token|key|session|secret|signature|password|hmac|assertion/i;
/** Shorter values are not taken for credentials. */
const SHORTEST_CREDENTIAL = 8;

/**
 * The values a request carries under credential names: in its headers (each whole, an
 * `Authorization`'s token without its scheme, a `Cookie`'s values), its query and its body (JSON or
 * a form). A client's session token (an OAuth access token, a login cookie, a session id) is one only
 * the client knows; its messages are scrubbed of what it sent.
 */
export function sentCredentials(input: string | URL | Request, init: RequestInit = {}): string[] {
  const headers = new Headers(input instanceof Request ? input.headers : undefined);
  for (const [name, value] of new Headers(init.headers)) headers.set(name, value);
  const values: string[] = [];
  for (const [name, value] of headers) {
    if (!CREDENTIAL_NAME.test(name)) continue;
    values.push(value, ...value.split(/\s+/).slice(1));
    if (name === "cookie") values.push(...value.split(/;\s*/).map((pair) => pair.slice(pair.indexOf("=") + 1)));
  }
  const url = URL.parse(input instanceof Request ? input.url : input.toString());
  for (const [name, value] of url?.searchParams ?? []) if (CREDENTIAL_NAME.test(name)) values.push(value);
  if (typeof init.body === "string") values.push(...bodyCredentials(init.body));
  return values.filter((value) => value.length >= SHORTEST_CREDENTIAL);
}

/** The string values under credential names in a JSON body (at any depth) or a form. */
function bodyCredentials(body: string): string[] {
  const found: string[] = [];
  const walk = (value: unknown, name: string) => {
    if (typeof value === "string") {
      if (CREDENTIAL_NAME.test(name)) found.push(value);
    } else if (Array.isArray(value)) {
      for (const item of value) walk(item, name);
    } else if (typeof value === "object" && value !== null) {
      for (const [key, item] of Object.entries(value)) walk(item, key);
    }
  };
  try {
    walk(JSON.parse(body), "");
  } catch {
    for (const [name, value] of new URLSearchParams(body)) walk(value, name);
  }
  return found;
}

/** The response with a body that fails (`answer larger than …`) once it passes `maxBytes`, and stops the transfer. */
function bounded(response: Response, maxBytes: number): Response {
  if (response.body === null || NO_BODY.has(response.status)) return response;
  const source = response.body;
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  // Only a plain body's declared length counts: a compressed one is checked as it is unpacked.
  if (declared > maxBytes && !response.headers.has("content-encoding")) {
    void source.cancel();
    throw new OutboundRefused(answerTooLarge(maxBytes));
  }
  const reader = source.getReader();
  let size = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await reader.read();
      if (chunk.done) {
        controller.close();
        return;
      }
      size += chunk.value.byteLength;
      if (size > maxBytes) {
        void reader.cancel();
        controller.error(new OutboundRefused(answerTooLarge(maxBytes)));
        return;
      }
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
