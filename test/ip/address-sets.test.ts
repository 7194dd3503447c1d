// Two WANs behind one name (docs/operations.md, "Several addresses for one name"): a network namespace
// with two interfaces, wan1 and wan2, each with a global address (dummy interfaces, or veth pairs where
// the kernel has no dummy module), and the app run inside it (./address-sets.scenario.ts) against the
// Cloudflare fake. One domain publishes both addresses, one fails over from wan1 to wan2 and back; an
// address someone adds by hand beside them survives every change. Skipped, saying why, where
// namespaces cannot be made (not root, or no CAP_SYS_ADMIN).

import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { makeNamespace, run } from "./namespace";

const NS = `ddnsd-sets-${process.pid}`;
const WAN1 = "81.2.69.11";
const WAN2 = "185.103.110.30";
const WAN2_NEXT = "185.103.110.31";
const FOREIGN = "93.184.216.99";

const refused = makeNamespace(NS, [
  ["wan1", WAN1],
  ["wan2", WAN2],
]);
if (refused !== null) console.warn(`skipping the two-WAN address set test: ${refused}`);
afterAll(() => {
  run("ip", "netns", "del", NS);
});

const records = (...ips: string[]) => ips.sort().map((content) => ({ content, ttl: 120 }));

describe("two WANs behind one name", () => {
  test.skipIf(refused !== null)(
    "round robin publishes both, failover hands over and takes back, a foreign address always stays",
    async () => {
      const child = Bun.spawn(
        [
          "ip",
          "netns",
          "exec",
          NS,
          process.execPath,
          join(import.meta.dir, "address-sets.scenario.ts"),
          WAN1,
          WAN2,
          WAN2_NEXT,
          FOREIGN,
        ],
        { stdout: "pipe", stderr: "pipe", env: { ...process.env, NODE_ENV: "test" } },
      );
      const [stdout, stderr, code] = await Promise.all([
        new Response(child.stdout).text(),
        new Response(child.stderr).text(),
        child.exited,
      ]);
      expect({ code, stderr: code === 0 ? "" : stderr }).toEqual({ code: 0, stderr: "" });
      const steps = JSON.parse(stdout.trim().split("\n").at(-1)!);

      // First write: the record found is taken over; both WANs published, its TTL kept.
      expect(steps.first.rr).toEqual(records(WAN1, WAN2));
      expect(steps.first.rrAddresses).toEqual([WAN1, WAN2]);
      expect(steps.first.rrLast).toBe(WAN1);
      expect(steps.first.rrRow).toEqual([WAN1, WAN2]);
      expect(steps.first.fo).toEqual(records(WAN1));

      // wan2's address moves: only ddnsd's old one goes; the address added by hand stays, and is named.
      expect(steps.wan2Moved.rr).toEqual(records(WAN1, WAN2_NEXT, FOREIGN));
      expect(steps.wan2Moved.rrMessage).toContain(`removed: ${WAN2}`);
      expect(steps.wan2Moved.rrMessage).toContain(`left alone: ${FOREIGN}`);
      expect(steps.wan2Moved.fo).toEqual(records(WAN1));

      // wan2 down: wan1's address stays published, the history names the source that failed.
      expect(steps.wan2Down.rr).toEqual(records(WAN1, FOREIGN));
      expect(steps.wan2Down.rrAddresses).toEqual([WAN1]);
      expect(steps.wan2Down.rrMessage).toContain("interface:wan2 gave no address");
      expect(steps.wan2Back.rr).toEqual(records(WAN1, WAN2_NEXT, FOREIGN));

      // Failover: wan1 down hands the name to wan2 within one pass; wan1 back takes it back.
      expect(steps.wan1Down.fo).toEqual(records(WAN2_NEXT));
      expect(steps.wan1Down.foMessage).toContain("interface:wan1 gave no address");
      expect(steps.wan1Down.rr).toEqual(records(WAN2_NEXT, FOREIGN));
      expect(steps.wan1Back.fo).toEqual(records(WAN1));
      expect(steps.wan1Back.rr).toEqual(records(WAN1, WAN2_NEXT, FOREIGN));
    },
  );
});
