// No credential reaches a history row, an API answer, a page or the log, whatever a service answers:
// every registered DNS service, pointed at a server that answers broken HTTP (Bun's error text
// quotes the URL) or echoes the whole request back (a path, a query, a header, a body holding the
// secret) in a 500, a 400 of JSON, a 200, or signs it in and echoes the session token it then
// sends, is forced to update and verified; no secret credential value (nor a session token it
// derived) may appear in the outcome, the history, the verify result, the log, or the pages that
// show them (the domain's history, Providers, About with its log tail). Every registered notification
// channel the same way, a secret in each of its secret options: not in `last_error`, the test's
// answer, the line logged when a delivery is given up, the API, the Notifications page or About.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Pacer } from "../../src/dns/pacing";
import { apiUrlSetting, SERVICES } from "../../src/dns/registry";
import type { ChannelDescription } from "../../src/notify/channel";
import type { Notifier } from "../../src/notify/notifier";
import { CHANNELS } from "../../src/notify/registry";
import type { UpdateOutcome } from "../../src/updater/outcome";
import { startEchoFake } from "../fakes/echo";
import { ADAPTERS } from "../services/adapters";
import { makeTestApp, type TestApp } from "../support";
import { page, signIn } from "../ui/helpers";
import { expectNoBasicCredential, expectNowhere, rawServer } from "./helpers";

type Mode = "malformed" | "target-first" | "headers-first" | "body-first" | "json-400" | "ok-200" | "session";
let mode: Mode = "malformed";

/**
 * The "session" round: a sign-in (a path naming auth, token, login or oauth, a body with a login or an
 * OAuth grant) is answered with a session token in every shape the services use (an OAuth access
 * token, TransIP's and Selectel's tokens, Netcup's session id, INWX's cookie), and every other request
 * is echoed. A client that signs in sends the token back as its credential: it is a secret like those
 * it was given.
 */
const SESSION = "SessionTok3n-0123456789abcdefXYZ";
/** Whether a request carried the session token back (then it must show nowhere). */
let sessionSent = false;

