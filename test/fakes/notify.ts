// Stand-ins for the services a notification reaches, with the answers and errors each documents:
// - webhook receiver: any endpoint that takes a JSON POST (what a user points `webhook` at).
// - ntfy: https://docs.ntfy.sh/publish/ — POST to the topic URL; 200 with the message as JSON;
//   errors `{"code": 40101, "http": 401, "error": "unauthorized", "link": ...}`.
// - Gotify: https://gotify.net/docs/pushmsg — POST /message with X-Gotify-Key; 200 with the message;
//   errors `{"error": "Unauthorized", "errorCode": 401, "errorDescription": "..."}`.
// - Discord: https://discord.com/developers/docs/resources/webhook#execute-webhook — 204 without
//   `?wait=true`; errors `{"message": "Unknown Webhook", "code": 10015}`, 429 with `retry_after`.
// - Slack: https://api.slack.com/messaging/webhooks#handling_errors — `ok`, or text errors such as
//   `invalid_payload` (400), `action_prohibited` (403), `no_service` (404), `channel_is_archived` (410).
// - Telegram: https://core.telegram.org/bots/api#making-requests — `{"ok": true, "result": ...}` or
//   `{"ok": false, "error_code": 401, "description": "Unauthorized"}` / 400 "Bad Request: chat not found".
// - Healthchecks: https://healthchecks.io/docs/http_api/ — HEAD/GET/POST `/ping/<uuid>` (success) and
//   `/ping/<uuid>/fail`; `OK` (200), `not found` (404) for an unknown check, `rate limited` (429).
// - Uptime Kuma: its api-router's `/api/push/:pushToken?status=up|down&msg=…&ping=` — `{"ok": true}`,
//   or 404 `{"ok": false, "msg": "Monitor not found or not active."}`.

import { type FakeServer, json, type LoggedRequest, startFakeServer } from "./server";

/** Answers with the service's own error for that HTTP status. */
export type NotifyFault = { status: number };

export interface NotifyFake extends FakeServer<NotifyFault> {
  /** The requests the service accepted (delivered messages), oldest first. */
  delivered: LoggedRequest[];
}

function fake(
  prefix: string,
  route: (request: LoggedRequest) => Response,
  error: (status: number) => Response,
): NotifyFake {
  const delivered: LoggedRequest[] = [];
  const server = startFakeServer<NotifyFault>({
    prefix,
    route(request) {
      const response = route(request);
      if (response.status < 300) delivered.push(request);
      return response;
    },
    renderFault: (mode) => error(mode.status),
  });
  return Object.assign(server, { delivered });
}

const text = (status: number, body: string) =>
  new Response(body, { status, headers: { "Content-Type": "text/plain" } });

/** A receiver at `<url>/hook`. */
export function startWebhookReceiver(): NotifyFake {
  return fake(
    "",
    (request) => (request.method === "POST" && request.path === "/hook" ? text(200, "ok") : text(404, "not found")),
    (status) => text(status, `error ${status}`),
  );
}

export const NTFY_TOKEN = "tk_fakentfytoken0123456789abc";

/** Topics at `<url>/<topic>`; publishing needs `Authorization: Bearer NTFY_TOKEN`. */
export function startNtfyFake(): NotifyFake {
  const error = (status: number) =>
    status === 401
      ? json(401, {
          code: 40101,
          http: 401,
          error: "unauthorized",
          link: "https://ntfy.sh/docs/publish/#authentication",
        })
      : status === 429
        ? json(429, {
            code: 42901,
            http: 429,
            error: "limit reached: too many requests",
            link: "https://ntfy.sh/docs/publish/#limitations",
          })
        : json(status, { code: status * 100, http: status, error: "server error" });
  return fake(
    "",
    (request) => {
      if (request.method !== "POST" || !/^\/[-_A-Za-z0-9]{1,64}$/.test(request.path))
        return json(404, { code: 40401, http: 404, error: "page not found" });
      if (request.headers.authorization !== `Bearer ${NTFY_TOKEN}`) return error(401);
      return json(200, {
        id: "hwQ2YpKdmg",
        time: Math.floor(Date.now() / 1000),
        event: "message",
        topic: request.path.slice(1),
        title: request.headers.title,
        message: request.body,
      });
    },
    error,
  );
}

export const GOTIFY_TOKEN = "AgotifyAppToken.";

export function startGotifyFake(): NotifyFake {
  const error = (status: number) =>
    json(status, {
      error: status === 401 ? "Unauthorized" : status === 400 ? "Bad Request" : "Internal Server Error",
      errorCode: status,
      errorDescription:
        status === 401
          ? "you need to provide a valid access token or user credentials to access this api"
          : "something went wrong",
    });
  return fake(
    "",
    (request) => {
      if (request.method !== "POST" || request.path !== "/message") return error(404);
      if (request.headers["x-gotify-key"] !== GOTIFY_TOKEN) return error(401);
      const body = request.body as { title?: string; message?: string; priority?: number };
      return json(200, {
        id: 25,
        appid: 5,
        message: body.message,
        title: body.title,
        priority: body.priority ?? 0,
        date: new Date().toISOString(),
      });
    },
    error,
  );
}

