// The notification form's fields that follow the chosen type: one input per option of that type,
// with its label, help, whether it is required and whether it is secret, all from the channel's
// description (src/notify/channels/*). Swapped in by htmx when the type changes; without JavaScript
// "Continue" reloads the form. A stored secret is never rendered: on edit only its mask shows, and
// an empty input keeps it.

import { Html } from "@elysiajs/html";
import type { NotificationView } from "../../src/modules/notifications/service";
import { CHANNELS, channelOf, findChannel, NOTIFICATION_TYPES, type NotificationType } from "../../src/notify/registry";
import { controlAttrs, Field, type FormErrors, HelpText } from "../components";
import { msg } from "../i18n";
import { optionInput, serviceWord } from "./credential-field";

/** Each type's name for people, e.g. `uptime_kuma` → "Uptime Kuma", and whether it sends messages or a heartbeat. */
export const NOTIFICATION_TEXT = Object.fromEntries(
  CHANNELS.map((channel) => [channel.type, { label: channel.label, kind: channel.kind }]),
) as Record<NotificationType, { label: string; kind: "message" | "heartbeat" }>;

/** A type as stored, known or not (a tampered form): the first type's fields for an unknown one. */
export function notificationType(type: string): NotificationType {
  return findChannel(type) !== undefined ? (type as NotificationType) : NOTIFICATION_TYPES[0]!;
}

export const NOTIFICATION_TYPE_OPTIONS = CHANNELS.map((channel) => ({ value: channel.type, label: channel.label }));

/** A stored secret's mask as the form shows it: `••••3f9a`, or secret headers as `Name: ••••3f9a` lines. */
function maskText(value: unknown): string {
  if (typeof value !== "object" || value === null) return String(value);
  return Object.entries(value)
    .map(([name, text]) => `${name}: ${String(text)}`)
    .join("; ");
}

export interface NotificationFieldsProps {
  type: string;
  /** What was typed (header options as "Name: value" lines); secrets are never among them. */
  values: Record<string, string>;
  errors: FormErrors;
  /** On edit: the notification as stored, whose masked secrets show while the type stays. */
  stored?: Pick<NotificationView, "type" | "options">;
}

export function NotificationFields({ type, values, errors, stored }: NotificationFieldsProps) {
  const words = msg().notificationForm;
  const chosen = notificationType(type);
  const channel = channelOf(chosen);
  const same = stored !== undefined && stored.type === chosen;
  return (
    <div id="notification-fields" class="stack">
      <p class="help" lang="en" safe>
        {channel.summary}
      </p>
      {channel.options.map((option) => {
        const { key } = option;
        // `option_<key>`, as a provider's options: ui/forms.ts reads them back and places their errors.
        const name = optionInput(key);
        const secret = option.secret;
        const mask = same && stored.options[key] !== undefined ? maskText(stored.options[key]) : undefined;
        const keep = secret && mask !== undefined;
        const help = (
          <>
            {keep ? (
              <>
                {Html.escapeHtml(words.stored)} <code safe>{mask}</code>. {Html.escapeHtml(words.keep)}{" "}
              </>
            ) : (
              ""
            )}
            <span lang="en">
              <HelpText text={option.help} />
            </span>
          </>
        );
        const label = option.required ? serviceWord(option.label) : words.optional(serviceWord(option.label));
        return (
          <Field name={name} label={label} errors={errors} help={help}>
            {option.kind === "headers" ? (
              <textarea
                rows="3"
                spellcheck="false"
                placeholder={keep ? words.unchanged : undefined}
                {...controlAttrs(name, errors, true)}
                safe
              >
                {secret ? "" : (values[key] ?? "")}
              </textarea>
            ) : secret ? (
              // Never sent back to the browser, not even what was just typed into a rejected form.
              <input
                type="password"
                autocomplete="off"
                spellcheck="false"
                required={option.required && !keep}
                placeholder={keep ? words.unchanged : option.placeholder}
                {...controlAttrs(name, errors, true)}
              />
            ) : (
              <input
                type={option.kind === "url" || option.kind === "https_url" ? "url" : "text"}
                autocomplete="off"
                spellcheck="false"
                value={values[key] ?? ""}
                required={option.required}
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
