// The notification form's fields that follow the chosen type: one input per option of that type
// (which options exist, which are required and which are secret is the service's rule, in
// src/modules/notifications/service.ts), with a label and help saying where in the service the
// value is found. Swapped in by htmx when the type changes; without JavaScript "Continue" reloads
// the form. A stored secret is never rendered: on edit only its mask shows, and an empty input keeps it.
//
// Where the help comes from:
// - ntfy: https://docs.ntfy.sh/publish/ (topic URL; access tokens `tk_…` under Account → Access tokens)
// - Gotify: https://gotify.net/docs/pushmsg (Apps → Create Application → its token)
// - Discord: https://support.discord.com/hc/en-us/articles/228383668 (Server Settings → Integrations → Webhooks)
// - Slack: https://api.slack.com/messaging/webhooks (an app's Incoming Webhooks → Add New Webhook)
// - Telegram: https://core.telegram.org/bots/features#botfather (/newbot gives the token; chat ids
//   of groups and channels start with -100, or use @channelname for a public channel)

import { Html } from "@elysiajs/html";
import { NOTIFICATION_TYPES, type NotificationEvent, type NotificationType } from "../../src/db/schema";
import { OPTION_RULES, SECRET_OPTIONS, type NotificationView } from "../../src/modules/notifications/service";
import { controlAttrs, Field, type FormErrors } from "../components";
import { optionInput } from "./credential-field";

interface OptionText {
  label: string;
  help: string;
  placeholder?: string;
}

interface TypeText {
  label: string;
  summary: string;
  options: Record<string, OptionText>;
}

export const NOTIFICATION_TEXT: Record<NotificationType, TypeText> = {
  webhook: {
    label: "Webhook",
    summary: "ddnsd POSTs a JSON body (event, domain, record type, provider, ip, previous ip, message, timestamp) to a URL of yours.",
    options: {
      url: { label: "Receiver URL", help: "http or https; ddnsd sends a POST with Content-Type: application/json.", placeholder: "https://example.com/ddnsd-hook" },
      secret: { label: "Signing secret", help: "With it, each body is signed: header X-Ddnsd-Signature: sha256=<HMAC-SHA256 of the body>." },
      headers: { label: "Extra headers", help: "One per line, as Name: value (e.g. Authorization: Bearer …)." },
    },
  },
  ntfy: {
    label: "ntfy",
    summary: "A push message to a ntfy topic (ntfy.sh or your own server), read in the ntfy app.",
    options: {
      url: { label: "Topic URL", help: "The server and topic, e.g. https://ntfy.sh/my-home-alerts; on the public server, pick a name nobody guesses.", placeholder: "https://ntfy.sh/my-home-alerts" },
      token: { label: "Access token", help: "For a protected topic: a token (tk_…) from the ntfy account's Access tokens." },
    },
  },
  gotify: {
    label: "Gotify",
    summary: "A message to your Gotify server.",
    options: {
      url: { label: "Server URL", help: "Your Gotify server, e.g. https://gotify.example.com.", placeholder: "https://gotify.example.com" },
      token: { label: "Application token", help: "In Gotify: Apps → Create Application, then its token." },
    },
  },
  discord: {
    label: "Discord",
    summary: "A message in a Discord channel, through a channel webhook.",
    options: {
      webhook_url: { label: "Webhook URL", help: "Server Settings → Integrations → Webhooks → New Webhook → Copy Webhook URL (https://discord.com/api/webhooks/…)." },
    },
  },
  slack: {
    label: "Slack",
    summary: "A message in a Slack channel, through an incoming webhook.",
    options: {
      webhook_url: { label: "Webhook URL", help: "A Slack app's Incoming Webhooks → Add New Webhook to Workspace (https://hooks.slack.com/services/…)." },
    },
  },
  telegram: {
    label: "Telegram",
    summary: "A message from your Telegram bot to a chat, group or channel.",
    options: {
      bot_token: { label: "Bot token", help: "From @BotFather: /newbot gives it (123456789:AA…)." },
      chat_id: { label: "Chat id", help: "A numeric chat id (a group's or channel's starts with -100) or @channelname; the bot must be a member.", placeholder: "-1001234567890" },
    },
  },
};

export const EVENT_LABELS: Record<NotificationEvent, string> = {
  ip_changed: "A record now holds a new address",
  update_failed: "An update failed (the first failure of a streak)",
  update_recovered: "Updates work again (the first success after failures)",
  detection_failed: "The public address could not be detected (once per outage)",
};

/** A type as stored, known or not (a tampered form): the first type's fields for an unknown one. */
export function notificationType(type: string): NotificationType {
  return (NOTIFICATION_TYPES as readonly string[]).includes(type) ? (type as NotificationType) : NOTIFICATION_TYPES[0];
}

export const NOTIFICATION_TYPE_OPTIONS = NOTIFICATION_TYPES.map((type) => ({ value: type, label: NOTIFICATION_TEXT[type].label }));

export interface NotificationFieldsProps {
  type: string;
  /** What was typed (header options as "Name: value" lines); secrets are never among them. */
  values: Record<string, string>;
  errors: FormErrors;
  /** On edit: the notification as stored, whose masked secrets show while the type stays. */
  stored?: Pick<NotificationView, "type" | "options">;
}

export function NotificationFields({ type, values, errors, stored }: NotificationFieldsProps) {
  const chosen = notificationType(type);
  const text = NOTIFICATION_TEXT[chosen];
  const same = stored !== undefined && stored.type === chosen;
  return (
    <div id="notification-fields" class="stack">
      <p class="help" safe>
        {text.summary}
      </p>
      {Object.entries(OPTION_RULES[chosen]).map(([key, rule]) => {
        // `option_<key>`, as a provider's options: ui/forms.ts reads them back and places their errors.
        const name = optionInput(key);
        const option = text.options[key]!;
        const secret = SECRET_OPTIONS.has(key);
        const mask = same && typeof stored.options[key] === "string" ? (stored.options[key] as string) : undefined;
        const keep = secret && mask !== undefined;
        const help = (
          <>
            {keep ? (
              <>
                Stored: <code safe>{mask}</code>. Leave empty to keep it.{" "}
              </>
            ) : (
              ""
            )}
            <span safe>{option.help}</span>
          </>
        );
        const label = rule.required ? option.label : `${option.label} (optional)`;
        return (
          <Field name={name} label={label} errors={errors} help={help}>
            {rule.kind === "headers" ? (
              <textarea rows="3" spellcheck="false" {...controlAttrs(name, errors, true)} safe>
                {values[key] ?? ""}
              </textarea>
            ) : secret ? (
              // Never sent back to the browser, not even what was just typed into a rejected form.
              <input
                type="password"
                autocomplete="off"
                spellcheck="false"
                required={rule.required && !keep}
                placeholder={keep ? "unchanged" : option.placeholder}
                {...controlAttrs(name, errors, true)}
              />
            ) : (
              <input
                type={rule.kind === "url" || rule.kind === "https_url" ? "url" : "text"}
                autocomplete="off"
                spellcheck="false"
                value={values[key] ?? ""}
                required={rule.required}
                placeholder={option.placeholder}
                {...controlAttrs(name, errors, true)}
              />
            )}
          </Field>
        );
      })}
    </div>
  );
}
