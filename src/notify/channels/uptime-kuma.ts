// Uptime Kuma's push monitors: a GET of the monitor's push URL, `/api/push/<token>?status=up|down&msg=…`
// (its api-router's `/api/push/:pushToken`: `status=up` is up and anything else down, `msg` the
// heartbeat's message); answers `{"ok": true}`, or 404 `{"ok": false, "msg": "Monitor not found or not
// active."}`. The push URL holds the monitor's token: a secret.

import { defineChannel, deliver, jsonField } from "../channel";

/** The push URL with this heartbeat's status and message (the example `?status=up&msg=OK&ping=` Kuma shows replaced). */
export function pushUrl(url: string, up: boolean, message: string): string {
  const parsed = new URL(url);
  parsed.searchParams.delete("ping");
  parsed.searchParams.set("status", up ? "up" : "down");
  parsed.searchParams.set("msg", message);
  return parsed.href;
}

export const uptimeKuma = defineChannel({
  type: "uptime_kuma",
  kind: "heartbeat",
  label: "Uptime Kuma",
  summary:
    "A heartbeat to an Uptime Kuma push monitor after each scheduled check of the records: status=up when every record was checked, status=down when one failed. Set the monitor's heartbeat interval to DDNS_UPDATE_INTERVAL or longer.",
  options: [
    {
      key: "url",
      label: "Push URL",
      help: "The push monitor's URL, e.g. https://kuma.example.com/api/push/AbCdEf1234?status=up&msg=OK&ping= (ddnsd sets status and msg); anyone with it can report to the monitor.",
      placeholder: "https://kuma.example.com/api/push/AbCdEf1234",
      kind: "url",
      required: true,
      secret: true,
    },
  ],
  beat(options, beat, deps) {
    return deliver(
      deps,
      "Uptime Kuma",
      pushUrl(options.url as string, beat.up, beat.message),
      { method: "GET" },
      (_, text) => jsonField(text, "msg"),
    );
  },
});
