// The one outbound path (src/net/outbound.ts): a redirect to another origin is not followed with a
// header, a query or a body that may hold a credential, a bare request (an echo service) still follows one
// (a Gotify key, a webhook's own headers and signature, PowerDNS's X-API-Key carried to another
// origin are the hostile probe's first finding: test/hardening/probe.test.ts), and an answer is read to
// DDNS_MAX_ANSWER_BYTES with the transfer stopped there, whatever the answer's size and whoever
// reads it (an echo service, a DNS service's client, a notification's delivery).

import { afterAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import { outboundFetch, sentCredentials } from "../../src/net/outbound";
import { detectFamily } from "../../src/updater/detect";
import { startEchoFake } from "../fakes/echo";
import { makeTestApp, type TestApp } from "../support";

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
    // With a credential header, a query string (which may hold a key) or a body sent again, it is not followed.
    await expect(fetch(`${redirector.url}/x`, { headers: { "X-API-Key": "k" } })).rejects.toThrow(
      "redirected to another origin",
    );
    await expect(fetch(`${redirector.url}/x?token=abc`)).rejects.toThrow("redirected to another origin");
    await expect(fetch(`${redirector.url}/x`, { method: "POST", body: "password=1" })).rejects.toThrow(
      "redirected to another origin",
    );
    expect(elsewhere.seen.map((s) => s.path)).toEqual(["/stolen"]);
    // `redirect: "manual"` still hands the redirect back.
    expect((await fetch(`${redirector.url}/x`, { redirect: "manual" })).status).toBe(307);
  });
});

test("the credentials a request carries, for the scrubber: a session token a client derived among them", () => {
  const request = new Request("http://127.0.0.1/zones?session=query-session-0123&name=home.example.com", {
    headers: { "X-Auth-Token": "keystone-token-0123" },
  });
  expect(
    sentCredentials(request, {
      headers: {
        Authorization: "Bearer oauth-access-token-42",
        Cookie: "domrobot=inwx-session-0123; lang=en",
        "X-TC-Action": "DescribeRecordList",
        "Content-Type": "application/json",
        "X-API-Key": "short",
      },
      body: JSON.stringify({
        action: "infoDnsZone",
        param: { domainname: "example.com", apisessionid: "netcup-session-0123" },
      }),
    }).sort(),
  ).toEqual(
    [
      "keystone-token-0123",
      "Bearer oauth-access-token-42",
      "oauth-access-token-42",
      "domrobot=inwx-session-0123; lang=en",
      "inwx-session-0123",
      "query-session-0123",
      "netcup-session-0123",
    ].sort(),
  );
  expect(
    sentCredentials("http://127.0.0.1/", { body: "grant_type=jwt-bearer&assertion=eyJhbGciOi.eyJpc3Mi.c2lnbmF0" }),
  ).toEqual(["eyJhbGciOi.eyJpc3Mi.c2lnbmF0"]);
});

describe("the answer bound", () => {
  const MB = 1024 * 1024;
  let sent = 0;
  let cancelled = false;
  /** The method of each request that reached the flood: a write would be a PUT, PATCH, POST or DELETE. */
  const methods: string[] = [];
  /** Streams 50 MB of digits in 64 KiB pieces, as fast as it is read, counting what left. */
  const flood = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      methods.push(request.method);
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
  const floodUrl = `http://127.0.0.1:${flood.port}`;
  const echo = startEchoFake();
  afterAll(async () => {
    flood.stop(true);
    await echo.stop();
  });

  /** Each caller of the outbound path, made to read the flood: what it reports (a DNS service's client, having written nothing). */
  const callers: [string, Record<string, string>, (t: TestApp) => Promise<string>][] = [
    [
      "an echo service's",
      { DDNS_IPV4_URLS: `${floodUrl}/` },
      async (t) => {
        const detection = await detectFamily(t.ctx, 4);
        return detection.ok ? "" : detection.error;
      },
    ],
    [
      "a DNS service's",
      { DDNS_IPV4_URLS: `${echo.url}/v4` },
      async (t) => {
        const provider = await t.request("POST", "/api/v1/providers", {
          body: {
            name: "pdns",
            type: "powerdns",
            credentials: { api_key: "pdns-api-key-77" },
            options: { server: floodUrl },
          },
        });
        const domain = await t.request("POST", "/api/v1/domains", {
          body: { provider_id: provider.body.id, domain_name: "home.example.com", record_type: "A" },
        });
        const forced = await t.request("POST", `/api/v1/domains/${domain.body.id}/update_ip`);
        expect(forced.status).toBe(502);
        // Only reads reached the service: an answer it could not read is no ground for a write.
        expect(methods.filter((method) => method !== "GET")).toEqual([]);
        const history = await t.request("GET", `/api/v1/domains/${domain.body.id}/history`);
        expect(history.body.map((row: { status: string }) => row.status)).toEqual(["FAILED"]);
        return forced.body.detail;
      },
    ],
    [
      "a notification target's",
      {},
      async (t) => {
        const created = await t.request("POST", "/api/v1/notifications", {
          body: { name: "hook", type: "webhook", options: { url: `${floodUrl}/hook` } },
        });
        const sent = await t.request("POST", `/api/v1/notifications/${created.body.id}/test`);
        expect(sent.body.ok).toBe(false);
        return sent.body.detail;
      },
    ],
  ];

  for (const [who, env, call] of callers) {
    test(`${who} 50 MB answer fails at 1 MiB, and the transfer stops there`, async () => {
      const t = await makeTestApp({ ...env, DDNS_HTTP_TIMEOUT: "30s" });
      methods.length = 0;
      Bun.gc(true);
      const before = process.memoryUsage().rss;
      expect(await call(t)).toContain("answer larger than 1 MiB");
      // The server stopped well short of its 50 MB: the socket's buffers hold a few MB at most.
      await Bun.sleep(100);
      expect(sent).toBeLessThan(20 * MB);
      Bun.gc(true);
      expect(process.memoryUsage().rss - before).toBeLessThan(40 * MB);
      t.ctx.sqlite.close();
    });
  }

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
