// Healthchecks (healthchecks.io, or a self-hosted instance): https://healthchecks.io/docs/http_api/ —
// a success signal is a request to the check's ping URL, a failure `<ping URL>/fail`; a POST body
// (up to 100 kB) shows in the check's event log. Answers `OK` (200); `not found` (404) for an unknown
// check, `rate limited` (429) beyond 5 pings a minute per check. The ping URL (with the check's
// UUID, or a project's ping key and the check's slug) is what lets anyone signal it: a secret.

import { defineChannel, deliver } from "../channel";

/** `<url>/fail`, keeping any query (`?create=1` with a ping key). */
export function failUrl(url: string): string {
  const parsed = new URL(url);
  parsed.pathname = `${parsed.pathname.replace(/\/+$/, "")}/fail`;
  return parsed.href;
}

export const healthchecks = defineChannel({
  type: "healthchecks",
  kind: "heartbeat",
  label: "Healthchecks",
  summary:
    "A heartbeat to a Healthchecks check after each scheduled check of the records: a success ping when every record was checked, a /fail ping when one failed. The check raises the alarm when pings stop or fail; set its period to DDNS_UPDATE_INTERVAL or longer.",
  options: [
    {
      key: "url",
      label: "Ping URL",
      help: "The check's ping URL, e.g. https://hc-ping.com/<uuid> (or your own instance's); anyone with it can signal the check.",
      placeholder: "https://hc-ping.com/eb095278-f28d-448d-87fb-7b75c171a6aa",
      kind: "url",
      required: true,
      secret: true,
    },
  ],
  beat(options, beat, deps) {
    const url = options.url as string;
    return deliver(deps, "Healthchecks", beat.up ? url : failUrl(url), {
      headers: { "Content-Type": "text/plain; charset=utf-8" },
      body: beat.message,
    });
  },
});
