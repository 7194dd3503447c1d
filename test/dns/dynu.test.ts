// The Dynu client (its primitives under the reconciler) against the faithful fake: apex and node
// writes keep every field they do not mean to change, request counts stay small, and every error
// shape ends up as Dynu's own reason with its cause. The policy itself is tested in test/unit/dns/reconcile.test.ts.

import { describe, expect, test } from "bun:test";
import {
  DYNU_FAKE_API_KEY,
  type DynuDomain,
  type DynuFake,
  type DynuFault,
  type DynuRecord,
  startDynuFake,
} from "../fakes/dynu";
import { fails, failureTests, serviceClient, target, useFake, waits, withoutHeld } from "./support";

const OLD_V4 = "198.51.100.1";
const NEW_V4 = "203.0.113.7";
const NEW_V6 = "2a01:4f8::7";

let apex: DynuDomain;
let www: DynuRecord;
function seed(fake: DynuFake) {
  apex = fake.addDomain("example.com", {
    ipv4Address: OLD_V4,
    ipv6Address: "2001:db8::1",
    ipv6: true,
    ttl: 90,
    group: "home",
    ipv4WildcardAlias: true,
  });
  www = fake.addRecord("example.com", {
    nodeName: "www",
    recordType: "A",
    ipv4Address: "198.51.100.2",
    ttl: 600,
    group: "web",
  });
  fake.addRecord("example.com", { nodeName: "www", recordType: "AAAA", ipv6Address: "2001:db8::2", ttl: 600 });
  fake.addRecord("example.com", {
    nodeName: "ftp",
    recordType: "A",
    ipv4Address: "198.51.100.21",
    ttl: 900,
    group: "files",
  });
  fake.addDomain("x.freeddns.org", { ipv4Address: "198.51.100.3", ttl: 60 });
}
const fake = useFake(startDynuFake, seed);
/** The fake a describe uses instead, giving its errors in another style (chosen when it starts). */
const styledFake = (style: { errorShape: "flat" | "nested"; errorsInHttp200?: boolean }) =>
  useFake(() => startDynuFake(style), seed);
const client = (apiKey = DYNU_FAKE_API_KEY, url = fake.url) => serviceClient("dynu", url, { api_key: apiKey });
const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);

test("verify: a good key is accepted and the domains counted", async () => {
  expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted (2 domains)" });
  expect(fake.requests[0]?.headers).toMatchObject({ "api-key": DYNU_FAKE_API_KEY, accept: "application/json" });
  expect(fake.writes()).toBe(0);
});

test("verify: a bad key is refused in every error style: flat or nested, inside HTTP 200 or not", async () => {
  for (const errorShape of ["flat", "nested"] as const) {
    for (const errorsInHttp200 of [false, true]) {
      const styled = startDynuFake({ errorShape, errorsInHttp200 });
      const refused = await client("wrong", styled.url).verify();
      await styled.stop();
      expect(refused).toMatchObject({
        ok: false,
        detail: `Dynu: Authentication Exception: Failed. (status 401${errorsInHttp200 ? ", HTTP 200" : ""})`,
      });
    }
  }
});

describe("the domain itself (apex or DDNS hostname)", () => {
  test("A: sets ipv4Address, keeps IPv6, ttl, group and the rest; sends the name; then the saved ids are used, the address held left, a config ttl written", async () => {
    const id = String(apex.id);
    const outcome = await client().writeRecord(target("example.com"), NEW_V4);
    expect(withoutHeld(outcome)).toEqual({
      ok: true,
      action: "updated",
      externalId: id,
      zoneId: id,
      message: `Dynu record ${id}, the domain's own address, ttl 90`,
    });
    expect(fake.domain("example.com")).toMatchObject({
      ipv4Address: NEW_V4,
      ipv4: true,
      ipv6Address: "2001:db8::1",
      ipv6: true,
      ttl: 90,
      group: "home",
      ipv4WildcardAlias: true,
    });
    expect(fake.requests.at(-1)?.body).toMatchObject({
      name: "example.com",
      ipv4Address: NEW_V4,
      ipv6Address: "2001:db8::1",
    });
    expect(fake.requests.at(-1)?.headers["content-type"]).toBe("application/json");
    // Steady state: the domain its last write saved is read, then sent back.
    expect(
      await client().writeRecord(target("example.com", { zone_id: id }, { externalId: id }), OLD_V4),
    ).toMatchObject({
      ok: true,
      action: "updated",
      externalId: id,
      zoneId: id,
    });
    // The domain id known without a saved id: the listing names the domain, then it is read; the address
    // held is left, but a ttl other than the config's is written even so.
    expect(withoutHeld(await client().writeRecord(target("example.com", { zone_id: id }), OLD_V4))).toEqual({
      ok: true,
      action: "unchanged",
      externalId: id,
      zoneId: id,
      message: `Dynu record ${id}, the domain's own address, ttl 90`,
    });
    const ttl = await client().writeRecord(target("example.com", { zone_id: id, ttl: 300 }), OLD_V4);
    expect(ttl).toMatchObject({ ok: true, action: "updated" });
    expect(requestLines()).toEqual([
      "GET /dns/getroot/example.com",
      `GET /dns/${id}`,
      `POST /dns/${id}`,
      `GET /dns/${id}`,
      `POST /dns/${id}`,
      `GET /dns/${id}/record`,
      `GET /dns/${id}`,
      `GET /dns/${id}/record`,
      `GET /dns/${id}`,
      `POST /dns/${id}`,
    ]);
    expect(fake.domain("example.com")).toMatchObject({ ipv4Address: OLD_V4, ttl: 300, group: "home" });
  });

  test("AAAA: sets ipv6Address and switches IPv6 on, IPv4 untouched; an address held but not published (ipv6 off) is switched on", async () => {
    const ddns = target("x.freeddns.org", {}, { recordType: "AAAA" });
    await client().writeRecord(ddns, NEW_V6);
    expect(fake.domain("x.freeddns.org")).toMatchObject({
      ipv6Address: NEW_V6,
      ipv6: true,
      ipv4Address: "198.51.100.3",
      ipv4: true,
      ttl: 60,
    });
    fake.domain("x.freeddns.org")!.ipv6 = false;
    expect(await client().writeRecord(ddns, NEW_V6)).toMatchObject({ ok: true, action: "updated" });
    expect(fake.domain("x.freeddns.org")).toMatchObject({
      ipv6Address: NEW_V6,
      ipv6: true,
      ipv4Address: "198.51.100.3",
    });
  });
});

