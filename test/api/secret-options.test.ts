// A custom URL's literal headers are secrets like its `secret`: sealed at rest, answered with their
// values masked, exported sealed (in clear only with --include-secrets), kept when sent back as
// answered, and still sent to the endpoint.

import { afterAll, expect, test } from "bun:test";
import { parse } from "yaml";
import { exportConfig } from "../../src/modules/config-file/service";
import { sealProviderOptionsStoredInClear } from "../../src/modules/providers/service";
import { startCustomFake } from "../fakes/custom";
import { startEchoFake } from "../fakes/echo";
import { makeTestApp } from "../support";

const TOKEN = "Bearer custom-header-token-4242";
const fake = startCustomFake();
const echo = startEchoFake();
afterAll(async () => {
  await Promise.all([fake.stop(), echo.stop()]);
});

test("a custom URL's headers are sealed, masked, exported sealed, kept and sent", async () => {
  const t = await makeTestApp({ DDNS_IPV4_URLS: `${echo.url}/v4` });
  const options = {
    url: `${fake.url}/update?host={domain}&ip={ip}`,
    headers: { Authorization: TOKEN, "X-Plain": "visible-enough" },
  };
  const created = await t.request("POST", "/api/v1/providers", {
    body: { name: "Home endpoint", type: "custom", credentials: {}, options },
  });
  expect([created.status, created.body.detail]).toEqual([200, undefined]);
  expect(created.body.options.headers).toEqual({ Authorization: "••••4242", "X-Plain": "••••ough" });
  const stored = t.ctx.sqlite.query<{ options: string }, []>("SELECT options FROM providers").get()!.options;
  expect(stored).not.toContain("custom-header-token-4242");
  expect(JSON.stringify((await t.request("GET", "/api/v1/providers")).body)).not.toContain("custom-header-token-4242");

  // Sent back as answered: kept; one header changed: only that one.
  const edited = await t.request("PUT", `/api/v1/providers/${created.body.id}`, {
    body: { options: { ...options, headers: { Authorization: "••••4242", "X-Plain": "changed" } } },
  });
  expect(edited.status).toBe(200);

  // The endpoint gets the headers in clear.
  const domain = await t.request("POST", "/api/v1/domains", {
    body: { provider_id: created.body.id, domain_name: "home.example.com" },
  });
  expect((await t.request("POST", `/api/v1/domains/${domain.body.id}/update_ip`)).status).toBe(200);
  expect(fake.requests.at(-1)!.headers).toMatchObject({ authorization: TOKEN, "x-plain": "changed" });

  // Exported sealed; in clear only on request; an import of the export changes nothing.
  const text = exportConfig(t.ctx);
  expect(text).not.toContain("custom-header-token-4242");
  expect(parse(text).providers[0].options.headers).toMatch(/^v1:/);
  expect(parse(exportConfig(t.ctx, { includeSecrets: true })).providers[0].options.headers).toEqual({
    Authorization: TOKEN,
    "X-Plain": "changed",
  });
  const again = await t.request("POST", "/api/v1/config/import", {
    body: text,
    headers: { "content-type": "application/yaml" },
  });
  expect(again.body.changes).toEqual([]);
  expect(exportConfig(t.ctx)).toBe(text);

  // Into an empty data dir with the same key: the same provider, headers and all.
  const other = await makeTestApp();
  expect(
    (
      await other.request("POST", "/api/v1/config/import", {
        body: text,
        headers: { "content-type": "application/yaml" },
      })
    ).status,
  ).toBe(200);
  expect((await other.request("GET", "/api/v1/providers")).body[0].options.headers).toEqual({
    Authorization: "••••4242",
    "X-Plain": "••••",
  });
  expect(exportConfig(other.ctx)).toBe(text);
  t.ctx.sqlite.close();
  other.ctx.sqlite.close();
});

test("headers an older release stored in clear are sealed once at start", async () => {
  const t = await makeTestApp();
  const created = await t.request("POST", "/api/v1/providers", {
    body: { name: "Old", type: "custom", credentials: {}, options: { url: "http://127.0.0.1:9/u?ip={ip}" } },
  });
  t.ctx.sqlite
    .query("UPDATE providers SET options = ? WHERE id = ?")
    .run(JSON.stringify({ url: "http://127.0.0.1:9/u?ip={ip}", headers: { Authorization: TOKEN } }), created.body.id);
  expect(sealProviderOptionsStoredInClear(t.ctx)).toBe(1);
  expect(t.ctx.sqlite.query<{ options: string }, []>("SELECT options FROM providers").get()!.options).not.toContain(
    "custom-header-token-4242",
  );
  expect((await t.request("GET", `/api/v1/providers/${created.body.id}`)).body.options.headers).toEqual({
    Authorization: "••••4242",
  });
  expect(sealProviderOptionsStoredInClear(t.ctx)).toBe(0);
  t.ctx.sqlite.close();
});
