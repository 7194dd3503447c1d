// Run by test/ip/address-sets.test.ts inside the network namespace it made, where wan1 and wan2 each
// hold one global address: the whole app with the Cloudflare fake and two domains on both WANs — one
// publishing both addresses (round robin), one failing over from wan1 to wan2 — through passes in which
// a third address is added by hand, wan2's address changes, wan2 goes down and comes back, and wan1
// goes down and comes back. Prints each step's records and messages as one JSON line for the test to
// judge; not a test file itself.

import { startCloudflareFake } from "../fakes/cloudflare";
import { makeTestApp } from "../support";

const [wan1, wan2, wan2Next, foreign] = process.argv.slice(2) as [string, string, string, string];
const cf = startCloudflareFake();
const t = await makeTestApp({ DDNS_CLOUDFLARE_API_URL: cf.url });

function ip(...args: string[]): void {
  const done = Bun.spawnSync(["ip", ...args], { stderr: "pipe" });
  if (done.exitCode !== 0) throw new Error(`ip ${args.join(" ")}: ${done.stderr.toString()}`);
}

try {
  cf.addZone("example.com");
  // What the names hold before ddnsd first writes them: taken as ddnsd's own.
  cf.addRecord("example.com", { type: "A", name: "rr", content: "198.51.100.1", ttl: 120, proxied: false });
  cf.addRecord("example.com", { type: "A", name: "fo", content: "198.51.100.1", ttl: 120, proxied: false });
  const provider = (
    await t.request("POST", "/api/v1/providers", {
      body: { name: "cf", type: "cloudflare", credentials: { api_token: "cf-fake-token-0123456789abcdef" } },
    })
  ).body;
  const add = async (name: string, config: Record<string, unknown>) =>
    (
      await t.request("POST", "/api/v1/domains", {
        body: {
          provider_id: provider.id,
          domain_name: `${name}.example.com`,
          address_source: ["interface:wan1", "interface:wan2"],
          config,
        },
      })
    ).body.id as number;
  const rr = await add("rr", {});
  const fo = await add("fo", { addresses: "first" });
  const held = (name: string) =>
    [...cf.records.values()]
      .filter((record) => record.name === `${name}.example.com` && record.type === "A")
      .map((record) => ({ content: record.content, ttl: record.ttl }))
      .sort((a, b) => a.content.localeCompare(b.content));
  const newest = async (id: number) =>
    (await t.request("GET", `/api/v1/domains/${id}/history?limit=1`)).body[0] as {
      message: string;
      addresses: string[];
    };
  const step = async () => {
    t.ctx.sqlite.query("UPDATE domains SET next_run_at = ?").run(Date.now());
    await t.ctx.scheduler.runPass();
    const domain = (await t.request("GET", `/api/v1/domains/${rr}`)).body;
    return {
      rr: held("rr"),
      fo: held("fo"),
      rrAddresses: domain.addresses,
      rrLast: domain.last_known_ip,
      rrMessage: (await newest(rr)).message,
      rrRow: (await newest(rr)).addresses,
      foMessage: (await newest(fo)).message,
    };
  };

  const steps: Record<string, unknown> = {};
  steps.first = await step();
  // Someone adds a third address by hand beside ddnsd's two.
  cf.addRecord("example.com", { type: "A", name: "rr", content: foreign, ttl: 120, proxied: false });
  ip("addr", "del", `${wan2}/24`, "dev", "wan2");
  ip("addr", "add", `${wan2Next}/24`, "dev", "wan2");
  steps.wan2Moved = await step();
  ip("addr", "del", `${wan2Next}/24`, "dev", "wan2");
  steps.wan2Down = await step();
  ip("addr", "add", `${wan2Next}/24`, "dev", "wan2");
  steps.wan2Back = await step();
  ip("addr", "del", `${wan1}/24`, "dev", "wan1");
  steps.wan1Down = await step();
  ip("addr", "add", `${wan1}/24`, "dev", "wan1");
  steps.wan1Back = await step();
  console.log(JSON.stringify(steps));
} finally {
  await t.ctx.scheduler.stop(1000);
  await cf.stop();
}
