// A client generated from the served /docs/json with @hey-api/openapi-ts (the generator most
// TypeScript users reach for) is usable as people use it: functions named after the operationIds,
// a provider's credentials typed by its `type`, and a whole flow — sign in, providers of two
// types, a domain, a forced update against a fake DNS service, its history — that type-checks
// (tsc, strict) and then runs against the app served on loopback.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@hey-api/openapi-ts";
import { type RunningServer, startServer } from "../../src/server";
import { CLOUDFLARE_FAKE_TOKEN, type CloudflareFake, startCloudflareFake } from "../fakes/cloudflare";
import { DUCKDNS_FAKE_TOKEN, type DuckDnsFake, startDuckDnsFake } from "../fakes/duckdns";
import { ECHO_DEFAULT_IPV4, type EchoFake, startEchoFake } from "../fakes/echo";
import { makeTestApp, TEST_PASSWORD, type TestApp } from "../support";

const ROOT = join(import.meta.dir, "../..");

/** The flow, written as a user of the generated client would write it. */
const FLOW = `
import { createDomain, createProvider, getDomainHistory, listProviders, login, updateDomainIp } from "./client";
import { client } from "./client/client.gen";
import type { ProviderCreate } from "./client";

export async function flow(baseUrl: string, username: string, password: string, cloudflareToken: string, duckdnsToken: string) {
  client.setConfig({ baseUrl });
  const session = await login({ body: { username, password }, throwOnError: true });
  client.setConfig({ baseUrl, auth: () => session.data.access_token });

  const cloudflare: ProviderCreate = { name: "Cloudflare", type: "cloudflare", credentials: { api_token: cloudflareToken } };
  const made = await createProvider({ body: cloudflare, throwOnError: true });
  await createProvider({ body: { name: "DuckDNS", type: "duckdns", credentials: { token: duckdnsToken } }, throwOnError: true });
  const providers = await listProviders({ throwOnError: true });

  const domain = await createDomain({ body: { provider_id: made.data.id, domain_name: "home.example.com", record_type: "A" }, throwOnError: true });
  const update = await updateDomainIp({ path: { domain_id: domain.data.id }, throwOnError: true });
  const history = await getDomainHistory({ path: { domain_id: domain.data.id }, query: { limit: 5 }, throwOnError: true });
  return {
    types: providers.data.map((provider) => provider.type),
    credentials: providers.data.map((provider) => provider.credentials),
    update: { success: update.data.success, ip: update.data.ip_address },
    history: history.data.map((row) => ({ status: row.status, trigger: row.trigger, ip: row.ip_address })),
  };
}
`;

/** The same client refuses, at compile time, credentials of another type. */
const MISTAKE = `
import type { ProviderCreate } from "./client";
// @ts-expect-error a Cloudflare provider takes api_token, not DuckDNS's token
export const wrong: ProviderCreate = { name: "x", type: "cloudflare", credentials: { token: "t" } };
`;

let dir: string;
let echo: EchoFake;
let cloudflare: CloudflareFake;
let duckdns: DuckDnsFake;
let t: TestApp;
let running: RunningServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ddnsd-client-"));
  echo = startEchoFake();
  cloudflare = startCloudflareFake();
  cloudflare.addZone("example.com");
  duckdns = startDuckDnsFake();
  t = await makeTestApp({
    DDNS_HOST: "127.0.0.1",
    DDNS_PORT: "0",
    DDNS_IPV4_URLS: `${echo.url}/v4`,
    DDNS_CLOUDFLARE_API_URL: cloudflare.url,
    DDNS_DUCKDNS_API_URL: duckdns.url,
  });
  running = startServer(t.ctx, t.app);
});

afterAll(async () => {
  await running?.stop();
  for (const fake of [echo, cloudflare, duckdns]) fake?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("a client generated from /docs/json type-checks and runs a whole flow", async () => {
  const document = await fetch(new URL("/docs/json", running.url));
  expect(document.status).toBe(200);
  await Bun.write(join(dir, "openapi.json"), await document.text());
  await createClient({
    input: join(dir, "openapi.json"),
    output: join(dir, "client"),
    plugins: ["@hey-api/client-fetch"],
    logs: { level: "silent" },
  });

  const sdk = await Bun.file(join(dir, "client/sdk.gen.ts")).text();
  for (const name of [
    "login",
    "createProvider",
    "getDomainHistory",
    "updateDomainIp",
    "listUpdateKeys",
    "testNotification",
  ]) {
    expect(sdk).toContain(`export const ${name} =`);
  }
  expect(sdk).not.toContain("getApiV1");

  await Bun.write(join(dir, "flow.ts"), FLOW);
  await Bun.write(join(dir, "mistake.ts"), MISTAKE);
  await Bun.write(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "ES2022",
        module: "ESNext",
        moduleResolution: "Bundler",
        lib: ["ES2022", "DOM", "DOM.Iterable"],
        skipLibCheck: true,
        types: [],
      },
      include: ["flow.ts", "mistake.ts", "client/**/*.ts"],
    }),
  );
  const tsc = Bun.spawnSync([join(ROOT, "node_modules/.bin/tsc"), "-p", join(dir, "tsconfig.json")], {
    cwd: dir,
    timeout: 60_000,
  });
  expect(tsc.stdout.toString() + tsc.stderr.toString()).toBe("");
  expect(tsc.exitCode).toBe(0);

  const { flow } = await import(join(dir, "flow.ts"));
  const result = await flow(
    running.url.origin,
    t.ctx.settings.adminUsername,
    TEST_PASSWORD,
    CLOUDFLARE_FAKE_TOKEN,
    DUCKDNS_FAKE_TOKEN,
  );
  expect(result.types).toEqual(["cloudflare", "duckdns"]);
  expect(JSON.stringify(result.credentials)).not.toContain(CLOUDFLARE_FAKE_TOKEN);
  expect(result.update).toEqual({ success: true, ip: ECHO_DEFAULT_IPV4 });
  expect(result.history[0]).toEqual({ status: "SUCCESS", trigger: "manual", ip: ECHO_DEFAULT_IPV4 });
  expect(cloudflare.record("home.example.com", "A")?.content).toBe(ECHO_DEFAULT_IPV4);
}, 90_000);
