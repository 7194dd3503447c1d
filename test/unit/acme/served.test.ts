// The ACME challenge's wait (src/modules/acme/served.ts) on a fake clock and fake name servers: a
// present or update answers as soon as every name server of the zone that answers serves the value,
// asking once a second, and gives up after 60 s without waiting longer; name servers at internal
// addresses are asked only as the live check asks them (`mayAskNameServer`).

import { beforeEach, expect, test } from "bun:test";
import type { QueryAnswer, ZoneServers } from "../../../src/dns/lookup";
import type { ServerAddress } from "../../../src/dns/protocols/signed-dns";
import { message, TYPE, txtData } from "../../../src/dns/protocols/wire";
import { SERVED_WITHIN_MS, type ServedParts, waitUntilServed } from "../../../src/modules/acme/served";

const NAME = "_acme-challenge.home.example.com";
const VALUE = "a".repeat(43);
const OTHER = "v=spf1 -all";
const NS1 = { host: "192.0.2.53", port: 53 };
const NS2 = { host: "198.51.100.53", port: 53 };
const INTERNAL = { host: "10.0.0.53", port: 53 };

/** What each name server answers by address: its TXT values, or silence. */
let held: Map<string, string[] | "silent">;
let zone: ZoneServers;
let now: number;
let sleeps: number[];
let asked: string[];

function answerOf(server: ServerAddress, name: string, type: number): QueryAnswer {
  const values = held.get(server.host);
  if (values === undefined || values === "silent") return { ok: false, reason: "no answer within 3 s" };
  const base = message({ id: 1, qr: true, aa: true, questions: [{ name, type, class: 1 }] });
  const answers = values.map((text) => ({ name, type: TYPE.TXT, class: 1, ttl: 60, data: txtData(text) }));
  return { ok: true, message: { ...base, answers }, bytes: new Uint8Array() };
}

/** The wait's parts, with `after(n)` run after its n-th sleep (the zone changing meanwhile). */
function parts(allowPrivateIps = false, after: (sleeps: number) => void = () => {}): ServedParts {
  return {
    settings: { resolvers: [{ host: "192.0.2.1", port: 53 }], allowPrivateIps },
    lookups: {
      findZoneServers: async () => zone,
      query: async (server, name, type, options) => {
        expect(options.recursion).toBe(false);
        expect(type).toBe(TYPE.TXT);
        asked.push(server.host);
        return answerOf(server, name, type);
      },
    },
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
      after(sleeps.length);
    },
  };
}

beforeEach(() => {
  held = new Map([
    [NS1.host, [OTHER]],
    [NS2.host, [OTHER]],
  ]);
  zone = {
    ok: true,
    zone: "example.com",
    servers: [
      { name: "ns1.example.com", server: NS1 },
      { name: "ns2.example.com", server: NS2 },
    ],
  };
  now = 5_000;
  sleeps = [];
  asked = [];
});

test("served once every name server holds the value: asked once a second until then, not after", async () => {
  const result = await waitUntilServed(
    parts(false, (slept) => {
      if (slept === 2) held.set(NS1.host, [OTHER, VALUE]);
      if (slept === 3) held.set(NS2.host, [VALUE, OTHER]);
    }),
    NAME,
    VALUE,
    null,
  );
  expect(result).toEqual({ served: true, afterMs: 3_000 });
  expect(sleeps).toEqual([1_000, 1_000, 1_000]);
  expect(asked).toEqual([NS1, NS2, NS1, NS2, NS1, NS2, NS1, NS2].map((server) => server.host));
});

test("a value already served answers at once, without a sleep", async () => {
  held.set(NS1.host, [VALUE]);
  held.set(NS2.host, [VALUE]);
  expect(await waitUntilServed(parts(), NAME, VALUE, null)).toEqual({ served: true, afterMs: 0 });
  expect(sleeps).toEqual([]);
});

test("never served: gives up after 60 s, not a moment later, and says why", async () => {
  held.set(NS1.host, [VALUE]);
  const result = await waitUntilServed(parts(), NAME, VALUE, null);
  expect(result).toEqual({ served: false, why: "not served by every name server within 60 s" });
  expect(now - 5_000).toBeLessThanOrEqual(SERVED_WITHIN_MS);
  expect(now - 5_000).toBeGreaterThanOrEqual(SERVED_WITHIN_MS - 1_000);
  expect(sleeps.every((ms) => ms === 1_000)).toBe(true);
});

test("a name server that does not answer is not waited for; the ones that answer decide", async () => {
  held.set(NS1.host, [VALUE]);
  held.set(NS2.host, "silent");
  expect(await waitUntilServed(parts(), NAME, VALUE, null)).toEqual({ served: true, afterMs: 0 });
});

test("no name server answering at all is not served, and the wait still ends within 60 s", async () => {
  held.set(NS1.host, "silent");
  held.set(NS2.host, "silent");
  expect((await waitUntilServed(parts(), NAME, VALUE, null)).served).toBe(false);
  expect(now - 5_000).toBeLessThanOrEqual(SERVED_WITHIN_MS);
});

test("nothing to ask (the zone's name servers not found): answers at once, saying why", async () => {
  zone = { ok: false, reason: "the resolvers did not answer" };
  expect(await waitUntilServed(parts(), NAME, VALUE, null)).toEqual({
    served: false,
    why: "the resolvers did not answer",
  });
  expect(sleeps).toEqual([]);
  expect(asked).toEqual([]);
});

test("a name server at an internal address is asked only for the user's own server or when allowed", async () => {
  zone = { ok: true, zone: "example.com", servers: [{ name: "ns.internal", server: INTERNAL }] };
  held = new Map([
    [INTERNAL.host, [VALUE]],
    ["127.0.0.1", [VALUE]],
  ]);
  // A hosted service's zone whose glue names an internal address: nothing asked, no wait.
  expect(await waitUntilServed(parts(false), NAME, VALUE, null)).toEqual({
    served: false,
    why: "the zone's name servers have no address",
  });
  expect(asked).toEqual([]);
  // DDNS_ALLOW_PRIVATE_IPS.
  expect((await waitUntilServed(parts(true), NAME, VALUE, null)).served).toBe(true);
  expect(asked).toEqual([INTERNAL.host]);
  // The provider writes to a server of the user's own (RFC 2136's, PowerDNS's): it and the zone's are asked.
  asked = [];
  expect((await waitUntilServed(parts(false), NAME, VALUE, "127.0.0.1:5353")).served).toBe(true);
  expect(asked).toEqual(["127.0.0.1", INTERNAL.host]);
});
