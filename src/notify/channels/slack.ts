// Slack: https://api.slack.com/messaging/webhooks — POST JSON `{text}`, answer `ok`; errors are text
// such as `invalid_payload`, `no_service`, `channel_is_archived`, `action_prohibited`.

import { defineChannel, deliver, JSON_HEADERS } from "../channel";

export const slack = defineChannel({
  type: "slack",
  kind: "message",
  label: "Slack",
  summary: "A message in a Slack channel, through an incoming webhook.",
  options: [
    {
      key: "webhook_url",
      label: "Webhook URL",
      help: "A Slack app's Incoming Webhooks → Add New Webhook to Workspace (https://hooks.slack.com/services/…).",
      kind: "https_url",
      required: true,
      secret: true,
    },
  ],
  send(options, message, deps) {
    const body = JSON.stringify({ text: `*${message.title}*\n${message.message}` });
    return deliver(deps, "Slack", options.webhook_url as string, { headers: JSON_HEADERS, body }, (_, text) =>
      text.trim() === "" ? null : text.trim().slice(0, 100),
    );
  },
});
