// docs/api.md, providers: providers — validation, masked and sealed credentials, partial updates, the 409s,
// delete with and without cascade, and the 404/422 for ids. (verify's success path is tested with
// the DNS fakes elsewhere.)

import { beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { openCredentials } from "../../src/security/secrets";
import { ENCRYPTION_KEY, makeTestApp, type TestApp } from "../support";
import {
  CF_TOKEN,
  createDomain,
  createProvider,
  DYNU_KEY,
  historyCount,
  ISO_UTC,
  insertHistory,
  resetData,
} from "./helpers";

const PROVIDER_FIELDS = [
  "created_at",
  "credentials",
  "domain_count",
  "id",
  "is_enabled",
  "name",
  "options",
  "type",
  "updated_at",
];

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
beforeEach(() => resetData(t));

const post = (body: unknown) => t.request("POST", "/api/v1/providers", { body });
const put = (id: number | string, body: unknown) => t.request("PUT", `/api/v1/providers/${id}`, { body });

function storedCredentials(id: number): string {
  return t.ctx.sqlite
    .query<{ credentials: string }, [number]>("SELECT credentials FROM providers WHERE id = ?")
    .get(id)!.credentials;
}

function fieldsOf(body: { errors?: { field: string }[] }): string[] {
  return (body.errors ?? []).map((error) => error.field);
}

describe("create", () => {
  test("defaults: is_enabled true, name trimmed, no domains, every field of the provider object", async () => {
    const response = await post({
      name: "  Home Cloudflare  ",
      type: "cloudflare",
      credentials: { api_token: CF_TOKEN },
    });
    expect(response.status).toBe(200);
    const provider = response.body;
    expect(Object.keys(provider).sort()).toEqual(PROVIDER_FIELDS);
    expect(provider.id).toBe(1);
    expect(provider.name).toBe("Home Cloudflare");
    expect(provider.type).toBe("cloudflare");
    expect(provider.is_enabled).toBe(true);
    expect(provider.domain_count).toBe(0);
    expect(provider.credentials).toEqual({ api_token: `••••${CF_TOKEN.slice(-4)}` });
    expect(provider.created_at).toMatch(ISO_UTC);
    expect(provider.updated_at).toBe(provider.created_at);
  });

  test("is_enabled false is kept", async () => {
    const response = await post({ name: "off", type: "dynu", credentials: { api_key: DYNU_KEY }, is_enabled: false });
    expect(response.status).toBe(200);
    expect(response.body.is_enabled).toBe(false);
  });

  test("unknown fields in the body are ignored", async () => {
    const response = await post({
      name: "x",
      type: "dynu",
      credentials: { api_key: DYNU_KEY },
      colour: "blue",
      id: 77,
    });
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(1);
    expect(response.body).not.toHaveProperty("colour");
  });

  const CREDENTIALS: {
    name: string;
    type: "cloudflare" | "dynu";
    credentials: Record<string, unknown>;
    stored: Record<string, string>;
  }[] = [
    {
      name: "cloudflare api_token",
      type: "cloudflare",
      credentials: { api_token: CF_TOKEN },
      stored: { api_token: CF_TOKEN },
    },
    {
      name: "cloudflare token alias",
      type: "cloudflare",
      credentials: { token: CF_TOKEN },
      stored: { api_token: CF_TOKEN },
    },
    { name: "dynu api_key", type: "dynu", credentials: { api_key: DYNU_KEY }, stored: { api_key: DYNU_KEY } },
    { name: "dynu token alias", type: "dynu", credentials: { token: DYNU_KEY }, stored: { api_key: DYNU_KEY } },
    {
      name: "cloudflare extra keys dropped",
      type: "cloudflare",
      credentials: { api_token: CF_TOKEN, zone: "z", email: "me@example.com", api_key: "global-key-123456" },
      stored: { api_token: CF_TOKEN },
    },
    {
      name: "dynu extra keys dropped",
      type: "dynu",
      credentials: { api_key: DYNU_KEY, username: "me", password: "pw-0123456789" },
      stored: { api_key: DYNU_KEY },
    },
  ];
  for (const { name, type, credentials, stored } of CREDENTIALS) {
    test(`credentials: ${name}`, async () => {
      const response = await post({ name, type, credentials });
      expect(response.status).toBe(200);
      const [key, secret] = Object.entries(stored)[0]!;
      expect(response.body.credentials).toEqual({ [key]: `••••${secret.slice(-4)}` });
      expect(openCredentials(storedCredentials(response.body.id), ENCRYPTION_KEY)).toEqual(stored);
    });
  }

  const BAD_CREDENTIALS: { name: string; type: string; credentials: unknown; field: string }[] = [
    { name: "cloudflare without api_token", type: "cloudflare", credentials: {}, field: "credentials.api_token" },
    {
      name: "cloudflare with an empty api_token",
      type: "cloudflare",
      credentials: { api_token: "" },
      field: "credentials.api_token",
    },
    {
      name: "cloudflare with a blank api_token",
      type: "cloudflare",
      credentials: { api_token: "   " },
      field: "credentials.api_token",
    },
    {
      name: "cloudflare with a numeric api_token",
      type: "cloudflare",
      credentials: { api_token: 12345 },
      field: "credentials.api_token",
    },
    {
      name: "cloudflare with dynu's key",
      type: "cloudflare",
      credentials: { api_key: DYNU_KEY },
      field: "credentials.api_token",
    },
    {
      name: "cloudflare with an empty token alias",
      type: "cloudflare",
      credentials: { token: "" },
      field: "credentials.api_token",
    },
    { name: "dynu without api_key", type: "dynu", credentials: {}, field: "credentials.api_key" },
    { name: "dynu with an empty api_key", type: "dynu", credentials: { api_key: "" }, field: "credentials.api_key" },
    {
      name: "dynu with cloudflare's key",
      type: "dynu",
      credentials: { api_token: CF_TOKEN },
      field: "credentials.api_key",
    },
    { name: "dynu with a null api_key", type: "dynu", credentials: { api_key: null }, field: "credentials.api_key" },
    { name: "credentials a string", type: "dynu", credentials: "secret", field: "credentials" },
    { name: "credentials null", type: "dynu", credentials: null, field: "credentials" },
    { name: "credentials an array", type: "dynu", credentials: [DYNU_KEY], field: "credentials" },
    { name: "credentials a number", type: "dynu", credentials: 5, field: "credentials" },
  ];
  for (const { name, type, credentials, field } of BAD_CREDENTIALS) {
    test(`${name} → 422 naming ${field}`, async () => {
      const response = await post({ name: "p", type, credentials });
      expect(response.status).toBe(422);
      expect(fieldsOf(response.body)).toEqual([field]);
      expect(response.body.detail).toContain(field);
      expect((await t.request("GET", "/api/v1/providers")).body).toEqual([]);
    });
  }

  const BAD_FIELDS: { name: string; body: Record<string, unknown>; field: string }[] = [
    {
      name: "unknown type",
      body: { name: "p", type: "nosuchservice", credentials: { token: CF_TOKEN } },
      field: "type",
    },
    {
      name: "type in another case",
      body: { name: "p", type: "Cloudflare", credentials: { token: CF_TOKEN } },
      field: "type",
    },
    { name: "empty type", body: { name: "p", type: "", credentials: { token: CF_TOKEN } }, field: "type" },
    { name: "type not a string", body: { name: "p", type: 1, credentials: { token: CF_TOKEN } }, field: "type" },
    { name: "missing type", body: { name: "p", credentials: { token: CF_TOKEN } }, field: "type" },
    { name: "empty name", body: { name: "", type: "dynu", credentials: { token: DYNU_KEY } }, field: "name" },
    { name: "blank name", body: { name: "    ", type: "dynu", credentials: { token: DYNU_KEY } }, field: "name" },
    {
      name: "name of 101 characters",
      body: { name: "n".repeat(101), type: "dynu", credentials: { token: DYNU_KEY } },
      field: "name",
    },
    { name: "name not a string", body: { name: 42, type: "dynu", credentials: { token: DYNU_KEY } }, field: "name" },
    { name: "missing name", body: { type: "dynu", credentials: { token: DYNU_KEY } }, field: "name" },
    { name: "missing credentials", body: { name: "p", type: "dynu" }, field: "credentials" },
    {
      name: "is_enabled a string",
      body: { name: "p", type: "dynu", credentials: { token: DYNU_KEY }, is_enabled: "yes" },
      field: "is_enabled",
    },
  ];
  for (const { name, body, field } of BAD_FIELDS) {
    test(`${name} → 422 naming ${field}`, async () => {
      const response = await post(body);
      expect(response.status).toBe(422);
      expect(fieldsOf(response.body)).toContain(field);
      expect(typeof response.body.detail).toBe("string");
    });
  }

  test("a missing required field says so", async () => {
    const response = await post({ type: "dynu", credentials: { token: DYNU_KEY } });
    expect(response.body.errors).toEqual([{ field: "name", message: "is required" }]);
  });

  test("a name of exactly 100 characters is accepted", async () => {
    const response = await post({ name: "n".repeat(100), type: "dynu", credentials: { token: DYNU_KEY } });
    expect(response.status).toBe(200);
    expect(response.body.name).toHaveLength(100);
  });

  const DUPLICATES = ["Home", "home", "HOME", "  home  "];
  for (const name of DUPLICATES) {
    test(`duplicate name "${name}" (ignoring case and spaces) → 409`, async () => {
      await createProvider(t, { name: "Home" });
      const response = await post({ name, type: "dynu", credentials: { token: DYNU_KEY } });
      expect(response.status).toBe(409);
      expect(typeof response.body.detail).toBe("string");
      expect((await t.request("GET", "/api/v1/providers")).body).toHaveLength(1);
    });
  }

  const UNICODE: [string, string][] = [
    ["Ünïcode", "üNÏCODE"],
    ["Éte\u0301", "ÉTÉ"], // decomposed é (e + combining accent) against the composed one
    ["Домашний", "ДОМАШНИЙ"],
  ];
  for (const [first, second] of UNICODE) {
    test(`"${second}" after "${first}" (case ignored beyond ASCII) → 409`, async () => {
      await createProvider(t, { name: first });
      const response = await post({ name: second, type: "dynu", credentials: { token: DYNU_KEY } });
      expect(response.status).toBe(409);
      expect((await t.request("GET", "/api/v1/providers")).body).toHaveLength(1);
    });
  }
});

describe("masked credentials", () => {
  const MASKS: { secret: string; shown: string }[] = [
    { secret: "abcdefghijklmnop3f9a", shown: "••••3f9a" },
    { secret: "abcdefgh3f9a", shown: "••••3f9a" }, // exactly 12
    { secret: "abcdefg3f9a", shown: "••••" }, // 11
    { secret: "short", shown: "••••" },
    { secret: "x", shown: "••••" },
  ];
  for (const { secret, shown } of MASKS) {
    test(`a ${secret.length}-character secret shows as ${shown} in create, get, list and update`, async () => {
      const created = await post({ name: "m", type: "cloudflare", credentials: { api_token: secret } });
      expect(created.body.credentials).toEqual({ api_token: shown });
      const id = created.body.id;
      expect((await t.request("GET", `/api/v1/providers/${id}`)).body.credentials).toEqual({ api_token: shown });
      expect((await t.request("GET", "/api/v1/providers")).body[0].credentials).toEqual({ api_token: shown });
      expect((await put(id, { name: "renamed" })).body.credentials).toEqual({ api_token: shown });
      expect((await put(id, { credentials: { token: secret } })).body.credentials).toEqual({ api_token: shown });
    });
  }

  test("a secret never appears in a response, a log line, or the database", async () => {
    const secrets = [
      "cf-PLAINTEXT-secret-token-aaaa1111",
      "dynu-PLAINTEXT-secret-key-bbbb2222",
      "cf-PLAINTEXT-replacement-cccc3333",
    ];
    const bodies: string[] = [];
    const record = async (response: Promise<{ status: number; body: unknown }>) => {
      const { status, body } = await response;
      bodies.push(JSON.stringify(body));
      return { status, body: body as any };
    };
    const cf = await record(
      post({ name: "cf", type: "cloudflare", credentials: { api_token: secrets[0], spare: secrets[1] } }),
    );
    const dynu = await record(post({ name: "dy", type: "dynu", credentials: { token: secrets[1] } }));
    expect(cf.status).toBe(200);
    expect(dynu.status).toBe(200);
    await record(t.request("GET", "/api/v1/providers"));
    await record(t.request("GET", `/api/v1/providers/${cf.body.id}`));
    await record(put(cf.body.id, { credentials: { api_token: secrets[2] } }));
    await record(put(dynu.body.id, { name: "dynu renamed", is_enabled: false }));
    await record(put(cf.body.id, { type: "dynu", credentials: { api_key: secrets[0] } }));
    await record(post({ name: "cf", type: "cloudflare", credentials: { api_token: secrets[0] } })); // 409
    await record(post({ name: "bad", type: "dynu", credentials: { api_token: secrets[0] } })); // 422
    await createDomain(t, dynu.body.id);
    await record(t.request("GET", "/api/v1/domains"));
    await record(t.request("GET", "/api/v1/metrics/provider-stats"));
    await record(t.request("DELETE", `/api/v1/providers/${dynu.body.id}?cascade=true`));

    const rows = t.ctx.sqlite.query<{ credentials: string }, []>("SELECT credentials FROM providers").all();
    expect(rows.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      for (const body of bodies) expect(body).not.toContain(secret);
      for (const line of t.logs) expect(line).not.toContain(secret);
      for (const row of rows) expect(row.credentials).not.toContain(secret);
    }
    for (const row of rows) expect(row.credentials.startsWith("v1:")).toBe(true);
    // The whole database file's text, not only the column.
    const dump = t.ctx.sqlite
      .query<{ sql: string }, []>("SELECT group_concat(credentials) AS sql FROM providers")
      .get()!.sql;
    for (const secret of secrets) expect(dump).not.toContain(secret);
  });

  test("the same secret sealed twice gives different ciphertexts (random IV)", async () => {
    const a = await createProvider(t, { name: "a", credentials: { api_token: CF_TOKEN } });
    const b = await createProvider(t, { name: "b", credentials: { api_token: CF_TOKEN } });
    expect(storedCredentials(a.id)).not.toBe(storedCredentials(b.id));
  });
});

describe("get and list", () => {
  test("GET /providers/{id} returns the provider object", async () => {
    const created = await createProvider(t, { name: "one", type: "dynu" });
    const response = await t.request("GET", `/api/v1/providers/${created.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(created);
  });

  test("the list is ordered by id and counts each provider's domains", async () => {
    const a = await createProvider(t, { name: "zeta" });
    const b = await createProvider(t, { name: "alpha", type: "dynu" });
    const c = await createProvider(t, { name: "mid" });
    await createDomain(t, a.id);
    await createDomain(t, a.id);
    await createDomain(t, b.id, { is_enabled: false });
    const response = await t.request("GET", "/api/v1/providers");
    expect(response.status).toBe(200);
    expect(response.body.map((p: any) => [p.id, p.name, p.domain_count])).toEqual([
      [a.id, "zeta", 2],
      [b.id, "alpha", 1],
      [c.id, "mid", 0],
    ]);
    for (const provider of response.body) expect(Object.keys(provider).sort()).toEqual(PROVIDER_FIELDS);
    expect((await t.request("GET", `/api/v1/providers/${a.id}`)).body.domain_count).toBe(2);
  });

  test("an empty list is []", async () => {
    const response = await t.request("GET", "/api/v1/providers");
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });
});

describe("partial update", () => {
  const UPDATES: { name: string; change: Record<string, unknown>; expect: (before: any, after: any) => void }[] = [
    {
      name: "name only",
      change: { name: "  New Name " },
      expect: (before, after) =>
        expect(after).toMatchObject({
          name: "New Name",
          type: before.type,
          is_enabled: true,
          credentials: before.credentials,
        }),
    },
    {
      name: "is_enabled only",
      change: { is_enabled: false },
      expect: (before, after) =>
        expect(after).toMatchObject({ name: before.name, is_enabled: false, credentials: before.credentials }),
    },
    {
      name: "credentials only",
      change: { credentials: { api_token: "replacement-token-ZZZZ" } },
      expect: (before, after) =>
        expect(after).toMatchObject({ name: before.name, is_enabled: true, credentials: { api_token: "••••ZZZZ" } }),
    },
    {
      name: "credentials by the alias",
      change: { credentials: { token: "replacement-token-YYYY", other: "dropped" } },
      expect: (_before, after) => expect(after.credentials).toEqual({ api_token: "••••YYYY" }),
    },
    {
      name: "same type, no credentials",
      change: { type: "cloudflare" },
      expect: (before, after) => expect(after).toMatchObject({ type: "cloudflare", credentials: before.credentials }),
    },
    {
      name: "type and credentials together (no domains)",
      change: { type: "dynu", credentials: { api_key: "dynu-new-key-WWWW" } },
      expect: (_before, after) => expect(after).toMatchObject({ type: "dynu", credentials: { api_key: "••••WWWW" } }),
    },
    {
      name: "its own name in another case",
      change: { name: "ORIGINAL" },
      expect: (_before, after) => expect(after.name).toBe("ORIGINAL"),
    },
    {
      name: "an empty body changes nothing",
      change: {},
      expect: (before, after) => expect(after).toEqual(before),
    },
  ];
  for (const { name, change, expect: check } of UPDATES) {
    test(name, async () => {
      const before = await createProvider(t, { name: "original" });
      await Bun.sleep(5);
      const response = await put(before.id, change);
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(PROVIDER_FIELDS);
      check(before, response.body);
      expect(response.body.created_at).toBe(before.created_at);
      if (Object.keys(change).length > 0 && !("type" in change && Object.keys(change).length === 1)) {
        expect(response.body.updated_at > before.updated_at).toBe(true);
      }
      expect((await t.request("GET", `/api/v1/providers/${before.id}`)).body).toEqual(response.body);
    });
  }

  test("the credentials stay sealed and open to the new secret after an update", async () => {
    const provider = await createProvider(t);
    await put(provider.id, { credentials: { api_token: "brand-new-secret-token" } });
    expect(storedCredentials(provider.id).startsWith("v1:")).toBe(true);
    expect(openCredentials(storedCredentials(provider.id), ENCRYPTION_KEY)).toEqual({
      api_token: "brand-new-secret-token",
    });
    await put(provider.id, { name: "renamed" });
    expect(openCredentials(storedCredentials(provider.id), ENCRYPTION_KEY)).toEqual({
      api_token: "brand-new-secret-token",
    });
  });

  test("renaming to another provider's name (ignoring case) → 409", async () => {
    await createProvider(t, { name: "Taken" });
    const other = await createProvider(t, { name: "free" });
    for (const name of ["Taken", "taken", " TAKEN "]) {
      const response = await put(other.id, { name });
      expect(response.status).toBe(409);
      expect(typeof response.body.detail).toBe("string");
    }
    expect((await t.request("GET", `/api/v1/providers/${other.id}`)).body.name).toBe("free");
  });

  test("changing the type while domains exist → 409, and nothing changes", async () => {
    const provider = await createProvider(t);
    await createDomain(t, provider.id);
    const response = await put(provider.id, { type: "dynu", credentials: { api_key: DYNU_KEY }, name: "renamed" });
    expect(response.status).toBe(409);
    expect(typeof response.body.detail).toBe("string");
    expect((await t.request("GET", `/api/v1/providers/${provider.id}`)).body).toMatchObject({
      type: "cloudflare",
      name: provider.name,
    });
  });

  test("changing the type without credentials → 422 naming the new type's key", async () => {
    const cf = await createProvider(t);
    const toDynu = await put(cf.id, { type: "dynu" });
    expect(toDynu.status).toBe(422);
    expect(fieldsOf(toDynu.body)).toEqual(["credentials.api_key"]);
    const dynu = await createProvider(t, { type: "dynu" });
    const toCf = await put(dynu.id, { type: "cloudflare" });
    expect(toCf.status).toBe(422);
    expect(fieldsOf(toCf.body)).toEqual(["credentials.api_token"]);
  });

  const BAD_UPDATES: { name: string; change: Record<string, unknown>; field: string }[] = [
    {
      name: "credentials missing the type's key",
      change: { credentials: { api_key: DYNU_KEY } },
      field: "credentials.api_token",
    },
    {
      name: "credentials with an empty key",
      change: { credentials: { api_token: "" } },
      field: "credentials.api_token",
    },
    {
      name: "new type's key missing",
      change: { type: "dynu", credentials: { api_token: CF_TOKEN } },
      field: "credentials.api_key",
    },
    { name: "unknown type", change: { type: "nosuchservice", credentials: { token: CF_TOKEN } }, field: "type" },
    { name: "empty name", change: { name: "" }, field: "name" },
    { name: "blank name", change: { name: "  " }, field: "name" },
    { name: "name too long", change: { name: "x".repeat(101) }, field: "name" },
    { name: "is_enabled a number", change: { is_enabled: 1 }, field: "is_enabled" },
    { name: "credentials a string", change: { credentials: CF_TOKEN }, field: "credentials" },
  ];
  for (const { name, change, field } of BAD_UPDATES) {
    test(`${name} → 422 naming ${field}, and nothing changes`, async () => {
      const provider = await createProvider(t, { name: "keep" });
      const response = await put(provider.id, change);
      expect(response.status).toBe(422);
      expect(fieldsOf(response.body)).toContain(field);
      expect((await t.request("GET", `/api/v1/providers/${provider.id}`)).body).toEqual(provider);
    });
  }
});

describe("delete", () => {
  test('→ 200 {"message": "Provider deleted", "id": N}, then 404', async () => {
    const provider = await createProvider(t);
    const response = await t.request("DELETE", `/api/v1/providers/${provider.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: "Provider deleted", id: provider.id });
    expect((await t.request("GET", `/api/v1/providers/${provider.id}`)).status).toBe(404);
    expect((await t.request("DELETE", `/api/v1/providers/${provider.id}`)).body).toEqual({
      detail: "Provider not found",
    });
  });

  for (const query of ["", "?cascade=false"]) {
    test(`with domains${query ? ` and ${query}` : ""} → 409, nothing removed`, async () => {
      const provider = await createProvider(t);
      const domain = await createDomain(t, provider.id);
      insertHistory(t, domain.id);
      const response = await t.request("DELETE", `/api/v1/providers/${provider.id}${query}`);
      expect(response.status).toBe(409);
      expect(typeof response.body.detail).toBe("string");
      expect((await t.request("GET", `/api/v1/providers/${provider.id}`)).status).toBe(200);
      expect((await t.request("GET", `/api/v1/domains/${domain.id}`)).status).toBe(200);
      expect(historyCount(t, domain.id)).toBe(1);
    });
  }

  test("?cascade=true removes its domains and their history, and nothing else", async () => {
    const doomed = await createProvider(t, { name: "doomed" });
    const kept = await createProvider(t, { name: "kept", type: "dynu" });
    const d1 = await createDomain(t, doomed.id);
    const d2 = await createDomain(t, doomed.id, { record_type: "AAAA" });
    const other = await createDomain(t, kept.id);
    for (const id of [d1.id, d1.id, d2.id, other.id, other.id]) insertHistory(t, id);
    const response = await t.request("DELETE", `/api/v1/providers/${doomed.id}?cascade=true`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: "Provider deleted", id: doomed.id });
    expect((await t.request("GET", `/api/v1/providers/${doomed.id}`)).status).toBe(404);
    expect((await t.request("GET", `/api/v1/domains/${d1.id}`)).status).toBe(404);
    expect((await t.request("GET", `/api/v1/domains/${d2.id}`)).status).toBe(404);
    expect(historyCount(t, d1.id)).toBe(0);
    expect(historyCount(t, d2.id)).toBe(0);
    expect((await t.request("GET", "/api/v1/domains")).body.map((d: any) => d.id)).toEqual([other.id]);
    expect(historyCount(t, other.id)).toBe(2);
    expect((await t.request("GET", "/api/v1/providers")).body.map((p: any) => p.id)).toEqual([kept.id]);
  });

  test("?cascade=true without domains is a plain delete", async () => {
    const provider = await createProvider(t);
    const response = await t.request("DELETE", `/api/v1/providers/${provider.id}?cascade=true`);
    expect(response.body).toEqual({ message: "Provider deleted", id: provider.id });
  });

  test("a bad cascade value → 422", async () => {
    const provider = await createProvider(t);
    const response = await t.request("DELETE", `/api/v1/providers/${provider.id}?cascade=perhaps`);
    expect(response.status).toBe(422);
    expect(fieldsOf(response.body)).toEqual(["cascade"]);
  });
});

describe("ids", () => {
  const ROUTES: { method: string; suffix: string; body?: unknown }[] = [
    { method: "GET", suffix: "" },
    { method: "PUT", suffix: "", body: { name: "x" } },
    { method: "DELETE", suffix: "" },
    { method: "DELETE", suffix: "?cascade=true" },
    { method: "POST", suffix: "/verify" },
  ];
  for (const { method, suffix, body } of ROUTES) {
    test(`${method} /providers/{unknown}${suffix} → 404 "Provider not found"`, async () => {
      await createProvider(t);
      const response = await t.request(method, `/api/v1/providers/999${suffix}`, { body });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ detail: "Provider not found" });
    });
    for (const id of ["abc", "1.5", "0", "-1", "1x", "%20", "0x1", "1e0", "+1", "1.0", "%201", "01"]) {
      test(`${method} /providers/${id}${suffix} → 422 naming provider_id`, async () => {
        const response = await t.request(method, `/api/v1/providers/${id}${suffix}`, { body });
        expect(response.status).toBe(422);
        expect(fieldsOf(response.body)).toEqual(["provider_id"]);
        expect(response.body.detail).toBe("provider_id: must be a positive integer");
      });
    }
  }
});
