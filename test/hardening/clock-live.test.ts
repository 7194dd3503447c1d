// A clock corrected backwards while ddnsd runs, for real: the appliance (`bun run src/main.ts`) runs
// under libfaketime, its wall clock two days ahead (a board without a real-time clock), and NTP's
// correction is a write to libfaketime's timestamp file while it runs. The monotonic clock is left
// alone, as NTP leaves it. The domain must be checked again within its interval plus 2 s of the
// correction, and the log must say the clock moved back.
// Needs Debian's libfaketime (apt-get install -y libfaketime).

import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startCloudflareFake } from "../fakes/cloudflare";
import { startEchoFake } from "../fakes/echo";
import { login, spawnAppliance, untilHealthy } from "./appliance";

const LIBFAKETIME = [
  "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
  "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
].find(existsSync);
const INTERVAL_S = 4;
const TWO_DAYS_MS = 2 * 86_400_000;

/** Asks `check` every 100 ms until it holds, for `timeoutMs` at most. */
async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}; it never happened`);
    await Bun.sleep(100);
  }
}

const work = mkdtempSync(join(tmpdir(), "ddnsd-clock-live-"));
const cf = startCloudflareFake();
const echo = startEchoFake();
afterAll(async () => {
  await Promise.all([cf.stop(), echo.stop()]);
  rmSync(work, { recursive: true, force: true });
});

test("a clock set back two days while running: the domain is checked again within its interval plus 2 s", async () => {
  if (LIBFAKETIME === undefined) throw new Error("libfaketime is not installed (apt-get install -y libfaketime)");
  const offsetFile = join(work, "faketime");
  writeFileSync(offsetFile, "+2d\n");
  cf.addZone("example.com");
  const appliance = spawnAppliance(join(work, "data"), {
    LD_PRELOAD: LIBFAKETIME,
    FAKETIME_TIMESTAMP_FILE: offsetFile,
    FAKETIME_NO_CACHE: "1",
    FAKETIME_DONT_FAKE_MONOTONIC: "1",
    DDNS_UPDATE_INTERVAL: `${INTERVAL_S}s`,
    DDNS_CLOUDFLARE_API_URL: cf.url,
    DDNS_IPV4_URLS: `${echo.url}/v4`,
  });
  try {
    await untilHealthy(appliance);
    const token = ((await (await login(appliance)).json()) as { access_token: string }).access_token;
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${appliance.base}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as any;
    };
    const provider = await api("POST", "/providers", {
      name: "cf",
      type: "cloudflare",
      credentials: { api_token: "cf-fake-token-0123456789abcdef" },
    });
    const domain = await api("POST", "/domains", { provider_id: provider.id, domain_name: "home.example.com" });
    const checkedAt = async () =>
      Date.parse((await api("GET", `/domains/${domain.id}`)).last_checked_at ?? "1970-01-01T00:00:00Z");

    // Checked once with the clock two days ahead: its next run is stored two days ahead too.
    await until(
      async () => (await checkedAt()) > Date.now() + TWO_DAYS_MS / 2,
      10_000,
      "the first check, two days ahead",
    );

    writeFileSync(offsetFile, "+0\n"); // NTP corrects the clock
    const correctedAt = Date.now();
    let recheck = 0;
    // A check on the corrected clock: no longer two days ahead.
    await until(
      async () => (recheck = await checkedAt()) < correctedAt + TWO_DAYS_MS / 2,
      (INTERVAL_S + 2) * 1000 + 3_000,
      "a check after the correction",
    );
    expect(recheck - correctedAt).toBeLessThanOrEqual((INTERVAL_S + 2) * 1000);
    // The jump is seen at the first wake-up after the correction. A pass already under way when
    // the clock was corrected stores its check on the corrected clock first, and the wake-up that
    // sees the jump (and says so) then comes within the interval.
    await until(
      async () => appliance.lines.some((line) => line.includes("the clock moved back")),
      (INTERVAL_S + 2) * 1000 + 3_000,
      "the clock's move back said in the log",
    );
  } finally {
    appliance.kill("SIGKILL");
    await appliance.exited;
  }
});
