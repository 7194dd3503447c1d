// Detection asks only for what is needed: once a domain exists, a family that no enabled domain's
// record type needs is never detected (no echo request, no detection_failed), also not to fill the
// dashboard's address card.

import { beforeEach, expect, test } from "bun:test";
import { addDomain, addProvider, duePass, type Rig, useRig } from "../updater/harness";
import { page, signIn } from "./helpers";

const current = useRig();
let rig: Rig;
beforeEach(() => {
  rig = current();
  rig.cf.addZone("example.com");
});

test("with only A domains, neither the dashboard nor a pass asks the IPv6 echo service", async () => {
  rig.cf.addRecord("example.com", { type: "A", name: "home", content: "81.2.69.142" });
  await addDomain(rig.t, (await addProvider(rig.t, "cloudflare")).id, "home.example.com");
  expect((await page(rig.t, "/", { cookie: await signIn(rig.t) })).status).toBe(200);
  // The pass's own IPv4 question is answered after any question the page started before it.
  await duePass(rig.t);
  expect(rig.echo.hits("/v4")).toBeGreaterThan(0);
  expect(rig.echo.hits("/v6")).toBe(0);
});

test("a detection outage is logged once per family with the domains that wait, never as an update failure per domain", async () => {
  const provider = await addProvider(rig.t, "cloudflare");
  for (const name of ["a", "b", "c"]) {
    rig.cf.addRecord("example.com", { type: "A", name, content: "81.2.69.142" });
    await addDomain(rig.t, provider.id, `${name}.example.com`);
  }
  rig.echo.fault({ status: 503 });
  const from = rig.t.logs.length;
  for (let pass = 0; pass < 3; pass++) await duePass(rig.t);
  const lines = rig.t.logs.slice(from);
  const warnings = lines.filter((line) => line.includes(" WARN "));
  const outage = warnings.filter((line) => line.includes("IPv4 detection failed"));
  expect(outage).toHaveLength(1);
  expect(outage[0]).toContain("3 domains wait");
  expect(lines.filter((line) => line.includes("update failed"))).toEqual([]);
});
