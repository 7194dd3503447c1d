// What every service's client does alike, as one table over the services (each service's adapter,
// test/services/adapters/, knows how to start its fake and which credentials it takes): built by its
// description's createClient from the credentials and options a provider row holds, it works
// against its fake and says who it is on every request (one that cannot check credentials says why,
// without a request); pointed where nothing answers, it fails as
// "unreachable" in the service's name, without a secret in the words. What is particular to a
// service is in its own file beside this one.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { DnsProvider, TxtChange } from "../../src/dns/provider";
import { SERVICES } from "../../src/dns/registry";
import type { FakeServer } from "../fakes/server";
import { type ServiceAdapter, ZONE, type ZoneAccess } from "../services/adapter";
import { ADAPTERS } from "../services/adapters";
import { context, stoppedUrl, target, USER_AGENT } from "./support";

const NEW = { A: "203.0.113.7", AAAA: "2001:db8::7" } as const;
/** Two addresses of one name: a round-robin set someone made by hand. */
const SEVERAL = ["198.51.100.1", "198.51.100.2"];

/**
 * How long the "does not answer" row waits: its fake never answers, so however busy the machine the
 * only outcome is this deadline passing; it is short so that the table's 56 rows do not wait a second each.
 */
const NO_ANSWER_MS = 50;

/** The client a provider row of this service would get, its address (setting or options) the fake at `at`. */
function build(adapter: ServiceAdapter, at: { url: string }, timeoutMs = 5000): DnsProvider {
  const description = SERVICES.find((service) => service.type === adapter.type)!;
  const fake = at as FakeServer<unknown>;
  return description.createClient(
    adapter.credentials,
    adapter.options(fake) ?? {},
    context(Object.values(adapter.env(fake))[0] ?? "", { timeoutMs }),
  );
}

/** Two ACME DNS-01 values (43 characters of base64url), and a TXT value ddnsd did not write. */
const VALUE_1 = "a".repeat(43);
const VALUE_2 = `${"b".repeat(42)}-`;
const FOREIGN = "v=spf1 -all";

/** One TXT change of `_acme-challenge.<hostname>`, as a certificate key asks for it. */
function txtChange(hostname: string, action: "add" | "remove", value: string): TxtChange {
  return { hostname, name: `_acme-challenge.${hostname}`, value, action, config: {}, written: [] };
}

/**
 * The reconciler's TXT rules at a service that holds TXT (docs/certificates.md): a value is added
 * beside the name's other values and removed exactly, nothing is written when the value already is
 * (or is not) there, and the name's own A record is never touched.
 */
