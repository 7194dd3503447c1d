// Heartbeat channels: Healthchecks and Uptime Kuma hear from ddnsd after each scheduled pass — up
// when every record was checked, down (`/fail`, `status=down`) when one failed — against their
// fakes; an "up" at most once a minute, a change always; the test button checks in; the ping URL is
// a secret (masked in answers and errors); events do not apply to them.

import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { failUrl } from "../../src/notify/channels/healthchecks";
import { pushUrl } from "../../src/notify/channels/uptime-kuma";
import type { Notifier } from "../../src/notify/notifier";
import {
  HEALTHCHECKS_UUID,
  startHealthchecksFake,
  startUptimeKumaFake,
  startWebhookReceiver,
  UPTIME_KUMA_TOKEN,
} from "../fakes/notify";
import { ENCRYPTION_KEY, makeTestApp, SECRET_KEY } from "../support";
import { addDomain, addProvider, duePass, type Rig, useRig } from "../updater/harness";

const healthchecks = startHealthchecksFake();
const kuma = startUptimeKumaFake();
const receiver = startWebhookReceiver();
const fakes = [healthchecks, kuma, receiver];

const current = useRig();
let rig: Rig;
beforeEach(() => {
  rig = current();
  rig.t.ctx.sqlite.exec("DELETE FROM notifications");
  const notifier = rig.t.ctx.notifier as Notifier;
  notifier.retryDelaysMs = [5, 5, 5];
  notifier.heartbeatSpacingMs = 0;
  for (const fake of fakes) {
    fake.clearFaults();
    fake.clearRequests();
    fake.delivered.length = 0;
  }
});
afterAll(async () => {
  await Promise.all(fakes.map((fake) => fake.stop()));
});

const PING_URL = () => `${healthchecks.url}/ping/${HEALTHCHECKS_UUID}`;
const PUSH_URL = () => `${kuma.url}/api/push/${UPTIME_KUMA_TOKEN}?status=up&msg=OK&ping=`;

async function addNotification(type: string, options: Record<string, unknown>): Promise<any> {
  const response = await rig.t.request("POST", "/api/v1/notifications", { body: { name: type, type, options } });
  expect(response.status).toBe(200);
  return response.body;
}

/** Two Cloudflare records; the second at a name the fake has no zone for when `failing`. */
async function records(failing = false) {
  rig.cf.addZone("example.com");
  rig.cf.addRecord("example.com", { type: "A", name: "home.example.com", content: "81.2.69.142" });
  const provider = await addProvider(rig.t, "cloudflare");
  await addDomain(rig.t, provider.id, "home.example.com");
  await addDomain(rig.t, provider.id, failing ? "nas.example.org" : "nas.example.com", {
    config: { create_if_missing: true },
  });
}

async function pass() {
  await duePass(rig.t);
  await rig.t.ctx.notifier.idle();
}

describe("Healthchecks", () => {
  test("a pass where every record was checked: a success ping with a line for the check's log", async () => {
    await addNotification("healthchecks", { url: PING_URL() });
    await records();
    await pass();
    expect(healthchecks.delivered.map((request) => [request.method, request.path, request.body])).toEqual([
      ["POST", `/ping/${HEALTHCHECKS_UUID}`, "2 records checked, 2 changed"],
    ]);
  });

  test("a pass where a record failed: a /fail ping saying which", async () => {
    await addNotification("healthchecks", { url: PING_URL() });
    await records(true);
    await pass();
    expect(healthchecks.delivered).toHaveLength(1);
    expect(healthchecks.delivered[0]!.path).toBe(`/ping/${HEALTHCHECKS_UUID}/fail`);
    expect(healthchecks.delivered[0]!.body).toStartWith("1 of 2 records failed; nas.example.org (A): ");
  });

  test("repeated ups are spaced out; a change from up to down goes at once", async () => {
    (rig.t.ctx.notifier as Notifier).heartbeatSpacingMs = 60_000;
    await addNotification("healthchecks", { url: PING_URL() });
    await records();
    await pass();
    await pass();
    expect(healthchecks.delivered).toHaveLength(1);
    rig.echo.fault({ status: 500 }); // detection fails: every record of the pass fails
    await pass();
    expect(healthchecks.delivered.map((request) => request.path)).toEqual([
      `/ping/${HEALTHCHECKS_UUID}`,
      `/ping/${HEALTHCHECKS_UUID}/fail`,
    ]);
  });

  test("no records due, no pass, no ping: the check notices ddnsd stopped checking", async () => {
    await addNotification("healthchecks", { url: PING_URL() });
    await pass();
    expect(healthchecks.requests).toHaveLength(0);
  });

  test("the ping URL is secret: masked in answers and in the stored error of an unknown check", async () => {
    const unknown = `${healthchecks.url}/ping/00000000-0000-4000-8000-000000000000`;
    const created = await addNotification("healthchecks", { url: unknown });
    expect(created.options.url).toMatch(/^••••/);
    expect(JSON.stringify(created)).not.toContain("00000000-0000-4000-8000");
    const tested = await rig.t.request("POST", `/api/v1/notifications/${created.id}/test`);
    expect(tested.body).toEqual({ ok: false, detail: 'Healthchecks: "not found" (HTTP 404)' });
  });

  test("the test button sends a success ping carrying the test message", async () => {
    const created = await addNotification("healthchecks", { url: PING_URL() });
    const tested = await rig.t.request("POST", `/api/v1/notifications/${created.id}/test`);
    expect(tested.body.ok).toBe(true);
    expect(healthchecks.delivered[0]!.path).toBe(`/ping/${HEALTHCHECKS_UUID}`);
    expect(healthchecks.delivered[0]!.body).toContain("test message");
  });

  test("a refused ping is tried again, like any delivery", async () => {
    await addNotification("healthchecks", { url: PING_URL() });
    await records();
    healthchecks.fault({ status: 429 }, 1);
    await pass();
    expect(healthchecks.requests).toHaveLength(2);
    expect(healthchecks.delivered).toHaveLength(1);
  });

  test("/fail keeps the query of a ping key URL", () => {
    expect(failUrl("https://hc-ping.com/key123/my-check?create=1")).toBe(
      "https://hc-ping.com/key123/my-check/fail?create=1",
    );
    expect(failUrl("https://hc-ping.com/uuid/")).toBe("https://hc-ping.com/uuid/fail");
  });
});

