// Answers are served again from their last serialisation only while the database is unwritten:
// a write through the app, by the updater or by any statement on the connection shows at once.
// (No other process writes while the server runs: the CLI's write commands go through it,
// test/server/control.test.ts.)

import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { whileUnchanged } from "../../src/modules/shared";
import { makeTestApp, type TestApp } from "../support";
import { createDomain, createProvider } from "./helpers";

const dir = mkdtempSync(join(tmpdir(), "ddnsd-list-"));
let t: TestApp;

beforeAll(async () => {
  t = await makeTestApp({}, dir);
});

afterAll(() => {
  t.ctx.sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

const names = async () =>
  ((await t.request("GET", "/api/v1/domains")).body as { domain_name: string }[]).map((d) => d.domain_name);

test("a write through the API shows in the next list", async () => {
  const provider = await createProvider(t);
  await createDomain(t, provider.id, { domain_name: "one.example.com" });
  expect(await names()).toEqual(["one.example.com"]);
  await createDomain(t, provider.id, { domain_name: "two.example.com" });
  expect(await names()).toEqual(["one.example.com", "two.example.com"]);
});

test("a write by any statement on the connection shows in the next list", async () => {
  const lastIp = async () =>
    ((await t.request("GET", "/api/v1/domains")).body as { domain_name: string; last_known_ip: string | null }[]).find(
      (d) => d.domain_name === "one.example.com",
    )!.last_known_ip;
  expect(await names()).toHaveLength(2);
  // As the updater writes: a prepared statement, a transaction, a plain run.
  t.ctx.sqlite
    .query("UPDATE domains SET last_known_ip = ? WHERE domain_name = ?")
    .run("198.51.100.7", "one.example.com");
  expect(await lastIp()).toBe("198.51.100.7");
  t.ctx.sqlite.transaction(() =>
    t.ctx.sqlite.query("UPDATE domains SET last_known_ip = '198.51.100.8' WHERE domain_name = 'one.example.com'").run(),
  )();
  expect(await lastIp()).toBe("198.51.100.8");
  t.ctx.sqlite.run("UPDATE domains SET last_known_ip = '198.51.100.9' WHERE domain_name = 'one.example.com'");
  expect(await lastIp()).toBe("198.51.100.9");
  // RETURNING reads through get(): still a write.
  t.ctx.sqlite
    .query("UPDATE domains SET last_known_ip = '198.51.100.10' WHERE domain_name = 'one.example.com' RETURNING id")
    .get();
  expect(await lastIp()).toBe("198.51.100.10");
});

test("reads do not count as writes", () => {
  const before = t.ctx.sqlite.writes;
  t.ctx.sqlite.query("SELECT count(*) FROM domains").get();
  t.ctx.sqlite.query("PRAGMA data_version").get();
  expect(t.ctx.sqlite.writes).toBe(before);
});

test("a provider renamed shows in both lists", async () => {
  const [provider] = (await t.request("GET", "/api/v1/providers")).body as { id: number }[];
  await t.request("PUT", `/api/v1/providers/${provider!.id}`, { body: { name: "renamed" } });
  expect(((await t.request("GET", "/api/v1/providers")).body as { name: string }[])[0]!.name).toBe("renamed");
  expect(((await t.request("GET", "/api/v1/domains")).body as { provider_name: string }[])[0]!.provider_name).toBe(
    "renamed",
  );
});

test("an answer is computed again only after a change, or once its window has passed", async () => {
  let computed = 0;
  const handler = whileUnchanged(t.ctx, () => ({ computed: ++computed }));
  const windowed = whileUnchanged(t.ctx, () => ({ computed: ++computed }), 50);
  expect(await handler().json()).toEqual({ computed: 1 });
  expect(await handler().json()).toEqual({ computed: 1 });
  t.ctx.sqlite.run("UPDATE providers SET updated_at = updated_at + 1");
  expect(await handler().json()).toEqual({ computed: 2 });
  expect(await windowed().json()).toEqual({ computed: 3 });
  await Bun.sleep(60);
  expect(await windowed().json()).toEqual({ computed: 4 });
  expect(await handler().json()).toEqual({ computed: 2 });
});
