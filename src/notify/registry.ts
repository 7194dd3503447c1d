// The notification channels ddnsd sends through: one line per channel module. The notification
// type union, the API's type enum, the option checks and secrets, the form's fields and the
// notifier all come from this list.

import { Conflict } from "../errors";
import type { ChannelDescription } from "./channel";
import { discord } from "./channels/discord";
import { gotify } from "./channels/gotify";
import { healthchecks } from "./channels/healthchecks";
import { ntfy } from "./channels/ntfy";
import { slack } from "./channels/slack";
import { telegram } from "./channels/telegram";
import { uptimeKuma } from "./channels/uptime-kuma";
import { webhook } from "./channels/webhook";

/** Every channel. Adding one is its module, its fake, its tests and one entry here. */
export const CHANNELS = [webhook, ntfy, gotify, discord, slack, telegram, healthchecks, uptimeKuma] as const;

export type NotificationType = (typeof CHANNELS)[number]["type"];

export const NOTIFICATION_TYPES: readonly NotificationType[] = CHANNELS.map((channel) => channel.type);

const BY_TYPE = new Map<string, ChannelDescription>(CHANNELS.map((channel) => [channel.type, channel]));

/** The channel of a type someone asked for; undefined when there is none. */
export function findChannel(type: string): ChannelDescription | undefined {
  return BY_TYPE.get(type);
}

function isNotificationType(type: string): type is NotificationType {
  return BY_TYPE.has(type);
}

/** A stored type as the union (it is always a registered one, unless this build dropped the channel: a conflict). */
export function storedNotificationType(type: string): NotificationType {
  if (!isNotificationType(type))
    throw new Conflict(`This ddnsd has no notification channel of type "${type}"; change the notification's type`);
  return type;
}

/**
 * The channel of a stored notification. The API stores only registered types, so a miss means this
 * build no longer has that channel: a conflict the person resolves by changing the type.
 */
export function channelOf(type: string): ChannelDescription {
  return BY_TYPE.get(storedNotificationType(type))!;
}

/** Whether a type's option is secret: sealed at rest, masked in answers and logs. */
export function isSecretOption(type: string, key: string): boolean {
  return findChannel(type)?.options.find((option) => option.key === key)?.secret ?? false;
}
