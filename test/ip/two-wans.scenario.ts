// Run by test/ip/interfaces.test.ts inside the network namespace it made (`ip netns exec`), where
// wan0 and wan1 each hold one global address and 127.0.0.1 is the namespace's own loopback: the
// whole app with the Cloudflare and echo fakes, three domains (interface:wan0, interface:wan1, the
// system's source), an AAAA domain on wan0 refused (wan0 holds no IPv6 address worth publishing),
// a pass, wan1's address changed, another pass. Prints what happened as one JSON
// line for the test to judge; not a test file itself (bun test does not pick it up).

import { startCloudflareFake } from "../fakes/cloudflare";
import { startEchoFake } from "../fakes/echo";
import { makeTestApp } from "../support";

const [next1 = ""] = process.argv.slice(2);
const cf = startCloudflareFake();
const echo = startEchoFake();
const t = await makeTestApp({
  DDNS_CLOUDFLARE_API_URL: cf.url,
  DDNS_IPV4_URLS: `${echo.url}/v4`,
  DDNS_IPV6_URLS: `${echo.url}/v6`,
});
try {
  cf.addZone("example.com");
  for (const name of ["one", "two", "web"]) cf.addRecord("example.com", { type: "A", name, content: "198.51.100.1" });
  const provider = (
    await t.request("POST", "/api/v1/providers", {
      body: { name: "cf", type: "cloudflare", credentials: { api_token: "cf-fake-token-0123456789abcdef" } },
    })
  ).body;
  const add = async (name: string, source: string | null) =>
    (
      await t.request("POST", "/api/v1/domains", {
        body: { provider_id: provider.id, domain_name: `${name}.example.com`, address_source: source },
      })
    ).body.id as number;
  await add("one", "interface:wan0");
  await add("two", "interface:wan1");
  await add("web", null);
  const ipv6OnWan0 = await t.request("POST", "/api/v1/domains", {
    body: {
      provider_id: provider.id,
      domain_name: "six.example.com",
      record_type: "AAAA",
      address_source: "interface:wan0",
    },
  });
  const refusedAaaa = { status: ipv6OnWan0.status, errors: ipv6OnWan0.body.errors };
  const records = () =>
    Object.fromEntries(
      ["one", "two", "web"].map((name) => [name, cf.record(`${name}.example.com`, "A")?.content ?? null]),
    );
  const due = () => t.ctx.sqlite.query("UPDATE domains SET next_run_at = ?").run(Date.now());

  due();
  await t.ctx.scheduler.runPass();
  const first = records();
  const current = Bun.spawnSync(["ip", "-4", "-o", "addr", "show", "dev", "wan1"]).stdout.toString();
  const old = /inet (\S+)/.exec(current)?.[1] ?? "";
  Bun.spawnSync(["ip", "addr", "del", old, "dev", "wan1"]);
  Bun.spawnSync(["ip", "addr", "add", `${next1}/24`, "dev", "wan1"]);
  due();
  await t.ctx.scheduler.runPass();
  const second = records();
  const answers = [...t.ctx.publicIp.answers.values()].map(({ source, ip }) => ({ source, ip }));
  console.log(JSON.stringify({ first, second, echo: echo.ipv4, echoHits: echo.hits("/v4"), answers, refusedAaaa }));
} finally {
  await t.ctx.scheduler.stop(1000);
  await cf.stop();
  await echo.stop();
}
