// What "failed updates" counts, the same everywhere (the dashboard's card, the provider cards, the
// metrics API, /metrics): each attempt that went to the DNS service and failed, also when repeats of
// one failure are folded into one history row; a failed detection is no update and counts nowhere.

import { beforeEach, describe, expect, test } from "bun:test";
import { page, signIn } from "../ui/helpers";
import { addDomain, addProvider, duePass, forceUpdate, type Rig, useRig } from "../updater/harness";

const current = useRig();
let rig: Rig;
beforeEach(() => {
  rig = current();
  rig.t.ctx.settings.metricsToken = null;
});

/** The text of the page with its tags and runs of white space taken out. */
function words(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

describe("failed updates", () => {
  test("three refusals folded into one history row count three on every page and figure; detection failures none", async () => {
    rig.cf.addZone("example.com");
    const provider = await addProvider(rig.t, "cloudflare", { name: "Home" });
    const failing = await addDomain(rig.t, provider.id, "gone.example.com", { config: { create_if_missing: false } });
    for (let i = 0; i < 3; i++) expect((await forceUpdate(rig.t, failing.id)).status).toBe(502);
    // The echo services down for two passes: failed detections, folded too, but no update.
    rig.echo.fault({ status: 503 }, 4);
    await duePass(rig.t);
    await duePass(rig.t);
    const history = (await rig.t.request("GET", `/api/v1/domains/${failing.id}/history`)).body as {
      ip_address: string | null;
      repeat_count: number;
    }[];
    expect(history.filter((row) => row.ip_address !== null).reduce((n, row) => n + row.repeat_count, 0)).toBe(3);
    expect(history.length).toBeLessThan(4); // folded: fewer rows than attempts

    const dashboard = (await rig.t.request("GET", "/api/v1/metrics/dashboard")).body;
    expect([dashboard.total_updates_24h, dashboard.failed_updates_24h, dashboard.success_rate_24h]).toEqual([3, 3, 0]);
    const stats = (await rig.t.request("GET", "/api/v1/metrics/provider-stats")).body.providers[0];
    expect([stats.updates_24h, stats.failed_updates_24h]).toEqual([3, 3]);

    const exposition = await rig.t.app.handle(
      new Request("http://localhost/metrics", { headers: { authorization: `Bearer ${await rig.t.token()}` } }),
    );
    const failures = (await exposition.text())
      .split("\n")
      .filter((line) => line.startsWith("ddnsd_updates_total{") && line.includes('result="failure"'))
      .reduce((n, line) => n + Number(line.split(" ").at(-1)), 0);
    expect(failures).toBe(3);

    const cookie = await signIn(rig.t);
    expect(words((await page(rig.t, "/", { cookie })).text)).toContain("Failed updates (24 h) 3");
    expect(words((await page(rig.t, "/providers", { cookie })).text)).toContain("3 of 3 updates failed");
  });
});