function sessionAnswer(request: Parsed): string {
  if (request.headers.some((value) => value.includes(SESSION)) || request.body.includes(SESSION)) sessionSent = true;
  if (!/auth|token|login|oauth/i.test(request.target) && !/login|grant_type/i.test(request.body))
    return echoed([...request.headers, request.body, request.target].join(" "));
  const body = JSON.stringify({
    token: SESSION,
    access_token: SESSION,
    token_type: "Bearer",
    expires_in: 3600,
    status: "success",
    statuscode: 2000,
    responsedata: { apisessionid: SESSION },
    access: { token: { id: SESSION, expires: "2099-01-01T00:00:00Z" }, serviceCatalog: [] },
    code: 1000,
  });
  return `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Subject-Token: ${SESSION}\r\nSet-Cookie: domrobot=${SESSION}; path=/\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

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
  if (mode === "session") return sessionAnswer(request);
  const echo = {
    "target-first": [decodeURIComponent(request.target), ...request.headers, request.body],
    "headers-first": [...request.headers, request.body, request.target],
    "body-first": [request.body, ...request.headers, request.target],
    "json-400": [request.target, ...request.headers, request.body],
    "ok-200": [...request.headers, request.target, request.body],
  }[mode].join(" ");
  if (mode === "json-400") return echoed(echo);
  return response(mode === "ok-200" ? 200 : 500, "text/plain", echo);
}

/** A 400 of JSON with the echo in every field a service words an error in, which clients quote whole. */
function echoed(echo: string): string {
  const words = {
    message: echo,
    error: echo,
    detail: echo,
    msg: echo,
    description: echo,
    shortmessage: echo,
    longmessage: echo,
    errors: [{ message: echo, code: echo }],
    status: "error",
  };
  return response(400, "application/json", JSON.stringify(words));
}

/**
 * The signed assertions clients exchanged for an access token (Google Cloud's service account, an
 * OAuth JWT grant): each is a credential while it lives, so none may show either.
 */
const assertions = new Set<string>();

function answerHttp(raw: string): string | null {
  const request = parse(raw);
  if (request === null) return null;
  const assertion = /(?:^|&)assertion=([^&]+)/.exec(request.body)?.[1];
  if (assertion !== undefined) assertions.add(decodeURIComponent(assertion));
  return answer(request);
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

const server = rawServer((raw) => dnsReply(raw) ?? answerHttp(raw));
const echo = startEchoFake();
let t: TestApp;
/** The admin's session, for the pages. */
let cookie: string;
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
  cookie = await signIn(t);
});

/** The HTML of admin pages, as a signed-in browser gets them. */
async function pages(...paths: string[]): Promise<string[]> {
  return Promise.all(
    paths.map(async (path) => {
      const shown = await page(t, path, { cookie });
      expect([path, shown.status]).toEqual([path, 200]);
      return shown.text;
    }),
  );
}

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
      /** What the session round showed, but for About (whose log tail holds other services' lines). */
      const sessionSeen: string[] = [];
      sessionSent = false;
      assertions.clear();
      for (const round of [
        "malformed",
        "target-first",
        "headers-first",
        "body-first",
        "json-400",
        "ok-200",
        "session",
      ] as const) {
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
        const shown = [
          JSON.stringify(forced.body),
          JSON.stringify(verified.body),
          JSON.stringify(history.body),
          JSON.stringify(providerAfter.body),
          JSON.stringify(domainAfter.body),
          ...t.logs.slice(logsBefore),
          ...(await pages(`/domains/${domain.body.id}/history`, "/providers")),
        ];
        seen.push(...shown, ...(await pages("/about")));
        if (round === "session") sessionSeen.push(...shown);
      }
      expectNowhere(seen.join("\n"), secrets);
      expectNoBasicCredential(seen.join("\n"));
      if (sessionSent) expectNowhere(sessionSeen.join("\n"), [SESSION]);
      expectNowhere(seen.join("\n"), [...assertions]);
    });
  }
});

/** A value for each option of a channel (the options of every kind are built alike), pointing it at the broken server. */
interface ChannelSetup {
  options: Record<string, unknown>;
  /** The secret parts put into its secret options: none may appear anywhere. */
  secrets: string[];
}

function channelSetup(channel: ChannelDescription): ChannelSetup {
  const secrets: string[] = [];
  const secret = (key: string, n: number) => {
    const value = `Secret${channel.type.replace(/_/g, "")}${key.replace(/_/g, "")}${n}x0123456789`;
    secrets.push(value);
    return value;
  };
  const options: Record<string, unknown> = {};
  for (const option of channel.options) {
    if (option.kind === "url" || option.kind === "https_url") {
      // A secret URL quotes its token in the path and the query; a plain one is the server alone.
      options[option.key] = option.secret
        ? `${url()}/${channel.type}/${secret(option.key, 1)}?key=${secret(option.key, 2)}`
        : `${url()}/${channel.type}`;
    } else if (option.kind === "headers") {
      options[option.key] = option.secret
        ? { Authorization: `Bearer ${secret(option.key, 1)}`, "X-Api-Key": secret(option.key, 2) }
        : { "X-Plain": "plain" };
    } else if (option.kind === "chat_id") {
      options[option.key] = "42";
    } else {
      options[option.key] = option.secret ? secret(option.key, 1) : "plain";
    }
  }
  return { options, secrets };
}

/** A pass over one record, for a heartbeat channel to check in about (only its result and words count). */
const PASS = [
  { result: "failed", changed: false, hostname: "home.example.com", recordType: "A", message: "refused" },
] as unknown as UpdateOutcome[];

describe("no notification secret anywhere, whatever the target answers", () => {
  test("every registered channel has a secret option here", () => {
    expect(CHANNELS.filter((channel) => channelSetup(channel).secrets.length === 0).map((c) => c.type)).toEqual([]);
  });

  for (const channel of CHANNELS) {
    test(channel.type, async () => {
      const { options, secrets } = channelSetup(channel);
      const notifier = t.ctx.notifier as Notifier;
      // A delivery that fails is given up at once, with its log line.
      notifier.retryDelaysMs = [];
      notifier.heartbeatSpacingMs = 0;
      const seen: string[] = [];
      for (const round of ["malformed", "target-first", "headers-first", "body-first", "json-400"] as const) {
        mode = round;
        t.ctx.sqlite.exec("DELETE FROM notifications");
        const logsBefore = t.logs.length;
        const created = await t.request("POST", "/api/v1/notifications", {
          body: { name: `${channel.type} ${round}`, type: channel.type, options },
        });
        expect(created.status).toBe(200);
        const sent = await t.request("POST", `/api/v1/notifications/${created.body.id}/test`);
        expect(sent.body.ok).toBe(false);
        // A delivery of an event (a heartbeat, for a monitor): given up, it is logged.
        if (channel.kind === "heartbeat") notifier.passed(PASS);
        else {
          notifier.detected(4, { ok: true, ip: "203.0.113.7", source: "test" });
          notifier.detected(4, { ok: false, error: "no echo service answered" });
        }
        await notifier.idle();
        const given = t.logs.slice(logsBefore).filter((line) => line.includes("notification not delivered"));
        expect(given.length).toBe(1);
        const listed = await t.request("GET", "/api/v1/notifications");
        const one = await t.request("GET", `/api/v1/notifications/${created.body.id}`);
        expect(one.body.last_error).toBeString();
        seen.push(
          JSON.stringify(sent.body),
          JSON.stringify(listed.body),
          JSON.stringify(one.body),
          ...t.logs.slice(logsBefore),
          ...(await pages("/notifications", `/notifications/${created.body.id}/edit`, "/about")),
        );
      }
      expectNowhere(seen.join("\n"), secrets);
    });
  }
});
