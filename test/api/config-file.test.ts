// Configuration as a file through the API: GET /api/v1/config/export writes providers, domains,
// update keys and notifications as YAML with secrets sealed; POST /api/v1/config/import applies
// such a file by name (YAML or JSON), all or nothing, deleting only with ?prune=true and changing
// nothing with ?dry_run=true; a bad file is a 422 naming its line. Round trip: export, import into
// an empty data dir, export again → the same file.

import { describe, expect, test } from "bun:test";
import { parse } from "yaml";
import { importConfig } from "../../src/modules/config-file/service";
import { openCredentials } from "../../src/security/secrets";
import { CLOUDFLARE_FAKE_TOKEN } from "../fakes/cloudflare";
import { makeTestApp, type TestApp } from "../support";

const DYNDNS2_PASSWORD = "dyndns2-password-0123456789";
const WEBHOOK_SECRET = "webhook-signing-secret-0123456789";

/** A data dir set up as someone would: two provider types, domains, a scoped update key, notifications. */
async function configured(): Promise<{ t: TestApp; updateKey: string }> {
  const t = await makeTestApp();
  const ok = async (method: string, path: string, body: unknown) => {
    const response = await t.request(method, path, { body });
    expect([path, response.status]).toEqual([path, 200]);
    return response.body;
  };
  const cloudflare = await ok("POST", "/api/v1/providers", {
    name: "Cloudflare home",
    type: "cloudflare",
    credentials: { api_token: CLOUDFLARE_FAKE_TOKEN },
  });
  const dyndns2 = await ok("POST", "/api/v1/providers", {
    name: "Router DynDNS",
    type: "dyndns2",
    credentials: { username: "me", password: DYNDNS2_PASSWORD },
    options: { server: "https://members.dyndns.org" },
    is_enabled: false,
  });
  const home = await ok("POST", "/api/v1/domains", {
    provider_id: cloudflare.id,
    domain_name: "home.example.com",
    config: { ttl: 300, proxied: false },
  });
  await ok("POST", "/api/v1/domains", {
    provider_id: cloudflare.id,
    domain_name: "v6.example.com",
    record_type: "AAAA",
    cron_schedule: "*/10 * * * *",
  });
  await ok("POST", "/api/v1/domains", { provider_id: dyndns2.id, domain_name: "me.dyndns.org", is_enabled: false });
  const key = await ok("POST", "/api/v1/update-keys", { name: "router", domain_ids: [home.id] });
  await ok("POST", "/api/v1/update-keys", { name: "all", domain_ids: null });
  await ok("POST", "/api/v1/notifications", {
    name: "Hook",
    type: "webhook",
    options: { url: "http://127.0.0.1:9/hook", secret: WEBHOOK_SECRET, headers: { "X-Home": "lab" } },
  });
  await ok("POST", "/api/v1/notifications", {
    name: "Phone",
    type: "ntfy",
    options: { url: "http://127.0.0.1:9/alerts" },
    events: ["update_failed"],
  });
  return { t, updateKey: key.key };
}

async function exported(t: TestApp): Promise<string> {
  const response = await t.request("GET", "/api/v1/config/export");
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toStartWith("application/yaml");
  return response.body as string;
}

function importing(t: TestApp, text: string, query = "", contentType = "application/yaml") {
  return t.request("POST", `/api/v1/config/import${query}`, { body: text, headers: { "content-type": contentType } });
}

async function counts(t: TestApp) {
  const [providers, domains, keys, notifications] = await Promise.all(
    ["providers", "domains", "update-keys", "notifications"].map(
      async (path) => (await t.request("GET", `/api/v1/${path}`)).body.length,
    ),
  );
  return { providers, domains, keys, notifications };
}

