// What the log says about requests: a line per request only at debug level; at info the sign-in
// is logged, the requests that carried it and every later API call are not.

import { afterEach, describe, expect, test } from "bun:test";
import { type RunningServer, startServer } from "../../src/server";
import { makeTestApp, TEST_PASSWORD } from "../support";

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

async function serveAndCall(level: "info" | "debug"): Promise<string[]> {
  const t = await makeTestApp({ DDNS_HOST: "127.0.0.1", DDNS_PORT: "0", DDNS_LOG_LEVEL: level });
  running = startServer(t.ctx, t.app);
  const login = await fetch(new URL("/api/v1/auth/login", running.url), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password: TEST_PASSWORD }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  for (const path of ["/api/v1/domains", "/api/v1/metrics/dashboard", "/api/v1/nothing-here"]) {
    const response = await fetch(new URL(path, running.url), { headers: { authorization: `Bearer ${access_token}` } });
    await response.arrayBuffer();
  }
  return t.logs;
}

describe("request log lines", () => {
  test("at info no line per request, but the sign-in is there", async () => {
    const logs = await serveAndCall("info");
    expect(logs.filter((line) => / request /.test(line))).toEqual([]);
    expect(logs.some((line) => / INFO  login user=admin/.test(line))).toBe(true);
  });

  test("at debug one line per request with method, path, status and duration", async () => {
    const logs = await serveAndCall("debug");
    const requests = logs.filter((line) => / DEBUG request /.test(line));
    expect(requests).toHaveLength(4);
    expect(requests[0]).toMatch(/method=POST path=\/api\/v1\/auth\/login status=200 duration_ms=[\d.]+$/);
    expect(requests[1]).toMatch(/method=GET path=\/api\/v1\/domains status=200 /);
    expect(requests[3]).toMatch(/method=GET path=\/api\/v1\/nothing-here status=404 /);
  });
});
