// Telegram: https://core.telegram.org/bots/api#making-requests — POST <api>/bot<token>/sendMessage
// JSON `{chat_id, text}`; answer `{"ok": true, ...}` or `{"ok": false, "error_code", "description"}`.
// Bots come from @BotFather (https://core.telegram.org/bots/features#botfather); chat ids of groups
// and channels start with -100, or a public channel is named @channelname.

import { defineChannel, deliver, JSON_HEADERS, jsonField } from "../channel";

export const telegram = defineChannel({
  type: "telegram",
  kind: "message",
  label: "Telegram",
  summary: "A message from your Telegram bot to a chat, group or channel.",
  options: [
    {
      key: "bot_token",
      label: "Bot token",
      help: "From @BotFather: /newbot gives it (123456789:AA…).",
      kind: "text",
      required: true,
      secret: true,
    },
    {
      key: "chat_id",
      label: "Chat id",
      help: "A numeric chat id (a group's or channel's starts with -100) or @channelname; the bot must be a member.",
      placeholder: "-1001234567890",
      kind: "chat_id",
      required: true,
      secret: false,
    },
  ],
  send(options, message, deps) {
    const url = `${deps.telegramApiUrl}/bot${options.bot_token as string}/sendMessage`;
    const body = JSON.stringify({ chat_id: options.chat_id, text: `${message.title}\n${message.message}` });
    return deliver(deps, "Telegram", url, { headers: JSON_HEADERS, body }, (_, text) => jsonField(text, "description"));
  },
});