describe("Uptime Kuma", () => {
  test("up after a good pass, down with the reason after a failed one", async () => {
    await addNotification("uptime_kuma", { url: PUSH_URL() });
    await records();
    await pass();
    rig.echo.fault({ status: 500 }); // detection fails: every record of the pass fails
    await pass();
    const pushes = kuma.delivered.map((request) => [
      request.method,
      request.query.status,
      request.query.msg,
      request.query.ping,
    ]);
    expect(pushes[0]).toEqual(["GET", "up", "2 records checked, 2 changed", undefined]);
    expect(pushes[1]!.slice(0, 2)).toEqual(["GET", "down"]);
    expect(pushes[1]![2]).toStartWith("2 of 2 records failed; ");
  });

  test("an unknown push token: Kuma's own words in the error", async () => {
    const created = await addNotification("uptime_kuma", { url: `${kuma.url}/api/push/wrong` });
    const tested = await rig.t.request("POST", `/api/v1/notifications/${created.id}/test`);
    expect(tested.body).toEqual({ ok: false, detail: "Uptime Kuma: Monitor not found or not active. (HTTP 404)" });
  });

  test("the push URL's example status and message are replaced", () => {
    expect(pushUrl("https://kuma.lan/api/push/T?status=up&msg=OK&ping=", false, "a b")).toBe(
      "https://kuma.lan/api/push/T?status=down&msg=a+b",
    );
  });
});

describe("heartbeats and events", () => {
  test("a heartbeat channel gets no event messages, a message channel no heartbeats", async () => {
    await addNotification("healthchecks", { url: PING_URL() });
    await addNotification("webhook", { url: `${receiver.url}/hook` });
    await records();
    await pass();
    expect(healthchecks.delivered).toHaveLength(1);
    expect(receiver.delivered.map((request) => (request.body as { event: string }).event)).toEqual([
      "ip_changed",
      "ip_changed",
    ]);
  });

  test("a heartbeat URL is checked like any URL option", async () => {
    const response = await rig.t.request("POST", "/api/v1/notifications", {
      body: { name: "x", type: "uptime_kuma", options: { url: "not a url" } },
    });
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([{ field: "options.url", message: "must be an http(s) URL" }]);
  });
});

describe("ddnsd check", () => {
  test("its pass sends the heartbeat before the command exits", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ddnsd-heartbeat-check-"));
    try {
      const t = await makeTestApp(rig.env, dir);
      rig.cf.addZone("example.com");
      rig.cf.addRecord("example.com", { type: "A", name: "home.example.com", content: "81.2.69.142" });
      const provider = await addProvider(t, "cloudflare");
      await addDomain(t, provider.id, "home.example.com");
      await t.request("POST", "/api/v1/notifications", {
        body: { name: "Monitor", type: "healthchecks", options: { url: PING_URL() } },
      });
      t.ctx.sqlite.close();
      healthchecks.fault({ delayMs: 300 });
      const env: Record<string, string> = {};
      for (const [key, value] of Object.entries(process.env))
        if (!key.startsWith("DDNS_") && value !== undefined) env[key] = value;
      const child = Bun.spawn([process.execPath, "run", "src/main.ts", "check"], {
        cwd: join(import.meta.dir, "../.."),
        env: {
          ...env,
          ...rig.env,
          DDNS_DATA_DIR: dir,
          DDNS_SECRET_KEY: SECRET_KEY,
          DDNS_ENCRYPTION_KEY: ENCRYPTION_KEY,
          DDNS_LOG_LEVEL: "error",
        },
        stdout: "pipe",
        stderr: "pipe",
        timeout: 30_000,
      });
      expect(await child.exited).toBe(0);
      expect(healthchecks.delivered.map((request) => [request.path, request.body])).toEqual([
        [`/ping/${HEALTHCHECKS_UUID}`, "1 record checked, 1 changed"],
      ]);
      // The delivery was waited for: its outcome is stored (it would not be, the database closed first).
      const reopened = await makeTestApp(rig.env, dir);
      const [monitor] = (await reopened.request("GET", "/api/v1/notifications")).body;
      reopened.ctx.sqlite.close();
      expect(monitor.last_sent_at).not.toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
