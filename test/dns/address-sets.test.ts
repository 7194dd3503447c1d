// Several addresses for one name (docs/operations.md, "Several addresses for one name"), as one
// table over every zone service's adapter: a service whose description says it holds address sets
// makes the name's set the wanted addresses — the records found at the first write taken over,
// missing ones added, ddnsd's own that are no longer wanted removed, an address someone else added
// later left alone — and a service that holds one address per name refuses a set without writing,
// while one address from a list ("first") is written there as any one address is.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { DnsProvider } from "../../src/dns/provider";
import { SERVICES } from "../../src/dns/registry";
import type { FakeServer } from "../fakes/server";
import { type ServiceAdapter, ZONE } from "../services/adapter";
import { ADAPTERS } from "../services/adapters";
import { context, target } from "./support";

const WAN1 = "203.0.113.1";
const WAN2 = "203.0.113.2";
const WAN3 = "203.0.113.3";
/** Someone else's address, added by hand beside ddnsd's. */
const FOREIGN = "198.51.100.9";
const OLD = "198.51.100.1";

function build(adapter: ServiceAdapter, fake: FakeServer<unknown>): DnsProvider {
  const description = SERVICES.find((service) => service.type === adapter.type)!;
  return description.createClient(
    adapter.credentials,
    adapter.options(fake) ?? {},
    context(Object.values(adapter.env(fake))[0] ?? ""),
  );
}

const sorted = (list: readonly string[]) => [...list].sort();

for (const adapter of ADAPTERS.filter((candidate) => candidate.zone !== undefined)) {
  const description = SERVICES.find((service) => service.type === adapter.type)!;
  const zone = adapter.zone!;
  const name = `wan.${ZONE}`;
  describe(`${description.label} (${adapter.type}): several addresses for one name`, () => {
    let fake: FakeServer<unknown>;
    beforeAll(() => {
      fake = adapter.start();
    });
    afterAll(async () => {
      await fake.stop();
    });

    if (description.holdsAddressSets) {
      test("the adapter reads every address of a name", () => {
        expect(zone.readAll).toBeDefined();
      });

      test("first write takes the name's record over; then added, removed, and a foreign address left alone", async () => {
        adapter.reset(fake);
        zone.addZone(fake, ZONE);
        zone.addRecord(fake, ZONE, name, "A", OLD, zone.ttl);
        const client = build(adapter, fake);
        const read = () => sorted(zone.readAll!(fake, ZONE, name, "A"));

        // First write: what the name held is ddnsd's own, so it becomes the two WANs' addresses.
        const first = await client.writeRecord(
          target(name, {}, { addressSet: { wanted: [WAN1, WAN2], published: null } }),
          WAN1,
        );
        expect(first).toMatchObject({ ok: true, action: "updated", removed: [OLD], foreign: [] });
        expect(read()).toEqual(sorted([WAN1, WAN2]));

        // Someone adds an address by hand (the service's set put there afresh, as the fake holds sets);
        // the set as wanted is already there: nothing written.
        adapter.reset(fake);
        zone.addZone(fake, ZONE);
        if (zone.addSet) zone.addSet(fake, ZONE, name, "A", [WAN1, WAN2, FOREIGN], zone.ttl);
        else for (const ip of [WAN1, WAN2, FOREIGN]) zone.addRecord(fake, ZONE, name, "A", ip, zone.ttl);
        const again = await client.writeRecord(
          target(name, {}, { addressSet: { wanted: [WAN1, WAN2], published: [WAN1, WAN2] } }),
          WAN1,
        );
        expect(again).toMatchObject({ ok: true, action: "unchanged", foreign: [FOREIGN] });
        expect(read()).toEqual(sorted([WAN1, WAN2, FOREIGN]));

        // WAN2 changes: its old address (ddnsd's) goes, the new one comes, the foreign one stays.
        const changed = await client.writeRecord(
          target(name, {}, { addressSet: { wanted: [WAN1, WAN3], published: [WAN1, WAN2] } }),
          WAN1,
        );
        expect(changed).toMatchObject({ ok: true, action: "updated", removed: [WAN2], foreign: [FOREIGN] });
        expect(!changed.ok || changed.message).toContain(`left alone: ${FOREIGN}`);
        expect(read()).toEqual(sorted([WAN1, WAN3, FOREIGN]));

        // Down to one source's address: still never the foreign one removed.
        const one = await client.writeRecord(
          target(name, {}, { addressSet: { wanted: [WAN3], published: [WAN1, WAN3] } }),
          WAN3,
        );
        expect(one).toMatchObject({ ok: true, action: "updated", removed: [WAN1] });
        expect(read()).toEqual(sorted([WAN3, FOREIGN]));
      });

      test("a name with no record gets the whole set created", async () => {
        adapter.reset(fake);
        zone.addZone(fake, ZONE);
        const written = await build(adapter, fake).writeRecord(
          target(name, {}, { addressSet: { wanted: [WAN1, WAN2], published: null } }),
          WAN1,
        );
        expect(written).toMatchObject({ ok: true, action: "created" });
        expect(sorted(zone.readAll!(fake, ZONE, name, "A"))).toEqual(sorted([WAN1, WAN2]));
      });
    } else {
      test("a set of two addresses is refused in the service's name, nothing written", async () => {
        adapter.reset(fake);
        adapter.seed(fake, name, "A", OLD);
        fake.clearRequests();
        const outcome = await build(adapter, fake).writeRecord(
          target(name, {}, { addressSet: { wanted: [WAN1, WAN2], published: null } }),
          WAN1,
        );
        expect(outcome).toMatchObject({ ok: false, cause: "refused" });
        expect(!outcome.ok && outcome.message).toContain('config.addresses to "first"');
        expect(fake.requests.filter((request) => adapter.isWrite(request))).toEqual([]);
        expect(adapter.address(fake, name, "A")).toBe(OLD);
      });
    }

    test("one address of a list (failover) is written as any one address is", async () => {
      adapter.reset(fake);
      adapter.seed(fake, name, "A", OLD);
      const outcome = await build(adapter, fake).writeRecord(
        target(name, {}, { addressSet: { wanted: [WAN2], published: [OLD] } }),
        WAN2,
      );
      expect(outcome).toMatchObject({ ok: true, action: "updated" });
      expect(adapter.address(fake, name, "A")).toBe(WAN2);
    });
  });
}
