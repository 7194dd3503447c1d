// The hostile probe of issue 34, repeated: each of its seven numbered findings, as the exact hostile
// input the probe sent, against a running ddnsd (the real server as a child process, on a data dir
// made 0755 beforehand as the container docs' `mkdir -p` leaves it). None may reproduce: this file
// answers "does the probe find anything today?".
//
// The properties behind the findings are tested wider elsewhere: every registered DNS service and
// notification channel against broken answers (scrub.test.ts), every caller of the outbound path
// against a huge answer (test/net/outbound.test.ts), the short Host's padded URL (test/server/edge.test.ts).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Server } from "bun";
import { apiUrlSetting } from "../../src/dns/registry";
import { startEchoFake } from "../fakes/echo";
import { APPLIANCE_PASSWORD, type Appliance, login, spawnAppliance, untilHealthy } from "./appliance";
import { expectNowhere, rawRequest, rawServer } from "./helpers";

const MB = 1024 * 1024;

/** A server that records what reaches it and answers `answer`. */
function recorder(answer: (request: Request) => Response | Promise<Response>) {
  const seen: { method: string; path: string; headers: Record<string, string> }[] = [];
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 60,
    fetch(request) {
      const url = new URL(request.url);
      seen.push({
        method: request.method,
        path: url.pathname + url.search,
        headers: Object.fromEntries(request.headers),
      });
      return answer(request);
    },
  });
  return { server, seen, url: `http://127.0.0.1:${server.port}` };
}

/** Finding 1: a service that redirects every request to `elsewhere`, another origin. */
const elsewhere = recorder(() => Response.json({ id: 1 }));
const redirector = recorder(
  () => new Response(null, { status: 307, headers: { Location: `${elsewhere.url}/stolen` } }),
);

/** Finding 2: broken HTTP, which Bun's error text answers by quoting the request's URL. */
const broken = rawServer((raw) => (raw.includes("\r\n\r\n") ? "HTTP/1.1 abc\r\n\r\n" : null));
const brokenUrl = `http://127.0.0.1:${broken.port}`;

/**
 * Finding 3: a "1 GB" answer, streamed in 64 KiB pieces as fast as it is read. The test bounds it
 * at 128 MB, well past the 1 MiB a ddnsd reads, so that a ddnsd that reads it all shows.
 */
const FLOOD_BYTES = 128 * MB;
let flooded = 0;
const flood = recorder(() => {
  flooded = 0;
  const piece = new Uint8Array(64 * 1024).fill(0x37);
  return new Response(
    new ReadableStream({
      pull(controller) {
        if (flooded >= FLOOD_BYTES) return controller.close();
        flooded += piece.byteLength;
        controller.enqueue(piece);
      },
    }),
    { headers: { "Content-Type": "application/json" } },
  );
});

/** Finding 7: a service that answers after 12 s, past the server's default idle timeout of 10 s. */
const slow = recorder(async () => {
  await Bun.sleep(12_000);
  return Response.json({ id: "localhost", kind: "Native" });
});

const echo = startEchoFake();
let dir: string;
let appliance: Appliance;
let token: string;
/** The admin's page session. */
let cookie: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ddnsd-probe-"));
  // As the container docs' `mkdir -p` leaves it.
  mkdirSync(join(dir, "data"), { mode: 0o755 });
  appliance = spawnAppliance(join(dir, "data"), {
    DDNS_HTTP_TIMEOUT: "20s",
    DDNS_IPV4_URLS: `${echo.url}/v4`,
    [apiUrlSetting("cloudns")]: brokenUrl,
    [apiUrlSetting("namesilo")]: brokenUrl,
  });
  await untilHealthy(appliance);
  token = ((await (await login(appliance)).json()) as { access_token: string }).access_token;
  const signedIn = await fetch(`${appliance.base}/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: appliance.base },
    body: new URLSearchParams({ username: "admin", password: APPLIANCE_PASSWORD }),
    redirect: "manual",
  });
  cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
});
afterAll(async () => {
  appliance.kill();
  await appliance.exited;
  for (const { server } of [elsewhere, redirector, flood, slow]) server.stop(true);
  broken.stop(true);
  await echo.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A call to the running ddnsd's API as the admin: status and JSON (or text) body. */
async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; text: string }> {
  const response = await fetch(`${appliance.base}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the text
  }
  return { status: response.status, body: parsed, text };
}

/** An admin page's HTML, as the signed-in browser gets it. */
async function pageHtml(path: string): Promise<string> {
  const response = await fetch(`${appliance.base}${path}`, { headers: { cookie } });
  expect([path, response.status]).toEqual([path, 200]);
  return response.text();
}

