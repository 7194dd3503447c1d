// Everything the API derives from a service's description, shown with a tiny fake service that
// is registered only in this test's app: credentials (secret or not, aliases, optional, unknown
// keys dropped) and their masking, options (docs/services/README.md), verify without a check (`ok: null`),
// record types, TTL and hostname rules, the client's inputs, `stopRetrying`, and pacing.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { DnsProvider, RecordTarget, WriteOutcome } from "../../src/dns/provider";
import { PROVIDER_TYPES, SERVICES } from "../../src/dns/registry";
import { type ClientContext, defineService, type RateLimit } from "../../src/dns/service";
import { type EchoFake, startEchoFake } from "../fakes/echo";
import { makeTestApp, type TestApp } from "../support";
import { resetData } from "./helpers";

const PASSWORD = "a-long-password-0123456789";

/** What the fake service's clients were asked, and what their next write answers. */
const calls = {
  created: [] as { credentials: Record<string, string>; options: Record<string, unknown>; context: ClientContext }[],
  verified: 0,
  writes: [] as { target: RecordTarget; ip: string }[],
  /** Requests a write sends through the `fetch` it was handed (for pacing). */
  requestsPerWrite: 0,
  next: { ok: true, action: "updated", externalId: "r1", zoneId: "z1", message: "" } as WriteOutcome,
};

let echo: EchoFake;
let t: TestApp;

function fakeService(baseUrl: string, rateLimits?: readonly RateLimit[]) {
  return defineService({
    type: "testdns",
    label: "Test DNS",
    summary: "A service that exists only in this test.",
    credentials: [
      { key: "username", label: "Username", help: "Your account name.", secret: false },
      { key: "password", label: "Password", help: "Your password.", secret: true, aliases: ["pass"] },
      { key: "pin", label: "PIN", help: "Only some accounts have one.", secret: true, optional: true },
    ],
    options: [
      {
        key: "server",
        label: "Server",
        help: "The update server.",
        kind: "url",
        required: true,
        presets: [{ label: "Main", value: "https://main.test" }],
      },
      {
        key: "method",
        label: "Method",
        help: "How to call it.",
        kind: "choice",
        choices: ["GET", "POST"],
        default: "GET",
      },
      { key: "headers", label: "Headers", help: "Extra headers.", kind: "headers" },
    ],
    recordTypes: ["A"],
    ttl: null,
    hostname: { suffix: ".test.example", message: "must end in .test.example" },
    canVerify: false,
    verifyUnavailable: "Test DNS has no way to check a password without changing a record",
    defaultApiUrl: baseUrl,
    rateLimits,
    createClient(credentials, options, context): DnsProvider {
      calls.created.push({ credentials, options, context });
      return {
        async verify() {
          calls.verified++;
          return { ok: true, detail: "checked" };
        },
        async writeRecord(target, ip) {
          calls.writes.push({ target, ip });
          for (let i = 0; i < calls.requestsPerWrite; i++) await context.fetch(`${context.baseUrl}/v4?n=${i}`);
          return calls.next;
        },
      };
    },
  });
}

/** When each of the fake service's requests left the app. */
const departures: number[] = [];

beforeAll(async () => {
  echo = startEchoFake();
  t = await makeTestApp({ DDNS_IPV4_URLS: `${echo.url}/v4`, DDNS_IPV6_URLS: `${echo.url}/v6` }, ":memory:", {
    services: [
      ...SERVICES,
      fakeService(echo.url, [
        { requests: 1, perSeconds: 0.3 },
        { requests: 2, perSeconds: 1 },
      ]),
    ],
    // When each request leaves the app (after the pacer let it go), not when the fake got round to it.
    fetch: (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (new URL(url).searchParams.has("n")) departures.push(performance.now());
      return fetch(input, init);
    },
  });
});

afterAll(() => echo.stop());

beforeEach(() => {
  resetData(t);
  echo.reset();
  Object.assign(calls, { created: [], verified: 0, writes: [], requestsPerWrite: 0 });
  calls.next = { ok: true, action: "updated", externalId: "r1", zoneId: "z1", message: "" };
});

