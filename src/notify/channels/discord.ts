// Discord: https://discord.com/developers/docs/resources/webhook#execute-webhook — POST JSON
// `{content}`, 204 without `?wait=true`; errors `{"message", "code"}`, 429 with `retry_after`.
// Webhooks are made under Server Settings → Integrations → Webhooks
// (https://support.discord.com/hc/en-us/articles/228383668).

import { defineChannel, deliver, JSON_HEADERS, jsonField } from "../channel";

export const discord = defineChannel({
  type: "discord",
  kind: "message",
  label: "Discord",
  summary: "A message in a Discord channel, through a channel webhook.",
  options: [
    {
      key: "webhook_url",
      label: "Webhook URL",
      help: "Server Settings → Integrations → Webhooks → New Webhook → Copy Webhook URL (https://discord.com/api/webhooks/…).",
      kind: "https_url",
      required: true,
      secret: true,
    },
  ],
  send(options, message, deps) {
    const body = JSON.stringify({ content: `**${message.title}**\n${message.message}` });
    return deliver(deps, "Discord", options.webhook_url as string, { headers: JSON_HEADERS, body }, (_, text) =>
      jsonField(text, "message"),
    );
  },
});
