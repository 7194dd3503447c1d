// Whether a record is live, against real name servers (test/servers/zone-pair.ts): a BIND primary and
// a BIND secondary fed by NOTIFY, each on its own loopback address on port 53, and PowerDNS. The
// appliance runs with its scheduler's timer, so the name servers are asked on its own wake-ups, as
// in production; each record is written by the scheduler and read back through the API, the pages
// and /metrics.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ECHO_DEFAULT_IPV4, type EchoFake, startEchoFake } from "../fakes/echo";
import { KEY_NAME, KEY_SECRET, type PowerDns, startPowerDns } from "../servers/name-servers";
import {
  LAG_ZONE,
  LIVE_ZONE,
  loopbackAddresses,
  POWERDNS_ADDRESS,
  PRIMARY,
  SECONDARY,
  startPrimary,
  startSecondary,
  type ZoneServer,
} from "../servers/zone-pair";
import { makeTestApp, type TestApp } from "../support";
import { page, signIn } from "../ui/helpers";
import { historyOf, makeDue, NEXT_IPV4 } from "../updater/harness";

let primary: ZoneServer;
let secondary: ZoneServer;
let powerDns: PowerDns;
let echo: EchoFake;
let t: TestApp;
let removeAddresses = () => {};

beforeAll(async () => {
  removeAddresses = loopbackAddresses([PRIMARY, SECONDARY, POWERDNS_ADDRESS]);
  primary = await startPrimary();
  secondary = await startSecondary();
  powerDns = await startPowerDns({ listen: { address: POWERDNS_ADDRESS, port: 53 } });
  echo = startEchoFake();
  // The primary answers for live.test and lag.test and refuses the rest; PowerDNS answers for
  // example.test: as resolvers, between them they know every zone of these tests.
  t = await makeTestApp({ DDNS_IPV4_URLS: `${echo.url}/v4`, DDNS_RESOLVERS: `${PRIMARY},${POWERDNS_ADDRESS}` });
  t.ctx.scheduler.start({ timer: true });
});

afterAll(async () => {
  await t?.ctx.scheduler.stop(5_000);
  await t?.ctx.propagation.idle();
  t?.ctx.sqlite.close();
  await Promise.all([primary?.stop(), secondary?.stop(), powerDns?.stop(), echo?.stop()]);
  removeAddresses();
});

async function rfc2136Provider(): Promise<number> {
  const response = await t.request("POST", "/api/v1/providers", {
    body: {
      name: `bind ${crypto.randomUUID().slice(0, 6)}`,
      type: "rfc2136",
      credentials: { tsig_secret: KEY_SECRET },
      options: { server: PRIMARY, tsig_key_name: KEY_NAME },
    },
  });
  expect(response.status).toBe(200);
  return response.body.id;
}

async function addDomain(providerId: number, name: string): Promise<number> {
  const response = await t.request("POST", "/api/v1/domains", {
    body: { provider_id: providerId, domain_name: name, record_type: "A" },
  });
  expect(response.status).toBe(200);
  return response.body.id;
}

/** The domain as the API answers it. */
async function domain(id: number): Promise<any> {
  return (await t.request("GET", `/api/v1/domains/${id}`)).body;
}

/** Waits (up to 30 s: a loaded machine) until the domain's propagation is what `done` looks for; returns it. */
async function propagationWhen(
  id: number,
  address: string,
  done: (propagation: any) => boolean,
  what: string,
): Promise<any> {
  let latest: any;
  const started = performance.now();
  for (;;) {
    const body = await domain(id);
    latest = body.propagation;
    if (body.last_known_ip === address && done(latest)) return latest;
    if (performance.now() - started > 30_000)
      throw new Error(`waited 30 s for ${what}; the domain's propagation: ${JSON.stringify(latest)}`);
    await Bun.sleep(100);
  }
}

