// Display names with control characters (a provider named `a"} 1\nfake_metric 1` was stored, and
// would have broken a log line or a Prometheus label into lines of its own) are a 422 naming the
// field, through the API, the config file and the admin forms, and nothing is stored.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { CF_TOKEN, createProvider, resetData } from "../api/helpers";
import { makeTestApp, type TestApp } from "../support";
import { attributeValues, page, signIn } from "../ui/helpers";

let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await makeTestApp();
  cookie = await signIn(t);
});
afterAll(() => t.ctx.sqlite.close());
beforeEach(() => {
  resetData(t);
  t.ctx.sqlite.exec("DELETE FROM notifications; DELETE FROM update_keys;");
});

const HOSTILE = [
  'a"} 1\nfake_metric 1',
  "tab\there",
  "escape \u001b[31mred",
  "del\u007f",
  "c1 \u0085 next line",
  "line\u2028separator",
];

const count = (table: string) => t.ctx.sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n;

const RESOURCES = [
  {
    path: "/api/v1/providers",
    table: "providers",
    body: (name: string) => ({ name, type: "cloudflare", credentials: { api_token: CF_TOKEN } }),
  },
  {
    path: "/api/v1/notifications",
    table: "notifications",
    body: (name: string) => ({ name, type: "webhook", options: { url: "https://hooks.example.net/ddns" } }),
  },
  { path: "/api/v1/update-keys", table: "update_keys", body: (name: string) => ({ name }) },
];

describe("the API", () => {
  for (const resource of RESOURCES) {
    test(`POST ${resource.path}: a name with a control character is a 422 naming it, nothing stored`, async () => {
      for (const name of HOSTILE) {
        const response = await t.request("POST", resource.path, { body: resource.body(name) });
        expect(response.status).toBe(422);
        expect(response.body.errors).toEqual([
          { field: "name", message: "must not contain control characters (a line break, a tab, an escape …)" },
        ]);
        expect(response.body.detail).toContain("name");
      }
      expect(count(resource.table)).toBe(0);
      // Letters of any script, punctuation and emoji are names like any other.
      expect(
        (await t.request("POST", resource.path, { body: resource.body('Maison — Zürich 🏠 "A" {1}') })).status,
      ).toBe(200);
    });
  }

  test("PUT of a provider and a notification: refused the same way, the stored name kept", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const renamed = await t.request("PUT", `/api/v1/providers/${provider.id}`, { body: { name: "Home\r\nx" } });
    expect(renamed.status).toBe(422);
    expect(renamed.body.errors[0].field).toBe("name");
    expect((await t.request("GET", `/api/v1/providers/${provider.id}`)).body.name).toBe("Home");
    const hook = (await t.request("POST", "/api/v1/notifications", { body: RESOURCES[1]!.body("Hook") })).body;
    const again = await t.request("PUT", `/api/v1/notifications/${hook.id}`, { body: { name: "Hook\u0000" } });
    expect(again.status).toBe(422);
    expect((await t.request("GET", `/api/v1/notifications/${hook.id}`)).body.name).toBe("Hook");
  });

  test("the config file: a provider's or an update key's name names its line, nothing imported", async () => {
    const file = [
      "version: 1",
      "providers:",
      '  - name: "Home\\nfake_metric 1"',
      "    type: cloudflare",
      `    credentials: {api_token: ${CF_TOKEN}}`,
    ].join("\n");
    const response = await t.request("POST", "/api/v1/config/import", {
      body: file,
      headers: { "content-type": "application/yaml" },
    });
    expect(response.status).toBe(422);
    expect(response.body.detail).toStartWith("Line 3: providers[0].name: must not contain control characters");
    expect(count("providers")).toBe(0);
    const keys = [
      "version: 1",
      "update_keys:",
      '  - name: "router\\tone"',
      `    key_sha256: ${"a".repeat(64)}`,
      "    key_tail: abcd",
    ].join("\n");
    const refused = await t.request("POST", "/api/v1/config/import", {
      body: keys,
      headers: { "content-type": "application/yaml" },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toStartWith("Line 3: update_keys[0].name: must not contain control characters");
    expect(count("update_keys")).toBe(0);
  });
});

describe("the admin forms show the error on the name field", () => {
  const FORMS: { path: string; table: string; form: Record<string, string> }[] = [
    {
      path: "/providers/new",
      table: "providers",
      form: { name: "Home\nx", type: "cloudflare", credential_api_token: CF_TOKEN, is_enabled: "on" },
    },
    {
      path: "/notifications/new",
      table: "notifications",
      form: {
        name: "Hook\nx",
        type: "webhook",
        option_url: "https://hooks.example.net/ddns",
        events: "ip_changed",
        is_enabled: "on",
      },
    },
    { path: "/update-keys", table: "update_keys", form: { name: "Router\nx", scope: "all" } },
  ];
  for (const { path, table, form } of FORMS) {
    test(path, async () => {
      const response = await page(t, path, { cookie, form });
      expect(response.status).toBe(200);
      expect(response.text).toContain(
        'id="f-name-error">must not contain control characters (a line break, a tab, an escape …)</p>',
      );
      expect(attributeValues(response.text, "#f-name", "aria-invalid")).toEqual(["true"]);
      expect(count(table)).toBe(0);
    });
  }
});
