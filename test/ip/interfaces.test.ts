// Several WANs: each domain takes its address from its own interface (address_source
// `interface:<name>`). The test makes a network namespace with two interfaces, wan0 and wan1, each
// with a global IPv4 address, and runs the app inside it (./two-wans.scenario.ts) so that the interfaces it
// reads are those. Dummy interfaces where the kernel has them; a veth pair each otherwise (this
// sandbox's kernel has no dummy module; to the address lookup an interface is an interface). Skipped,
// saying why, where namespaces cannot be made (not root, or no CAP_SYS_ADMIN).

import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { makeNamespace, run } from "./namespace";

const NS = `ddnsd-wans-${process.pid}`;
const WAN0 = "81.2.69.10";
const WAN1 = "185.103.110.20";
const WAN1_NEXT = "185.103.110.21";

// Made as the file loads, so that the test can be skipped (with the reason printed) when it cannot be.
const refused = makeNamespace(NS, [
  ["wan0", WAN0],
  ["wan1", WAN1],
]);
if (refused !== null) console.warn(`skipping the two-WAN test: ${refused}`);
afterAll(() => {
  run("ip", "netns", "del", NS);
});

describe("two WANs", () => {
  test.skipIf(refused !== null)(
    "each domain follows its own interface; the one on the system's source follows the echo services",
    async () => {
      const child = Bun.spawn(
        ["ip", "netns", "exec", NS, process.execPath, join(import.meta.dir, "two-wans.scenario.ts"), WAN1_NEXT],
        {
          stdout: "pipe",
          stderr: "pipe",
          env: { ...process.env, NODE_ENV: "test" },
        },
      );
      const [stdout, stderr, code] = await Promise.all([
        new Response(child.stdout).text(),
        new Response(child.stderr).text(),
        child.exited,
      ]);
      expect({ code, stderr: code === 0 ? "" : stderr }).toEqual({ code: 0, stderr: "" });
      const result = JSON.parse(stdout.trim().split("\n").at(-1)!);
      // wan0 holds a global IPv4 address and, of IPv6, only its link-local one: an AAAA record cannot follow it.
      expect(result.refusedAaaa).toEqual({
        status: 422,
        errors: [
          {
            field: "address_source",
            message: `interface wan0 has no public (global) IPv6 address now: it has only IPv4 (${WAN0}); choose another source`,
          },
        ],
      });
      expect(result.first).toEqual({ one: WAN0, two: WAN1, web: result.echo });
      // wan1's new address moves only its own record.
      expect(result.second).toEqual({ one: WAN0, two: WAN1_NEXT, web: result.echo });
      // One echo request per pass, for the domain on the system's source only.
      expect(result.echoHits).toBe(2);
      expect(result.answers).toEqual(
        expect.arrayContaining([
          { source: "interface:wan0", ip: WAN0 },
          { source: "interface:wan1", ip: WAN1_NEXT },
          { source: "web", ip: result.echo },
        ]),
      );
    },
  );
});
