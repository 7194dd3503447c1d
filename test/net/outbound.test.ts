// The one outbound path (src/net/outbound.ts) through the real app: a redirect to another origin
// never carries a credential away (a Gotify key, a webhook's own headers and signature, PowerDNS's
// X-API-Key), a bare request (an echo service) still follows one, and an answer is read to
// DDNS_MAX_ANSWER_BYTES with the transfer stopped there, whatever the answer's size.

import { afterAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import { outboundFetch } from "../../src/net/outbound";
import { detectFamily } from "../../src/updater/detect";
import { makeTestApp } from "../support";

interface Seen {
  path: string;
  headers: Record<string, string>;
}

/** A server that records what reaches it and answers `answer` (a redirect, an address …). */
function recorder(answer: (request: Request) => Response): { server: Server<undefined>; seen: Seen[]; url: string } {
  const seen: Seen[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      seen.push({
        path: new URL(request.url).pathname + new URL(request.url).search,
        headers: Object.fromEntries(request.headers),
      });
      return answer(request);
    },
  });
  return { server, seen, url: `http://127.0.0.1:${server.port}` };
}

const elsewhere = recorder(() => Response.json({ id: 1 }, { status: 200 }));
const redirector = recorder((request) => {
  const path = new URL(request.url).pathname;
  if (path.startsWith("/same")) return new Response(null, { status: 302, headers: { Location: "/landed" } });
  if (path === "/landed") return new Response("203.0.113.9");
  return new Response(null, { status: 307, headers: { Location: `${elsewhere.url}/stolen` } });
});

afterAll(() => {
  elsewhere.server.stop(true);
  redirector.server.stop(true);
});

describe("redirects", () => {
  test("a notification's key and headers never follow a redirect to another origin", async () => {
    elsewhere.seen.length = 0;
    const t = await makeTestApp();
    for (const body of [
      { name: "gotify", type: "gotify", options: { url: redirector.url, token: "AppTokenSecret123" } },
      {
        name: "hook",
        type: "webhook",
        options: {
          url: `${redirector.url}/hook`,
          secret: "signing-secret-42",
          headers: { Authorization: "Bearer hook-bearer-99", "X-Custom-Key": "hook-key-77" },
        },
      },
    ]) {
      const created = await t.request("POST", "/api/v1/notifications", { body: { ...body, events: ["ip_changed"] } });
      expect(created.status).toBe(200);
      const sent = await t.request("POST", `/api/v1/notifications/${created.body.id}/test`);
      expect(sent.body.ok).toBe(false);
      expect(sent.body.detail).toContain(`redirected to another origin (${elsewhere.url})`);
    }
    expect(elsewhere.seen).toEqual([]);
    t.ctx.sqlite.close();
  });

  test("a provider's X-API-Key never follows a redirect to another origin", async () => {
    elsewhere.seen.length = 0;
    const t = await makeTestApp();
    const created = await t.request("POST", "/api/v1/providers", {
      body: {
        name: "pdns",
        type: "powerdns",
        credentials: { api_key: "pdns-api-key-5150" },
        options: { server: redirector.url },
      },
    });
    expect(created.status).toBe(200);
    const verified = await t.request("POST", `/api/v1/providers/${created.body.id}/verify`);
    expect(verified.body.ok).toBe(false);
    expect(verified.body.detail).toContain("redirected to another origin");
    expect(elsewhere.seen).toEqual([]);
    t.ctx.sqlite.close();
  });

  test("a same-origin redirect keeps the request's headers; a bare request follows one anywhere", async () => {
    redirector.seen.length = 0;
    elsewhere.seen.length = 0;
    const fetch = outboundFetch(globalThis.fetch, { maxAnswerBytes: 1024 * 1024 });
    const same = await fetch(`${redirector.url}/same`, { headers: { "X-API-Key": "k" } });
    expect(await same.text()).toBe("203.0.113.9");
    expect(redirector.seen.at(-1)).toMatchObject({ path: "/landed", headers: { "x-api-key": "k" } });
    const bare = await fetch(`${redirector.url}/echo`, { headers: { "User-Agent": "ddnsd-test" } });
    expect(bare.status).toBe(200);
    expect(elsewhere.seen.map((s) => s.path)).toEqual(["/stolen"]);
    // With a query string (which may hold a key) or a body sent again, it is not followed.
    await expect(fetch(`${redirector.url}/x?token=abc`)).rejects.toThrow("redirected to another origin");
    await expect(fetch(`${redirector.url}/x`, { method: "POST", body: "password=1" })).rejects.toThrow(
      "redirected to another origin",
    );
    expect(elsewhere.seen.map((s) => s.path)).toEqual(["/stolen"]);
    // `redirect: "manual"` still hands the redirect back.
    expect((await fetch(`${redirector.url}/x`, { redirect: "manual" })).status).toBe(307);
  });
});

describe("the answer bound", () => {
  const MB = 1024 * 1024;
  let sent = 0;
  let cancelled = false;
  /** Streams 50 MB of digits in 64 KiB pieces, as fast as it is read, counting what left. */
  const flood = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch() {
      sent = 0;
      cancelled = false;
      const piece = new Uint8Array(64 * 1024).fill(0x37);
      return new Response(
        new ReadableStream({
          pull(controller) {
            if (sent >= 50 * MB) return controller.close();
            sent += piece.byteLength;
            controller.enqueue(piece);
          },
          cancel() {
            cancelled = true;
          },
        }),
        { headers: { "Content-Type": "text/plain" } },
      );
    },
  });
  afterAll(() => flood.stop(true));

  test("an echo service's 50 MB answer fails at 1 MiB, and the transfer stops there", async () => {
    const t = await makeTestApp({ DDNS_IPV4_URLS: `http://127.0.0.1:${flood.port}/`, DDNS_HTTP_TIMEOUT: "30s" });
    Bun.gc(true);
    const before = process.memoryUsage().rss;
    const detection = await detectFamily(t.ctx, 4);
    expect(detection.ok).toBe(false);
    expect(detection.ok ? "" : detection.error).toContain("answer larger than 1 MiB");
    // The server stopped well short of its 50 MB: the socket's buffers hold a few MB at most.
    await Bun.sleep(100);
    expect(sent).toBeLessThan(20 * MB);
    Bun.gc(true);
    expect(process.memoryUsage().rss - before).toBeLessThan(40 * MB);
    t.ctx.sqlite.close();
  });

  test("the bound is a setting, and a declared length over it fails before reading", async () => {
    const t = await makeTestApp({ DDNS_MAX_ANSWER_BYTES: "2048" });
    const fetch = outboundFetch(globalThis.fetch, { maxAnswerBytes: t.ctx.settings.maxAnswerBytes });
    const big = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("x".repeat(4096)) });
    await expect(fetch(`http://127.0.0.1:${big.port}/`)).rejects.toThrow("answer larger than 2 KiB");
    expect(await (await fetch(`http://127.0.0.1:${flood.port}/`)).text().catch((e: Error) => e.message)).toBe(
      "answer larger than 2 KiB",
    );
    expect(cancelled || sent < 50 * MB).toBe(true);
    big.stop(true);
    t.ctx.sqlite.close();
  });
});
