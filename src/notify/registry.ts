// The notification channels ddnsd sends through: one line per channel module. The notification
// type union, the API's type enum, the option checks and secrets, the form's fields and the
// notifier all come from this list.

import type { ChannelDescription, ChannelOption } from "./channel";
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

/** The channel of a stored notification (only registered types are stored). */
export function channelOf(type: NotificationType): ChannelDescription {
  return BY_TYPE.get(type)!;
}

/** The option of a type, by key. */
export function channelOption(type: NotificationType, key: string): ChannelOption | undefined {
  return channelOf(type).options.find((option) => option.key === key);
}

/** Whether a type's option is secret: sealed at rest, masked in answers and logs. */
export function isSecretOption(type: NotificationType, key: string): boolean {
  return channelOption(type, key)?.secret ?? false;
}