const CREDENTIALS = { username: "alice", pass: PASSWORD, extra: "dropped" };
const OPTIONS = { server: "https://main.test" };

function create(body: Record<string, unknown> = {}) {
  return t.request("POST", "/api/v1/providers", {
    body: { name: "Test", type: "testdns", credentials: CREDENTIALS, options: OPTIONS, ...body },
  });
}

async function provider(): Promise<any> {
  const response = await create();
  expect(response.status).toBe(200);
  return response.body;
}

describe("credentials and options", () => {
  test("a public credential is shown as is, a secret masked; an alias is stored under its key; unknown keys are dropped", async () => {
    const created = await provider();
    expect(created.credentials).toEqual({ username: "alice", password: `••••${PASSWORD.slice(-4)}` });
    expect(created.options).toEqual({ server: "https://main.test" });
    expect(JSON.stringify(created)).not.toContain(PASSWORD);
  });

  test("an optional credential is kept when given", async () => {
    const created = (await create({ credentials: { ...CREDENTIALS, pin: "1234" } })).body;
    expect(created.credentials.pin).toBe("••••");
  });

  const refusals: { name: string; body: Record<string, unknown>; field: string }[] = [
    {
      name: "a missing required credential",
      body: { credentials: { username: "alice" } },
      field: "credentials.password",
    },
    {
      name: "a credential that is not text",
      body: { credentials: { ...CREDENTIALS, username: 7 } },
      field: "credentials.username",
    },
    { name: "an unknown option", body: { options: { ...OPTIONS, colour: "red" } }, field: "options.colour" },
    { name: "a missing required option", body: { options: {} }, field: "options.server" },
    {
      name: "a URL option that is not http(s)",
      body: { options: { server: "ftp://main.test" } },
      field: "options.server",
    },
    { name: "a URL option that is no URL", body: { options: { server: "main.test" } }, field: "options.server" },
    {
      name: "a choice outside its choices",
      body: { options: { ...OPTIONS, method: "DELETE" } },
      field: "options.method",
    },
    {
      name: "headers that are not an object",
      body: { options: { ...OPTIONS, headers: "X-A: b" } },
      field: "options.headers",
    },
    {
      name: "a header value over two lines",
      body: { options: { ...OPTIONS, headers: { "X-A": "b\r\nX-B: c" } } },
      field: "options.headers.X-A",
    },
    {
      name: "an option over 1,024 characters",
      body: { options: { server: `https://main.test/${"a".repeat(1024)}` } },
      field: "options.server",
    },
    { name: "options that are not an object", body: { options: ["server"] }, field: "options" },
  ];
  for (const { name, body, field } of refusals) {
    test(`${name} → 422 naming ${field}, and nothing stored`, async () => {
      const response = await create(body);
      expect(response.status).toBe(422);
      expect(response.body.errors[0].field).toBe(field);
      expect(response.body.detail).toStartWith(`${field}: `);
      expect((await t.request("GET", "/api/v1/providers")).body).toEqual([]);
    });
  }

  test("PUT replaces the options; an unknown one is refused and changes nothing", async () => {
    const created = await provider();
    const headers = { "X-Api-Version": "2" };
    const updated = await t.request("PUT", `/api/v1/providers/${created.id}`, {
      body: { options: { server: "http://other.test", headers } },
    });
    expect(updated.status).toBe(200);
    // Headers are secrets: answered masked, like credentials.
    const masked = { server: "http://other.test", headers: { "X-Api-Version": "••••" } };
    expect(updated.body.options).toEqual(masked);
    const refused = await t.request("PUT", `/api/v1/providers/${created.id}`, { body: { options: { nope: "1" } } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].field).toBe("options.nope");
    expect((await t.request("GET", `/api/v1/providers/${created.id}`)).body.options).toEqual(masked);
  });

  test("a built-in service has no options: any option is refused", async () => {
    const response = await t.request("POST", "/api/v1/providers", {
      body: {
        name: "cf",
        type: "cloudflare",
        credentials: { api_token: "x".repeat(20) },
        options: { server: "https://x.test" },
      },
    });
    expect(response.status).toBe(422);
    expect(response.body.detail).toBe("options.server: is not an option of a Cloudflare provider");
  });

  test("an unknown type lists the app's services, the test's own included", async () => {
    const response = await create({ type: "nosuch" });
    expect(response.status).toBe(422);
    expect(response.body.detail).toBe(`type: must be one of: ${[...PROVIDER_TYPES, "testdns"].join(", ")}`);
  });
});

