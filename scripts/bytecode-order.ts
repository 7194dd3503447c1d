// `bun run bytecode-order` — records which functions a running ddnsd uses, in the order it uses
// them, into scripts/bytecode-order.txt; `bun run build` then lays the binary's bytecode out in that
// order (`--bytecode-order`), so what a running appliance needs sits together at the front of the
// executable and the rest is never read: 3.3 MB less resident memory, measured (docs/performance.md).
// The run is a small install's life: a start on a data dir with 20 domains, a check, a sign-in and
// the API's reads, a page or two. A profile from an older build still applies (functions changed
// since are placed after it), so it needs recording again only when much of the code has changed.

import { chmodSync, copyFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { api, ensureBinary, login, removeDir, startAppliance, tempDir } from "../bench/lib/common";
import { seedAppliance, startProviderWorld } from "../bench/lib/fakes";
import { BYTECODE_ORDER } from "./build";

const DOMAINS = 20;
const READS = [
  "/domains",
  "/metrics/dashboard",
  "/metrics/provider-stats",
  "/providers",
  "/domains/1",
  "/domains/1/history?limit=20",
  "/system/status",
  "/update-keys",
  "/notifications",
];
const PAGES = ["/healthz", "/login", "/assets/styles.css", "/docs"];

async function record(): Promise<void> {
  const dir = tempDir("bytecode-order");
  const world = await startProviderWorld({ records: DOMAINS });
  const recorded = join(dir, "order.txt");
  try {
    ensureBinary();
    const env = {
      DDNS_CLOUDFLARE_API_URL: world.cloudflareUrl,
      DDNS_IPV4_URLS: world.echoV4Url,
      DDNS_UPDATE_INTERVAL: "5m",
    };
    const data = join(dir, "data");
    const seeding = await startAppliance(data, env);
    await seedAppliance(seeding.url, await login(seeding.url), world, DOMAINS);
    await seeding.stop();
    // The run recorded: the usual start, on a data dir that has its domains.
    const appliance = await startAppliance(data, { ...env, BUN_BYTECODE_ORDER_OUT: recorded });
    try {
      const token = await login(appliance.url);
      for (let round = 0; round < 20; round++) {
        for (const path of READS) await api(appliance.url, token, "GET", path);
      }
      for (const path of PAGES) await (await fetch(`${appliance.url}${path}`)).arrayBuffer();
    } finally {
      await appliance.stop();
    }
    if (!existsSync(recorded)) throw new Error("the run wrote no bytecode order file");
    copyFileSync(recorded, BYTECODE_ORDER);
    chmodSync(BYTECODE_ORDER, 0o644);
    console.log(`wrote ${BYTECODE_ORDER}`);
  } finally {
    await world.stop();
    removeDir(dir);
  }
}

if (import.meta.main) await record();