/** The resident memory of the running ddnsd, in bytes. */
function rss(): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${appliance.pid}/status`, "utf8"))![1]!;
  return Number(kb) * 1024;
}

async function addProvider(type: string, credentials: Record<string, string>, options: Record<string, unknown> = {}) {
  const created = await api("POST", "/providers", {
    name: `${type} ${crypto.randomUUID()}`,
    type,
    credentials,
    options,
  });
  expect([type, created.status, created.body.detail]).toEqual([type, 200, undefined]);
  return created.body as { id: number };
}

async function addDomain(providerId: number) {
  const created = await api("POST", "/domains", {
    provider_id: providerId,
    domain_name: `h${crypto.randomUUID().slice(0, 8)}.example.com`,
    record_type: "A",
  });
  expect(created.status).toBe(200);
  return created.body as { id: number };
}

/** A notification; `events` only where one must not be sent what a failed update of another finding raises. */
async function addNotification(type: string, options: Record<string, unknown>, events?: string[]) {
  const created = await api("POST", "/notifications", {
    name: `${type} ${crypto.randomUUID()}`,
    type,
    options,
    ...(events ? { events } : {}),
  });
  expect([type, created.status, created.body.detail]).toEqual([type, 200, undefined]);
  return created.body as { id: number };
}

const FINDINGS: { finding: number; what: string; probe: () => Promise<void>; timeoutMs?: number }[] = [
  {
    finding: 1,
    what: "X-API-Key, X-Gotify-Key, a webhook's headers and signature never follow a redirect to another origin",
    async probe() {
      const powerdns = await addProvider(
        "powerdns",
        { api_key: "probe-pdns-api-key-5150" },
        { server: redirector.url },
      );
      const gotify = await addNotification("gotify", { url: redirector.url, token: "ProbeGotifyAppToken42" });
      const webhook = await addNotification("webhook", {
        url: `${redirector.url}/hook`,
        secret: "probe-signing-secret-42",
        headers: { Authorization: "Bearer probe-hook-bearer-99", "X-Custom-Key": "probe-hook-key-77" },
      });
      const answers = [
        (await api("POST", `/providers/${powerdns.id}/verify`)).body,
        (await api("POST", `/notifications/${gotify.id}/test`)).body,
        (await api("POST", `/notifications/${webhook.id}/test`)).body,
      ];
      for (const answer of answers) {
        expect(answer.ok).toBe(false);
        expect(answer.detail).toContain(`redirected to another origin (${elsewhere.url})`);
      }
      expect(redirector.seen.length).toBe(3);
      expect(elsewhere.seen).toEqual([]);
    },
  },
  {
    finding: 2,
    what: "broken HTTP quoting a query-string secret (ClouDNS, NameSilo, an Uptime Kuma push URL) reaches no history, answer, page or log line",
    async probe() {
      const logsBefore = appliance.lines.length;
      const setups: { type: string; credentials: Record<string, string> }[] = [
        { type: "cloudns", credentials: { auth_id: "31337", auth_password: "ProbeClouDNSPassword42" } },
        { type: "namesilo", credentials: { api_key: "ProbeNameSiloKey0123456789ab" } },
      ];
      const seen: string[] = [];
      for (const { type, credentials } of setups) {
        const provider = await addProvider(type, credentials);
        const domain = await addDomain(provider.id);
        const forced = await api("POST", `/domains/${domain.id}/update_ip`);
        expect([type, forced.status]).toEqual([type, 502]);
        const verified = await api("POST", `/providers/${provider.id}/verify`);
        expect([type, verified.body.ok]).toEqual([type, false]);
        seen.push(
          forced.text,
          verified.text,
          (await api("GET", `/domains/${domain.id}/history`)).text,
          (await api("GET", `/providers/${provider.id}`)).text,
          await pageHtml(`/domains/${domain.id}/history`),
        );
      }
      const kuma = await addNotification("uptime_kuma", {
        url: `${brokenUrl}/api/push/ProbeKumaPushToken42?status=up&msg=OK&ping=`,
      });
      const sent = await api("POST", `/notifications/${kuma.id}/test`);
      expect(sent.body.ok).toBe(false);
      seen.push(
        sent.text,
        (await api("GET", "/notifications")).text,
        await pageHtml("/notifications"),
        await pageHtml("/providers"),
        await pageHtml("/about"),
        ...appliance.lines.slice(logsBefore),
      );
      const text = seen.join("\n");
      expect(text).toContain("request failed");
      expectNowhere(text, ["ProbeClouDNSPassword42", "ProbeNameSiloKey0123456789ab", "ProbeKumaPushToken42"]);
    },
  },
  {
    finding: 3,
    what: "a huge answer from a DNS service, an echo service or a notification target fails at 1 MiB and memory does not follow",
    async probe() {
      const powerdns = await addProvider("powerdns", { api_key: "probe-pdns-api-key-3" }, { server: flood.url });
      const domain = await addDomain(powerdns.id);
      // Not told of the failed updates below, so that only the DNS service's own requests reach the flood then.
      const webhook = await addNotification("webhook", { url: `${flood.url}/hook` }, ["ip_changed"]);
      const rows: [string, () => Promise<string>][] = [
        [
          "a DNS service",
          async () => {
            const forced = await api("POST", `/domains/${domain.id}/update_ip`);
            // Nothing is written on an answer that was not read.
            expect(flood.seen.filter(({ method }) => method !== "GET")).toEqual([]);
            const history = await api("GET", `/domains/${domain.id}/history`);
            // The forced update's row (and a scheduled pass's, when the new record fell due meanwhile).
            expect(history.body.length).toBeGreaterThan(0);
            for (const row of history.body as { status: string; message: string }[])
              expect(row).toMatchObject({ status: "FAILED", message: "PowerDNS: answer larger than 1 MiB" });
            return forced.body.detail;
          },
        ],
        [
          "an echo service",
          async () => {
            const chosen = await api("PUT", "/system/address-sources", {
              ipv4: { source: "web", urls: [`${flood.url}/ip`] },
            });
            expect(chosen.status).toBe(200);
            const forced = await api("POST", `/domains/${domain.id}/update_ip`);
            expect((await api("PUT", "/system/address-sources", { ipv4: null })).status).toBe(200);
            return forced.body.detail;
          },
        ],
        ["a notification target", async () => (await api("POST", `/notifications/${webhook.id}/test`)).body.detail],
      ];
      for (const [who, call] of rows) {
        flood.seen.length = 0;
        const before = rss();
        expect([who, await call()]).toEqual([who, expect.stringContaining("answer larger than 1 MiB")]);
        // The transfer stopped well short of the answer's size, and the memory with it.
        await Bun.sleep(100);
        expect([who, flooded < 20 * MB]).toEqual([who, true]);
        expect([who, rss() - before < 48 * MB]).toEqual([who, true]);
      }
    },
  },
  {
    finding: 4,
    what: "webhook headers and a custom URL's headers show in clear nowhere: the API, the lists and edit forms, the export (sealed)",
    async probe() {
      const webhook = await addNotification("webhook", {
        url: `${brokenUrl}/hook`,
        headers: { Authorization: "Bearer probe-webhook-bearer-4242" },
      });
      const custom = await addProvider(
        "custom",
        {},
        {
          url: `${brokenUrl}/update?host={domain}&ip={ip}`,
          headers: { Authorization: "Bearer probe-custom-bearer-4242" },
        },
      );
      const exported = (await api("GET", "/config/export")).text;
      // Sealed: they open only with this ddnsd's encryption key.
      expect(exported).toMatch(/^ {6}headers: v1:/m);
      expect(exported).toMatch(/^ {4}secrets_sealed: v1:/m);
      const shown = [
        (await api("GET", "/notifications")).text,
        (await api("GET", `/notifications/${webhook.id}`)).text,
        await pageHtml("/notifications"),
        await pageHtml(`/notifications/${webhook.id}/edit`),
        (await api("GET", "/providers")).text,
        await pageHtml(`/providers/${custom.id}/edit`),
        exported,
      ].join("\n");
      expect(shown).toContain("Authorization");
      expectNowhere(shown, ["probe-webhook-bearer-4242", "probe-custom-bearer-4242"]);
    },
  },
  {
    finding: 5,
    what: "a Host of one to three characters shifts no routing: /nic/api/v1/auth/login does not sign in",
    async probe() {
      const port = Number(new URL(appliance.base).port);
      const body = JSON.stringify({ username: "admin", password: APPLIANCE_PASSWORD });
      const signIn = (path: string, host: string) =>
        rawRequest(
          port,
          `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}`,
          body,
        );
      for (const host of ["a", "ab", "abc", "a:1"]) {
        for (const prefix of ["/nic", "/xyz"])
          expect([host, prefix, (await signIn(`${prefix}/api/v1/auth/login`, host)).status]).toEqual([
            host,
            prefix,
            404,
          ]);
        // The request's own path still routes with such a Host.
        expect([host, (await signIn("/api/v1/auth/login", host)).status]).toEqual([host, 200]);
      }
    },
  },
  {
    finding: 6,
    what: "every file created in a data dir made 0755 beforehand is 0600",
    async probe() {
      const files: [string, number][] = [];
      const walk = (path: string) => {
        for (const name of readdirSync(path)) {
          const full = join(path, name);
          const stat = statSync(full);
          if (stat.isDirectory()) walk(full);
          else files.push([full.slice(dir.length), stat.mode & 0o777]);
        }
      };
      walk(join(dir, "data"));
      expect(files.map(([name]) => name)).toContain("/data/ddnsd.db");
      expect(files.filter(([, mode]) => mode !== 0o600)).toEqual([]);
    },
  },
  {
    finding: 7,
    what: "a call that waits 12 s on a slow service gets its answer",
    timeoutMs: 60_000,
    async probe() {
      const powerdns = await addProvider("powerdns", { api_key: "probe-pdns-api-key-7" }, { server: slow.url });
      const verified = await api("POST", `/providers/${powerdns.id}/verify`);
      expect([verified.status, verified.body.ok]).toEqual([200, true]);
    },
  },
];

describe("the hostile probe, repeated against a running ddnsd, finds nothing", () => {
  test("each of its seven findings is here", () => {
    expect(FINDINGS.map(({ finding }) => finding)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  for (const { finding, what, probe, timeoutMs } of FINDINGS) test(`${finding}. ${what}`, probe, timeoutMs ?? 30_000);
});