describe("verify", () => {
  test("a service that cannot check without writing answers ok: null with its reason, and no client is made", async () => {
    const created = await provider();
    const response = await t.request("POST", `/api/v1/providers/${created.id}/verify`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ok: null,
      detail: "Test DNS has no way to check a password without changing a record",
      cause: null,
    });
    expect(calls.created).toHaveLength(0);
    expect(calls.verified).toBe(0);
  });
});

describe("domains", () => {
  test("the service's record types, TTL and hostname rules give 422s naming the field", async () => {
    const created = await provider();
    const post = (body: Record<string, unknown>) =>
      t.request("POST", "/api/v1/domains", {
        body: { provider_id: created.id, domain_name: "home.test.example", ...body },
      });
    const aaaa = await post({ record_type: "AAAA" });
    expect([aaaa.status, aaaa.body.detail]).toEqual([422, 'record_type: must be "A" for a Test DNS provider']);
    const ttl = await post({ config: { ttl: 300 } });
    expect([ttl.status, ttl.body.detail]).toEqual([422, "config.ttl: cannot be set: Test DNS sets the TTL itself"]);
    const name = await post({ domain_name: "home.example.com" });
    expect([name.status, name.body.detail]).toEqual([422, "domain_name: must end in .test.example"]);
    const bare = await post({ domain_name: "test.example" });
    expect(bare.status).toBe(422);
    expect((await post({})).status).toBe(200);
  });

  test("the client gets normalised credentials, options with defaults, the default base URL and a User-Agent", async () => {
    const created = await provider();
    const domain = (
      await t.request("POST", "/api/v1/domains", {
        body: { provider_id: created.id, domain_name: "home.test.example" },
      })
    ).body;
    const response = await t.request("POST", `/api/v1/domains/${domain.id}/update_ip`);
    expect(response.status).toBe(200);
    expect(calls.created).toHaveLength(1);
    const [{ credentials, options, context }] = calls.created as [(typeof calls.created)[number]];
    expect(credentials).toEqual({ username: "alice", password: PASSWORD });
    expect(options).toEqual({ method: "GET", server: "https://main.test" });
    expect(context.baseUrl).toBe(echo.url);
    expect(context.userAgent).toMatch(/^ddnsd\/\d+\.\d+\.\d+/);
    expect(calls.writes[0]!.target.hostname).toBe("home.test.example");
  });
});