describe("export", () => {
  test("lists everything by name, secrets sealed, without ids, state or times", async () => {
    const { t } = await configured();
    const text = await exported(t);
    for (const secret of [CLOUDFLARE_FAKE_TOKEN, DYNDNS2_PASSWORD, WEBHOOK_SECRET]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/_at:|\bid:|last_known_ip|external_id/);
    const file = parse(text);
    expect(file.version).toBe(1);
    expect(file.providers.map((p: any) => [p.name, p.type, p.enabled])).toEqual([
      ["Cloudflare home", "cloudflare", true],
      ["Router DynDNS", "dyndns2", false],
    ]);
    expect(file.providers[0].credentials_sealed).toMatch(/^v1:/);
    expect(file.providers[1].options).toEqual({ server: "https://members.dyndns.org" });
    expect(file.domains).toContainEqual({
      provider: "Cloudflare home",
      name: "home.example.com",
      record_type: "A",
      enabled: true,
      cron_schedule: null,
      config: { ttl: 300, proxied: false },
    });
    expect(file.update_keys.find((key: any) => key.name === "router").domains).toEqual([
      { provider: "Cloudflare home", name: "home.example.com", record_type: "A" },
    ]);
    const hook = file.notifications.find((n: any) => n.name === "Hook");
    // A webhook's headers are secrets: sealed with the signing secret, never in clear.
    expect(hook.options).toEqual({ url: "http://127.0.0.1:9/hook" });
    expect(hook.secrets_sealed).toMatch(/^v1:/);
    expect(openCredentials(hook.secrets_sealed, t.ctx.keys.encryptionKey)).toMatchObject({
      headers: { "X-Home": "lab" },
    });
    expect(file.notifications.find((n: any) => n.name === "Phone").secrets_sealed).toBeUndefined();
  });

  test("needs a token", async () => {
    const t = await makeTestApp();
    expect((await t.request("GET", "/api/v1/config/export", { token: null })).status).toBe(401);
  });
});

