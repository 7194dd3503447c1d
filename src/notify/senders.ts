// One sender per notification type: how a message reaches each service, and the service's own
// reason when it refuses. Each takes the notification's options with its secrets opened, and
// returns a reason (never throws) with the secret values masked out.
//
// Sources (request and error shapes):
// - ntfy: https://docs.ntfy.sh/publish/ (POST the message to the topic URL; `Title`, `Tags`,
//   `Authorization: Bearer <token>`; errors `{"code": 40101, "http": 401, "error": "unauthorized", ...}`)
// - Gotify: https://gotify.net/docs/pushmsg and its API spec (POST <server>/message with
//   `X-Gotify-Key`; JSON `{title, message, priority}`; errors `{"error", "errorCode", "errorDescription"}`)
// - Discord: https://discord.com/developers/docs/resources/webhook#execute-webhook (POST JSON
//   `{content}`, 204 without `?wait=true`; errors `{"message", "code"}`, 429 with `retry_after`)
// - Slack: https://api.slack.com/messaging/webhooks (POST JSON `{text}`, answer `ok`; errors are
//   text such as `invalid_payload`, `no_service`, `channel_is_archived`, `action_prohibited`)
// - Telegram: https://core.telegram.org/bots/api#making-requests (POST <api>/bot<token>/sendMessage
//   JSON `{chat_id, text}`; answer `{"ok": true, ...}` or `{"ok": false, "error_code", "description"}`)

import { createHmac } from "node:crypto";
import type { NotificationType } from "../db/schema";
import { exchange, excerpt, isObject, parseJson, USER_AGENT } from "../dns/http";
import type { FetchLike } from "../dns/provider";

/** What a person reads, and what a webhook receives (CONTRACT §11). */
export interface NotificationMessage {
  event: string;
  title: string;
  domain: string | null;
  record_type: string | null;
  provider: string | null;
  ip: string | null;
  previous_ip: string | null;
  message: string;
  timestamp: string;
}

export interface SendDeps {
  fetch: FetchLike;
  timeoutMs: number;
  telegramApiUrl: string;
  /**
   * Masks the notification's secret values in a text. Applied to an answer before it is cut short
   * for a reason: a proxy's "Cannot POST /bot<token>/sendMessage", cut mid-token, would no longer
   * match the whole token.
   */
  mask: (text: string) => string;
}

/** null when delivered, else why not. */
export type SendResult = string | null;

type Options = Record<string, unknown>;

/** The webhook's body: everything but the title, in the order the contract lists. */
export function webhookBody(message: NotificationMessage): string {
  const { title: _title, ...body } = message;
  return JSON.stringify(body);
}

export function signature(body: string, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

async function post(
  deps: SendDeps,
  service: string,
  url: string,
  init: { headers: Record<string, string>; body: string },
  refusal: (status: number, text: string) => string | null,
): Promise<SendResult> {
  const answer = await exchange(deps.fetch, url, { method: "POST", headers: { "User-Agent": USER_AGENT, ...init.headers }, body: init.body }, deps.timeoutMs);
  if (!answer.ok) return deps.mask(`${service}: ${answer.reason}`);
  if (answer.status >= 200 && answer.status < 300) return null;
  const body = deps.mask(answer.text);
  const why = refusal(answer.status, body) ?? (body.trim() === "" ? "empty answer" : excerpt(body));
  return `${service}: ${why} (HTTP ${answer.status})`;
}

/** A field of a JSON error answer, when the answer is JSON and has it. */
function jsonField(text: string, ...names: string[]): string | null {
  const body = parseJson(text);
  if (!isObject(body)) return null;
  for (const name of names) if (typeof body[name] === "string" && body[name] !== "") return body[name] as string;
  return null;
}

const json = { "Content-Type": "application/json" };

const SENDERS: Record<NotificationType, (options: Options, message: NotificationMessage, deps: SendDeps) => Promise<SendResult>> = {
  webhook(options, message, deps) {
    const body = webhookBody(message);
    const headers: Record<string, string> = { ...(options.headers as Record<string, string> | undefined), ...json };
    if (typeof options.secret === "string") headers["X-Ddnsd-Signature"] = signature(body, options.secret);
    return post(deps, "Webhook", options.url as string, { headers, body }, () => null);
  },
  ntfy(options, message, deps) {
    const headers: Record<string, string> = { Title: message.title, Tags: message.event === "ip_changed" ? "globe_with_meridians" : "warning" };
    if (typeof options.token === "string") headers.Authorization = `Bearer ${options.token}`;
    return post(deps, "ntfy", options.url as string, { headers, body: message.message }, (_, text) => jsonField(text, "error"));
  },
  gotify(options, message, deps) {
    const url = `${(options.url as string).replace(/\/+$/, "")}/message`;
    const headers = { ...json, "X-Gotify-Key": options.token as string };
    const body = JSON.stringify({ title: message.title, message: message.message, priority: 5 });
    return post(deps, "Gotify", url, { headers, body }, (_, text) => jsonField(text, "errorDescription", "error"));
  },
  discord(options, message, deps) {
    const body = JSON.stringify({ content: `**${message.title}**\n${message.message}` });
    return post(deps, "Discord", options.webhook_url as string, { headers: json, body }, (_, text) => jsonField(text, "message"));
  },
  slack(options, message, deps) {
    const body = JSON.stringify({ text: `*${message.title}*\n${message.message}` });
    return post(deps, "Slack", options.webhook_url as string, { headers: json, body }, (_, text) => (text.trim() === "" ? null : text.trim().slice(0, 100)));
  },
  telegram(options, message, deps) {
    const url = `${deps.telegramApiUrl}/bot${options.bot_token as string}/sendMessage`;
    const body = JSON.stringify({ chat_id: options.chat_id, text: `${message.title}\n${message.message}` });
    return post(deps, "Telegram", url, { headers: json, body }, (_, text) => jsonField(text, "description"));
  },
};

/** Sends one message through one notification; null when delivered, else why not. */
export function send(type: NotificationType, options: Options, message: NotificationMessage, deps: SendDeps): Promise<SendResult> {
  return SENDERS[type](options, message, deps);
}