describe("a record under a domain", () => {
  test("update keeps ttl, state (even disabled) and group, sending the whole record; then a listing and a POST (a config ttl sent), then only a listing", async () => {
    www.state = false;
    const outcome = await client().writeRecord(target("www.example.com"), NEW_V4);
    expect(withoutHeld(outcome)).toEqual({
      ok: true,
      action: "updated",
      externalId: String(www.id),
      zoneId: String(apex.id),
      message: `Dynu record ${www.id}, ttl 600`,
    });
    expect(fake.requests.at(-1)?.body).toEqual({
      nodeName: "www",
      recordType: "A",
      ipv4Address: NEW_V4,
      ttl: 600,
      state: false,
      group: "web",
    });
    expect(fake.record("www.example.com", "A")).toMatchObject({ ipv4Address: NEW_V4, ttl: 600, state: false });
    expect(fake.domain("example.com")?.ipv4Address).toBe(OLD_V4);
    const known = target("www.example.com", { zone_id: String(apex.id), ttl: 60 }, { externalId: String(www.id) });
    expect((await client().writeRecord(known, OLD_V4)).ok).toBe(true);
    expect(fake.record("www.example.com", "A")).toMatchObject({ ipv4Address: OLD_V4, ttl: 60 });
    expect(withoutHeld(await client().writeRecord(known, OLD_V4))).toEqual({
      ok: true,
      action: "unchanged",
      externalId: String(www.id),
      zoneId: String(apex.id),
      message: `Dynu record ${www.id}, ttl 60`,
    });
    expect(requestLines()).toEqual([
      "GET /dns/getroot/www.example.com",
      `GET /dns/${apex.id}/record`,
      `POST /dns/${apex.id}/record/${www.id}`,
      `GET /dns/${apex.id}/record`,
      `POST /dns/${apex.id}/record/${www.id}`,
      `GET /dns/${apex.id}/record`,
    ]);
  });

  // A node record created with Dynu's default ttl (300): test/updater/forced.test.ts.
  test("a missing record is created with the config's ttl, two labels deep as node a.b", async () => {
    const outcome = await client().writeRecord(target("a.b.example.com", { ttl: 60 }), NEW_V4);
    const created = fake.record("a.b.example.com", "A");
    expect(created).toMatchObject({ nodeName: "a.b", ipv4Address: NEW_V4, ttl: 60, state: true });
    expect(outcome).toMatchObject({
      ok: true,
      action: "created",
      externalId: String(created?.id),
      zoneId: String(apex.id),
      message: `Dynu record ${created?.id}, ttl 60`,
    });
  });

  test("a name with two A records is read as one set and left alone", async () => {
    fake.addRecord("example.com", { nodeName: "www", recordType: "A", ipv4Address: "198.51.100.9", ttl: 600 });
    expect(await client().writeRecord(target("www.example.com"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "refused",
      message: expect.stringContaining("holds 2 addresses"),
    });
    expect(fake.writes()).toBe(0);
  });
});

describe("an external id or zone id naming another domain or record is never written through", () => {
  // The record is always found by name in the domain the listing names.
  const ftp = () => fake.record("ftp.example.com", "A");
  const wwwV6 = () => fake.record("www.example.com", "AAAA");
  const other = () => fake.domain("x.freeddns.org");
  const cases: [string, string, () => { id: number } | undefined, zone: "apex" | "same" | null][] = [
    ["the id of another record of the same domain", "www.example.com", ftp, "apex"],
    ["the id of the same node's AAAA record", "www.example.com", wwwV6, "apex"],
    ["the id of another domain, no zone id", "www.example.com", other, null],
    ["the id of another domain as both external id and zone id, for an apex", "example.com", other, "same"],
    ["the id of another domain as both external id and zone id, for a node record", "www.example.com", other, "same"],
    ["the domain's own id for a node record", "www.example.com", () => fake.domain("example.com"), "same"],
  ];
  for (const [name, hostname, foreign, zone] of cases) {
    test(name, async () => {
      const before = JSON.stringify(foreign());
      const id = String(foreign()!.id);
      const config = zone === null ? {} : { zone_id: zone === "apex" ? String(apex.id) : id };
      const outcome = await client().writeRecord(target(hostname, config, { externalId: id }), NEW_V4);
      expect(outcome).toMatchObject({ ok: true, action: "updated", zoneId: String(apex.id) });
      const written = hostname === "example.com" ? fake.domain(hostname) : fake.record(hostname, "A");
      expect(written?.ipv4Address).toBe(NEW_V4);
      expect(JSON.stringify(foreign())).toBe(before);
      expect(fake.writes()).toBe(1);
    });
  }
});

test("an unknown hostname (501) is a failure with Dynu's reason", async () => {
  expect(await client().writeRecord(target("host.unknown.net"), NEW_V4)).toEqual({
    ok: false,
    cause: "refused",
    message:
      "Dynu: Argument Exception: Invalid hostname. (status 501) — no domain of this account holds host.unknown.net",
  });
});

test("a stale zone_id that names no domain (501) is rediscovered once", async () => {
  const outcome = await client().writeRecord(
    target("www.example.com", { zone_id: "424242" }, { externalId: String(www.id) }),
    NEW_V4,
  );
  expect(outcome).toMatchObject({ ok: true, externalId: String(www.id), zoneId: String(apex.id) });
  expect(fake.record("www.example.com", "A")?.ipv4Address).toBe(NEW_V4);
  expect(fake.requests.filter((r) => r.path.startsWith("/dns/getroot/"))).toHaveLength(1);
});

describe("failures keep Dynu's reason, say their cause and leave the records alone", () => {
  // Dynu's quota answer names no wait unless a Retry-After comes: the updater decides the pause.
  const quota = "Dynu: Quota Exception: Too many requests.";
  for (const errorShape of ["flat", "nested"] as const) {
    describe(`errors ${errorShape}`, () => {
      const styled = styledFake({ errorShape });
      failureTests(
        [
          fails({ status: 429, retryAfter: 9 }, `${quota} (status 429)`, "throttled", waits(9)),
          fails({ status: 503, retryAfter: 120 }, `${quota} (status 503)`, "throttled", waits(120)),
          fails({ status: 503 }, `${quota} (status 503)`, "throttled"),
          fails({ status: 503, inHttp200: true }, `${quota} (status 503, HTTP 200)`, "throttled"),
          fails(
            { status: 503, type: "Server Exception", message: "Maintenance." },
            "Dynu: Server Exception: Maintenance. (status 503)",
            "unreachable",
          ),
          fails(
            { status: 505, message: "Invalid TTL.", inHttp200: true },
            "Dynu: Validation Exception: Invalid TTL. (status 505, HTTP 200)",
            "refused",
          ),
        ],
        ({ arrange }: { arrange: DynuFault }) => {
          styled.fault(arrange);
          return client(DYNU_FAKE_API_KEY, styled.url).writeRecord(target("www.example.com"), NEW_V4);
        },
        () => {
          expect(styled.requests).toHaveLength(1);
          expect(styled.record("www.example.com", "A")).toMatchObject({ ipv4Address: "198.51.100.2", ttl: 600 });
        },
      );
    });
  }

  // An unreadable answer, and a failed final POST (on the domain, or inside HTTP 200 on a node record).
  failureTests(
    [
      fails({ fault: "html" as const }, /^Dynu: unreadable answer \(HTTP 502\): "<!DOCTYPE html>/, "unreachable"),
      fails(
        { fault: { status: 500 }, onPost: true, hostname: "example.com" },
        "Dynu: Server Exception: An error occurred. (status 500)",
        "unreachable",
      ),
      fails(
        { fault: { status: 501, message: "Invalid record.", inHttp200: true }, onPost: true },
        "Dynu: Argument Exception: Invalid record. (status 501, HTTP 200)",
        "refused",
      ),
    ],
    ({ arrange }: { arrange: { fault: DynuFault; onPost?: boolean; hostname?: string } }) => {
      if (arrange.onPost) fake.fault(arrange.fault, 1, (r) => r.method === "POST");
      else fake.fault(arrange.fault);
      return client().writeRecord(target(arrange.hostname ?? "www.example.com"), NEW_V4);
    },
    () => {
      expect(fake.domain("example.com")?.ipv4Address).toBe(OLD_V4);
      expect(fake.record("www.example.com", "A")?.ipv4Address).toBe("198.51.100.2");
    },
  );
});
