// Sign-in under load: the compiled binary's peak RSS (VmHWM from /proc) while 64 logins arrive at
// once, each from its own client address (through a trusted proxy, so the per-address throttle
// does not line them up), and the time a throttled attempt takes (an address already paused: 429
// without any password check). Targets (docs/api.md, limits): peak RSS ≤ 128 MB; a throttled attempt < 5 ms.

import {
  ADMIN_PASSWORD,
  ensureBinary,
  heading,
  machine,
  mb,
  median,
  ms,
  percentile,
  processMemory,
  recordFigure,
  removeDir,
  startAppliance,
  table,
  tempDir,
} from "./lib/common";

const SIMULTANEOUS = 64;
const THROTTLED = 200;
const PEAK_TARGET = 128 * 1024 * 1024;
const THROTTLED_TARGET_MS = 5;

heading("Sign-in under load");
console.log(`machine: ${machine()}`);
ensureBinary();
const dir = tempDir("logins");

function login(url: string, client: string, password: string): Promise<Response> {
  return fetch(`${url}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": client },
    body: JSON.stringify({ username: "admin", password }),
  });
}

try {
  const appliance = await startAppliance(dir, { DDNS_TRUSTED_PROXIES: "127.0.0.1" });
  try {
    // One login first, so the figure below is the flood's, not the first hash's.
    await (await login(appliance.url, "198.51.100.1", ADMIN_PASSWORD)).arrayBuffer();
    await Bun.sleep(1000);
    const before = processMemory(appliance.pid);
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: SIMULTANEOUS }, (_, i) =>
        login(appliance.url, `198.51.100.${i + 2}`, ADMIN_PASSWORD).then((r) => r.status),
      ),
    );
    const floodMs = performance.now() - started;
    if (answers.some((status) => status !== 200))
      throw new Error(`logins failed: ${answers.filter((s) => s !== 200).join(", ")}`);
    const after = processMemory(appliance.pid);

    // Pause one address (five failures), then time attempts that are refused.
    for (let i = 0; i < 5; i++) await (await login(appliance.url, "203.0.113.9", "wrong password")).arrayBuffer();
    const durations: number[] = [];
    for (let i = 0; i < THROTTLED; i++) {
      const t0 = performance.now();
      const response = await login(appliance.url, "203.0.113.9", "wrong password");
      await response.arrayBuffer();
      durations.push(performance.now() - t0);
      if (response.status !== 429) throw new Error(`expected 429 for a paused address, got ${response.status}`);
    }
    const throttledMs = median(durations);

    console.log(
      table(
        ["figure", "value", "target"],
        [
          ["RSS before the flood (peak so far)", `${mb(before.rss)} (${mb(before.peak)})`, ""],
          [`peak RSS, ${SIMULTANEOUS} simultaneous logins`, mb(after.peak), `≤ ${mb(PEAK_TARGET)}`],
          [`time for all ${SIMULTANEOUS} logins`, ms(floodMs), ""],
          ["throttled attempt (429), median", ms(throttledMs), `< ${THROTTLED_TARGET_MS} ms`],
          ["throttled attempt (429), p95", ms(percentile(durations, 95)), ""],
        ],
      ),
    );
    recordFigure({
      bench: "logins",
      name: `peak RSS, ${SIMULTANEOUS} simultaneous logins`,
      value: mb(after.peak),
      target: `≤ ${mb(PEAK_TARGET)}`,
      met: after.peak <= PEAK_TARGET,
    });
    recordFigure({
      bench: "logins",
      name: "throttled attempt (429), median",
      value: ms(throttledMs),
      target: `< ${THROTTLED_TARGET_MS} ms`,
      met: throttledMs < THROTTLED_TARGET_MS,
    });
  } finally {
    await appliance.stop();
  }
} finally {
  removeDir(dir);
}
