// Notification delivery through the real app: each type against its service's fake (the test
// button, and what arrives), the events the update path raises (ip_changed, update_failed and
// update_recovered once per streak, detection_failed once per outage, not_served as the name
// servers' watch reports it), HMAC-signed webhooks,
// retries with the delays shortened, secrets kept out of last_error, and updates never waiting
// for a delivery.

import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { Notifier } from "../../src/notify/notifier";
import {
  DISCORD_WEBHOOK_PATH,
  GOTIFY_TOKEN,
  NTFY_TOKEN,
  SLACK_WEBHOOK_PATH,
  startDiscordFake,
  startGotifyFake,
  startNtfyFake,
  startSlackFake,
  startTelegramFake,
  startWebhookReceiver,
  TELEGRAM_CHAT,
  TELEGRAM_TOKEN,
} from "../fakes/notify";
import { waitFor } from "../fakes/server";
import { addDomain, addProvider, duePass, forceUpdate, type Rig, useRig } from "../updater/harness";

const receiver = startWebhookReceiver();
const ntfy = startNtfyFake();
const gotify = startGotifyFake();
const discord = startDiscordFake();
const slack = startSlackFake();
const telegram = startTelegramFake();
const fakes = [receiver, ntfy, gotify, discord, slack, telegram];

const current = useRig({ env: { DDNS_TELEGRAM_API_URL: telegram.url } });
let rig: Rig;
beforeEach(() => {
  rig = current();
  rig.t.ctx.sqlite.exec("DELETE FROM notifications");
  (rig.t.ctx.notifier as Notifier).retryDelaysMs = [5, 5, 5];
  for (const fake of fakes) {
    fake.clearFaults();
    fake.clearRequests();
    fake.delivered.length = 0;
  }
});
afterAll(async () => {
  await Promise.all(fakes.map((fake) => fake.stop()));
});

const SECRET = "webhook-hmac-secret-0123456789";

async function addNotification(type: string, options: Record<string, unknown>, events?: string[]): Promise<any> {
  const response = await rig.t.request("POST", "/api/v1/notifications", {
    body: { name: type, type, options, ...(events ? { events } : {}) },
  });
  expect(response.status).toBe(200);
  return response.body;
}

const webhook = (events?: string[]) =>
  addNotification("webhook", { url: `${receiver.url}/hook`, secret: SECRET, headers: { "X-Home": "lab" } }, events);

async function notification(id: number): Promise<any> {
  return (await rig.t.request("GET", `/api/v1/notifications/${id}`)).body;
}

/** A Cloudflare A record holding `content`, and its domain. */
async function cloudflareDomain(hostname = "home.example.com", content = "81.2.69.142") {
  rig.cf.addZone("example.com");
  rig.cf.addRecord("example.com", { type: "A", name: hostname, content });
  const provider = await addProvider(rig.t, "cloudflare", { name: "Cloudflare home" });
  return addDomain(rig.t, provider.id, hostname);
}

const idle = () => rig.t.ctx.notifier.idle();
const eventsReceived = () => receiver.delivered.map((request) => (request.body as { event: string }).event);

