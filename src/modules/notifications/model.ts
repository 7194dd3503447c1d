// Request and response schemas of /api/v1/notifications (docs/api.md, notifications).

import { t } from "elysia";
import { CHANNELS, NOTIFICATION_TYPES } from "../../notify/registry";
import { NOTIFICATION_EVENTS } from "../../store/rows";
import { Int, OptionalTimestamp } from "../shared";

const Name = t.String({
  minLength: 1,
  maxLength: 100,
  description: "Display name",
  error: "must be 1 to 100 characters",
});
const Type = t.String({ enum: [...NOTIFICATION_TYPES], description: "The channel", examples: ["ntfy"] });
const Options = t.Record(t.String(), t.Unknown(), {
  description:
    CHANNELS.map(
      (channel) =>
        `${channel.type} \`{${channel.options.map((option) => `${option.key}${option.required ? "" : "?"}`).join(", ")}}\``,
    ).join("; ") +
    ". Secret options (" +
    [
      ...new Set(
        CHANNELS.flatMap((channel) =>
          channel.options.filter((option) => option.secret).map((option) => `${channel.type}.${option.key}`),
        ),
      ),
    ].join(", ") +
    ") are stored encrypted and shown masked; sending a masked value back keeps the stored one.",
  error: "must be an object",
});
const Events = t.Array(t.String({ enum: [...NOTIFICATION_EVENTS] }), {
  description: `One or more of ${NOTIFICATION_EVENTS.map((event) => `\`${event}\``).join(", ")}; all of them when absent. Heartbeat channels (healthchecks, uptime_kuma) check in after every scheduled pass instead`,
  error: "must be a list of event names",
});
const Enabled = t.Boolean({ error: "must be true or false" });

export const NotificationCreate = t.Object({
  name: Name,
  type: Type,
  options: Options,
  events: t.Optional(Events),
  is_enabled: t.Optional(Enabled),
});

export const NotificationUpdate = t.Object(
  {
    name: t.Optional(Name),
    type: t.Optional(Type),
    options: t.Optional(Options),
    events: t.Optional(Events),
    is_enabled: t.Optional(Enabled),
  },
  { description: "Any subset of the fields; `options` replaces all options" },
);

export const Notification = t.Object({
  id: Int(),
  name: t.String(),
  type: t.String({ enum: [...NOTIFICATION_TYPES] }),
  options: t.Record(t.String(), t.Unknown(), { description: "As stored, secret values masked (`••••3f9a`)" }),
  events: t.Array(t.String({ enum: [...NOTIFICATION_EVENTS] })),
  is_enabled: t.Boolean(),
  last_sent_at: OptionalTimestamp,
  last_error: t.Nullable(t.String({ description: "Why the newest delivery failed; null after a success" })),
  created_at: t.String({ format: "date-time" }),
  updated_at: t.String({ format: "date-time" }),
});

export const TestResult = t.Object({ ok: t.Boolean(), detail: t.String() });
