// The name servers a live check asks are bounded (issue 41), against name servers of the test's own
// on port 53 at loopback addresses of this file's (127.31.41.0/24; NS records carry no port) and a
// resolver on 127.0.0.1 that answers each zone's NS set with its glue. The finding's zone of 1,000
// NS records (glue all one address) is refused whole; a zone of 255 name servers on 10 addresses
// gets 8 of them asked, each once; twelve records watched at once never hold more than 32 sockets.
// The name servers are at loopback addresses, so these checks run with DDNS_ALLOW_PRIVATE_IPS
// (the provider is no RFC 2136 or PowerDNS one).

import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { addressData, CLASS, type Message, TYPE } from "../../src/dns/protocols/wire";
import { createLogger } from "../../src/log";
import { PropagationTracker } from "../../src/updater/propagation";
import { answerWith, startTestNameServer, type TestNameServer, type Waiting } from "../fakes/dns-server";
import { type MemoryStore, memoryStore } from "../unit/store/support";

const ADDRESSES = Array.from({ length: 10 }, (_, i) => `127.31.41.${i + 1}`);
const SERVED = "81.2.69.160";

/** Each zone's NS set, by the zone's name (the resolver answers for the name asked). */
function nameServersOf(zone: string): { name: string; address: string }[] {
  const count = zone.endsWith(".one.test") ? 1000 : zone.endsWith(".many.test") ? 255 : 8;
  // The 1,000 go by one-label names, so that the answer fits one datagram (about 51 KB).
  return Array.from({ length: count }, (_, i) => ({
    name: count === 1000 ? `n${i}` : `ns${String(i).padStart(4, "0")}.${zone}`,
    address: zone.endsWith(".one.test") ? ADDRESSES[0]! : ADDRESSES[i % (count === 8 ? 8 : 10)]!,
  }));
}

function resolverAnswer(request: Message): Uint8Array {
  const [question] = request.questions;
  const zone = question?.name ?? "";
  const servers = nameServersOf(zone);
  const nameData = (name: string) => {
    const labels = name.split(".").flatMap((label) => [label.length, ...new TextEncoder().encode(label)]);
    return Uint8Array.from([...labels, 0]);
  };
  return answerWith(request, {
    aa: false,
    answers: servers.map((server) => ({
      name: zone,
      type: TYPE.NS,
      class: CLASS.IN,
      ttl: 60,
      data: nameData(server.name),
    })),
    additionals: servers.map((server) => ({
      name: server.name,
      type: TYPE.A,
      class: CLASS.IN,
      ttl: 60,
      data: addressData(server.address),
    })),
  });
}

const together: Waiting = { now: 0, most: 0 };
let resolver: TestNameServer;
let nameServers: TestNameServer[];
let memory: MemoryStore;
let tracker: PropagationTracker;

beforeAll(async () => {
  resolver = await startTestNameServer(resolverAnswer);
  nameServers = await Promise.all(
    ADDRESSES.map((host) =>
      startTestNameServer(
        (request) =>
          answerWith(request, {
            answers: [
              {
                name: request.questions[0]!.name,
                type: TYPE.A,
                class: CLASS.IN,
                ttl: 60,
                data: addressData(SERVED),
              },
            ],
          }),
        { host, port: 53, together },
      ),
    ),
  );
});

afterAll(async () => {
  await tracker?.idle();
  await Promise.all([resolver?.stop(), ...(nameServers ?? []).map((server) => server.stop())]);
});

beforeEach(() => {
  for (const server of nameServers) server.reset();
  together.most = together.now;
  memory = memoryStore();
  tracker = new PropagationTracker({
    store: memory.store,
    nameServerOf: () => null,
    proxied: () => false,
    settings: { resolvers: [{ host: "127.0.0.1", port: resolver.port }], allowPrivateIps: true, verifyEverySeconds: 0 },
    log: createLogger({ level: "error", format: "json", write: () => {} }),
    events: {},
  });
});

/** Watches each name's A record as holding SERVED, asks, and waits until every check has answered. */
async function check(names: string[]): Promise<number[]> {
  const provider = memory.provider();
  const ids = names.map((name) => memory.domain(provider, name));
  for (const id of ids) memory.store.domains.update(id, { lastKnownIp: SERVED });
  tracker.held(ids.map((id) => memory.store.domains.find(id)!));
  // Eight records' rounds at once (the tracker's own bound); the rest on the next wake-up.
  while (ids.some((id) => tracker.propagationOf(memory.store.domains.find(id)!).state === "unknown")) {
    tracker.runDue();
    await tracker.idle();
  }
  return ids;
}

const asked = () => nameServers.flatMap((server) => server.asked.map(() => server.host));

test("the finding's zone, 1,000 NS records with all their glue at one address: refused whole, no name server asked", async () => {
  const [id] = await check(["home.one.test"]);
  const propagation = tracker.propagationOf(memory.store.domains.find(id!)!);
  expect(asked()).toEqual([]);
  expect(propagation.state).toBe("unreachable");
  expect(propagation.detail).toContain("the message holds 2000 records, more than 512");
});

test("a zone of 255 name servers on 10 addresses: 8 addresses asked, each once", async () => {
  const [id] = await check(["home.many.test"]);
  const propagation = tracker.propagationOf(memory.store.domains.find(id!)!);
  expect(asked().sort()).toEqual(ADDRESSES.slice(0, 8).sort());
  expect(propagation.state).toBe("served");
  expect(propagation.servers).toHaveLength(8);
  expect(propagation.detail).toBe("8 of the zone's 255 name servers asked (at most 8, one per address)");
});

test("twelve records of zones with 8 name servers each, watched at once: never more than 32 questions waiting", async () => {
  for (const server of nameServers) server.delayMs = 50;
  const ids = await check(Array.from({ length: 12 }, (_, i) => `home.zone${i}.test`));
  expect(asked()).toHaveLength(12 * 8);
  expect(together.most).toBeGreaterThan(0);
  expect(together.most).toBeLessThanOrEqual(32);
  for (const id of ids) expect(tracker.propagationOf(memory.store.domains.find(id)!).state).toBe("served");
});