export const DISCORD_WEBHOOK_PATH = "/api/webhooks/1234567890123456789/fakeDiscordWebhookToken_abcdefghijklmnop";

export function startDiscordFake(): NotifyFake {
  const error = (status: number) =>
    status === 429
      ? json(429, { message: "You are being rate limited.", retry_after: 0.5, global: false }, { "Retry-After": "1" })
      : status === 404
        ? json(404, { message: "Unknown Webhook", code: 10015 })
        : status === 401
          ? json(401, { message: "Invalid Webhook Token", code: 50027 })
          : json(status, { message: "Cannot send an empty message", code: 50006 });
  return fake(
    "",
    (request) => {
      if (request.method !== "POST") return error(405);
      if (!request.path.startsWith("/api/webhooks/1234567890123456789/")) return error(404);
      if (request.path !== DISCORD_WEBHOOK_PATH) return error(401);
      return new Response(null, { status: 204 });
    },
    error,
  );
}

export const SLACK_WEBHOOK_PATH = "/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX";

export function startSlackFake(): NotifyFake {
  const error = (status: number) =>
    text(
      status,
      (
        { 400: "invalid_payload", 403: "action_prohibited", 404: "no_service", 410: "channel_is_archived" } as Record<
          number,
          string
        >
      )[status] ?? "internal_error",
    );
  return fake(
    "",
    (request) => {
      if (request.method !== "POST" || request.path !== SLACK_WEBHOOK_PATH) return error(404);
      const body = request.body as { text?: string } | undefined;
      if (typeof body?.text !== "string" || body.text === "") return error(400);
      return text(200, "ok");
    },
    error,
  );
}

export const TELEGRAM_TOKEN = "123456789:AAFakeTelegramBotToken_abcdefghijklmn";
export const TELEGRAM_CHAT = "-1001234567890";

export function startTelegramFake(): NotifyFake {
  const error = (status: number) =>
    json(status, {
      ok: false,
      error_code: status,
      description:
        (
          {
            400: "Bad Request: chat not found",
            401: "Unauthorized",
            403: "Forbidden: bot was blocked by the user",
            429: "Too Many Requests: retry after 5",
          } as Record<number, string>
        )[status] ?? "Internal Server Error",
      ...(status === 429 ? { parameters: { retry_after: 5 } } : {}),
    });
  return fake(
    "",
    (request) => {
      const match = /^\/bot([^/]+)\/sendMessage$/.exec(request.path);
      if (request.method !== "POST" || !match)
        return json(404, { ok: false, error_code: 404, description: "Not Found" });
      if (match[1] !== TELEGRAM_TOKEN) return error(401);
      const body = request.body as { chat_id?: string; text?: string };
      if (String(body.chat_id) !== TELEGRAM_CHAT) return error(400);
      return json(200, {
        ok: true,
        result: {
          message_id: 42,
          chat: { id: Number(TELEGRAM_CHAT), type: "channel" },
          date: Math.floor(Date.now() / 1000),
          text: body.text,
        },
      });
    },
    error,
  );
}

export const HEALTHCHECKS_UUID = "eb095278-f28d-448d-87fb-7b75c171a6aa";

/** A check at `<url>/ping/HEALTHCHECKS_UUID` (as hc-ping.com/<uuid>); any other check is unknown. */
export function startHealthchecksFake(): NotifyFake {
  const error = (status: number) =>
    text(status, status === 404 ? "not found" : status === 429 ? "rate limited" : "error");
  return fake(
    "",
    (request) => {
      const match = /^\/ping\/([0-9a-f-]{36})(\/fail)?$/.exec(request.path);
      if (!match) return text(400, "invalid url format");
      return match[1] === HEALTHCHECKS_UUID ? text(200, "OK") : error(404);
    },
    error,
  );
}

export const UPTIME_KUMA_TOKEN = "AbCdEf1234";

/** A push monitor at `<url>/api/push/UPTIME_KUMA_TOKEN`. */
export function startUptimeKumaFake(): NotifyFake {
  const notFound = () => json(404, { ok: false, msg: "Monitor not found or not active." });
  return fake(
    "",
    (request) => (request.path === `/api/push/${UPTIME_KUMA_TOKEN}` ? json(200, { ok: true }) : notFound()),
    (status) => (status === 404 ? notFound() : json(status, { ok: false, msg: "error" })),
  );
}
