// A crash (kill -9) in the middle of a burst of API writes and forced updates: after a restart the
// database passes `PRAGMA integrity_check`, and every write answered 200 before the kill is there
// (WAL with synchronous=NORMAL loses nothing a process crash interrupts; only power loss could).

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLOUDFLARE_FAKE_TOKEN, type CloudflareFake, startCloudflareFake } from "../fakes/cloudflare";
import { type EchoFake, startEchoFake } from "../fakes/echo";
import { login, spawnAppliance, untilHealthy } from "./appliance";

let cf: CloudflareFake;
let echo: EchoFake;
let dir: string;

beforeAll(() => {
  cf = startCloudflareFake();
  echo = startEchoFake();
  cf.addZone("example.com");
  dir = mkdtempSync(join(tmpdir(), "ddnsd-crash-"));
});
afterAll(async () => {
  await Promise.all([cf.stop(), echo.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

test("kill -9 during writes: integrity ok after restart, every write answered 200 is stored", async () => {
  const env = { DDNS_CLOUDFLARE_API_URL: cf.url, DDNS_IPV4_URLS: `${echo.url}/v4`, DDNS_IPV6_URLS: `${echo.url}/v6` };
  const appliance = spawnAppliance(dir, env);
  await untilHealthy(appliance);
  const token = ((await (await login(appliance)).json()) as { access_token: string }).access_token;
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${appliance.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  const providers: number[] = [];
  const domains: number[] = [];
  const historyIds: number[] = [];
  let killed = false;
  async function writer(n: number) {
    for (let i = 0; !killed; i++) {
      try {
        const provider = await call("POST", "/api/v1/providers", {
          name: `p${n}-${i}`,
          type: "cloudflare",
          credentials: { api_token: CLOUDFLARE_FAKE_TOKEN },
        });
        if (provider.status !== 200) continue;
        providers.push(provider.body.id);
        const domain = await call("POST", "/api/v1/domains", {
          provider_id: provider.body.id,
          domain_name: `h${n}-${i}.example.com`,
        });
        if (domain.status !== 200) continue;
        domains.push(domain.body.id);
        const update = await call("POST", `/api/v1/domains/${domain.body.id}/update_ip`);
        if (update.status === 200) historyIds.push(update.body.history_id);
      } catch {
        return; // the connection died with the process
      }
    }
  }
  const writers = Array.from({ length: 6 }, (_, n) => writer(n));
  // Kill once a good number of writes have been answered, while the others are in flight.
  while (historyIds.length < 20) await Bun.sleep(5);
  killed = true;
  appliance.kill("SIGKILL");
  await appliance.exited;
  await Promise.all(writers);

  const db = new Database(join(dir, "ddnsd.db"));
  try {
    expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()!.integrity_check).toBe("ok");
    const have = (table: string, ids: number[]) =>
      ids.filter(
        (id) => db.query<{ n: number }, [number]>(`SELECT count(*) AS n FROM ${table} WHERE id = ?`).get(id)!.n === 1,
      ).length;
    expect(have("providers", providers)).toBe(providers.length);
    expect(have("domains", domains)).toBe(domains.length);
    expect(have("history", historyIds)).toBe(historyIds.length);
  } finally {
    db.close();
  }

  const restarted = spawnAppliance(dir, env);
  try {
    await untilHealthy(restarted);
    expect((await login(restarted)).status).toBe(200);
  } finally {
    restarted.kill("SIGKILL");
    await restarted.exited;
  }
}, 60_000);
