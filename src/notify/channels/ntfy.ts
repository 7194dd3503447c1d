// ntfy: https://docs.ntfy.sh/publish/ — POST the message to the topic URL with `Title`, `Tags` and
// `Authorization: Bearer <token>`; errors `{"code": 40101, "http": 401, "error": "unauthorized", ...}`.
// Access tokens (`tk_…`) are made under Account → Access tokens.

import { defineChannel, deliver, jsonField } from "../channel";

export const ntfy = defineChannel({
  type: "ntfy",
  kind: "message",
  label: "ntfy",
  summary: "A push message to a ntfy topic (ntfy.sh or your own server), read in the ntfy app.",
  options: [
    {
      key: "url",
      label: "Topic URL",
      help: "The server and topic, e.g. https://ntfy.sh/my-home-alerts; on the public server, pick a name nobody guesses.",
      placeholder: "https://ntfy.sh/my-home-alerts",
      kind: "url",
      required: true,
      secret: false,
    },
    {
      key: "token",
      label: "Access token",
      help: "For a protected topic: a token (tk_…) from the ntfy account's Access tokens.",
      kind: "text",
      required: false,
      secret: true,
    },
  ],
  send(options, message, deps) {
    const headers: Record<string, string> = {
      Title: message.title,
      Tags: message.event === "ip_changed" ? "globe_with_meridians" : "warning",
    };
    if (typeof options.token === "string") headers.Authorization = `Bearer ${options.token}`;
    return deliver(deps, "ntfy", options.url as string, { headers, body: message.message }, (_, text) =>
      jsonField(text, "error"),
    );
  },
});