describe("each type against its service", () => {
  const cases: [string, () => Record<string, unknown>, () => unknown, (fake: any) => void][] = [
    [
      "webhook",
      () => ({ url: `${receiver.url}/hook`, secret: SECRET }),
      () => receiver,
      (request) =>
        expect(request.body).toMatchObject({ event: "test", message: expect.stringContaining("test message") }),
    ],
    [
      "ntfy",
      () => ({ url: `${ntfy.url}/home-alerts`, token: NTFY_TOKEN }),
      () => ntfy,
      (request) => {
        expect(request.headers.title).toBe("ddnsd: test message");
        expect(request.body).toContain("test message from ddnsd");
      },
    ],
    [
      "gotify",
      () => ({ url: gotify.url, token: GOTIFY_TOKEN }),
      () => gotify,
      (request) => expect(request.body).toMatchObject({ title: "ddnsd: test message", priority: 5 }),
    ],
    [
      "discord",
      () => ({ webhook_url: `${discord.url}${DISCORD_WEBHOOK_PATH}` }),
      () => discord,
      (request) => expect(request.body.content).toContain("test message"),
    ],
    [
      "slack",
      () => ({ webhook_url: `${slack.url}${SLACK_WEBHOOK_PATH}` }),
      () => slack,
      (request) => expect(request.body.text).toContain("test message"),
    ],
    [
      "telegram",
      () => ({ bot_token: TELEGRAM_TOKEN, chat_id: TELEGRAM_CHAT }),
      () => telegram,
      (request) => expect(request.body).toMatchObject({ chat_id: TELEGRAM_CHAT }),
    ],
  ];

  test.each(cases)("%s: the test message arrives; last_sent_at is set", async (type, options, fake, check) => {
    const created = await addNotification(type, options());
    const response = await rig.t.request("POST", `/api/v1/notifications/${created.id}/test`);
    expect(response.body).toMatchObject({ ok: true });
    const { delivered } = fake() as { delivered: unknown[] };
    expect(delivered).toHaveLength(1);
    check(delivered[0]);
    const after = await notification(created.id);
    expect(after.last_sent_at).not.toBeNull();
    expect(after.last_error).toBeNull();
  });

  test.each([
    [
      "ntfy",
      () => ({ url: `${ntfy.url}/home-alerts`, token: "tk_wrongtoken0123456789" }),
      "ntfy: unauthorized (HTTP 401)",
    ],
    [
      "gotify",
      () => ({ url: gotify.url, token: "wrong-token" }),
      "Gotify: you need to provide a valid access token or user credentials to access this api (HTTP 401)",
    ],
    [
      "discord",
      () => ({ webhook_url: `${discord.url}/api/webhooks/1234567890123456789/wrong` }),
      "Discord: Invalid Webhook Token (HTTP 401)",
    ],
    ["slack", () => ({ webhook_url: `${slack.url}/services/T0/B0/gone` }), "Slack: no_service (HTTP 404)"],
    [
      "telegram",
      () => ({ bot_token: TELEGRAM_TOKEN, chat_id: "-100999" }),
      "Telegram: Bad Request: chat not found (HTTP 400)",
    ],
  ])("%s refuses: ok false with the service's own reason, kept as last_error", async (type, options, reason) => {
    const created = await addNotification(type, options());
    const response = await rig.t.request("POST", `/api/v1/notifications/${created.id}/test`);
    expect(response.body).toEqual({ ok: false, detail: reason });
    expect((await notification(created.id)).last_error).toBe(reason);
  });

  test("a wrong Telegram bot token: the reason never shows the token, which sits in the URL path", async () => {
    // A proxy in front of the API that names the path it could not serve.
    const proxy = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (request) => new Response(`Cannot POST ${new URL(request.url).pathname}`, { status: 404 }),
    });
    const settings = rig.t.ctx.settings;
    const before = settings.telegramApiUrl;
    settings.telegramApiUrl = `http://127.0.0.1:${proxy.port}`;
    try {
      const created = await addNotification("telegram", { bot_token: TELEGRAM_TOKEN, chat_id: TELEGRAM_CHAT });
      const response = await rig.t.request("POST", `/api/v1/notifications/${created.id}/test`);
      expect(response.body.ok).toBe(false);
      expect(response.body.detail).toContain("Cannot POST /bot••••");
      expect(JSON.stringify(await notification(created.id))).not.toContain(TELEGRAM_TOKEN.slice(0, 20));
      expect(rig.t.logs.join("\n")).not.toContain(TELEGRAM_TOKEN);
    } finally {
      settings.telegramApiUrl = before;
      await proxy.stop(true);
    }
  });
});

