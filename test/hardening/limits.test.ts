// Field sizes and plain numbers (docs/api.md, limits): larger values → 422 naming the field, nothing stored;
// `limit` and path ids only in decimal digits.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createDomain, createProvider, resetData } from "../api/helpers";
import { makeTestApp, type TestApp } from "../support";

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
  await t.token();
});
afterAll(() => t.ctx.sqlite.close());
beforeEach(() => resetData(t));

const count = (table: string) => t.ctx.sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n;

describe("field sizes", () => {
  test("a credential of 1,025 characters → 422 naming it; 1,024 is accepted", async () => {
    const refused = await t.request("POST", "/api/v1/providers", {
      body: { name: "a", type: "cloudflare", credentials: { api_token: "x".repeat(1025) } },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].field).toBe("credentials.api_token");
    expect(count("providers")).toBe(0);
    const accepted = await t.request("POST", "/api/v1/providers", {
      body: { name: "a", type: "cloudflare", credentials: { api_token: "x".repeat(1024) } },
    });
    expect(accepted.status).toBe(200);
  });

  test("an extra credential key that is too long is refused too, and on update", async () => {
    const provider = await createProvider(t);
    const response = await t.request("PUT", `/api/v1/providers/${provider.id}`, {
      body: { credentials: { api_token: "tok-0123456789abcdef", note: "n".repeat(2000) } },
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].field).toBe("credentials.note");
  });

  test("an option value over 1,024 characters → 422 naming config.<key>", async () => {
    const provider = await createProvider(t);
    const response = await t.request("POST", "/api/v1/domains", {
      body: { provider_id: provider.id, domain_name: "a.example.com", config: { zone_id: "z".repeat(1025) } },
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].field).toBe("config.zone_id");
    expect(count("domains")).toBe(0);
  });

  test("config over 4 KiB as JSON → 422 naming config, on create and update", async () => {
    const provider = await createProvider(t);
    const config = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, "v".repeat(600)]));
    const created = await t.request("POST", "/api/v1/domains", {
      body: { provider_id: provider.id, domain_name: "a.example.com", config },
    });
    expect(created.status).toBe(422);
    expect(created.body.errors[0].field).toBe("config");
    const domain = await createDomain(t, provider.id);
    const updated = await t.request("PUT", `/api/v1/domains/${domain.id}`, { body: { config } });
    expect(updated.status).toBe(422);
    expect((await t.request("GET", `/api/v1/domains/${domain.id}`)).body.config).toEqual({});
  });

  test("external_id: 255 characters accepted, 256 → 422", async () => {
    const provider = await createProvider(t);
    expect(
      (
        await t.request("POST", "/api/v1/domains", {
          body: { provider_id: provider.id, domain_name: "a.example.com", external_id: "e".repeat(255) },
        })
      ).status,
    ).toBe(200);
    const refused = await t.request("POST", "/api/v1/domains", {
      body: { provider_id: provider.id, domain_name: "b.example.com", external_id: "e".repeat(256) },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].field).toBe("external_id");
  });
});

describe("numbers are plain", () => {
  for (const written of ["0x10", "1e3", "+5", "%205", "5.0", "5%20", "-1", ""]) {
    test(`?limit=${written} → 422 naming limit`, async () => {
      const provider = await createProvider(t);
      const domain = await createDomain(t, provider.id);
      const response = await t.request("GET", `/api/v1/domains/${domain.id}/history?limit=${written}`);
      expect(response.status).toBe(422);
      expect(response.body.errors[0].field).toBe("limit");
    });
    test(`a path id written ${JSON.stringify(written)} → 422`, async () => {
      expect((await t.request("GET", `/api/v1/domains/${written || "%20"}`)).status).toBe(422);
    });
  }

  test("?limit=16 in digits is served", async () => {
    const provider = await createProvider(t);
    const domain = await createDomain(t, provider.id);
    expect((await t.request("GET", `/api/v1/domains/${domain.id}/history?limit=16`)).status).toBe(200);
  });
});
