// Notifications: a channel's options checked against its description (notify/registry.ts), its
// secret options sealed like provider credentials and masked in answers, the events, and the test
// message. Delivery itself is the notifier's (src/notify/notifier.ts).

import { invalidField, notFound } from "../../errors";
import { MAX_VALUE_CHARS } from "../../limits";
import type { Logger } from "../../log";
import type { ChannelOption } from "../../notify/channel";
import type { Notifier } from "../../notify/notifier";
import {
  channelOf,
  findChannel,
  NOTIFICATION_TYPES,
  type NotificationType,
  storedNotificationType,
} from "../../notify/registry";
import { keepMaskedHeaders, maskSecret, openCredentials, sealCredentials } from "../../security/secrets";
import type { Store } from "../../store";
import type { NotificationChanges } from "../../store/notifications";
import { NOTIFICATION_EVENTS, type NotificationEvent, type NotificationRow } from "../../store/rows";
import { isObject } from "../../util/json";
import { iso } from "../../util/time";
import { checkDisplayName } from "../shared";

/** What the notifications' rules use: the rows, the key their secrets are sealed with, the log, the test message. */
export interface NotificationDeps {
  store: Pick<Store, "notifications">;
  keys: { readonly encryptionKey: string };
  log: Logger;
  notifier: Pick<Notifier, "sendTest">;
}

export interface NotificationInput {
  name?: string;
  type?: string;
  options?: Record<string, unknown>;
  events?: string[];
  is_enabled?: boolean;
}

export interface NotificationView {
  id: number;
  name: string;
  type: NotificationType;
  options: Record<string, unknown>;
  events: NotificationEvent[];
  is_enabled: boolean;
  last_sent_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

function checkType(type: string): NotificationType {
  if (findChannel(type) === undefined) throw invalidField("type", `must be one of: ${NOTIFICATION_TYPES.join(", ")}`);
  return storedNotificationType(type);
}

function checkEvents(events: string[] | undefined): NotificationEvent[] {
  if (events === undefined) return [...NOTIFICATION_EVENTS];
  const unknown = events.find((event) => !(NOTIFICATION_EVENTS as readonly string[]).includes(event));
  if (unknown !== undefined)
    throw invalidField("events", `"${unknown.slice(0, 40)}" is not an event; use ${NOTIFICATION_EVENTS.join(", ")}`);
  // A notification that sends nothing is a mistake, not a setting (disable it instead).
  if (events.length === 0) throw invalidField("events", "must name at least one event");
  return NOTIFICATION_EVENTS.filter((event) => events.includes(event));
}

/** An http(s) URL, or https only (except to this host itself: a test receiver, a local relay). */
function urlProblem(value: string, httpsOnly: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an http(s) URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must be an http(s) URL";
  const loopback =
    url.hostname === "localhost" || url.hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
  if (httpsOnly && url.protocol !== "https:" && !loopback) return "must be an https URL";
  return null;
}

function checkOptionValue(field: string, rule: ChannelOption, value: unknown): unknown {
  if (rule.kind === "headers") {
    if (!isObject(value)) throw invalidField(field, "must be an object of header names and values");
    for (const [name, header] of Object.entries(value)) {
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/.test(name))
        throw invalidField(`${field}.${name.slice(0, 40)}`, "is not a valid header name");
      if (typeof header !== "string" || header.length > MAX_VALUE_CHARS || /[\r\n]/.test(header)) {
        throw invalidField(`${field}.${name}`, `must be a single-line string of at most ${MAX_VALUE_CHARS} characters`);
      }
    }
    return value;
  }
  if (rule.kind === "chat_id" && typeof value === "number" && Number.isInteger(value)) return String(value);
  if (typeof value !== "string" || value.trim() === "") throw invalidField(field, "must be a non-empty string");
  const text = value.trim();
  if (text.length > MAX_VALUE_CHARS) throw invalidField(field, `must be at most ${MAX_VALUE_CHARS} characters`);
  if (rule.kind === "url" || rule.kind === "https_url") {
    const problem = urlProblem(text, rule.kind === "https_url");
    if (problem !== null) throw invalidField(field, problem);
  }
  if (rule.kind === "chat_id" && !/^(-?\d+|@[A-Za-z0-9_]{5,32})$/.test(text)) {
    throw invalidField(field, "must be a numeric chat id or a @channelname");
  }
  return text;
}

