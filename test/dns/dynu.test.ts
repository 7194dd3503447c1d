// The Dynu client (its primitives under the reconciler) against the faithful fake: apex and node
// writes keep every field they do not mean to change, request counts stay small, and every error
// shape ends up as Dynu's own reason with its cause. The policy itself is tested in test/unit/dns/reconcile.test.ts.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { RecordConfig, RecordTarget } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createDynuApi } from "../../src/dns/services/dynu";
import {
  DYNU_FAKE_API_KEY,
  type DynuDomain,
  type DynuFake,
  type DynuFault,
  type DynuRecord,
  startDynuFake,
} from "../fakes/dynu";

const NEW_V4 = "203.0.113.7";
const NEW_V6 = "2a01:4f8::7";

let fake: DynuFake;
let apex: DynuDomain;
let www: DynuRecord;

beforeEach(() => {
  fake = startDynuFake();
  apex = fake.addDomain("example.com", {
    ipv4Address: "198.51.100.1",
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
  fake.addDomain("x.freeddns.org", { ipv4Address: "198.51.100.3", ttl: 60 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { apiKey?: string; timeoutMs?: number } = {}) {
  return zoneClient(
    createDynuApi(
      { api_key: options.apiKey ?? DYNU_FAKE_API_KEY },
      { baseUrl: fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd-test" },
    ),
  );
}

function target(hostname: string, fields: Partial<RecordTarget> = {}, config: RecordConfig = {}): RecordTarget {
  return { hostname, recordType: "A", externalId: null, config, ...fields };
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);

describe("verify", () => {
  test("a good key is accepted and the domains counted", async () => {
    expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted (2 domains)" });
    expect(fake.requests[0]?.headers).toMatchObject({ "api-key": DYNU_FAKE_API_KEY, accept: "application/json" });
    expect(fake.writes()).toBe(0);
  });

  const shapes: { name: string; errorShape: "flat" | "nested"; errorsInHttp200?: boolean; detail: string }[] = [
    { name: "flat", errorShape: "flat", detail: "Dynu: Authentication Exception: Failed. (status 401)" },
    {
      name: "nested under exception",
      errorShape: "nested",
      detail: "Dynu: Authentication Exception: Failed. (status 401)",
    },
    {
      name: "inside HTTP 200",
      errorShape: "flat",
      errorsInHttp200: true,
      detail: "Dynu: Authentication Exception: Failed. (status 401, HTTP 200)",
    },
    {
      name: "nested inside HTTP 200",
      errorShape: "nested",
      errorsInHttp200: true,
      detail: "Dynu: Authentication Exception: Failed. (status 401, HTTP 200)",
    },
  ];
  for (const { name, errorShape, errorsInHttp200, detail } of shapes) {
    test(`a bad key is refused, error ${name}`, async () => {
      fake.errorShape = errorShape;
      fake.errorsInHttp200 = errorsInHttp200 ?? false;
      expect(await client({ apiKey: "wrong" }).verify()).toMatchObject({ ok: false, detail });
    });
  }
});

describe("the domain itself (apex or DDNS hostname)", () => {
  test("A: sets ipv4Address, keeps IPv6, ttl, group and the rest; sends the name", async () => {
    const outcome = await client().writeRecord(target("example.com"), NEW_V4);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: String(apex.id),
      zoneId: String(apex.id),
      message: `Dynu record ${apex.id}, the domain's own address, ttl 90`,
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
    expect(requestLines()).toEqual(["GET /dns/getroot/example.com", `GET /dns/${apex.id}`, `POST /dns/${apex.id}`]);
    expect(fake.requests.at(-1)?.body).toMatchObject({
      name: "example.com",
      ipv4Address: NEW_V4,
      ipv6Address: "2001:db8::1",
    });
    expect(fake.requests.at(-1)?.headers["content-type"]).toBe("application/json");
  });

  test("AAAA: sets ipv6Address and switches IPv6 on, IPv4 untouched", async () => {
    const ddns = fake.domain("x.freeddns.org");
    await client().writeRecord(target("x.freeddns.org", { recordType: "AAAA" }), NEW_V6);
    expect(fake.domain("x.freeddns.org")).toMatchObject({
      ipv6Address: NEW_V6,
      ipv6: true,
      ipv4Address: "198.51.100.3",
      ipv4: true,
      ttl: 60,
    });
    expect(ddns?.ipv6Address).toBe(NEW_V6);
  });

  test("ttl from config replaces the domain's ttl", async () => {
    await client().writeRecord(target("example.com", {}, { ttl: 300 }), NEW_V4);
    expect(fake.domain("example.com")?.ttl).toBe(300);
  });

  test("domain id known (steady state): the domain its last write saved is read, then sent back", async () => {
    const id = String(apex.id);
    const outcome = await client().writeRecord(target("example.com", { externalId: id }, { zone_id: id }), NEW_V4);
    expect(outcome).toMatchObject({ ok: true, action: "updated", externalId: id, zoneId: id });
    expect(requestLines()).toEqual([`GET /dns/${id}`, `POST /dns/${id}`]);
    expect(fake.domain("example.com")?.ipv4Address).toBe(NEW_V4);
  });

  test("a saved domain id whose domain no longer has this name is only a hint: the listing decides", async () => {
    const id = String(apex.id);
    const outcome = await client().writeRecord(target("www.example.com", { externalId: id }, { zone_id: id }), NEW_V4);
    expect(outcome).toMatchObject({ ok: true, zoneId: id });
    expect(requestLines().slice(0, 2)).toEqual([`GET /dns/${id}`, `GET /dns/${id}/record`]);
    expect(fake.domain("example.com")?.ipv4Address).toBe("198.51.100.1");
  });

  test("domain id known without a saved id: the listing names the domain, then the domain is read and sent back", async () => {
    const id = String(apex.id);
    const outcome = await client().writeRecord(target("example.com", {}, { zone_id: id }), NEW_V4);
    expect(outcome).toMatchObject({ ok: true, action: "updated", externalId: id, zoneId: id });
    expect(requestLines()).toEqual([`GET /dns/${id}/record`, `GET /dns/${id}`, `POST /dns/${id}`]);
    expect(fake.domain("example.com")?.ipv4Address).toBe(NEW_V4);
  });

  test("the domain already holding the address is read, never written", async () => {
    const id = String(apex.id);
    const outcome = await client().writeRecord(target("example.com", {}, { zone_id: id }), "198.51.100.1");
    expect(outcome).toEqual({
      ok: true,
      action: "unchanged",
      externalId: id,
      zoneId: id,
      message: `Dynu record ${id}, the domain's own address, ttl 90`,
    });
    expect(fake.writes()).toBe(0);
  });

  test("IPv6 is compared as an address: another spelling of the same one is not written", async () => {
    const outcome = await client().writeRecord(target("example.com", { recordType: "AAAA" }), "2001:0DB8:0:0::1");
    expect(outcome).toMatchObject({ ok: true, action: "unchanged" });
    expect(fake.writes()).toBe(0);
  });

  test("an address held but not published (ipv6 off) is switched on", async () => {
    const ddns = fake.domain("x.freeddns.org")!;
    Object.assign(ddns, { ipv6Address: NEW_V6, ipv6: false });
    const outcome = await client().writeRecord(target("x.freeddns.org", { recordType: "AAAA" }), NEW_V6);
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(fake.domain("x.freeddns.org")).toMatchObject({
      ipv6Address: NEW_V6,
      ipv6: true,
      ipv4Address: "198.51.100.3",
    });
  });

  test("a ttl other than the config's is written even when the address is held", async () => {
    const outcome = await client().writeRecord(target("example.com", {}, { ttl: 300 }), "198.51.100.1");
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(fake.domain("example.com")).toMatchObject({ ttl: 300, ipv6Address: "2001:db8::1", group: "home" });
  });
});

describe("a record under a domain", () => {
  test("update keeps ttl, state and group, and sends the whole record", async () => {
    const outcome = await client().writeRecord(target("www.example.com"), NEW_V4);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: String(www.id),
      zoneId: String(apex.id),
      message: `Dynu record ${www.id}, ttl 600`,
    });
    expect(fake.record("www.example.com", "A")).toMatchObject({
      ipv4Address: NEW_V4,
      ttl: 600,
      state: true,
      group: "web",
    });
    expect(fake.requests.at(-1)?.body).toEqual({
      nodeName: "www",
      recordType: "A",
      ipv4Address: NEW_V4,
      ttl: 600,
      state: true,
      group: "web",
    });
    expect(requestLines()).toEqual([
      "GET /dns/getroot/www.example.com",
      `GET /dns/${apex.id}/record`,
      `POST /dns/${apex.id}/record/${www.id}`,
    ]);
    expect(fake.domain("example.com")?.ipv4Address).toBe("198.51.100.1");
  });

  test("a disabled record stays disabled", async () => {
    www.state = false;
    await client().writeRecord(target("www.example.com"), NEW_V4);
    expect(fake.record("www.example.com", "A")).toMatchObject({ ipv4Address: NEW_V4, state: false });
  });

  test("ttl from config replaces the record's ttl", async () => {
    await client().writeRecord(target("www.example.com", {}, { ttl: 60 }), NEW_V4);
    expect(fake.record("www.example.com", "A")?.ttl).toBe(60);
  });

  test("steady state (domain id known) is two requests: the listing, then one POST", async () => {
    const outcome = await client().writeRecord(
      target("www.example.com", { externalId: String(www.id) }, { zone_id: String(apex.id) }),
      NEW_V4,
    );
    expect(outcome.ok).toBe(true);
    expect(requestLines()).toEqual([`GET /dns/${apex.id}/record`, `POST /dns/${apex.id}/record/${www.id}`]);
  });

  test("a record already holding the address is read, never written", async () => {
    const outcome = await client().writeRecord(
      target("www.example.com", {}, { zone_id: String(apex.id) }),
      "198.51.100.2",
    );
    expect(outcome).toEqual({
      ok: true,
      action: "unchanged",
      externalId: String(www.id),
      zoneId: String(apex.id),
      message: `Dynu record ${www.id}, ttl 600`,
    });
    expect(requestLines()).toEqual([`GET /dns/${apex.id}/record`]);
  });

  test("a name with two A records is left alone", async () => {
    fake.addRecord("example.com", { nodeName: "www", recordType: "A", ipv4Address: "198.51.100.9", ttl: 600 });
    const outcome = await client().writeRecord(target("www.example.com"), NEW_V4);
    expect(outcome).toMatchObject({
      ok: false,
      cause: "refused",
      message: expect.stringContaining("holds 2 addresses"),
    });
    expect(fake.writes()).toBe(0);
  });

  const createCases: {
    name: string;
    hostname: string;
    recordType: "A" | "AAAA";
    ip: string;
    config: RecordConfig;
    expected: Partial<DynuRecord>;
  }[] = [
    {
      name: "A with the default ttl",
      hostname: "new.example.com",
      recordType: "A",
      ip: NEW_V4,
      config: {},
      expected: { ipv4Address: NEW_V4, ttl: 300, state: true },
    },
    {
      name: "A with ttl from config",
      hostname: "new.example.com",
      recordType: "A",
      ip: NEW_V4,
      config: { ttl: 60 },
      expected: { ttl: 60 },
    },
    {
      name: "AAAA beside an existing A",
      hostname: "www.example.com",
      recordType: "AAAA",
      ip: NEW_V6,
      config: {},
      expected: { ipv6Address: NEW_V6 },
    },
    {
      name: "two labels deep",
      hostname: "a.b.example.com",
      recordType: "A",
      ip: NEW_V4,
      config: {},
      expected: { nodeName: "a.b" },
    },
  ];
  for (const { name, hostname, recordType, ip, config, expected } of createCases) {
    test(`a missing record is created: ${name}`, async () => {
      const outcome = await client().writeRecord(target(hostname, { recordType }, config), ip);
      const created = fake.record(hostname, recordType);
      expect(created).toMatchObject(expected);
      expect(outcome).toMatchObject({
        ok: true,
        action: "created",
        externalId: String(created?.id),
        zoneId: String(apex.id),
        message: `Dynu record ${created?.id}, ttl ${created?.ttl}`,
      });
    });
  }

  test("the existing A record is untouched when an AAAA is created beside it", async () => {
    await client().writeRecord(target("www.example.com", { recordType: "AAAA" }), NEW_V6);
    expect(fake.record("www.example.com", "A")).toMatchObject({ ipv4Address: "198.51.100.2", ttl: 600 });
  });

  test("create_if_missing false refuses and writes nothing", async () => {
    const outcome = await client().writeRecord(target("new.example.com", {}, { create_if_missing: false }), NEW_V4);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "Dynu: record new.example.com A does not exist and create_if_missing is false",
    });
    expect(fake.writes()).toBe(0);
  });
});

describe("an external id or zone id naming another domain or record is never written through", () => {
  // The record is always found by name in the domain the listing names, so trusted or not makes no difference.
  const cases: {
    name: string;
    hostname: string;
    /** The object the ids point at, which must stay byte-identical. */
    foreign: () => unknown;
    ids: () => { externalId: string; zoneId?: string };
    /** The right object, after the write. */
    written: () => string | undefined;
  }[] = [
    {
      name: "the id of another record of the same domain",
      hostname: "www.example.com",
      foreign: () => fake.record("ftp.example.com", "A"),
      ids: () => ({ externalId: String(fake.record("ftp.example.com", "A")!.id), zoneId: String(apex.id) }),
      written: () => fake.record("www.example.com", "A")?.ipv4Address,
    },
    {
      name: "the id of the same node's AAAA record",
      hostname: "www.example.com",
      foreign: () => fake.record("www.example.com", "AAAA"),
      ids: () => ({ externalId: String(fake.record("www.example.com", "AAAA")!.id), zoneId: String(apex.id) }),
      written: () => fake.record("www.example.com", "A")?.ipv4Address,
    },
    {
      name: "the id of another domain, no zone id",
      hostname: "www.example.com",
      foreign: () => fake.domain("x.freeddns.org"),
      ids: () => ({ externalId: String(fake.domain("x.freeddns.org")!.id) }),
      written: () => fake.record("www.example.com", "A")?.ipv4Address,
    },
    {
      name: "the id of another domain as both external id and zone id, for an apex",
      hostname: "example.com",
      foreign: () => fake.domain("x.freeddns.org"),
      ids: () => {
        const id = String(fake.domain("x.freeddns.org")!.id);
        return { externalId: id, zoneId: id };
      },
      written: () => fake.domain("example.com")?.ipv4Address,
    },
    {
      name: "the id of another domain as both external id and zone id, for a node record",
      hostname: "www.example.com",
      foreign: () => fake.domain("x.freeddns.org"),
      ids: () => {
        const id = String(fake.domain("x.freeddns.org")!.id);
        return { externalId: id, zoneId: id };
      },
      written: () => fake.record("www.example.com", "A")?.ipv4Address,
    },
    {
      name: "the domain's own id for a node record",
      hostname: "www.example.com",
      foreign: () => fake.domain("example.com"),
      ids: () => ({ externalId: String(apex.id), zoneId: String(apex.id) }),
      written: () => fake.record("www.example.com", "A")?.ipv4Address,
    },
  ];
  for (const c of cases) {
    for (const trusted of [false, true]) {
      test(`${c.name} (${trusted ? "trusted" : "untrusted"})`, async () => {
        fake.addRecord("example.com", {
          nodeName: "ftp",
          recordType: "A",
          ipv4Address: "198.51.100.21",
          ttl: 900,
          group: "files",
        });
        fake.addRecord("example.com", { nodeName: "www", recordType: "AAAA", ipv6Address: "2001:db8::2", ttl: 600 });
        const before = JSON.stringify(c.foreign());
        const { externalId, zoneId } = c.ids();
        const outcome = await client().writeRecord(
          target(c.hostname, { externalId }, zoneId === undefined ? {} : { zone_id: zoneId }),
          NEW_V4,
        );
        expect(outcome).toMatchObject({ ok: true, action: "updated", zoneId: String(apex.id) });
        expect(c.written()).toBe(NEW_V4);
        expect(JSON.stringify(c.foreign())).toBe(before);
        expect(fake.writes()).toBe(1);
      });
    }
  }
});

describe("domain lookup", () => {
  test("an unknown hostname (501) is a failure with Dynu's reason", async () => {
    const outcome = await client().writeRecord(target("host.unknown.net"), NEW_V4);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message:
        "Dynu: Argument Exception: Invalid hostname. (status 501) — no domain of this account holds host.unknown.net",
    });
  });

  const staleCases: { name: string; zoneId: () => string }[] = [
    { name: "an id that names no domain (501)", zoneId: () => "424242" },
    { name: "the id of another domain", zoneId: () => String(fake.domain("x.freeddns.org")?.id) },
  ];
  for (const { name, zoneId } of staleCases) {
    test(`a stale zone_id is rediscovered once: ${name}`, async () => {
      const outcome = await client().writeRecord(
        target("www.example.com", { externalId: String(www.id) }, { zone_id: zoneId() }),
        NEW_V4,
      );
      expect(outcome).toMatchObject({ ok: true, externalId: String(www.id), zoneId: String(apex.id) });
      expect(fake.record("www.example.com", "A")?.ipv4Address).toBe(NEW_V4);
      expect(fake.requests.filter((r) => r.path.startsWith("/dns/getroot/"))).toHaveLength(1);
    });
  }
});