describe("events from the update path", () => {
  test("ip_changed: a signed webhook with the contract's fields and a sentence a person reads", async () => {
    await webhook();
    const domain = await cloudflareDomain();
    // Written once with the old address (known to ddnsd from then on), then the address changes.
    rig.echo.ipv4 = "81.2.69.142";
    expect((await forceUpdate(rig.t, domain.id)).status).toBe(200);
    await idle();
    receiver.delivered.length = 0;
    rig.echo.ipv4 = "81.2.69.160";
    expect((await forceUpdate(rig.t, domain.id)).status).toBe(200);
    await idle();
    expect(receiver.delivered).toHaveLength(1);
    const [request] = receiver.delivered;
    const body = request!.body as Record<string, unknown>;
    expect(Object.keys(body)).toEqual([
      "event",
      "domain",
      "record_type",
      "provider",
      "ip",
      "previous_ip",
      "message",
      "timestamp",
    ]);
    expect(body).toMatchObject({
      event: "ip_changed",
      domain: "home.example.com",
      record_type: "A",
      provider: "Cloudflare home",
      ip: "81.2.69.160",
      previous_ip: "81.2.69.142",
      message: "home.example.com now points at 81.2.69.160 (was 81.2.69.142)",
    });
    expect(request!.headers["x-home"]).toBe("lab");
    const raw = JSON.stringify(body);
    expect(request!.headers["x-ddnsd-signature"]).toBe(
      `sha256=${createHmac("sha256", SECRET).update(raw).digest("hex")}`,
    );
  });

  test("a webhook without a secret carries no signature", async () => {
    await addNotification("webhook", { url: `${receiver.url}/hook` });
    const domain = await cloudflareDomain();
    await forceUpdate(rig.t, domain.id);
    await idle();
    expect(receiver.delivered).toHaveLength(1);
    expect(receiver.delivered[0]!.headers["x-ddnsd-signature"]).toBeUndefined();
  });

  test("update_failed once per streak, update_recovered once when it works again", async () => {
    await webhook(["update_failed", "update_recovered"]);
    const domain = await cloudflareDomain();
    rig.cf.fault({ status: 500 });
    for (let i = 0; i < 3; i++) expect((await forceUpdate(rig.t, domain.id)).status).toBe(502);
    await idle();
    expect(eventsReceived()).toEqual(["update_failed"]);
    expect((receiver.delivered[0]!.body as { message: string }).message).toStartWith(
      "Updating home.example.com (A) at Cloudflare home failed: ",
    );
    rig.cf.clearFaults();
    await forceUpdate(rig.t, domain.id);
    await forceUpdate(rig.t, domain.id);
    await idle();
    expect(eventsReceived()).toEqual(["update_failed", "update_recovered"]);
    rig.cf.fault({ status: 500 });
    await forceUpdate(rig.t, domain.id);
    await idle();
    expect(eventsReceived()).toEqual(["update_failed", "update_recovered", "update_failed"]);
  });

  test("detection_failed once per outage of a family, again after it recovered and failed anew", async () => {
    await webhook(["detection_failed"]);
    await cloudflareDomain("a.example.com");
    await addDomain(rig.t, (await addProvider(rig.t, "cloudflare")).id, "b.example.com");
    rig.echo.fault({ status: 503 });
    await duePass(rig.t);
    await duePass(rig.t);
    await idle();
    expect(eventsReceived()).toEqual(["detection_failed"]);
    expect((receiver.delivered[0]!.body as { message: string }).message).toStartWith(
      "ddnsd cannot find its public IPv4 address: ",
    );
    rig.echo.clearFaults();
    await duePass(rig.t);
    rig.echo.fault({ status: 503 });
    await duePass(rig.t);
    await idle();
    expect(eventsReceived()).toEqual(["detection_failed", "detection_failed"]);
  });

  test("not_served: the record, its address, its provider and which name servers lag, to those that asked for it", async () => {
    await webhook(["not_served"]);
    await webhook(["ip_changed"]);
    const domain = await cloudflareDomain();
    const providerId = (await rig.t.request("GET", `/api/v1/domains/${domain.id}`)).body.provider_id;
    // What the propagation watch reports after its 10 minutes (test/unit/propagation.test.ts times it).
    rig.t.ctx.events.notServed!({
      domainId: domain.id,
      hostname: "home.example.com",
      recordType: "A",
      providerId,
      ip: "81.2.69.160",
      message:
        "not served after 10 min: served by 1 of 2 name servers; ns2.example.com (198.51.100.53) answers 81.2.69.142",
    });
    await idle();
    expect(receiver.delivered.map((request) => request.body)).toEqual([
      {
        event: "not_served",
        domain: "home.example.com",
        record_type: "A",
        provider: "Cloudflare home",
        ip: "81.2.69.160",
        previous_ip: null,
        message:
          "home.example.com (A) is written but not served after 10 min: served by 1 of 2 name servers; ns2.example.com (198.51.100.53) answers 81.2.69.142",
        timestamp: expect.stringMatching(/Z$/),
      },
    ]);
  });

  test("not_served for 1,000 lagging name servers: the webhook's message is at most 2,000 characters", async () => {
    await webhook(["not_served"]);
    const domain = await cloudflareDomain();
    const providerId = (await rig.t.request("GET", `/api/v1/domains/${domain.id}`)).body.provider_id;
    const lagging = Array.from(
      { length: 1000 },
      (_, i) => `ns${i}.example.com (81.2.3.${i % 250}) answers 81.2.69.142`,
    );
    rig.t.ctx.events.notServed!({
      domainId: domain.id,
      hostname: "home.example.com",
      recordType: "A",
      providerId,
      ip: "81.2.69.160",
      message: `not served after 10 min: served by 0 of 1000 name servers; ${lagging.join("; ")}`,
    });
    await idle();
    const [delivered] = receiver.delivered.map((request) => request.body as { message: string });
    expect(delivered!.message).toStartWith("home.example.com (A) is written but not served after 10 min");
    expect(delivered!.message).toHaveLength(2000);
    expect(delivered!.message).toEndWith("…");
  });

  test("only the events a notification asked for, and nothing from a disabled one", async () => {
    await webhook(["update_failed"]);
    const off = await webhook();
    await rig.t.request("PUT", `/api/v1/notifications/${off.id}`, { body: { is_enabled: false } });
    const domain = await cloudflareDomain();
    await forceUpdate(rig.t, domain.id);
    await idle();
    expect(receiver.requests).toHaveLength(0);
  });
});

