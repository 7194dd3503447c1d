// A record changed outside ddnsd, against real name servers (test/servers/zone-pair.ts on a pair of
// loopback addresses of this file's own): a BIND primary and its secondary, the `rfc2136` provider
// with TSIG, and `nsupdate` (bind9-dnsutils) changing the record behind ddnsd's back, as a person
// would. The appliance runs with its scheduler's timer, so the name servers are asked on its own
// wake-ups; a check is brought forward with makeDue, never waited for by the clock.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { ECHO_DEFAULT_IPV4, type EchoFake, startEchoFake } from "../fakes/echo";
import { type NotifyFake, startWebhookReceiver } from "../fakes/notify";
import { waitFor } from "../fakes/server";
import { dig, KEY_NAME, KEY_SECRET } from "../servers/name-servers";
import {
  LAG_ZONE,
  LIVE_ZONE,
  loopbackAddresses,
  type PairAddresses,
  startPrimary,
  startSecondary,
  type ZoneServer,
} from "../servers/zone-pair";
import { makeTestApp, type TestApp } from "../support";
import { historyOf, makeDue } from "../updater/harness";

/** Addresses no other test file uses (live.test.ts has 127.31.0.1–3). */
const PAIR: PairAddresses = { primary: "127.31.0.11", secondary: "127.31.0.12" };
/** What the record is changed to outside ddnsd. */
const CHANGED = "81.2.69.99";

let primary: ZoneServer;
let secondary: ZoneServer;
let echo: EchoFake;
let receiver: NotifyFake;
let t: TestApp;
let removeAddresses = () => {};

beforeAll(async () => {
  removeAddresses = loopbackAddresses([PAIR.primary, PAIR.secondary]);
  primary = await startPrimary(PAIR);
  secondary = await startSecondary(PAIR);
  echo = startEchoFake();
  receiver = startWebhookReceiver();
  t = await makeTestApp({ DDNS_IPV4_URLS: `${echo.url}/v4`, DDNS_RESOLVERS: PAIR.primary });
  const notification = await t.request("POST", "/api/v1/notifications", {
    body: { name: "hook", type: "webhook", options: { url: `${receiver.url}/hook` }, events: ["ip_changed"] },
  });
  expect(notification.status).toBe(200);
  t.ctx.scheduler.start({ timer: true });
});

beforeEach(() => {
  receiver.delivered.length = 0;
});

afterAll(async () => {
  await t?.ctx.scheduler.stop(5_000);
  await t?.ctx.propagation.idle();
  t?.ctx.sqlite.close();
  await Promise.all([primary?.stop(), secondary?.stop(), echo?.stop(), receiver?.stop()]);
  removeAddresses();
});

/** A domain on an `rfc2136` provider writing to the primary; its id once ddnsd wrote it. */
async function domainAt(name: string): Promise<number> {
  const provider = await t.request("POST", "/api/v1/providers", {
    body: {
      name: `bind ${crypto.randomUUID().slice(0, 6)}`,
      type: "rfc2136",
      credentials: { tsig_secret: KEY_SECRET },
      options: { server: PAIR.primary, tsig_key_name: KEY_NAME },
    },
  });
  expect(provider.status).toBe(200);
  const domain = await t.request("POST", "/api/v1/domains", {
    body: { provider_id: provider.body.id, domain_name: name, record_type: "A" },
  });
  expect(domain.status).toBe(200);
  await waitFor(
    () => t.ctx.store.domains.find(domain.body.id)?.lastKnownIp === ECHO_DEFAULT_IPV4,
    30_000,
    "ddnsd's first write",
  );
  return domain.body.id;
}

/** What the primary (or `host`) serves for the name, read with dig. */
async function served(name: string, host = PAIR.primary): Promise<string[]> {
  return (await dig(53, name, "A", host)).records.filter((r) => r.type === "A").map((r) => r.data);
}