describe("a failure the service says retrying cannot fix", () => {
  async function stoppedDomain() {
    const created = await provider();
    const domain = (
      await t.request("POST", "/api/v1/domains", {
        body: { provider_id: created.id, domain_name: "home.test.example" },
      })
    ).body;
    calls.next = { ok: false, message: "Test DNS: nohost", cause: "refused", stopRetrying: true };
    const outcomes = await t.ctx.scheduler.runPass();
    expect(outcomes.map((o) => o.result)).toEqual(["failed"]);
    return { created, domain };
  }

  test("is written to the history saying so, and the domain gets no next run", async () => {
    const { domain } = await stoppedDomain();
    const history = (await t.request("GET", `/api/v1/domains/${domain.id}/history`)).body;
    expect(history[0].message).toBe("Test DNS: nohost — not retried until the provider or domain is edited");
    const after = (await t.request("GET", `/api/v1/domains/${domain.id}`)).body;
    expect(after).toMatchObject({ last_update_status: "FAILED", next_run_at: null });
    // Even a pass far in the future leaves it alone.
    expect(await t.ctx.scheduler.runPass({ now: Date.now() + 365 * 86400_000 })).toEqual([]);
    expect(calls.writes).toHaveLength(1);
  });

  test("an edit of the domain schedules it again", async () => {
    const { domain } = await stoppedDomain();
    const edited = await t.request("PUT", `/api/v1/domains/${domain.id}`, { body: { cron_schedule: null } });
    expect(edited.body.next_run_at).not.toBeNull();
    calls.next = { ok: true, action: "updated", externalId: "r1", zoneId: "z1", message: "" };
    expect((await t.ctx.scheduler.runPass({ now: Date.now() + 1000 })).map((o) => o.result)).toEqual(["updated"]);
  });

  test("an edit of its provider (here: enabling it) schedules it again; a disabled domain stays unscheduled", async () => {
    const { created, domain } = await stoppedDomain();
    const other = (
      await t.request("POST", "/api/v1/domains", {
        body: { provider_id: created.id, domain_name: "off.test.example", is_enabled: false },
      })
    ).body;
    await t.request("PUT", `/api/v1/providers/${created.id}`, { body: { is_enabled: false } });
    await t.request("PUT", `/api/v1/providers/${created.id}`, { body: { is_enabled: true } });
    expect((await t.request("GET", `/api/v1/domains/${domain.id}`)).body.next_run_at).not.toBeNull();
    expect((await t.request("GET", `/api/v1/domains/${other.id}`)).body.next_run_at).toBeNull();
  });

  test("an ordinary failure is retried with backoff as before", async () => {
    const created = await provider();
    const domain = (
      await t.request("POST", "/api/v1/domains", {
        body: { provider_id: created.id, domain_name: "home.test.example" },
      })
    ).body;
    calls.next = { ok: false, message: "Test DNS: try later", cause: "unreachable" };
    await t.ctx.scheduler.runPass();
    const after = (await t.request("GET", `/api/v1/domains/${domain.id}`)).body;
    expect(after.next_run_at).not.toBeNull();
    expect((await t.request("GET", `/api/v1/domains/${domain.id}/history`)).body[0].message).toBe(
      "Test DNS: try later",
    );
  });
});

describe("pacing", () => {
  test("a provider's requests are spaced under every window of its service's limits (here 1 per 0.3 s and 2 per 1 s)", async () => {
    const created = await provider();
    const domain = (
      await t.request("POST", "/api/v1/domains", {
        body: { provider_id: created.id, domain_name: "home.test.example" },
      })
    ).body;
    calls.requestsPerWrite = 3;
    departures.length = 0;
    expect((await t.request("POST", `/api/v1/domains/${domain.id}/update_ip`)).status).toBe(200);
    const paced = departures;
    expect(paced).toHaveLength(3);
    // Lower bounds only: each request waited for the one before it to leave the window (less a
    // millisecond: a timer may fire a fraction of one early, 289.5 ms was seen on a loaded machine).
    expect(paced[1]! - paced[0]!).toBeGreaterThanOrEqual(289);
    // The third, which the 0.3 s window lets go at 0.6 s, waits for the first to leave the 1 s window.
    expect(paced[2]! - paced[0]!).toBeGreaterThanOrEqual(989);
  });
});

describe("a provider whose service this build no longer has", () => {
  test("is still listed (secrets masked); verify is a conflict and an update fails with the reason, never a 500", async () => {
    const created = await provider();
    const domain = (
      await t.request("POST", "/api/v1/domains", {
        body: { provider_id: created.id, domain_name: "home.test.example" },
      })
    ).body;
    t.ctx.sqlite.query("UPDATE providers SET type = 'gone' WHERE id = ?").run(created.id);
    const shown = await t.request("GET", `/api/v1/providers/${created.id}`);
    expect([shown.status, shown.body.type, shown.body.credentials.username]).toEqual([200, "gone", "••••"]);
    const verify = await t.request("POST", `/api/v1/providers/${created.id}/verify`);
    expect([verify.status, verify.body.detail]).toEqual([
      409,
      'This ddnsd has no DNS service of type "gone"; change the provider\'s type',
    ]);
    const update = await t.request("POST", `/api/v1/domains/${domain.id}/update_ip`);
    expect([update.status, update.body.detail]).toEqual([
      502,
      'This ddnsd has no DNS service of type "gone"; change the provider\'s type',
    ]);
  });
});
