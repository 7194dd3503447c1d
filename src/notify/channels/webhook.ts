// A receiver of the user's own: a JSON POST of the message (everything but the title), signed with
// HMAC-SHA256 when a secret is set.

import { createHmac } from "node:crypto";
import { defineChannel, deliver, JSON_HEADERS, type NotificationMessage } from "../channel";

/** The webhook's body: everything but the title, in the order the message lists it. */
function webhookBody(message: NotificationMessage): string {
  const { title: _title, ...body } = message;
  return JSON.stringify(body);
}

export function signature(body: string, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export const webhook = defineChannel({
  type: "webhook",
  kind: "message",
  label: "Webhook",
  summary:
    "ddnsd POSTs a JSON body (event, domain, record type, provider, ip, previous ip, message, timestamp) to a URL of yours.",
  options: [
    {
      key: "url",
      label: "Receiver URL",
      help: "http or https; ddnsd sends a POST with Content-Type: application/json.",
      placeholder: "https://example.com/ddnsd-hook",
      kind: "url",
      required: true,
      secret: false,
    },
    {
      key: "secret",
      label: "Signing secret",
      help: "With it, each body is signed: header X-Ddnsd-Signature: sha256=<HMAC-SHA256 of the body>.",
      kind: "text",
      required: false,
      secret: true,
    },
    // Secret: the help itself suggests a bearer token here.
    {
      key: "headers",
      label: "Extra headers",
      help: "One per line, as Name: value (e.g. Authorization: Bearer …). Kept encrypted; only the names show.",
      kind: "headers",
      required: false,
      secret: true,
    },
  ],
  send(options, message, deps) {
    const body = webhookBody(message);
    const headers: Record<string, string> = {
      ...(options.headers as Record<string, string> | undefined),
      ...JSON_HEADERS,
    };
    if (typeof options.secret === "string") headers["X-Ddnsd-Signature"] = signature(body, options.secret);
    return deliver(deps, "Webhook", options.url as string, { headers, body });
  },
});
