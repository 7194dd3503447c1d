// A hostname's two addresses at a one-shot service, through the appliance: Dyn and deSEC treat a
// hostname as one thing and delete the family an update does not name, so every update of a hostname
// with an A and an AAAA domain at the same provider names both current addresses (in each server's
// dialect), and an A-only hostname at deSEC says `preserve` for the AAAA someone else manages. The
// well-known servers are reached on loopback: the app's fetch sends their requests to the fakes.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FetchLike } from "../../src/net/outbound";
import {
  DYNDNS2_FAKE_PASSWORD,
  DYNDNS2_FAKE_USER,
  type Dyndns2Fake,
  type Dyndns2Host,
  type Dyndns2Style,
  startDyndns2Fake,
} from "../fakes/dyndns2";
import { type EchoFake, startEchoFake } from "../fakes/echo";
import { makeTestApp, type TestApp } from "../support";
import { addDomain, duePass, historyOf } from "../updater/harness";

const HOSTNAME = "home.example.net";
const FIRST = { ipv4: "185.103.110.10", ipv6: "2a01:4f8:c17:b8f::10" };

let echo: EchoFake;
let fake: Dyndns2Fake;
let t: TestApp;
let host: Dyndns2Host;
let providerId: number;

/** The app's fetch: requests to `server`'s host go to the fake (path and query kept), the rest as they are. */
function reroute(server: string, to: () => string): FetchLike {
  const from = new URL(server).host;
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    if (url.host !== from) return fetch(input, init);
    const target = new URL(to());
    url.protocol = target.protocol;
    url.host = target.host;
    return fetch(url, init);
  };
}

async function start(style: Dyndns2Style, server: string): Promise<void> {
  echo = startEchoFake(FIRST);
  fake = startDyndns2Fake({ style });
  // A host long set up at the service, both families in place before ddnsd is installed.
  host = fake.addHost(HOSTNAME, { ipv4: "198.51.100.1", ipv6: "2001:db8::1" });
  t = await makeTestApp({ DDNS_IPV4_URLS: `${echo.url}/v4`, DDNS_IPV6_URLS: `${echo.url}/v6` }, ":memory:", {
    fetch: reroute(server, () => fake.url),
  });
  const provider = await t.request("POST", "/api/v1/providers", {
    body: {
      name: "dyn",
      type: "dyndns2",
      credentials: { username: DYNDNS2_FAKE_USER, password: DYNDNS2_FAKE_PASSWORD },
      options: { server },
    },
  });
  expect(provider.status).toBe(200);
  providerId = provider.body.id;
}

const domain = async (recordType: "A" | "AAAA") =>
  (await addDomain(t, providerId, HOSTNAME, { record_type: recordType })).id;

afterEach(async () => {
  t.ctx.sqlite.close();
  await fake.stop();
  await echo.stop();
});

describe("Dyn's dialect: both families in myip", () => {
  beforeEach(() => start("dyn", "https://members.dyndns.org"));

  test("a hostname with A and AAAA keeps both through a day of changes of either", async () => {
    await domain("A");
    await domain("AAAA");
    await duePass(t);
    expect([host.ipv4, host.ipv6]).toEqual([FIRST.ipv4, FIRST.ipv6]);
    const setup = fake.requests.length;

    // 24 hourly checks: the IPv4 address changes (4), or the IPv6 prefix (6), or both, or neither (-).
    const changes = "4 6 46 - 4 4 6 - 46 6 4 - 6 6 4 46 - 4 6 4 46 - 6 4".split(" ");
    for (const [hour, change] of changes.entries()) {
      if (change.includes("4")) echo.ipv4 = `185.103.110.${20 + hour}`;
      if (change.includes("6")) echo.ipv6 = `2a01:4f8:c17:${(0xb900 + hour).toString(16)}::1`;
      await duePass(t);
      expect({ hour, ipv4: host.ipv4, ipv6: host.ipv6 }).toEqual({ hour, ipv4: echo.ipv4, ipv6: echo.ipv6 });
    }
    // Once both are written, every update names both families.
    for (const request of fake.requests.slice(setup)) expect(request.query.myip?.split(",")).toHaveLength(2);
    expect(host.blocked).toBe(false);
  });

  test("a hostname with only an A domain: one family in myip", async () => {
    await domain("A");
    await duePass(t);
    expect(fake.requests.map((r) => r.query.myip)).toEqual([FIRST.ipv4]);
  });

  test("an answer naming another address (good 127.0.0.1: ignored) stops retrying", async () => {
    const id = await domain("A");
    fake.ignoreUpdates = true;
    await duePass(t);
    const [row] = await historyOf(t, id);
    expect(row.message).toBe(
      `Dyn: answered that ${HOSTNAME} holds 127.0.0.1, not what was sent (${FIRST.ipv4}): the update was ignored — not retried until the provider or domain is edited`,
    );
    expect(await t.ctx.scheduler.runPass()).toHaveLength(0);
    expect(fake.updates()).toBe(1);
  });
});

describe("deSEC's dialect: myipv4 and myipv6, preserve for a family ddnsd does not manage", () => {
  beforeEach(() => start("desec", "https://update.dedyn.io"));

  test("an A-only hostname keeps the AAAA someone else manages", async () => {
    await domain("A");
    await duePass(t);
    expect(fake.requests[0]?.query).toEqual({ hostname: HOSTNAME, myipv4: FIRST.ipv4, myipv6: "preserve" });
    expect([host.ipv4, host.ipv6]).toEqual([FIRST.ipv4, "2001:db8::1"]);
  });

  test("A and AAAA: each update names both", async () => {
    await domain("A");
    await domain("AAAA");
    await duePass(t);
    echo.ipv6 = "2a01:4f8:c17:b8f::77";
    await duePass(t);
    expect(fake.requests.at(-1)?.query).toEqual({
      hostname: HOSTNAME,
      myipv4: FIRST.ipv4,
      myipv6: "2a01:4f8:c17:b8f::77",
    });
    expect([host.ipv4, host.ipv6]).toEqual([FIRST.ipv4, "2a01:4f8:c17:b8f::77"]);
  });
});

describe("dynv6's /nic/update: IPv4 only", () => {
  beforeEach(() => start("dyn", "https://dynv6.com"));

  test("an AAAA domain is refused for good without a request; the A domain sends its address alone", async () => {
    const a = await domain("A");
    const aaaa = await domain("AAAA");
    await duePass(t);
    expect(fake.requests.map((r) => r.query)).toEqual([{ hostname: HOSTNAME, myip: FIRST.ipv4 }]);
    expect((await historyOf(t, aaaa))[0].message).toBe(
      "dynv6 (IPv4 only): takes A records only on this update server — not retried until the provider or domain is edited",
    );
    expect((await historyOf(t, a))[0].status).toBe("SUCCESS");
  });
});
