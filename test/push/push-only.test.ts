// Push-only domains (address_source push) hold what the router said: a push without myip takes the
// address the push came from (the client a trusted proxy names), never ddnsd's own, and a LAN one
// writes nothing; a forced update re-sends the newest pushed address. Through the whole app against
// the Cloudflare and echo fakes; the trusted proxy is 127.0.0.1.

import { beforeEach, describe, expect, test } from "bun:test";
import { page, signIn } from "../ui/helpers";
import { addDomain, addProvider, forceUpdate, historyOf, OLD_IPV4, type Rig, useRig } from "../updater/harness";

const current = useRig({ env: { DDNS_TRUSTED_PROXIES: "127.0.0.1" } });
let rig: Rig;
beforeEach(() => {
  rig = current();
  rig.cf.addZone("example.com");
});

const FIRST = "81.2.69.200";
const ROUTER = "81.2.69.171";

async function pushOnlyDomain(): Promise<{ id: number; key: string }> {
  rig.cf.addRecord("example.com", { type: "A", name: "push.example.com", content: OLD_IPV4 });
  const provider = await addProvider(rig.t, "cloudflare");
  const domain = await addDomain(rig.t, provider.id, "push.example.com", { address_source: "push" });
  const made = await rig.t.request("POST", "/api/v1/update-keys", { body: { name: "router" } });
  return { id: domain.id, key: made.body.key };
}

/** A push from `peer` (the socket's address), with the client a proxy names in X-Forwarded-For. */
async function push(query: string, key: string, peer: string, forwardedFor?: string): Promise<string> {
  const headers: Record<string, string> = { authorization: `Basic ${btoa(`router:${key}`)}` };
  if (forwardedFor !== undefined) headers["x-forwarded-for"] = forwardedFor;
  const request = new Request(`http://localhost/nic/update?${query}`, { headers });
  rig.t.ctx.signIns.rememberPeer(request, peer);
  return (await (await rig.t.app.handle(request)).text()).trim();
}

const cfWrites = () => rig.cf.requests.filter((r) => r.method !== "GET").length;

describe("a push without myip to a push-only domain", () => {
  test("from a LAN address: 911, nothing written, no echo request, and the history says the push carried no address", async () => {
    const { id, key } = await pushOnlyDomain();
    expect(await push("hostname=push.example.com", key, "192.168.1.20")).toBe("911");
    expect(rig.cf.record("push.example.com", "A")!.content).toBe(OLD_IPV4);
    expect(cfWrites()).toBe(0);
    expect(rig.echo.requests).toHaveLength(0);
    const [row] = await historyOf(rig.t, id);
    expect(row).toMatchObject({ trigger: "push", status: "FAILED", ip_address: null });
    expect(row.message).toContain("The push carried no address (no myip)");
    expect(row.message).toContain("192.168.1.20");
    // Nothing was pushed: a forced update has nothing to send.
    expect((await forceUpdate(rig.t, id)).status).toBe(409);
  });

  test("through a trusted proxy from a global client: the client's address is written, not ddnsd's", async () => {
    const { id, key } = await pushOnlyDomain();
    expect(await push("hostname=push.example.com", key, "127.0.0.1", ROUTER)).toBe(`good ${ROUTER}`);
    expect(rig.cf.record("push.example.com", "A")!.content).toBe(ROUTER);
    expect(rig.echo.requests).toHaveLength(0);
    const [row] = await historyOf(rig.t, id);
    expect(row).toMatchObject({ trigger: "push", status: "SUCCESS", ip_address: ROUTER });
  });

  test("a client's X-Forwarded-For from an untrusted peer is not believed: the LAN peer's push writes nothing", async () => {
    const { key } = await pushOnlyDomain();
    expect(await push("hostname=push.example.com", key, "192.168.1.30", ROUTER)).toBe("911");
    expect(rig.cf.record("push.example.com", "A")!.content).toBe(OLD_IPV4);
  });

  test("over IPv4 to an AAAA domain: 911, nothing written", async () => {
    rig.cf.addRecord("example.com", { type: "AAAA", name: "push6.example.com", content: "2a01:4f8:c17:b8f::1" });
    const provider = await addProvider(rig.t, "cloudflare");
    await addDomain(rig.t, provider.id, "push6.example.com", { address_source: "push", record_type: "AAAA" });
    const { key } = (await rig.t.request("POST", "/api/v1/update-keys", { body: { name: "router6" } })).body;
    expect(await push("hostname=push6.example.com", key, "127.0.0.1", ROUTER)).toBe("911");
    expect(rig.cf.record("push6.example.com", "AAAA")!.content).toBe("2a01:4f8:c17:b8f::1");
  });
});

test("a forced update after two pushes re-sends the newest pushed address, not an older one", async () => {
  const { id, key } = await pushOnlyDomain();
  expect(await push(`hostname=push.example.com&myip=${FIRST}`, key, "127.0.0.1")).toBe(`good ${FIRST}`);
  expect(await push("hostname=push.example.com", key, "127.0.0.1", ROUTER)).toBe(`good ${ROUTER}`);
  rig.cf.record("push.example.com", "A")!.content = OLD_IPV4; // someone else changed it
  const forced = await forceUpdate(rig.t, id);
  expect(forced.status).toBe(200);
  expect(forced.body.ip_address).toBe(ROUTER);
  expect(rig.cf.record("push.example.com", "A")!.content).toBe(ROUTER);
  expect((await rig.t.request("GET", `/api/v1/domains/${id}`)).body.pushed_ip).toBe(ROUTER);
});

test("the pages say a push-only record is written on push, with the last push's time, and the API has no next run", async () => {
  const { id, key } = await pushOnlyDomain();
  const before = await page(rig.t, "/", { cookie: await signIn(rig.t) });
  expect(before.text).toContain("on push · last push");
  expect(before.text).toContain("none yet");
  await push(`hostname=push.example.com&myip=${FIRST}`, key, "127.0.0.1");
  const body = (await rig.t.request("GET", `/api/v1/domains/${id}`)).body;
  expect(body.next_run_at).toBeNull();
  expect(body.pushed_at).not.toBeNull();
  const after = await page(rig.t, `/domains/${id}/history`, { cookie: await signIn(rig.t) });
  expect(after.text).toMatch(/on push · last push <time datetime="[^"]+"[^>]*>just now/);
});