describe("delivery", () => {
  test("a failed delivery is tried again: delivered at the third attempt, last_error cleared", async () => {
    const created = await webhook();
    const domain = await cloudflareDomain();
    receiver.fault({ status: 500 }, 2);
    await forceUpdate(rig.t, domain.id);
    await idle();
    expect(receiver.requests).toHaveLength(3);
    expect(receiver.delivered).toHaveLength(1);
    const after = await notification(created.id);
    expect(after.last_error).toBeNull();
    expect(after.last_sent_at).not.toBeNull();
  });

  test("after 1 + 3 attempts it gives up; last_error says why; the retry delays are 1 s, 5 s and 25 s by default", async () => {
    const created = await webhook();
    const domain = await cloudflareDomain();
    receiver.fault({ status: 500 });
    await forceUpdate(rig.t, domain.id);
    await idle();
    expect(receiver.requests).toHaveLength(4);
    expect((await notification(created.id)).last_error).toBe('Webhook: "error 500" (HTTP 500)');
    expect(rig.t.logs.some((line) => line.includes("notification not delivered"))).toBe(true);
    const { store, log, fetch, keys, settings } = rig.t.ctx;
    expect(new Notifier({ store, log, fetch, keys, settings }).retryDelaysMs).toEqual([1_000, 5_000, 25_000]);
  });

  test("an update never waits for a delivery: the forced update answers while the receiver still holds the request", async () => {
    await webhook();
    const domain = await cloudflareDomain();
    receiver.fault("timeout", 1);
    expect((await forceUpdate(rig.t, domain.id)).status).toBe(200);
    await waitFor(() => receiver.inFlight() === 1, 5_000, "the webhook request in flight");
    expect(receiver.delivered).toHaveLength(0);
    await idle();
    expect(receiver.delivered).toHaveLength(1);
  });
});