function txtCases(adapter: ServiceAdapter, zone: ZoneAccess<any>, current: () => FakeServer<unknown>) {
  const hostname = `home.${ZONE}`;
  const challenge = `_acme-challenge.${hostname}`;
  const sorted = (values: string[]) => [...values].sort();

  function arrange(): ReturnType<typeof build> {
    const fake = current();
    if (!zone.txt) throw new Error(`${adapter.type} holds TXT: its adapter needs zone.txt`);
    adapter.reset(fake);
    zone.addZone(fake, ZONE);
    zone.addRecord(fake, ZONE, hostname, "A", "198.51.100.1", zone.ttl);
    zone.txt.add(fake, ZONE, challenge, FOREIGN);
    fake.clearRequests();
    return build(adapter, fake);
  }
  const writes = () => current().requests.filter((request) => adapter.isWrite(request));

  test("TXT: a value is added beside another tool's value, which stays; the A record is untouched", async () => {
    const client = arrange();
    expect(await client.writeTxt!(txtChange(hostname, "add", VALUE_1))).toMatchObject({ ok: true, action: "updated" });
    expect(sorted(zone.txt!.values(current(), ZONE, challenge))).toEqual(sorted([FOREIGN, VALUE_1]));
    expect(await client.writeTxt!(txtChange(hostname, "add", VALUE_2))).toMatchObject({ ok: true, action: "updated" });
    expect(sorted(zone.txt!.values(current(), ZONE, challenge))).toEqual(sorted([FOREIGN, VALUE_1, VALUE_2]));
    expect(zone.read(current(), ZONE, hostname, "A")?.ip).toBe("198.51.100.1");
    // A value already there is not written again.
    current().clearRequests();
    expect(await client.writeTxt!(txtChange(hostname, "add", VALUE_1))).toMatchObject({
      ok: true,
      action: "unchanged",
    });
    expect(writes()).toEqual([]);
  });

  test("TXT: cleanup removes exactly its value and keeps the others; the A record is untouched", async () => {
    const client = arrange();
    await client.writeTxt!(txtChange(hostname, "add", VALUE_1));
    await client.writeTxt!(txtChange(hostname, "add", VALUE_2));
    expect(await client.writeTxt!(txtChange(hostname, "remove", VALUE_1))).toMatchObject({
      ok: true,
      action: "updated",
    });
    expect(sorted(zone.txt!.values(current(), ZONE, challenge))).toEqual(sorted([FOREIGN, VALUE_2]));
    expect(await client.writeTxt!(txtChange(hostname, "remove", VALUE_2))).toMatchObject({ ok: true });
    expect(zone.txt!.values(current(), ZONE, challenge)).toEqual([FOREIGN]);
    expect(zone.read(current(), ZONE, hostname, "A")?.ip).toBe("198.51.100.1");
    // A value not there is not removed again.
    current().clearRequests();
    expect(await client.writeTxt!(txtChange(hostname, "remove", VALUE_1))).toMatchObject({
      ok: true,
      action: "unchanged",
    });
    expect(writes()).toEqual([]);
  });

  test("TXT: a name with no TXT gets the value alone, and after cleanup holds none", async () => {
    const client = arrange();
    const other = `office.${ZONE}`;
    expect(await client.writeTxt!(txtChange(other, "add", VALUE_1))).toMatchObject({ ok: true, action: "updated" });
    expect(zone.txt!.values(current(), ZONE, `_acme-challenge.${other}`)).toEqual([VALUE_1]);
    expect(await client.writeTxt!(txtChange(other, "remove", VALUE_1))).toMatchObject({ ok: true, action: "updated" });
    expect(zone.txt!.values(current(), ZONE, `_acme-challenge.${other}`)).toEqual([]);
    expect(zone.txt!.values(current(), ZONE, challenge)).toEqual([FOREIGN]);
  });
}