describe("import", () => {
  test("round trip: export, import into an empty data dir, export again → the same file; again → nothing to change", async () => {
    const { t, updateKey } = await configured();
    const first = await exported(t);
    const empty = await makeTestApp();
    const applied = await importing(empty, first);
    expect(applied.status).toBe(200);
    expect(applied.body.dry_run).toBe(false);
    expect(applied.body.changes).toEqual([
      'create provider "Cloudflare home" (cloudflare)',
      'create provider "Router DynDNS" (dyndns2)',
      'create domain home.example.com A at "Cloudflare home"',
      'create domain v6.example.com AAAA at "Cloudflare home"',
      'create domain me.dyndns.org A at "Router DynDNS"',
      'create update key "all"',
      'create update key "router"',
      'create notification "Hook" (webhook)',
      'create notification "Phone" (ntfy)',
    ]);
    expect(await exported(empty)).toBe(first);
    expect((await importing(empty, first)).body.changes).toEqual([]);
    // The router's key works on the new box: only its hash travelled.
    const push = await empty.request(
      "GET",
      `/nic/update?hostname=home.example.com&myip=81.2.69.142&password=${updateKey}`,
      { token: null },
    );
    expect(push.status).toBe(200);
    // The secrets opened: the provider answers with its masked token.
    const providers = (await empty.request("GET", "/api/v1/providers")).body;
    expect(providers[0].credentials.api_token).toBe(`••••${CLOUDFLARE_FAKE_TOKEN.slice(-4)}`);
  });

  test("JSON is read as well", async () => {
    const { t } = await configured();
    const json = JSON.stringify(parse(await exported(t)));
    const empty = await makeTestApp();
    const applied = await importing(empty, json, "", "application/json");
    expect(applied.status).toBe(200);
    expect(await counts(empty)).toEqual({ providers: 2, domains: 3, keys: 2, notifications: 2 });
  });

  test("?dry_run=true lists the changes and makes none", async () => {
    const { t } = await configured();
    const empty = await makeTestApp();
    const dry = await importing(empty, await exported(t), "?dry_run=true");
    expect(dry.status).toBe(200);
    expect(dry.body.dry_run).toBe(true);
    expect(dry.body.changes).toHaveLength(9);
    expect(await counts(empty)).toEqual({ providers: 0, domains: 0, keys: 0, notifications: 0 });
    expect(empty.logs.join("\n")).not.toContain("provider created");
  });

  test("by name: what differs is updated, what the file leaves out stays; ?prune=true deletes it", async () => {
    const { t } = await configured();
    const file = parse(await exported(t));
    file.providers[1].enabled = true;
    file.domains = file.domains.filter((domain: any) => domain.name !== "v6.example.com");
    file.notifications[1].events = ["update_failed", "ip_changed"];
    const text = JSON.stringify(file);
    expect((await importing(t, text)).body.changes).toEqual([
      'update provider "Router DynDNS": enabled',
      'update notification "Phone": events',
    ]);
    expect((await counts(t)).domains).toBe(3);
    expect((await importing(t, text, "?prune=true")).body.changes).toEqual(["delete domain v6.example.com AAAA"]);
    expect((await counts(t)).domains).toBe(2);
  });

  test("?prune=true with a file naming no providers and no domains is refused unless &force=true", async () => {
    const { t } = await configured();
    const before = await counts(t);
    const refused = await importing(t, "version: 1\n", "?prune=true");
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toContain("names no providers and no domains");
    expect(await counts(t)).toEqual(before);
    const forced = await importing(t, "version: 1\n", "?prune=true&force=true");
    expect(forced.status).toBe(200);
    expect((await counts(t)).providers).toBe(0);
  });

  test("a file refused halfway logs nothing it would have created", async () => {
    const { t } = await configured();
    const file = parse(await exported(t));
    file.providers.push({
      name: "New one",
      type: "cloudflare",
      credentials: { api_token: "another-token-0123456789abcdef" },
    });
    file.domains.push({ provider: "New one", name: "bad..name", record_type: "A" });
    const logsBefore = t.logs.length;
    expect((await importing(t, JSON.stringify(file))).status).toBe(422);
    expect(t.logs.slice(logsBefore).filter((line) => /provider created|domain created/.test(line))).toEqual([]);
    // Applied, the same file's creations are logged.
    file.domains.pop();
    expect((await importing(t, JSON.stringify(file))).status).toBe(200);
    expect(t.logs.slice(logsBefore).filter((line) => line.includes("provider created"))).toHaveLength(1);
  });

  test("a file over 256 KiB, or nesting deeper than 32 levels, is refused before it is parsed", async () => {
    const t = await makeTestApp();
    const nested = `version: 1\nproviders: ${"[".repeat(40)}${"]".repeat(40)}\n`;
    const deep = await importing(t, nested);
    expect([deep.status, deep.body.detail]).toEqual([422, "Line 1: the file nests deeper than 32 levels"]);
    expect(() => importConfig(t.ctx, `version: 1\n# ${"x".repeat(300 * 1024)}\n`)).toThrow(
      "Line 1: the file is larger than 256 KiB",
    );
  });

  test("secrets may be written in clear by hand", async () => {
    const t = await makeTestApp();
    const text = [
      "version: 1",
      "providers:",
      "  - name: Cloudflare",
      "    type: cloudflare",
      "    credentials:",
      `      api_token: ${CLOUDFLARE_FAKE_TOKEN}`,
      "notifications:",
      "  - name: Monitor",
      "    type: healthchecks",
      "    options:",
      "      url: https://hc-ping.com/eb095278-f28d-448d-87fb-7b75c171a6aa",
    ].join("\n");
    const applied = await importing(t, text);
    expect(applied.body.changes).toEqual([
      'create provider "Cloudflare" (cloudflare)',
      'create notification "Monitor" (healthchecks)',
    ]);
    const exportedText = await exported(t);
    expect(exportedText).not.toContain(CLOUDFLARE_FAKE_TOKEN);
    expect(exportedText).not.toContain("eb095278");
  });
});

describe("mending with a file", () => {
  test("a provider whose stored credentials no longer open (another encryption key) takes the file's credentials", async () => {
    const t = await makeTestApp();
    const created = await t.request("POST", "/api/v1/providers", {
      body: { name: "Cloudflare", type: "cloudflare", credentials: { api_token: "old-token-0123456789" } },
    });
    expect(created.status).toBe(200);
    // What a replaced DDNS_ENCRYPTION_KEY leaves behind: a sealed value this key cannot open.
    t.ctx.sqlite
      .query("UPDATE providers SET credentials = ? WHERE id = ?")
      .run("v1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", created.body.id);
    const text = [
      "version: 1",
      "providers:",
      "  - name: Cloudflare",
      "    type: cloudflare",
      "    credentials:",
      `      api_token: ${CLOUDFLARE_FAKE_TOKEN}`,
    ].join("\n");
    const applied = await importing(t, text);
    expect(applied.status).toBe(200);
    expect(applied.body.changes).toEqual(['update provider "Cloudflare": credentials']);
    const provider = await t.request("GET", `/api/v1/providers/${created.body.id}`);
    expect(provider.body.credentials.api_token).toEndWith(CLOUDFLARE_FAKE_TOKEN.slice(-4));
  });
});

