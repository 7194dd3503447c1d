// What one notification channel module exports: everything ddnsd knows about that channel, in one
// object — its type and name, its options (which are required, which are secret: sealed at rest,
// masked in answers and logs, never rendered in a form), each option's label and help for the form,
// and how a message reaches the service. The registry (registry.ts) lists these; the API's type
// enum, the option checks, the form's fields and the notifier are all derived from it, so adding a
// channel is its module, its fake, its tests and one registry line.

import { excerpt, exchange, USER_AGENT } from "../net/http";
import type { FetchLike } from "../net/outbound";
import { isObject, parseJson } from "../util/json";

/**
 * `url`: an http(s) URL; `https_url`: https only (but for this host itself); `text`: one line;
 * `headers`: an object of header name → value; `chat_id`: a Telegram chat id or @channelname.
 */
export type ChannelOptionKind = "url" | "https_url" | "text" | "headers" | "chat_id";

export interface ChannelOption {
  key: string;
  /** What the form calls it, e.g. "Topic URL". */
  label: string;
  /** Where in the service the value is found. Plain text. */
  help: string;
  placeholder?: string;
  kind: ChannelOptionKind;
  required: boolean;
  /** Sealed at rest, masked (`••••3f9a`) in answers and in every reason stored or logged. */
  secret: boolean;
}

/** What a person reads, and what a webhook receives. */
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

/** A heartbeat: how a scheduled pass went, for a monitor that expects one every interval. */
export interface Heartbeat {
  /** Every record of the pass was checked (and written where it had to be); false when one failed. */
  up: boolean;
  /** One line for the monitor's log, e.g. "3 records checked, 1 changed". */
  message: string;
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

/** null when delivered, else why not (secrets masked). */
export type SendResult = string | null;

type Options = Record<string, unknown>;

interface ChannelBase<Type extends string> {
  /** The notification `type`, e.g. `ntfy`. */
  type: Type;
  /** The service's name for people, e.g. "ntfy". */
  label: string;
  /** One sentence for the form: what this channel does (plain text). */
  summary: string;
  options: readonly ChannelOption[];
}

/** Sends the events a notification asked for, as messages. */
export interface MessageChannel<Type extends string = string> extends ChannelBase<Type> {
  kind: "message";
  send(options: Options, message: NotificationMessage, deps: SendDeps): Promise<SendResult>;
}

/**
 * Checks in with a monitor after each scheduled pass that checked records (the monitor raises the
 * alarm when check-ins stop or report a failure); a notification's `events` do not apply to it.
 */
export interface HeartbeatChannel<Type extends string = string> extends ChannelBase<Type> {
  kind: "heartbeat";
  beat(options: Options, beat: Heartbeat, deps: SendDeps): Promise<SendResult>;
}

export type ChannelDescription<Type extends string = string> = MessageChannel<Type> | HeartbeatChannel<Type>;

/** Keeps `type` as a literal, so the registry can derive the `NotificationType` union from its list. */
export function defineChannel<const Type extends string>(
  description: ChannelDescription<Type>,
): ChannelDescription<Type> {
  return description;
}

export const JSON_HEADERS = { "Content-Type": "application/json" };

/**
 * One request to a channel's service: delivered on a 2xx, else the reason in the service's words
 * (`refusal` reads them from its error answer), as `<service>: <why> (HTTP <status>)`.
 */
export async function deliver(
  deps: SendDeps,
  service: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
  refusal: (status: number, text: string) => string | null = () => null,
): Promise<SendResult> {
  const answer = await exchange(
    deps.fetch,
    url,
    { method: init.method ?? "POST", headers: { "User-Agent": USER_AGENT, ...init.headers }, body: init.body },
    deps.timeoutMs,
  );
  if (!answer.ok) return deps.mask(`${service}: ${answer.reason}`);
  if (answer.status >= 200 && answer.status < 300) return null;
  const body = deps.mask(answer.text);
  const why = refusal(answer.status, body) ?? (body.trim() === "" ? "empty answer" : excerpt(body));
  return `${service}: ${why} (HTTP ${answer.status})`;
}

/** A field of a JSON error answer, when the answer is JSON and has it. */
export function jsonField(text: string, ...names: string[]): string | null {
  const body = parseJson(text);
  if (!isObject(body)) return null;
  for (const name of names) if (typeof body[name] === "string" && body[name] !== "") return body[name] as string;
  return null;
}
