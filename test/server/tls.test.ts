// DDNS_TLS_CERT / DDNS_TLS_KEY: the appliance answers over HTTPS itself.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, startServer } from "../../src/server";
import { makeTestApp } from "../support";

const dir = mkdtempSync(join(tmpdir(), "ddnsd-tls-"));
const cert = join(dir, "cert.pem");
const key = join(dir, "key.pem");
let running: RunningServer;

beforeAll(async () => {
  const openssl = Bun.spawnSync(
    [
      "openssl",
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-keyout",
      key,
      "-out",
      cert,
    ],
    { stderr: "pipe" },
  );
  if (openssl.exitCode !== 0) throw new Error(`openssl failed: ${openssl.stderr.toString()}`);
  const t = await makeTestApp({ DDNS_HOST: "127.0.0.1", DDNS_PORT: "0", DDNS_TLS_CERT: cert, DDNS_TLS_KEY: key });
  running = startServer(t.ctx, t.app);
});

afterAll(async () => {
  await running.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("serves HTTPS with the configured certificate", async () => {
  expect(running.url.protocol).toBe("https:");
  const response = await fetch(new URL("/healthz", running.url), { tls: { rejectUnauthorized: false } });
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ status: "ok" });
});

test("refuses plain HTTP on the TLS port", async () => {
  const plain = new URL("/healthz", running.url);
  plain.protocol = "http:";
  await expect(fetch(plain)).rejects.toThrow();
});
