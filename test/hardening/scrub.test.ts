// No credential reaches a history row, an API answer or the log, whatever a service answers: every
// registered DNS service, pointed at a server that answers broken HTTP (Bun's error text quotes the
// URL) or echoes the whole request back (a path, a query, a header, a body holding the secret) in a
// 500, a 400 of JSON, a 200, is forced to update and verified; no secret credential value may appear
// in the outcome, the history, the verify result or the log. Notification channels the same way,
// Uptime Kuma's push token in `last_error` included.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TCPSocketListener } from "bun";
import { Pacer } from "../../src/dns/pacing";
import { apiUrlSetting, SERVICES } from "../../src/dns/registry";
import { startEchoFake } from "../fakes/echo";
import { ADAPTERS } from "../services/adapters";
import { makeTestApp, type TestApp } from "../support";

type Mode = "malformed" | "target-first" | "headers-first" | "body-first" | "json-400" | "ok-200";
let mode: Mode = "malformed";

interface Parsed {
  target: string;
  headers: string[];
  body: string;
}

function parse(raw: string): Parsed | null {
  const end = raw.indexOf("\r\n\r\n");
  if (end === -1) return null;
  const lines = raw.slice(0, end).split("\r\n");
  const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(raw.slice(0, end + 2))?.[1] ?? 0);
  const body = raw.slice(end + 4);
  if (Buffer.byteLength(body) < length) return null;
  const boring = /^(host|user-agent|accept|accept-encoding|connection|content-length|content-type):/i;
  return {
    target: lines[0]!.split(" ")[1] ?? "",
    headers: lines
      .slice(1)
      .filter((line) => !boring.test(line))
      .map((line) => line.replace(/^[^:]*:\s*/, "")),
    body,
  };
}

/** What the server answers: broken HTTP, or the request echoed with the part that may hold a secret first. */
function answer(request: Parsed): string {
  if (mode === "malformed") return "HTTP/1.1 abc\r\n\r\n";
  const echo = {
    "target-first": [decodeURIComponent(request.target), ...request.headers, request.body],
    "headers-first": [...request.headers, request.body, request.target],
    "body-first": [request.body, ...request.headers, request.target],
    "json-400": [request.target, ...request.headers, request.body],
    "ok-200": [...request.headers, request.target, request.body],
  }[mode].join(" ");
  if (mode === "json-400") {
    const words = {
      message: echo,
      error: echo,
      detail: echo,
      msg: echo,
      description: echo,
      errors: [{ message: echo, code: echo }],
      status: "error",
    };
    return response(400, "application/json", JSON.stringify(words));
  }
  return response(mode === "ok-200" ? 200 : 500, "text/plain", echo);
}

function answerHttp(raw: string): string | null {
  const request = parse(raw);
  return request === null ? null : answer(request);
}

/**
 * RFC 2136 speaks DNS over TCP here, which never ends in a blank line: once a whole message has come
 * (its two-byte length first), the broken HTTP is the answer in the "malformed" round and the message
 * itself, echoed back with its TSIG record, in the others. Without it each exchange would wait out the
 * client's timeout and only that would be checked.
 */
function dnsReply(raw: string): Buffer | null {
  if (raw.length < 2 || /^[A-Z]/.test(raw)) return null;
  const length = (raw.charCodeAt(0) << 8) | raw.charCodeAt(1);
  if (raw.length < 2 + length) return null;
  return Buffer.from(mode === "malformed" ? "HTTP/1.1 abc\r\n\r\n" : raw.slice(0, 2 + length), "latin1");
}