/**
 * The type's options, checked, split into what is stored as given and what is sealed. A secret sent
 * back in its masked form (`••••3f9a`, as an answer shows it) keeps the value in `kept`.
 */
function checkOptions(
  type: NotificationType,
  options: Record<string, unknown>,
  kept: Record<string, unknown> = {},
): { plain: Record<string, unknown>; secrets: Record<string, unknown> } {
  const rules = channelOf(type).options;
  const plain: Record<string, unknown> = {};
  const secrets: Record<string, unknown> = {};
  for (const key of Object.keys(options)) {
    if (!rules.some((rule) => rule.key === key)) {
      throw invalidField(
        `options.${key.slice(0, 40)}`,
        `is not an option of a ${type} notification (use ${rules.map((rule) => rule.key).join(", ")})`,
      );
    }
  }
  for (const rule of rules) {
    const { key } = rule;
    const field = `options.${key}`;
    const given = options[key];
    if (given === undefined || given === null) {
      if (rule.required) throw invalidField(field, `is required for a ${type} notification`);
      continue;
    }
    const keep =
      rule.secret &&
      typeof given === "string" &&
      given.startsWith("••••") &&
      typeof kept[key] === "string" &&
      maskSecret(kept[key]) === given;
    const value = keep
      ? kept[key]
      : checkOptionValue(
          field,
          rule,
          rule.secret && rule.kind === "headers" ? keepMaskedHeaders(given, kept[key]) : given,
        );
    if (rule.secret) secrets[key] = value;
    else plain[key] = value;
  }
  return { plain, secrets };
}

/** A secret as an answer shows it: `••••3f9a`, and for headers their names with each value so masked. */
function maskedSecret(value: unknown): unknown {
  if (isObject(value))
    return Object.fromEntries(Object.entries(value).map(([name, text]) => [name, maskSecret(String(text))]));
  return maskSecret(String(value));
}

