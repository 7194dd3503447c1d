// docs/router-push.md: /api/v1/update-keys — the key shown once and stored only as a hash, masked
// everywhere else, domain_ids checked, delete, and the 401/404/422s.

import { beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { makeTestApp, type TestApp } from "../support";
import { createDomain, createProvider, expectErrorBody, ISO_UTC, resetData } from "./helpers";

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
beforeEach(() => {
  resetData(t);
  t.ctx.sqlite.exec("DELETE FROM update_keys");
});

const post = (body: unknown) => t.request("POST", "/api/v1/update-keys", { body });

describe("create", () => {
  test("the whole key once, at least 32 characters; all domains when domain_ids is absent", async () => {
    const response = await post({ name: "FRITZ!Box" });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual([
      "created_at",
      "domain_ids",
      "id",
      "key",
      "last_used_at",
      "name",
    ]);
    expect(response.body).toMatchObject({ name: "FRITZ!Box", domain_ids: null, last_used_at: null });
    expect(response.body.created_at).toMatch(ISO_UTC);
    expect(response.body.key.length).toBeGreaterThanOrEqual(32);
    expect(response.body.key).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  test("two keys are never the same", async () => {
    const [a, b] = [await post({ name: "a" }), await post({ name: "b" })];
    expect(a.body.key).not.toBe(b.body.key);
  });

  test("stored only as its SHA-256: the key is nowhere in the database", async () => {
    const { key } = (await post({ name: "router" })).body;
    const row = t.ctx.sqlite.query<Record<string, unknown>, []>("SELECT * FROM update_keys").get()!;
    expect(JSON.stringify(row)).not.toContain(key);
    expect(row.key_hash).toBe(createHash("sha256").update(key).digest("hex"));
  });

  test("domain_ids: kept sorted without repeats; an unknown domain → 422 naming domain_ids", async () => {
    const provider = await createProvider(t);
    const [a, b] = [await createDomain(t, provider.id), await createDomain(t, provider.id)];
    expect((await post({ name: "r", domain_ids: [b.id, a.id, b.id] })).body.domain_ids).toEqual([a.id, b.id]);
    const bad = await post({ name: "r", domain_ids: [a.id, 999] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe("domain_ids");
    expect(bad.body.detail).toContain("999");
    expect(t.ctx.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM update_keys").get()!.n).toBe(1);
  });

  test.each([
    ["no name", {}, "name"],
    ["an empty name", { name: "  " }, "name"],
    ["domain_ids not a list", { name: "r", domain_ids: 5 }, "domain_ids"],
    ["an empty domain_ids", { name: "r", domain_ids: [] }, "domain_ids"],
    ["domain_ids with a non-id", { name: "r", domain_ids: ["x"] }, "domain_ids"],
  ])("%s → 422 naming the field, nothing stored", async (_, body, field) => {
    const response = await post(body);
    expect(response.status).toBe(422);
    expectErrorBody(response.body);
    expect(response.body.errors[0].field).toBe(field);
    expect(t.ctx.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM update_keys").get()!.n).toBe(0);
  });
});

describe("read and delete", () => {
  test("list and one show the key masked as ••••<last 4>", async () => {
    const created = (await post({ name: "router" })).body;
    const masked = `••••${created.key.slice(-4)}`;
    const list = await t.request("GET", "/api/v1/update-keys");
    expect(list.body).toEqual([{ ...created, key: masked }]);
    expect((await t.request("GET", `/api/v1/update-keys/${created.id}`)).body.key).toBe(masked);
  });

  test("delete → the contract's answer; then 404", async () => {
    const { id } = (await post({ name: "router" })).body;
    expect(await t.request("DELETE", `/api/v1/update-keys/${id}`)).toMatchObject({
      status: 200,
      body: { message: "Update key deleted", id },
    });
    for (const method of ["GET", "DELETE"]) {
      const response = await t.request(method, `/api/v1/update-keys/${id}`);
      expect(response).toMatchObject({ status: 404, body: { detail: "Update key not found" } });
    }
  });

  test("a non-integer id → 422; no token → 401", async () => {
    expect((await t.request("GET", "/api/v1/update-keys/0x1")).status).toBe(422);
    expect((await t.request("GET", "/api/v1/update-keys", { token: null })).status).toBe(401);
    expect((await t.request("POST", "/api/v1/update-keys", { token: null, body: { name: "x" } })).status).toBe(401);
  });
});