/** Changes the record at the primary with nsupdate and the same TSIG key, as a person would. */
async function nsupdate(zone: string, name: string, address: string): Promise<void> {
  const child = Bun.spawn(["nsupdate"], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  child.stdin.write(
    [
      `server ${PAIR.primary} 53`,
      `zone ${zone}`,
      `key hmac-sha256:${KEY_NAME} ${KEY_SECRET}`,
      `update delete ${name} A`,
      `update add ${name} 300 A ${address}`,
      "send",
      "",
    ].join("\n"),
  );
  child.stdin.end();
  const code = await child.exited;
  if (code !== 0) throw new Error(`nsupdate failed: ${await new Response(child.stderr).text()}`);
  expect(await served(name)).toEqual([address]);
}

/** The domain's history, waited for (30 s at most) until `done` holds. */
async function historyWhen(id: number, done: (rows: any[]) => boolean, what: string): Promise<any[]> {
  let rows: any[] = [];
  const started = performance.now();
  for (;;) {
    rows = await historyOf(t, id);
    if (done(rows)) return rows;
    if (performance.now() - started > 30_000) throw new Error(`waited 30 s for ${what}: ${JSON.stringify(rows)}`);
    await Bun.sleep(100);
  }
}

/** The domain's propagation once it was checked after `after` (ms since the epoch). */
async function checkedAfter(id: number, after: number): Promise<any> {
  let propagation: any;
  await waitFor(
    () => {
      propagation = t.ctx.propagation.propagationOf(t.ctx.store.domains.find(id)!);
      return propagation.checkedAt !== null && propagation.checkedAt > after;
    },
    30_000,
    "a check of the record",
  );
  return propagation;
}

describe("a record changed outside ddnsd", () => {
  test("nsupdate changes it: the next check writes it back, a repair row saying so and ip_changed", async () => {
    const name = `home.${LIVE_ZONE}`;
    const id = await domainAt(name);
    await waitFor(() => t.ctx.propagation.propagationOf(t.ctx.store.domains.find(id)!).state === "served", 30_000);
    await nsupdate(LIVE_ZONE, name, CHANGED);
    makeDue(t, [id]);
    const rows = await historyWhen(id, (list) => list[0]?.trigger === "repair", "the repair row");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      trigger: "repair",
      status: "SUCCESS",
      ip_address: ECHO_DEFAULT_IPV4,
      previous_ip: CHANGED,
    });
    expect(rows[0].message).toContain(`(the record held ${CHANGED}: changed outside ddnsd)`);
    expect(await served(name)).toEqual([ECHO_DEFAULT_IPV4]);
    await waitFor(() => receiver.delivered.length > 0, 10_000, "the ip_changed notification");
    expect(receiver.delivered.map((r) => r.body)).toContainEqual(
      expect.objectContaining({ event: "ip_changed", domain: name, ip: ECHO_DEFAULT_IPV4, previous_ip: CHANGED }),
    );
    // Both name servers serve the intended address again (the secondary by NOTIFY).
    await waitFor(
      () => t.ctx.propagation.propagationOf(t.ctx.store.domains.find(id)!).state === "served",
      30_000,
      "the repaired record to be served",
    );
  });

  test("Update now after nsupdate changed it: changed true with the address the record really held", async () => {
    const name = `forced.${LIVE_ZONE}`;
    const id = await domainAt(name);
    await nsupdate(LIVE_ZONE, name, CHANGED);
    const response = await t.request("POST", `/api/v1/domains/${id}/update_ip`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ changed: true, ip_address: ECHO_DEFAULT_IPV4, previous_ip: CHANGED });
    expect(response.body.message).not.toContain("(unchanged)");
    expect(await served(name)).toEqual([ECHO_DEFAULT_IPV4]);
    await waitFor(() => receiver.delivered.length > 0, 10_000, "the ip_changed notification");
    expect(receiver.delivered.map((r) => r.body)).toContainEqual(
      expect.objectContaining({ event: "ip_changed", domain: name, previous_ip: CHANGED }),
    );
  });

  test("a secondary behind its primary alone writes nothing; the primary changed beside it is repaired", async () => {
    // lag.test's secondary gets no NOTIFY: it keeps answering the zone file's 192.0.2.2 at serial 1.
    const name = `home.${LAG_ZONE}`;
    const id = await domainAt(name);
    const written = Date.now();
    let propagation = await checkedAfter(id, written - 60_000);
    expect(propagation.state).toBe("pending");
    expect(await served(name, PAIR.secondary)).toEqual(["192.0.2.2"]);
    // Asked again at the watch's next asks and at a check: still lag, nothing written.
    propagation = await checkedAfter(id, propagation.checkedAt);
    makeDue(t, [id]);
    await waitFor(() => (t.ctx.store.domains.find(id)?.lastCheckedAt ?? 0) > written, 30_000, "the check");
    propagation = await checkedAfter(id, propagation.checkedAt);
    expect(propagation.state).toBe("pending");
    expect(await historyOf(t, id)).toHaveLength(1);

    // The primary changed outside ddnsd (its serial moves past the write's): drift, though the
    // secondary still lags beside it.
    await nsupdate(LAG_ZONE, name, CHANGED);
    const rows = await historyWhen(id, (list) => list[0]?.trigger === "repair", "the repair row");
    expect(rows[0]).toMatchObject({ trigger: "repair", previous_ip: CHANGED, ip_address: ECHO_DEFAULT_IPV4 });
    expect(await served(name)).toEqual([ECHO_DEFAULT_IPV4]);
    expect(await served(name, PAIR.secondary)).toEqual(["192.0.2.2"]);
    // The lagging secondary alone again: the next asks write nothing more.
    propagation = await checkedAfter(id, Date.now());
    propagation = await checkedAfter(id, propagation.checkedAt);
    expect(propagation.state).toBe("pending");
    expect(await historyOf(t, id)).toHaveLength(2);
  });
});