function toView(ctx: NotificationDeps, row: NotificationRow): NotificationView {
  let secrets: Record<string, unknown>;
  try {
    secrets = openCredentials(row.secrets, ctx.keys.encryptionKey);
  } catch {
    // Sealed under another DDNS_ENCRYPTION_KEY: shown as set but unknown; an edit must enter them again.
    secrets = {};
  }
  const masked = Object.fromEntries(Object.entries(secrets).map(([key, value]) => [key, maskedSecret(value)]));
  return {
    id: row.id,
    name: row.name,
    type: storedNotificationType(row.type),
    options: { ...row.options, ...masked },
    events: row.events,
    is_enabled: row.isEnabled,
    last_sent_at: iso(row.lastSentAt),
    last_error: row.lastError,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export function findNotificationRow(ctx: NotificationDeps, id: number): NotificationRow {
  const row = ctx.store.notifications.find(id);
  if (!row) throw notFound("Notification not found");
  return row;
}

export function listNotifications(ctx: NotificationDeps): NotificationView[] {
  return ctx.store.notifications.list().map((row) => toView(ctx, row));
}

export function getNotification(ctx: NotificationDeps, id: number): NotificationView {
  return toView(ctx, findNotificationRow(ctx, id));
}

export function createNotification(
  ctx: NotificationDeps,
  input: Required<Pick<NotificationInput, "name" | "type" | "options">> & NotificationInput,
): NotificationView {
  const name = checkDisplayName(input.name);
  const type = checkType(input.type);
  const { plain, secrets } = checkOptions(type, input.options);
  const events = checkEvents(input.events);
  const now = Date.now();
  const created = ctx.store.notifications.create({
    name,
    type,
    options: plain,
    secrets: sealCredentials(secrets, ctx.keys.encryptionKey),
    events,
    isEnabled: input.is_enabled ?? true,
    createdAt: now,
    updatedAt: now,
  });
  ctx.log.info("notification created", { notification_id: created, type });
  return getNotification(ctx, created);
}

export function updateNotification(ctx: NotificationDeps, id: number, input: NotificationInput): NotificationView {
  const row = findNotificationRow(ctx, id);
  const changes: NotificationChanges = {};
  if (input.name !== undefined) changes.name = checkDisplayName(input.name);
  const type = checkType(input.type ?? row.type);
  if (type !== row.type && input.options === undefined) {
    throw invalidField("options", `is required when changing the type to ${type}`);
  }
  if (input.options !== undefined) {
    let kept: Record<string, unknown> = {};
    try {
      if (type === row.type) kept = openCredentials(row.secrets, ctx.keys.encryptionKey);
    } catch {
      // Unreadable under the current key: a masked value then keeps nothing and must be entered again.
    }
    const { plain, secrets } = checkOptions(type, input.options, kept);
    Object.assign(changes, { type, options: plain, secrets: sealCredentials(secrets, ctx.keys.encryptionKey) });
  }
  if (input.events !== undefined) changes.events = checkEvents(input.events);
  if (input.is_enabled !== undefined) changes.isEnabled = input.is_enabled;
  if (Object.keys(changes).length > 0) {
    ctx.store.notifications.update(id, { ...changes, updatedAt: Date.now() });
  }
  return getNotification(ctx, id);
}

/**
 * Options that an older release stored in clear and that are secrets now (a webhook's headers):
 * sealed with the notification's other secrets, once, at start. A row whose secrets do not open
 * (another encryption key) is left as it is.
 */
export function sealSecretOptionsStoredInClear(ctx: Pick<NotificationDeps, "store" | "keys">): number {
  let sealed = 0;
  for (const row of ctx.store.notifications.list()) {
    const inClear = (findChannel(row.type)?.options ?? []).filter(
      (option) => option.secret && row.options[option.key] !== undefined,
    );
    if (inClear.length === 0) continue;
    let secrets: Record<string, unknown>;
    try {
      secrets = openCredentials(row.secrets, ctx.keys.encryptionKey);
    } catch {
      continue;
    }
    const options = { ...row.options };
    for (const { key } of inClear) {
      secrets[key] ??= options[key];
      delete options[key];
    }
    ctx.store.notifications.update(row.id, { options, secrets: sealCredentials(secrets, ctx.keys.encryptionKey) });
    sealed++;
  }
  return sealed;
}

export function deleteNotification(ctx: NotificationDeps, id: number): void {
  findNotificationRow(ctx, id);
  ctx.store.notifications.delete(id);
  ctx.log.info("notification deleted", { notification_id: id });
}

/** `POST /notifications/{id}/test`: one message now, no retries; the answer says whether it arrived. */
/**
 * A test message through a notification as its form holds it, before saving it (nothing is stored,
 * no delivery noted): the same checks as saving, a secret left masked taken from `id`'s stored row.
 */
export async function testUnsavedNotification(
  ctx: NotificationDeps,
  input: Required<Pick<NotificationInput, "name" | "type" | "options">>,
  id?: number,
): Promise<{ ok: boolean; detail: string }> {
  const name = checkDisplayName(input.name.trim() === "" ? "this notification" : input.name);
  const type = checkType(input.type);
  let kept: Record<string, unknown> = {};
  if (id !== undefined) {
    const stored = findNotificationRow(ctx, id);
    try {
      if (stored.type === type) kept = openCredentials(stored.secrets, ctx.keys.encryptionKey);
    } catch {
      // Unreadable under the current key: a masked value keeps nothing, as when saving.
    }
  }
  const { plain, secrets } = checkOptions(type, input.options, kept);
  const now = Date.now();
  // Id 0 is no row: the delivery it notes touches nothing stored.
  const row: NotificationRow = {
    id: 0,
    name,
    type,
    options: plain,
    secrets: sealCredentials(secrets, ctx.keys.encryptionKey),
    events: [],
    isEnabled: true,
    lastSentAt: null,
    lastError: null,
    createdAt: now,
    updatedAt: now,
  };
  const error = await ctx.notifier.sendTest(row);
  return error === null ? { ok: true, detail: `Test message sent through ${name}` } : { ok: false, detail: error };
}

export async function testNotification(ctx: NotificationDeps, id: number): Promise<{ ok: boolean; detail: string }> {
  const row = findNotificationRow(ctx, id);
  const error = await ctx.notifier.sendTest(row);
  return error === null ? { ok: true, detail: `Test message sent through ${row.name}` } : { ok: false, detail: error };
}
