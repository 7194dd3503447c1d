// The Domains admin page at 1,000 domains (the most DDNS_MAX_DOMAINS allows by default): the
// compiled binary's peak RSS (VmHWM from /proc) while eight loads of the page arrive at once, a
// few rounds in a row, with the page's size and time. A probe of an older release took the process
// to 1.3 GB with eight loads of a 24.6 MB page of 10,000 rows; the page now shows 50 rows.
// Target (docs/performance.md): peak RSS ≤ 200 MB.

import {
  ADMIN_PASSWORD,
  api,
  ensureBinary,
  heading,
  login,
  machine,
  mb,
  median,
  ms,
  processMemory,
  recordFigure,
  removeDir,
  startAppliance,
  table,
  tempDir,
} from "./lib/common";

const DOMAINS = 1000;
const SIMULTANEOUS = 8;
const ROUNDS = 5;
const PEAK_TARGET = 200 * 1024 * 1024;

heading("The Domains page at 1,000 domains");
console.log(`machine: ${machine()}`);
ensureBinary();
const dir = tempDir("domains-page");

/** A session cookie from the sign-in page, as a browser gets one. */
async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: url },
    body: new URLSearchParams({ username: "admin", password: ADMIN_PASSWORD }).toString(),
  });
  const cookie = response.headers.get("set-cookie");
  if (response.status !== 303 || cookie === null) throw new Error(`sign-in failed: ${response.status}`);
  return cookie.split(";")[0]!;
}

try {
  const appliance = await startAppliance(dir);
  try {
    const token = await login(appliance.url);
    const provider = await api<{ id: number }>(appliance.url, token, "POST", "/providers", {
      name: "Cloudflare (bench)",
      type: "cloudflare",
      credentials: { api_token: "bench-token-0123456789abcdef" },
    });
    // Disabled: the figure is the page's, not that of 1,000 updates failing against a closed port.
    for (let i = 1; i <= DOMAINS; i++) {
      await api(appliance.url, token, "POST", "/domains", {
        provider_id: provider.id,
        domain_name: `host${String(i).padStart(4, "0")}.example.com`,
        is_enabled: false,
      });
    }
    const cookie = await signIn(appliance.url);
    const load = async (path: string) => {
      const response = await fetch(`${appliance.url}${path}`, { headers: { cookie } });
      const body = await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`GET ${path} → ${response.status}`);
      return body.byteLength;
    };
    const bytes = await load("/domains"); // the first render, so the figure below is the loads'
    await Bun.sleep(1000);
    const before = processMemory(appliance.pid);
    const durations: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      // Each load a different page (and the search and order a person uses), as eight tabs would.
      await Promise.all(
        Array.from({ length: SIMULTANEOUS }, (_, i) =>
          load(`/domains?sort=${i % 2 ? "status" : "name"}&page=${i + 1}`),
        ),
      );
      durations.push(performance.now() - started);
    }
    const after = processMemory(appliance.pid);

    console.log(
      table(
        ["figure", "value", "target"],
        [
          [`RSS before the loads (peak so far), ${DOMAINS} domains`, `${mb(before.rss)} (${mb(before.peak)})`, ""],
          [`peak RSS, ${SIMULTANEOUS} simultaneous loads × ${ROUNDS}`, mb(after.peak), `≤ ${mb(PEAK_TARGET)}`],
          ["the page's size (50 rows)", `${(bytes / 1024).toFixed(1)} KB`, ""],
          [`time for ${SIMULTANEOUS} loads at once, median of ${ROUNDS}`, ms(median(durations)), ""],
        ],
      ),
    );
    recordFigure({
      bench: "domains-page",
      name: `peak RSS, ${SIMULTANEOUS} simultaneous loads of the Domains page at ${DOMAINS} domains`,
      value: mb(after.peak),
      target: `≤ ${mb(PEAK_TARGET)}`,
      met: after.peak <= PEAK_TARGET,
    });
  } finally {
    await appliance.stop();
  }
} finally {
  removeDir(dir);
}
