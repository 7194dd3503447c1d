// docs/api.md, notifications: /api/v1/notifications — each type's options, secrets sealed and masked, events,
// partial updates that keep a secret sent back masked, delete, and the 422s naming the field.
// (Delivery against the services' fakes is test/notify/delivery.test.ts.)

import { beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { findNotificationRow, sealSecretOptionsStoredInClear } from "../../src/modules/notifications/service";
import { openOptions } from "../../src/notify/options";
import { makeTestApp, type TestApp } from "../support";
import { expectErrorBody, ISO_UTC } from "./helpers";

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
beforeEach(() => {
  t.ctx.sqlite.exec("DELETE FROM notifications; DELETE FROM sqlite_sequence WHERE name = 'notifications'");
});

const post = (body: unknown) => t.request("POST", "/api/v1/notifications", { body });
const put = (id: number, body: unknown) => t.request("PUT", `/api/v1/notifications/${id}`, { body });
const count = () => t.ctx.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM notifications").get()!.n;
const stored = (id: number) =>
  t.ctx.sqlite.query<Record<string, string>, [number]>("SELECT * FROM notifications WHERE id = ?").get(id)!;

const DISCORD_URL = "https://discord.com/api/webhooks/1234567890123456789/abcdefghijklmnopqrstuvwxyz0123";
const BOT_TOKEN = "123456789:AAFakeTelegramBotToken_abcdefghijklmn";

describe("create", () => {
  test("a webhook: every field, every event by default, the secret and the headers masked and sealed", async () => {
    const response = await post({
      name: "Home Assistant",
      type: "webhook",
      options: {
        url: "http://192.168.1.5:8123/api/webhook/ddns",
        secret: "hmac-secret-0123456789",
        headers: { "X-Source": "ddnsd", Authorization: "Bearer ha-long-lived-token-4242" },
      },
    });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual([
      "created_at",
      "events",
      "id",
      "is_enabled",
      "last_error",
      "last_sent_at",
      "name",
      "options",
      "type",
      "updated_at",
    ]);
    expect(response.body).toMatchObject({
      name: "Home Assistant",
      type: "webhook",
      options: {
        url: "http://192.168.1.5:8123/api/webhook/ddns",
        secret: "••••6789",
        headers: { "X-Source": "••••", Authorization: "••••4242" },
      },
      events: ["ip_changed", "update_failed", "update_recovered", "detection_failed", "not_served", "push_stale"],
      is_enabled: true,
      last_sent_at: null,
      last_error: null,
    });
    expect(response.body.created_at).toMatch(ISO_UTC);
    expect(JSON.stringify(stored(response.body.id))).not.toContain("hmac-secret-0123456789");
    expect(JSON.stringify(stored(response.body.id))).not.toContain("ha-long-lived-token-4242");
    expect(JSON.stringify((await t.request("GET", "/api/v1/notifications")).body)).not.toContain(
      "ha-long-lived-token-4242",
    );
    // Sent back as shown, a header keeps its stored value; a header typed anew replaces its own.
    const edited = await put(response.body.id, {
      options: {
        url: "http://192.168.1.5:8123/api/webhook/ddns",
        secret: "••••6789",
        headers: { "X-Source": "ddnsd-2", Authorization: "••••4242" },
      },
    });
    expect(edited.body.options.headers).toEqual({ "X-Source": "••••", Authorization: "••••4242" });
    const row = t.ctx.store.notifications.find(response.body.id)!;
    expect(openOptions(row, t.ctx.keys.encryptionKey).headers).toEqual({
      "X-Source": "ddnsd-2",
      Authorization: "Bearer ha-long-lived-token-4242",
    });
  });

  test.each([
    [
      "ntfy",
      { url: "https://ntfy.sh/my-home-alerts", token: "tk_0123456789abcdefghij" },
      { url: "https://ntfy.sh/my-home-alerts", token: "••••ghij" },
    ],
    [
      "gotify",
      { url: "https://push.example.net", token: "AgotifyAppToken." },
      { url: "https://push.example.net", token: "••••ken." },
    ],
    ["discord", { webhook_url: DISCORD_URL }, { webhook_url: "••••0123" }],
    ["slack", { webhook_url: "https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXX" }, { webhook_url: "••••XXXX" }],
    [
      "telegram",
      { bot_token: BOT_TOKEN, chat_id: -1001234567890 },
      { bot_token: "••••klmn", chat_id: "-1001234567890" },
    ],
  ])("%s: its options, secrets masked, never stored in plain text", async (type, options, shown) => {
    const response = await post({ name: type, type, options, events: ["update_failed"] });
    expect(response.status).toBe(200);
    expect(response.body.options).toEqual(shown);
    expect(response.body.events).toEqual(["update_failed"]);
    const row = JSON.stringify(stored(response.body.id));
    for (const [key, value] of Object.entries(options))
      if (["token", "bot_token", "webhook_url"].includes(key)) expect(row).not.toContain(String(value));
    expect((await t.request("GET", `/api/v1/notifications/${response.body.id}`)).body.options).toEqual(shown);
  });

  test.each([
    ["an unknown type", { name: "x", type: "pager", options: {} }, "type"],
    [
      "an unknown event",
      {
        name: "x",
        type: "slack",
        options: { webhook_url: "https://hooks.slack.com/x" },
        events: ["ip_changed", "reboot"],
      },
      "events",
    ],
    [
      "events not a list",
      { name: "x", type: "slack", options: { webhook_url: "https://hooks.slack.com/x" }, events: "ip_changed" },
      "events",
    ],
    ["a missing option", { name: "x", type: "gotify", options: { url: "https://push.example.net" } }, "options.token"],
    ["a missing chat_id", { name: "x", type: "telegram", options: { bot_token: BOT_TOKEN } }, "options.chat_id"],
    [
      "an http Discord URL",
      { name: "x", type: "discord", options: { webhook_url: "http://discord.com/api/webhooks/1/abc" } },
      "options.webhook_url",
    ],
    [
      "an http Slack URL",
      { name: "x", type: "slack", options: { webhook_url: "http://hooks.slack.com/services/x" } },
      "options.webhook_url",
    ],
    [
      "a webhook URL that is no URL",
      { name: "x", type: "webhook", options: { url: "ftp://example.com/hook" } },
      "options.url",
    ],
    [
      "an unknown option",
      { name: "x", type: "ntfy", options: { url: "https://ntfy.sh/t", priority: 5 } },
      "options.priority",
    ],
    [
      "headers not an object",
      { name: "x", type: "webhook", options: { url: "https://example.com/h", headers: "X: y" } },
      "options.headers",
    ],
    [
      "a header with a newline",
      { name: "x", type: "webhook", options: { url: "https://example.com/h", headers: { "X-A": "a\r\nX-B: b" } } },
      "options.headers.X-A",
    ],
    [
      "an option over 1024 characters",
      { name: "x", type: "ntfy", options: { url: `https://ntfy.sh/${"a".repeat(1100)}` } },
      "options.url",
    ],
    ["options missing", { name: "x", type: "ntfy" }, "options"],
    ["no name", { type: "ntfy", options: { url: "https://ntfy.sh/t" } }, "name"],
  ])("%s → 422 naming the field, nothing stored", async (_, body, field) => {
    const response = await post(body);
    expect(response.status).toBe(422);
    expectErrorBody(response.body);
    expect(response.body.errors[0].field).toBe(field);
    expect(count()).toBe(0);
  });

  test("a 422 never repeats a secret that was sent", async () => {
    const response = await post({
      name: "x",
      type: "telegram",
      options: { bot_token: BOT_TOKEN, chat_id: "not a chat" },
    });
    expect(response.status).toBe(422);
    expect(JSON.stringify(response.body)).not.toContain(BOT_TOKEN);
  });
});

describe("update and delete", () => {
  test("PUT is partial; a secret sent back masked keeps the stored one, a new one replaces it", async () => {
    const created = (await post({ name: "phone", type: "telegram", options: { bot_token: BOT_TOKEN, chat_id: "42" } }))
      .body;
    const renamed = await put(created.id, { name: "my phone", events: ["ip_changed"], is_enabled: false });
    expect(renamed.body).toMatchObject({
      name: "my phone",
      events: ["ip_changed"],
      is_enabled: false,
      options: created.options,
    });
    const sentBack = await put(created.id, { options: { ...created.options, chat_id: "43" } });
    expect(sentBack.body.options).toEqual({ bot_token: "••••klmn", chat_id: "43" });
    expect(openOptions(findNotificationRow(t.ctx, created.id), t.ctx.keys.encryptionKey).bot_token).toBe(BOT_TOKEN);
    await put(created.id, { options: { bot_token: "987654321:BBAnotherToken_zyxwvutsrqpo", chat_id: "43" } });
    expect(openOptions(findNotificationRow(t.ctx, created.id), t.ctx.keys.encryptionKey).bot_token).toBe(
      "987654321:BBAnotherToken_zyxwvutsrqpo",
    );
  });

  test("changing the type needs the new type's options", async () => {
    const { id } = (await post({ name: "n", type: "ntfy", options: { url: "https://ntfy.sh/t" } })).body;
    const response = await put(id, { type: "slack" });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].field).toBe("options");
    expect(
      (await put(id, { type: "slack", options: { webhook_url: "https://hooks.slack.com/services/a" } })).body.type,
    ).toBe("slack");
  });

  test("delete → the answer, then 404; a non-integer id → 422; no token → 401", async () => {
    const { id } = (await post({ name: "n", type: "ntfy", options: { url: "https://ntfy.sh/t" } })).body;
    expect(await t.request("DELETE", `/api/v1/notifications/${id}`)).toMatchObject({
      status: 200,
      body: { message: "Notification deleted", id },
    });
    expect(await t.request("GET", `/api/v1/notifications/${id}`)).toMatchObject({
      status: 404,
      body: { detail: "Notification not found" },
    });
    expect((await t.request("POST", `/api/v1/notifications/${id}/test`)).status).toBe(404);
    expect((await t.request("GET", "/api/v1/notifications/1.0")).status).toBe(422);
    expect((await t.request("GET", "/api/v1/notifications", { token: null })).status).toBe(401);
  });
});

describe("headers stored in clear by an older release", () => {
  test("are sealed once at start, and the webhook still sends them", async () => {
    const created = await post({
      name: "Old hook",
      type: "webhook",
      options: { url: "http://127.0.0.1:9/hook", secret: "hmac-secret-0123456789" },
    });
    // As an older release stored them: in the plain options.
    t.ctx.sqlite
      .query("UPDATE notifications SET options = ? WHERE id = ?")
      .run(
        JSON.stringify({ url: "http://127.0.0.1:9/hook", headers: { Authorization: "Bearer old-token-0123456789" } }),
        created.body.id,
      );
    expect(sealSecretOptionsStoredInClear(t.ctx)).toBe(1);
    expect(JSON.stringify(stored(created.body.id))).not.toContain("old-token-0123456789");
    expect(openOptions(findNotificationRow(t.ctx, created.body.id), t.ctx.keys.encryptionKey)).toMatchObject({
      secret: "hmac-secret-0123456789",
      headers: { Authorization: "Bearer old-token-0123456789" },
    });
    expect(sealSecretOptionsStoredInClear(t.ctx)).toBe(0);
  });
});
