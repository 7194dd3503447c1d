// The real server's edge, as a child process: a short Host shifts no routing, files in a data dir
// made beforehand with mode 0755 are still 0600, a request that waits on a slow service gets its
// answer, a kept-alive connection is closed once idle after its answer, and a cut-off body from
// someone not signed in is a clean refusal without a logged trace.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { IDLE_SECONDS, REQUEST_IDLE_SECONDS, routableRequest } from "../../src/server";
import { APPLIANCE_PASSWORD, type Appliance, login, spawnAppliance, untilHealthy } from "../hardening/appliance";

/**
 * Sends `raw` on a fresh connection and returns everything the server answers until it closes (or
 * `waitMs`, and then `closedByServer` is false).
 */
function rawConversation(
  base: string,
  raw: string,
  options: { endAfterWrite?: boolean; waitMs?: number } = {},
): Promise<{ answer: string; closedByServer: boolean }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    let answer = "";
    const socket = connect(Number(port), hostname, () => {
      socket.write(raw);
      if (options.endAfterWrite) socket.end();
    });
    const done = (closedByServer: boolean) => resolve({ answer, closedByServer });
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
    });
    socket.on("close", () => done(true));
    socket.on("error", () => done(true));
    setTimeout(() => {
      socket.destroy();
      done(false);
    }, options.waitMs ?? 5_000).unref();
  });
}

async function rawExchange(
  base: string,
  raw: string,
  options: { endAfterWrite?: boolean; waitMs?: number } = {},
): Promise<string> {
  return (await rawConversation(base, raw, options)).answer;
}

function statusOf(answer: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
}

let dir: string;
let appliance: Appliance;
/** A service that answers after 12 s: longer than Bun's default idle timeout, within DDNS_HTTP_TIMEOUT. */
const slow = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  idleTimeout: 60,
  async fetch() {
    await Bun.sleep(12_000);
    return Response.json({ id: "localhost", kind: "Native" });
  },
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ddnsd-edge-"));
  // As the container docs' `mkdir -p` leaves it.
  mkdirSync(join(dir, "data"), { mode: 0o755 });
  appliance = spawnAppliance(join(dir, "data"), { DDNS_HTTP_TIMEOUT: "20s" });
  await untilHealthy(appliance);
});
afterAll(async () => {
  appliance.kill();
  await appliance.exited;
  slow.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

describe("the server's edge", () => {
  test("a Host of one to three characters shifts no routing", async () => {
    const body = JSON.stringify({ username: "admin", password: APPLIANCE_PASSWORD });
    const request = (path: string, host: string) =>
      `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
    for (const host of ["a", "ab", "abc", "a:1"]) {
      expect([host, statusOf(await rawExchange(appliance.base, request("/nic/api/v1/auth/login", host)))]).toEqual([
        host,
        404,
      ]);
      expect([host, statusOf(await rawExchange(appliance.base, request("/xyz/api/v1/auth/login", host)))]).toEqual([
        host,
        404,
      ]);
      // The request's own path still routes with such a Host.
      expect([host, statusOf(await rawExchange(appliance.base, request("/api/v1/auth/login", host)))]).toEqual([
        host,
        200,
      ]);
    }
  });

  test("a short origin, http or https, gets a padded URL with the same host, path and query", () => {
    for (const url of [
      "http://a/nic/x",
      "http://ab/nic/x",
      "http://abc/nic/x",
      "https://a/nic/x",
      "https://ab/nic/x",
      "https://abc/nic/x",
      "http://a:1/nic/x?q=1",
    ]) {
      const routed = routableRequest(new Request(url));
      const [before, after] = [new URL(url), new URL(routed.url)];
      expect([
        url,
        after.host,
        after.pathname,
        after.search,
        routed.url.indexOf("/", 11) === routed.url.indexOf(after.pathname, 7),
      ]).toEqual([url, before.host, before.pathname, before.search, true]);
    }
    const long = new Request("http://abcd/nic/x");
    expect(routableRequest(long)).toBe(long);
  });

  test("every file created in a data dir made 0755 beforehand is 0600", async () => {
    expect((await login(appliance)).status).toBe(200);
    const files: [string, number][] = [];
    const walk = (path: string) => {
      for (const name of readdirSync(path)) {
        const full = join(path, name);
        const stat = statSync(full);
        if (stat.isDirectory()) walk(full);
        else files.push([full.slice(dir.length), stat.mode & 0o777]);
      }
    };
    walk(join(dir, "data"));
    expect(files.map(([name]) => name)).toContain("/data/ddnsd.db");
    expect(files.filter(([, mode]) => mode !== 0o600)).toEqual([]);
  });

  test("a request waiting on a slow service gets its answer", async () => {
    const token = ((await (await login(appliance)).json()) as { access_token: string }).access_token;
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const created = await fetch(`${appliance.base}/api/v1/providers`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        name: "slow pdns",
        type: "powerdns",
        credentials: { api_key: "pdns-key-0123456789" },
        options: { server: `http://127.0.0.1:${slow.port}` },
      }),
    });
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: number };
    const verified = await fetch(`${appliance.base}/api/v1/providers/${id}/verify`, { method: "POST", headers });
    expect(verified.status).toBe(200);
    expect(((await verified.json()) as { ok: boolean }).ok).toBe(true);
  }, 60_000);

  // A kept-alive connection left open keeps the runtime waking the idle appliance about once a
  // second, so the long wait a request gets while it is handled must not outlive its answer.
  test("a kept-alive connection that sends nothing after its answer is closed by the short idle timeout", async () => {
    const { answer, closedByServer } = await rawConversation(
      appliance.base,
      "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n",
      // Well past the short timeout (the server checks its timeouts every few seconds), well short of the long one.
      { waitMs: (IDLE_SECONDS * 1000 + REQUEST_IDLE_SECONDS * 1000) / 2 },
    );
    expect(statusOf(answer)).toBe(200);
    expect(closedByServer).toBe(true);
  }, 180_000);

  test("a cut-off body from someone not signed in: a clean refusal, no ERROR with a stack trace", async () => {
    const before = appliance.lines.length;
    for (const path of ["/api/v1/auth/login", "/api/v1/providers", "/login", "/nic/update"]) {
      const answer = await rawExchange(
        appliance.base,
        `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"user`,
        { endAfterWrite: true, waitMs: 3_000 },
      );
      const status = statusOf(answer);
      expect([path, status === 0 || (status >= 400 && status < 500)]).toEqual([path, true]);
    }
    await Bun.sleep(200);
    const errors = appliance.lines.slice(before).filter((line) => /"level":"error"|stack/i.test(line));
    expect(errors).toEqual([]);
  });
});
