// The real server's edge, as a child process: a short origin is padded so that it shifts no routing,
// a kept-alive connection is closed once idle after its answer, and a cut-off body from someone not
// signed in is a clean refusal without a logged trace. The hostile probe's findings at the edge (a
// short Host, the data dir's file modes, a slow service) are repeated in test/hardening/probe.test.ts.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { IDLE_SECONDS, REQUEST_IDLE_SECONDS, routableRequest } from "../../src/server";
import { type Appliance, spawnAppliance, untilHealthy } from "../hardening/appliance";

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

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ddnsd-edge-"));
  appliance = spawnAppliance(join(dir, "data"));
  await untilHealthy(appliance);
});
afterAll(async () => {
  appliance.kill();
  await appliance.exited;
  rmSync(dir, { recursive: true, force: true });
});

describe("the server's edge", () => {
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