for (const adapter of ADAPTERS) {
  const description = SERVICES.find((service) => service.type === adapter.type)!;
  describe(`${description.label} (${adapter.type})`, () => {
    let fake: FakeServer<unknown>;
    beforeAll(() => {
      fake = adapter.start();
    });
    afterAll(async () => {
      await fake.stop();
    });

    test("createClient builds a working client from a provider's credentials and options, saying who it is", async () => {
      adapter.reset(fake);
      adapter.seed(fake, adapter.hostname, "A", "198.51.100.1");
      fake.clearRequests();
      const client = build(adapter, fake);
      if (description.canVerify) expect((await client.verify()).ok).toBe(true);
      const written = await client.writeRecord(target(adapter.hostname), NEW.A);
      expect(written).toMatchObject({ ok: true });
      expect(adapter.address(fake, adapter.hostname, "A")).toBe(NEW.A);
      expect(fake.requests.length).toBeGreaterThan(0);
      for (const request of fake.requests) expect(request.headers["user-agent"]).toBe(USER_AGENT);
    });

    if (!description.canVerify) {
      test("a client asked to check its credentials anyway says why it cannot, and sends nothing", async () => {
        fake.clearRequests();
        expect(await build(adapter, fake).verify()).toEqual({ ok: false, detail: description.verifyUnavailable! });
        expect(fake.requests).toHaveLength(0);
      });
    }

    test("a service that does not answer: unreachable, saying how long it was waited for", async () => {
      adapter.reset(fake);
      adapter.seed(fake, adapter.hostname, "A", "198.51.100.1");
      fake.fault("timeout");
      const outcome = await build(adapter, fake, NO_ANSWER_MS).writeRecord(target(adapter.hostname), NEW.A);
      fake.clearFaults();
      expect(outcome).toMatchObject({ ok: false, cause: "unreachable" });
      expect(!outcome.ok && outcome.message).toMatch(new RegExp(`^\\S.*: no answer within ${NO_ANSWER_MS}ms$`));
      // A zone service had only been asked to read; a one-shot request may have been acted on unanswered.
      if (adapter.zone) expect(adapter.address(fake, adapter.hostname, "A")).toBe("198.51.100.1");
    });

    // Answers no service means to give: a gateway's error page in a 502, and (from the zone services,
    // which answer JSON or XML) a 200 whose body cannot be read. Both are the service being unwell.
    const unreadable: [string, string, RegExp][] = [
      ["a gateway's HTML page (502)", "html", /HTTP 502\)?:? "<!DOCTYPE html>/],
      ...(adapter.zone
        ? [["a 200 that cannot be read", "malformed", /: unreadable answer \(HTTP 200\)/] as [string, string, RegExp]]
        : []),
    ];
    for (const [name, fault, words] of unreadable) {
      test(`${name}: unreachable, in the service's name, quoting what came`, async () => {
        adapter.reset(fake);
        adapter.seed(fake, adapter.hostname, "A", "198.51.100.1");
        fake.fault(fault);
        const outcome = await build(adapter, fake).writeRecord(target(adapter.hostname), NEW.A);
        fake.clearFaults();
        expect(outcome).toMatchObject({ ok: false, cause: "unreachable" });
        expect(!outcome.ok && outcome.message).toMatch(words);
        expect(!outcome.ok && outcome.message).toMatch(/^\S/);
        if (adapter.zone) expect(adapter.address(fake, adapter.hostname, "A")).toBe("198.51.100.1");
      });
    }

    const zone = adapter.zone;
    if (zone) {
      test("a name holding several addresses is read as one set and left alone: refused, nothing written", async () => {
        adapter.reset(fake);
        zone.addZone(fake, ZONE);
        if (zone.addSet) zone.addSet(fake, ZONE, `multi.${ZONE}`, "A", SEVERAL, zone.ttl);
        else for (const ip of SEVERAL) zone.addRecord(fake, ZONE, `multi.${ZONE}`, "A", ip, zone.ttl);
        fake.clearRequests();
        const outcome = await build(adapter, fake).writeRecord(target(`multi.${ZONE}`), NEW.A);
        expect(outcome).toMatchObject({ ok: false, cause: "refused" });
        expect(!outcome.ok && outcome.message).toContain(`multi.${ZONE} A holds 2 addresses`);
        expect(fake.requests.filter((request) => adapter.isWrite(request))).toEqual([]);
      });

      const gone = zone.goneZoneId === undefined ? `gone.${ZONE}` : zone.goneZoneId;
      if (gone !== null)
        test("a saved zone id that names no zone any more is looked up afresh, and the record written there", async () => {
          adapter.reset(fake);
          zone.addZone(fake, ZONE);
          const outcome = await build(adapter, fake).writeRecord(target(`new.gone.${ZONE}`, { zone_id: gone }), NEW.A);
          expect(outcome).toMatchObject({ ok: true, action: "created" });
          expect(outcome.ok && outcome.zoneId).not.toBe(gone);
          expect(zone.read(fake, ZONE, `new.gone.${ZONE}`, "A")?.ip).toBe(NEW.A);
        });

      if (description.holdsTxt) txtCases(adapter, zone, () => fake);
      else
        test("it cannot hold TXT: its client offers no writeTxt, so no certificate key is made for its domains", () => {
          expect(build(adapter, fake).writeTxt).toBeUndefined();
        });

      test("a name no zone of the account holds: refused, naming it, nothing written", async () => {
        adapter.reset(fake);
        zone.addZone(fake, ZONE);
        fake.clearRequests();
        const outcome = await build(adapter, fake).writeRecord(target("home.elsewhere.test"), NEW.A);
        expect(outcome).toMatchObject({ ok: false, cause: "refused" });
        expect(!outcome.ok && outcome.message).toContain("holds home.elsewhere.test");
        expect(fake.requests.filter((request) => adapter.isWrite(request))).toEqual([]);
      });
    }

    test("a service that cannot be reached: unreachable, in the service's name, no secret in the words", async () => {
      // Every address the fake would give (the API's, a token or login endpoint's) is the stopped one.
      const url = await stoppedUrl(adapter.start);
      const client = build(
        adapter,
        new Proxy({ url }, { get: (_, key) => (typeof key === "string" && /url$/i.test(key) ? url : undefined) }),
      );
      const outcomes = [
        await client.writeRecord(target(adapter.hostname), NEW.A),
        ...(description.canVerify ? [await client.verify()] : []),
      ];
      for (const outcome of outcomes) {
        expect(outcome.ok).toBe(false);
        const words = "message" in outcome ? outcome.message : outcome.detail;
        expect(words).toMatch(/request failed: /);
        for (const secret of Object.values(adapter.credentials))
          if (secret.length >= 6) expect(words).not.toContain(secret);
      }
      expect(outcomes[0]).toMatchObject({ cause: "unreachable" });
    });
  });
}