describe("a bad file changes nothing and names its line", () => {
  const BAD: { name: string; text: string; detail: string | RegExp }[] = [
    {
      name: "a value a service refuses",
      text: "version: 1\nproviders:\n  - name: CF\n    type: cloudflare\n    credentials:\n      api_token: abc\ndomains:\n  - provider: CF\n    name: home.example.com\n    config:\n      ttl: 5\n",
      detail: /^Line 11: domains\[0\]\.config\.ttl: /,
    },
    { name: "a YAML syntax error", text: "version: 1\nproviders:\n  - name: [unclosed\n", detail: /^Line \d+: / },
    {
      name: "an unknown type",
      text: "version: 1\nproviders:\n  - name: X\n    type: nosuch\n    credentials: {}\n",
      detail: /^Line 4: providers\[0\]\.type: must be one of: /,
    },
    {
      name: "a misspelt field",
      text: "version: 1\nproviders:\n  - name: X\n    typ: cloudflare\n",
      detail: /^Line 4: providers\[0\]\.typ: is not a field here \(use name, type, /,
    },
    { name: "no version", text: "providers: []\n", detail: "Line 1: version: is required (version: 1)" },
    {
      name: "YAML aliases",
      text: "version: 1\nproviders: &p []\ndomains: *p\n",
      detail: "Line 1: aliases (&name … *name) are not allowed",
    },
    {
      name: "a domain of a provider nobody named",
      text: "version: 1\ndomains:\n  - provider: Nobody\n    name: home.example.com\n",
      detail: 'Line 3: domains[0].provider: no provider is named "Nobody"',
    },
    {
      name: "the same name twice",
      text: "version: 1\nnotifications:\n  - name: A\n    type: ntfy\n    options: {url: 'http://127.0.0.1:9/a'}\n  - name: a\n    type: ntfy\n    options: {url: 'http://127.0.0.1:9/b'}\n",
      detail: /^Line 6: notifications\[1\]: notification "a" is already listed above \(line 3\)/,
    },
    {
      name: "a secret sealed with another key",
      text: "version: 1\nproviders:\n  - name: X\n    type: cloudflare\n    credentials_sealed: v1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n",
      detail: /^Line 5: providers\[0\]\.credentials_sealed: cannot be opened with this ddnsd's encryption key/,
    },
  ];
  for (const { name, text, detail } of BAD) {
    test(name, async () => {
      const t = await makeTestApp();
      const response = await importing(t, text);
      expect(response.status).toBe(422);
      if (typeof detail === "string") expect(response.body.detail).toBe(detail);
      else expect(response.body.detail).toMatch(detail);
      expect(await counts(t)).toEqual({ providers: 0, domains: 0, keys: 0, notifications: 0 });
    });
  }
});

describe("whatever the body, a 422 and never a 500", () => {
  const BODIES = [
    "",
    "[]",
    "42",
    "null",
    '"text"',
    "{",
    "version: 1\nproviders: 5\n",
    "version: 1\nproviders:\n  - 5\n",
    "version: 1\nproviders:\n  - name: [1, 2]\n",
    "version: 1\ndomains:\n  - {provider: X, name: 5}\n",
    "version: 1\nupdate_keys:\n  - {name: k, key_sha256: xyz, key_tail: abcd}\n",
    "version: 1\nnotifications:\n  - {name: n, type: ntfy, events: [1]}\n",
    "version: 2\n",
    "version: 1\nversion: 1\n",
    "version: 1\nextra: true\n",
    "\u0000\u0001",
    `version: 1\nproviders:\n${"  - {name: a, type: cloudflare, credentials: {api_token: t}}\n".repeat(2)}`,
  ];
  for (const body of BODIES) {
    test(JSON.stringify(body).slice(0, 60), async () => {
      const t = await makeTestApp();
      const response = await importing(t, body);
      expect(response.status).toBe(422);
      expect(typeof response.body.detail).toBe("string");
    });
  }
});
