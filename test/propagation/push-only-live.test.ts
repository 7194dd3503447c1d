// A push-only record's live state against real name servers (test/servers/zone-pair.ts): a BIND
// primary and its NOTIFY-fed secondary. No scheduled check writes such a record, so its live check
// alone runs at every interval (DDNS_UPDATE_INTERVAL, 2 s here): the state follows a secondary that
// goes away and comes back, on the scheduler's own wake-ups, without a provider call or a detection.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { type EchoFake, startEchoFake } from "../fakes/echo";
import { KEY_NAME, KEY_SECRET } from "../servers/name-servers";
import {
  LIVE_ZONE,
  loopbackAddresses,
  PRIMARY,
  SECONDARY,
  startPrimary,
  startSecondary,
  type ZoneServer,
} from "../servers/zone-pair";
import { makeTestApp, type TestApp } from "../support";

const PUSHED = "81.2.69.171";
let primary: ZoneServer;
let secondary: ZoneServer;
let echo: EchoFake;
let t: TestApp;
let removeAddresses = () => {};

beforeAll(async () => {
  removeAddresses = loopbackAddresses([PRIMARY, SECONDARY]);
  primary = await startPrimary();
  secondary = await startSecondary();
  echo = startEchoFake();
  t = await makeTestApp({ DDNS_IPV4_URLS: `${echo.url}/v4`, DDNS_RESOLVERS: PRIMARY, DDNS_UPDATE_INTERVAL: "2s" });
  t.ctx.scheduler.start({ timer: true });
});

afterAll(async () => {
  await t?.ctx.scheduler.stop(5_000);
  await t?.ctx.propagation.idle();
  t?.ctx.sqlite.close();
  await Promise.all([primary?.stop(), secondary?.stop(), echo?.stop()]);
  removeAddresses();
});

/** Waits (up to 60 s: a loaded machine) until the domain's live state is `state`; returns the domain. */
async function stateBecomes(id: number, state: string): Promise<any> {
  const started = performance.now();
  for (;;) {
    const body = (await t.request("GET", `/api/v1/domains/${id}`)).body;
    if (body.propagation.state === state) return body;
    if (performance.now() - started > 60_000)
      throw new Error(`waited 60 s for ${state}; the domain's propagation: ${JSON.stringify(body.propagation)}`);
    await Bun.sleep(200);
  }
}

test("a push-only record's live state follows a secondary that goes away and comes back", async () => {
  const provider = await t.request("POST", "/api/v1/providers", {
    body: {
      name: "bind",
      type: "rfc2136",
      credentials: { tsig_secret: KEY_SECRET },
      options: { server: PRIMARY, tsig_key_name: KEY_NAME },
    },
  });
  const made = await t.request("POST", "/api/v1/domains", {
    body: { provider_id: provider.body.id, domain_name: `router.${LIVE_ZONE}`, address_source: "push" },
  });
  expect(made.status).toBe(200);
  const id = made.body.id;
  const key = (await t.request("POST", "/api/v1/update-keys", { body: { name: "router" } })).body.key;
  const pushed = await t.app.handle(
    new Request(`http://localhost/nic/update?hostname=router.${LIVE_ZONE}&myip=${PUSHED}`, {
      headers: { authorization: `Basic ${btoa(`router:${key}`)}` },
    }),
  );
  expect(await pushed.text()).toBe(`good ${PUSHED}`);
  const served = await stateBecomes(id, "served");
  expect(served.next_run_at).toBeNull();

  await secondary.stop();
  const away = await stateBecomes(id, "unreachable");
  expect(away.propagation.servers.find((server: any) => server.address === SECONDARY).ok).toBe(false);

  secondary = await startSecondary();
  const back = await stateBecomes(id, "served");
  expect(back.propagation.servers.every((server: any) => server.ok)).toBe(true);
  const metrics = await t.request("GET", "/metrics");
  expect(metrics.body).toContain(`ddnsd_record_served{domain="router.${LIVE_ZONE}",record_type="A"} 1`);
  // The live check alone: one history row (the push), no echo request.
  expect((await t.request("GET", `/api/v1/domains/${id}/history`)).body).toHaveLength(1);
  expect(echo.requests).toHaveLength(0);
}, 180_000);
