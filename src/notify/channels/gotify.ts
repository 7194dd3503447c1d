// Gotify: https://gotify.net/docs/pushmsg and its API spec — POST <server>/message with
// `X-Gotify-Key`, JSON `{title, message, priority}`; errors `{"error", "errorCode", "errorDescription"}`.
// The token is an application's (Apps → Create Application).

import { defineChannel, deliver, JSON_HEADERS, jsonField } from "../channel";

export const gotify = defineChannel({
  type: "gotify",
  kind: "message",
  label: "Gotify",
  summary: "A message to your Gotify server.",
  options: [
    {
      key: "url",
      label: "Server URL",
      help: "Your Gotify server, e.g. https://gotify.example.com.",
      placeholder: "https://gotify.example.com",
      kind: "url",
      required: true,
      secret: false,
    },
    {
      key: "token",
      label: "Application token",
      help: "In Gotify: Apps → Create Application, then its token.",
      kind: "text",
      required: true,
      secret: true,
    },
  ],
  send(options, message, deps) {
    const url = `${(options.url as string).replace(/\/+$/, "")}/message`;
    const headers = { ...JSON_HEADERS, "X-Gotify-Key": options.token as string };
    const body = JSON.stringify({ title: message.title, message: message.message, priority: 5 });
    return deliver(deps, "Gotify", url, { headers, body }, (_, text) => jsonField(text, "errorDescription", "error"));
  },
});