describe("failures keep Dynu's reason, say their cause and leave the records alone", () => {
  const faultCases: {
    name: string;
    fault: DynuFault | "timeout";
    message: string | RegExp;
    cause: string;
    retryAfterSeconds?: number;
  }[] = [
    {
      name: "429 with retry-after",
      fault: { status: 429, retryAfter: 9 },
      message: "Dynu: Quota Exception: Too many requests. (status 429)",
      cause: "throttled",
      retryAfterSeconds: 9,
    },
    {
      name: "503 quota with retry-after",
      fault: { status: 503, retryAfter: 120 },
      message: "Dynu: Quota Exception: Too many requests. (status 503)",
      cause: "throttled",
      retryAfterSeconds: 120,
    },
    // Dynu's quota answer names no wait: the updater decides the pause, the client invents none.
    {
      name: "503 quota without retry-after",
      fault: { status: 503 },
      message: "Dynu: Quota Exception: Too many requests. (status 503)",
      cause: "throttled",
    },
    {
      name: "503 quota inside HTTP 200",
      fault: { status: 503, inHttp200: true },
      message: "Dynu: Quota Exception: Too many requests. (status 503, HTTP 200)",
      cause: "throttled",
    },
    {
      name: "503 that is not the quota",
      fault: { status: 503, type: "Server Exception", message: "Maintenance." },
      message: "Dynu: Server Exception: Maintenance. (status 503)",
      cause: "unreachable",
    },
    {
      name: "500",
      fault: { status: 500 },
      message: "Dynu: Server Exception: An error occurred. (status 500)",
      cause: "unreachable",
    },
    {
      name: "an error inside HTTP 200",
      fault: { status: 505, message: "Invalid TTL.", inHttp200: true },
      message: "Dynu: Validation Exception: Invalid TTL. (status 505, HTTP 200)",
      cause: "refused",
    },
    {
      name: "a refused key",
      fault: { status: 401, message: "Failed." },
      message: "Dynu: Authentication Exception: Failed. (status 401)",
      cause: "credentials",
    },
    {
      name: "malformed JSON",
      fault: "malformed",
      message: /^Dynu: unreadable answer \(HTTP 200\): "\{/,
      cause: "unreachable",
    },
    {
      name: "502 HTML page",
      fault: "html",
      message: /^Dynu: unreadable answer \(HTTP 502\): "<!DOCTYPE html>/,
      cause: "unreachable",
    },
    { name: "timeout", fault: "timeout", message: "Dynu: no answer within 1s", cause: "unreachable" },
  ];
  for (const { name, fault, message, cause, retryAfterSeconds } of faultCases) {
    for (const errorShape of ["flat", "nested"] as const) {
      test(`${name} (${errorShape})`, async () => {
        fake.errorShape = errorShape;
        fake.fault(fault);
        const outcome = await client({ timeoutMs: 1000 }).writeRecord(target("www.example.com"), NEW_V4);
        expect(outcome.ok).toBe(false);
        if (outcome.ok) return;
        expect(outcome.message).toMatch(message);
        expect(outcome.cause).toBe(cause as never);
        expect(outcome.retryAfterSeconds).toBe(retryAfterSeconds);
        expect(fake.requests).toHaveLength(1);
        expect(fake.record("www.example.com", "A")).toMatchObject({ ipv4Address: "198.51.100.2", ttl: 600 });
      });
    }
  }

  test("a failing final POST is reported and nothing changes", async () => {
    fake.fault({ status: 500 }, 1, (r) => r.method === "POST");
    const outcome = await client().writeRecord(target("example.com"), NEW_V4);
    expect(outcome).toEqual({
      ok: false,
      cause: "unreachable",
      message: "Dynu: Server Exception: An error occurred. (status 500)",
    });
    expect(fake.domain("example.com")?.ipv4Address).toBe("198.51.100.1");
  });

  test("an error inside HTTP 200 on the write is not taken for success", async () => {
    fake.fault({ status: 501, message: "Invalid record.", inHttp200: true }, 1, (r) => r.method === "POST");
    const outcome = await client().writeRecord(target("www.example.com"), NEW_V4);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "Dynu: Argument Exception: Invalid record. (status 501, HTTP 200)",
    });
  });
});
