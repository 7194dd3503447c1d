// The zone search (src/dns/lookup.ts, findZoneServers) shared between the live checks through a
// ZoneCache (src/dns/zone-cache.ts), against a resolver of the test's own on 127.0.0.1
// (test/fakes/dns-server.ts): records of one zone cost the resolver each one's own NS question and
// one search of the zone, not one each; a hostname delegated as a zone of its own is still found;
// resolvers that do not answer are not asked again within the hold; after the hold all is asked again.

import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { findZoneServers, type ZoneFound } from "../../src/dns/lookup";
import { addressData, encodeMessage, encodeName, type Message, RCODE, TYPE } from "../../src/dns/protocols/wire";
import { ZoneCache } from "../../src/dns/zone-cache";
import { startTestNameServer, type TestNameServer } from "../fakes/dns-server";

const ZONE = "example.test";
/** A name delegated to its own name servers inside the zone. */
const DELEGATED = "home.example.test";

let resolver: TestNameServer;
let unreadable = false;
let clock = 0;

/** An SOA's data, uncompressed. */
function soa(): Uint8Array {
  return new Uint8Array([...encodeName(`ns1.${ZONE}`), ...encodeName(`hostmaster.${ZONE}`), ...new Uint8Array(20)]);
}

function answer(request: Message): Uint8Array {
  if (unreadable) return new Uint8Array([1]);
  const question = request.questions[0]!;
  const base = { ...request, qr: true, rcode: RCODE.NOERROR };
  const ns = (zone: string, server: string, glue: string) => ({
    answers: [{ name: zone, type: TYPE.NS, class: 1, ttl: 300, data: encodeName(server) }],
    additionals: [{ name: server, type: TYPE.A, class: 1, ttl: 300, data: addressData(glue) }],
  });
  if (question.type === TYPE.NS && question.name === ZONE)
    return encodeMessage({ ...base, ...ns(ZONE, `ns1.${ZONE}`, "192.0.2.53") });
  if (question.type === TYPE.NS && question.name === DELEGATED)
    return encodeMessage({ ...base, ...ns(DELEGATED, `ns.${DELEGATED}`, "198.51.100.53") });
  // Any other name in the zone: no NS of its own, the zone's SOA in the authority section.
  return encodeMessage({ ...base, authorities: [{ name: ZONE, type: TYPE.SOA, class: 1, ttl: 300, data: soa() }] });
}

beforeAll(async () => {
  resolver = await startTestNameServer(answer);
});
afterAll(() => resolver.stop());
beforeEach(() => {
  resolver.reset();
  unreadable = false;
});

const search = (cache: ZoneCache<ZoneFound>) => ({ most: 8, shared: { cache, holdMs: 15_000 } });
const resolvers = () => [{ host: resolver.host, port: resolver.port }];
const nsAsked = () => resolver.asked.filter((q) => q.type === TYPE.NS).map((q) => q.name);

test("five records of one zone: each one's own NS question, the zone's asked once", async () => {
  const cache = new ZoneCache<ZoneFound>(() => clock);
  const [first, ...others] = [1, 2, 3, 4, 5].map((i) => `host${i}.${ZONE}`);
  const names = [first!, ...others];
  for (const name of names) {
    const found = await findZoneServers(resolvers(), name, search(cache));
    expect(found).toEqual({
      ok: true,
      zone: ZONE,
      servers: [{ name: `ns1.${ZONE}`, server: { host: "192.0.2.53", port: 53 } }],
    });
  }
  expect(nsAsked()).toEqual([first!, ZONE, ...others]);
  // Without the cache each search asks the zone again.
  resolver.reset();
  for (const name of names) await findZoneServers(resolvers(), name, { most: 8 });
  expect(nsAsked()).toEqual(names.flatMap((name) => [name, ZONE]));
});

test("a name delegated as a zone of its own is found so, the zone above it held or not", async () => {
  const cache = new ZoneCache<ZoneFound>(() => clock);
  await findZoneServers(resolvers(), `host1.${ZONE}`, search(cache));
  expect(await findZoneServers(resolvers(), DELEGATED, search(cache))).toEqual({
    ok: true,
    zone: DELEGATED,
    servers: [{ name: `ns.${DELEGATED}`, server: { host: "198.51.100.53", port: 53 } }],
  });
});

test("resolvers that give no answer: asked once within the hold, the same words for each name; again after it", async () => {
  const cache = new ZoneCache<ZoneFound>(() => clock);
  unreadable = true;
  const where = `${resolver.host}:${resolver.port}`;
  for (const name of [`host1.${ZONE}`, `host2.${ZONE}`])
    expect(await findZoneServers(resolvers(), name, search(cache))).toEqual({
      ok: false,
      reason: `the NS query for ${name} failed: resolver ${where}: unreadable answer (the message ends in the middle of a field)`,
    });
  expect(resolver.asked).toHaveLength(1);
  // Past the hold the resolver is asked again, and its answers are taken once it gives them.
  clock += 15_000;
  unreadable = false;
  expect((await findZoneServers(resolvers(), `host3.${ZONE}`, search(cache))).ok).toBe(true);
  clock += 15_000;
  await findZoneServers(resolvers(), `host4.${ZONE}`, search(cache));
  expect(nsAsked()).toEqual([`host1.${ZONE}`, `host3.${ZONE}`, ZONE, `host4.${ZONE}`, ZONE]);
});