function response(status: number, type: string, body: string): string {
  return `HTTP/1.1 ${status} X\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

const server: TCPSocketListener<{ raw: string }> = Bun.listen<{ raw: string }>({
  hostname: "127.0.0.1",
  port: 0,
  socket: {
    open(socket) {
      socket.data = { raw: "" };
    },
    data(socket, chunk) {
      socket.data.raw += chunk.toString("latin1");
      const reply = dnsReply(socket.data.raw) ?? answerHttp(socket.data.raw);
      if (reply === null) return;
      socket.write(reply);
      socket.end();
    },
  },
});
const echo = startEchoFake();
let t: TestApp;
const url = () => `http://127.0.0.1:${server.port}`;

/** Every property of a service's fake that names where it listens: the broken server. */
const pseudoFake = () => new Proxy({}, { get: () => url() }) as never;

beforeAll(async () => {
  const everyApi = Object.fromEntries(
    SERVICES.filter((service) => service.defaultApiUrl !== undefined).map((service) => [
      apiUrlSetting(service.type),
      url(),
    ]),
  );
  const env = Object.assign(everyApi, ...ADAPTERS.map((adapter) => adapter.env(pseudoFake())));
  t = await makeTestApp({
    ...env,
    DDNS_IPV4_URLS: `${echo.url}/v4`,
    DDNS_IPV6_URLS: `${echo.url}/v6`,
    DDNS_TELEGRAM_API_URL: url(),
  });
  let now = 0;
  t.ctx.pacer = new Pacer({ now: () => now, sleep: async (ms) => void (now += ms) });
});
afterAll(async () => {
  t.ctx.sqlite.close();
  server.stop(true);
  await echo.stop();
});

/** Each registered service: credentials and options that point it at the broken server. */
interface Setup {
  type: string;
  credentials: Record<string, string>;
  options?: Record<string, unknown>;
  recordType: string;
  hostname: string;
}

function setups(): Setup[] {
  return SERVICES.map((service): Setup => {
    const adapter = ADAPTERS.find((a) => a.type === service.type);
    if (adapter) {
      return {
        type: service.type,
        credentials: adapter.credentials,
        options: adapter.options(pseudoFake()),
        recordType: adapter.recordTypes[0]!,
        hostname: adapter.hostname,
      };
    }
    if (service.type === "cloudflare")
      return {
        type: "cloudflare",
        credentials: { api_token: "cf-fake-token-0123456789abcdef" },
        recordType: "A",
        hostname: "home.example.com",
      };
    if (service.type === "dynu")
      return {
        type: "dynu",
        credentials: { api_key: "dynu-fake-key-0123456789abcdef" },
        recordType: "A",
        hostname: "home.example.com",
      };
    if (service.type === "powerdns")
      return {
        type: "powerdns",
        credentials: { api_key: "pdns-api-key-0123456789" },
        options: { server: url() },
        recordType: "A",
        hostname: "home.example.com",
      };
    if (service.type === "rfc2136") {
      return {
        type: "rfc2136",
        credentials: { tsig_secret: Buffer.from("tsig-secret-0123456789abcdef").toString("base64") },
        options: { server: `127.0.0.1:${server.port}`, tsig_key_name: "ddnsd-key" },
        recordType: "A",
        hostname: "home.example.com",
      };
    }
    throw new Error(`no setup for ${service.type}`);
  });
}

/** The secret credential values of a service, each as it could be quoted. */
function secretsOf(type: string, credentials: Record<string, string>): string[] {
  const service = SERVICES.find((s) => s.type === type)!;
  return service.credentials
    .filter((field) => field.secret && (credentials[field.key] ?? "").length >= 6)
    .map((field) => credentials[field.key]!);
}

describe("no credential in any message, whatever a service answers", () => {
  test("every registered service has a setup here", () => {
    expect(setups().map((s) => s.type)).toEqual(SERVICES.map((s) => s.type));
  });

  for (const setup of setups()) {
    test(`${setup.type}`, async () => {
      const secrets = secretsOf(setup.type, setup.credentials);
      const seen: string[] = [];
      for (const round of ["malformed", "target-first", "headers-first", "body-first", "json-400", "ok-200"] as const) {
        mode = round;
        t.ctx.sqlite.exec("DELETE FROM history; DELETE FROM domains; DELETE FROM providers;");
        const logsBefore = t.logs.length;
        const provider = await t.request("POST", "/api/v1/providers", {
          body: {
            name: `${setup.type} ${round}`,
            type: setup.type,
            credentials: setup.credentials,
            ...(setup.options ? { options: setup.options } : {}),
          },
        });
        expect(provider.status).toBe(200);
        const domain = await t.request("POST", "/api/v1/domains", {
          body: { provider_id: provider.body.id, domain_name: setup.hostname, record_type: setup.recordType },
        });
        expect(domain.status).toBe(200);
        const forced = await t.request("POST", `/api/v1/domains/${domain.body.id}/update_ip`);
        const verified = await t.request("POST", `/api/v1/providers/${provider.body.id}/verify`);
        const history = await t.request("GET", `/api/v1/domains/${domain.body.id}/history?limit=100`);
        const providerAfter = await t.request("GET", `/api/v1/providers/${provider.body.id}`);
        const domainAfter = await t.request("GET", `/api/v1/domains/${domain.body.id}`);
        seen.push(
          JSON.stringify(forced.body),
          JSON.stringify(verified.body),
          JSON.stringify(history.body),
          JSON.stringify(providerAfter.body),
          JSON.stringify(domainAfter.body),
          ...t.logs.slice(logsBefore),
        );
      }
      const text = seen.join("\n");
      for (const secret of secrets) {
        for (const form of [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])
          expect(text).not.toContain(form);
      }
    });
  }
});

describe("no notification secret in last_error, whatever the target answers", () => {
  const channels = () => [
    {
      type: "uptime_kuma",
      options: { url: `${url()}/api/push/KumaPushToken42abc?status=up&msg=OK&ping=` },
      secrets: ["KumaPushToken42abc"],
    },
    { type: "gotify", options: { url: url(), token: "GotifyAppToken42" }, secrets: ["GotifyAppToken42"] },
    {
      type: "webhook",
      options: {
        url: `${url()}/hook`,
        secret: "hook-signing-secret-42",
        headers: { Authorization: "Bearer hook-bearer-4242" },
      },
      secrets: ["hook-signing-secret-42", "hook-bearer-4242"],
    },
    {
      type: "telegram",
      options: { bot_token: "123456789:AAbbCCddEEffGGhhIIjjKKllMMnnOOppQQr", chat_id: "42" },
      secrets: ["123456789:AAbbCCddEEffGGhhIIjjKKllMMnnOOppQQr"],
    },
  ];

  for (const channel of channels()) {
    test(channel.type, async () => {
      const seen: string[] = [];
      for (const round of ["malformed", "target-first", "headers-first", "body-first", "json-400"] as const) {
        mode = round;
        t.ctx.sqlite.exec("DELETE FROM notifications");
        const logsBefore = t.logs.length;
        const setup = channels().find((c) => c.type === channel.type)!;
        const created = await t.request("POST", "/api/v1/notifications", {
          body: { name: `${channel.type} ${round}`, type: channel.type, options: setup.options },
        });
        expect(created.status).toBe(200);
        const sent = await t.request("POST", `/api/v1/notifications/${created.body.id}/test`);
        const listed = await t.request("GET", "/api/v1/notifications");
        seen.push(JSON.stringify(sent.body), JSON.stringify(listed.body), ...t.logs.slice(logsBefore));
      }
      const text = seen.join("\n");
      for (const secret of channel.secrets)
        for (const form of [secret, encodeURIComponent(secret)]) expect(text).not.toContain(form);
    });
  }
});