describe("a BIND primary and its secondary", () => {
  test("a new address: served by both name servers, the history row says after how long, the pages and /metrics show it", async () => {
    const id = await addDomain(await rfc2136Provider(), `home.${LIVE_ZONE}`);
    const propagation = await propagationWhen(
      id,
      ECHO_DEFAULT_IPV4,
      (p) => p.state === "served",
      "both name servers to serve the address",
    );
    // The configured server is the primary itself: asked once, under its NS name.
    expect(propagation.servers).toEqual([
      { name: `ns1.${LIVE_ZONE}`, address: PRIMARY, answer: [ECHO_DEFAULT_IPV4], ok: true, error: null },
      { name: `ns2.${LIVE_ZONE}`, address: SECONDARY, answer: [ECHO_DEFAULT_IPV4], ok: true, error: null },
    ]);
    expect(propagation.served_after_ms).toBeGreaterThanOrEqual(0);
    expect(propagation.checked_at).toEndWith("Z");
    expect(propagation.detail).toBeNull();
    const [row] = await historyOf(t, id);
    expect(row.message).toMatch(/; served by 2 of 2 name servers after \d+ s$/);

    const list = await t.request("GET", "/api/v1/domains");
    expect(list.body.find((d: any) => d.id === id).propagation.state).toBe("served");
    const metrics = await t.request("GET", "/metrics");
    expect(metrics.body).toContain(`ddnsd_record_served{domain="home.${LIVE_ZONE}",record_type="A"} 1`);
  });

  test("a secondary that got no NOTIFY: pending, naming it and the old address it still answers", async () => {
    const id = await addDomain(await rfc2136Provider(), `home.${LAG_ZONE}`);
    const propagation = await propagationWhen(id, ECHO_DEFAULT_IPV4, (p) => p.state !== "unknown", "the first answers");
    expect(propagation.state).toBe("pending");
    expect(propagation.servers).toEqual([
      { name: `ns1.${LAG_ZONE}`, address: PRIMARY, answer: [ECHO_DEFAULT_IPV4], ok: true, error: null },
      { name: `ns2.${LAG_ZONE}`, address: SECONDARY, answer: ["192.0.2.2"], ok: false, error: null },
    ]);
    const page = await pageOf(`/domains/${id}/history`);
    expect(page).toContain("Not yet served");
    expect(page).toContain(`ns2.${LAG_ZONE}`);
    expect(await pageOf("/")).toContain(`ns2.${LAG_ZONE}`);
    const metrics = await t.request("GET", "/metrics");
    expect(metrics.body).toContain(`ddnsd_record_served{domain="home.${LAG_ZONE}",record_type="A"} 0`);
  });
});

describe("PowerDNS", () => {
  test("the record written through its API is served by the zone's name server, which is also the API's host", async () => {
    const response = await t.request("POST", "/api/v1/providers", {
      body: {
        name: "pdns",
        type: "powerdns",
        credentials: { api_key: powerDns.apiKey },
        options: { server: powerDns.apiUrl },
      },
    });
    expect(response.status).toBe(200);
    const id = await addDomain(response.body.id, "home.example.test");
    const propagation = await propagationWhen(
      id,
      ECHO_DEFAULT_IPV4,
      (p) => p.state === "served",
      "PowerDNS to serve the address",
    );
    expect(propagation.servers).toEqual([
      { name: "ns.example.test", address: POWERDNS_ADDRESS, answer: [ECHO_DEFAULT_IPV4], ok: true, error: null },
    ]);
    expect((await historyOf(t, id))[0].message).toMatch(/; served by 1 of 1 name server after \d+ s$/);
  });
});

describe("the secondary stopped", () => {
  test("a new address is unreachable at the secondary: named, never an update failure", async () => {
    const id = await addDomain(await rfc2136Provider(), `away.${LIVE_ZONE}`);
    await propagationWhen(
      id,
      ECHO_DEFAULT_IPV4,
      (p) => p.state === "served",
      "both name servers to serve the first address",
    );
    await secondary.stop();
    echo.ipv4 = NEXT_IPV4;
    makeDue(t, [id]);
    const propagation = await propagationWhen(
      id,
      NEXT_IPV4,
      (p) => p.state !== "served" && p.servers.length === 2 && p.servers[0].ok,
      "the new address's first answers",
    );
    expect(propagation.state).toBe("unreachable");
    expect(propagation.servers[1]).toMatchObject({
      name: `ns2.${LIVE_ZONE}`,
      address: SECONDARY,
      answer: [],
      ok: false,
      error: expect.stringContaining("refused"),
    });
    const body = await domain(id);
    expect(body.last_update_status).toBe("SUCCESS");
    expect((await historyOf(t, id)).map((row: any) => row.status)).toEqual(["SUCCESS", "SUCCESS"]);
    expect(await pageOf("/")).toContain("Unreachable");
  });
});

/** An admin page's HTML, signed in. */
async function pageOf(path: string): Promise<string> {
  return (await page(t, path, { cookie: await signIn(t) })).text;
}
