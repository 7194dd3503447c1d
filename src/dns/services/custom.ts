// A custom update URL, for services ddnsd has no module for and for home-made endpoints: one request
// per write to the `url` template (GET by default, or POST/PUT with a `body` template), with optional
// `headers`. Placeholders: `{ip}`, `{domain}`, `{record_type}`, `{secret}` — URL-encoded in the URL,
// as they are in the body and headers. Any 2xx answer is success; anything else is a failure quoting
// the HTTP status and the start of the body; a 429's `Retry-After` pauses the provider.
//
// The `secret` credential is sealed like every credential; since the service may echo its request
// back (an error page quoting the URL), every message is masked before it leaves this module.
// Redirects are not followed: the request may carry the secret in its headers, and a redirect would
// hand them to another host unasked.

import { excerpt } from "../../net/http";
import { causeOfAnswer, failed, throttleWait } from "../answers";
import { maskSecrets, oneShotRequest } from "../one-shot";
import { described, oneShotClient, oneShotService } from "../one-shot-policy";
import type { DnsProvider } from "../provider";
import { type ClientContext, defineService } from "../service";

const CUSTOM_METHODS = ["GET", "POST", "PUT"] as const;
const PLACEHOLDERS = /\{(ip|domain|record_type|secret)\}/g;
/** What a URL template is checked with when saved: placeholders may stand anywhere, even in the host. */
const SAMPLE_VALUES = { ip: "203.0.113.1", domain: "home.example.net", record_type: "A", secret: "secret" };
const CANNOT_VERIFY =
  "A custom URL has no way to check its secret without updating a record; the first update shows whether it works.";

export interface CustomRequestOptions {
  url: string;
  method: (typeof CUSTOM_METHODS)[number];
  body?: string;
  headers: Record<string, string>;
}

export const custom = defineService({
  type: "custom",
  label: "Custom URL",
  summary:
    "Any service reached with one HTTP request per update: ddnsd fills the address, hostname and record type into your URL (and body and headers) and calls it; any 2xx answer counts as success.",
  credentials: [
    {
      key: "secret",
      label: "Secret",
      help: "Optional: a token or password the request needs, used where the URL, body or headers say {secret}. It is stored encrypted and never shown or logged. Use a token that can only update records, if the service offers one.",
      secret: true,
      optional: true,
    },
  ],
  options: [
    {
      key: "url",
      label: "URL",
      help: "The http(s) URL to call, e.g. https://dyn.example.net/update?host={domain}&ip={ip}&key={secret}. {ip}, {domain}, {record_type} and {secret} are replaced (URL-encoded).",
      kind: "template",
      required: true,
      validate: (template) =>
        parseHttpUrl(fill(template, SAMPLE_VALUES, encodeURIComponent)) === undefined
          ? "must be an http:// or https:// URL"
          : undefined,
    },
    {
      key: "method",
      label: "Method",
      help: "GET, or POST/PUT to send the body.",
      kind: "choice",
      choices: CUSTOM_METHODS,
      default: "GET",
    },
    {
      key: "body",
      label: "Body",
      help: 'Sent with POST and PUT, placeholders replaced as they are, e.g. {"name": "{domain}", "type": "{record_type}", "content": "{ip}"}. Sent as application/json when it is JSON, else as text/plain, unless the headers name a Content-Type.',
      kind: "template",
    },
    {
      key: "headers",
      label: "Headers",
      help: 'Extra request headers, name → value, placeholders replaced, e.g. {"Authorization": "Bearer {secret}"}.',
      kind: "headers",
    },
  ],
  recordTypes: ["A", "AAAA"],
  ttl: null,
  ...oneShotService(CANNOT_VERIFY),
  // Every request goes to the provider's own `url` option; the setting has nothing to point at.
  createClient: (credentials, options, context) =>
    createCustomClient(credentials.secret ?? "", requestOptions(options), context),
});

/** The validated options in the client's shape (the registry has checked kinds and choices already). */
function requestOptions(options: Record<string, unknown>): CustomRequestOptions {
  const method = CUSTOM_METHODS.find((m) => m === options.method) ?? "GET";
  const headers: Record<string, string> = {};
  if (typeof options.headers === "object" && options.headers !== null) {
    for (const [name, value] of Object.entries(options.headers)) if (typeof value === "string") headers[name] = value;
  }
  return {
    url: typeof options.url === "string" ? options.url : "",
    method,
    ...(typeof options.body === "string" ? { body: options.body } : {}),
    headers,
  };
}

export function createCustomClient(secret: string, request: CustomRequestOptions, context: ClientContext): DnsProvider {
  const mask = (text: string) => maskSecrets(text, [secret]);

  return oneShotClient({
    ...described(custom),
    service: "Custom URL",
    // The template has one {ip}: each request sets one record.
    carries: "one",
    async send(target, addresses) {
      const ip = (target.recordType === "AAAA" ? addresses.ipv6 : addresses.ipv4) ?? "";
      const values = { ip, domain: target.hostname, record_type: target.recordType, secret };
      const url = parseHttpUrl(fill(request.url, values, encodeURIComponent));
      if (url === undefined) {
        return failed(`Custom URL: ${mask(JSON.stringify(request.url))} is not an http(s) URL once filled in`, {
          cause: "refused",
          stopRetrying: true,
        });
      }
      const service = `Custom URL ${mask(url.host)}`;
      const headers: Record<string, string> = { "User-Agent": context.userAgent };
      let body: string | undefined;
      if (request.method !== "GET" && request.body !== undefined) {
        body = fill(request.body, values, (value) => value);
        headers["Content-Type"] = isJson(body) ? "application/json" : "text/plain; charset=utf-8";
      }
      // The user's headers come last, so they may replace the User-Agent or the Content-Type.
      for (const [name, template] of Object.entries(request.headers)) {
        for (const own of Object.keys(headers)) if (own.toLowerCase() === name.toLowerCase()) delete headers[own];
        headers[name] = fill(template, values, (value) => value);
      }

      const sent = await oneShotRequest(context, service, mask, url.toString(), {
        method: request.method,
        headers,
        body,
        redirect: "manual",
      });
      if (!sent.ok) return sent;
      const answer = sent.value;
      if (answer.status >= 200 && answer.status < 300) {
        return {
          ok: true,
          value: { held: [], externalId: target.hostname, detail: `${service} answered HTTP ${answer.status}` },
        };
      }
      const location = answer.status >= 300 && answer.status < 400 ? answer.headers.get("location") : null;
      const said = [
        location ? `redirects to ${excerpt(mask(location))}` : "",
        answer.text.trim() === "" ? "" : excerpt(mask(answer.text)),
      ].filter(Boolean);
      const cause = causeOfAnswer(answer.status, answer.headers);
      return failed(`${service}: HTTP ${answer.status}${said.length > 0 ? ` ${said.join(", ")}` : ""}`, {
        cause,
        ...(cause === "throttled" ? throttleWait(answer.headers) : {}),
      });
    },
  });
}

function fill(template: string, values: Record<string, string>, encode: (value: string) => string): string {
  return template.replace(PLACEHOLDERS, (_, name: string) => encode(values[name] ?? ""));
}

function parseHttpUrl(text: string): URL | undefined {
  try {
    const url = new URL(text.trim());
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "" ? url : undefined;
  } catch {
    return undefined;
  }
}

/** An object or array in JSON (a bare `203.0.113.7` or `"x"` is sent as text). */
function isJson(text: string): boolean {
  try {
    return typeof JSON.parse(text) === "object" && text.trim() !== "null";
  } catch {
    return false;
  }
}
