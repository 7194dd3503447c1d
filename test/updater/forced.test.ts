// POST /domains/{id}/update_ip and POST /providers/{id}/verify through the real app against the
// fakes: what each provider's record looks like afterwards, the answer (docs/api.md, domains), the history
// row and the domain's new state.

import { beforeEach, describe, expect, test } from "bun:test";
import { ISO_UTC } from "../api/helpers";
import { ECHO_DEFAULT_IPV4, ECHO_DEFAULT_IPV6 } from "../fakes/echo";
import {
  addDomain,
  addProvider,
  domainState,
  expectIntervalRun,
  forceUpdate,
  getDomain,
  historyOf,
  NEXT_IPV4,
  OLD_IPV4,
  OLD_IPV6,
  type Rig,
  useRig,
} from "./harness";

const current = useRig();
let rig: Rig;
beforeEach(() => {
  rig = current();
});

const STALE_ID = "0123456789abcdef0123456789abcdef";
/** A record the domain must never write, serialised when a case sets it up. */
let otherSnapshot = "";

interface WriteCase {
  name: string;
  provider: "cloudflare" | "dynu";
  hostname: string;
  recordType: "A" | "AAAA";
  /** Puts the starting state in the fake; returns extra fields for the domain's create body. */
  setup(rig: Rig): Record<string, unknown> | void;
  /** The fake's state after the write, for the detected address `ip`. */
  verify(rig: Rig, ip: string): void;
  /** Provider requests the first write takes. */
  requests: number;
  /** Of those, POST/PATCH requests (default 1). */
  writes?: number;
  created?: boolean;
}

const cases: WriteCase[] = [
  {
    name: "Cloudflare: existing A record, proxied, ttl and comment kept",
    provider: "cloudflare",
    hostname: "home.example.com",
    recordType: "A",
    setup({ cf }) {
      cf.addZone("example.com");
      cf.addRecord("example.com", {
        type: "A",
        name: "home",
        content: OLD_IPV4,
        proxied: true,
        ttl: 300,
        comment: "keep me",
      });
    },
    verify({ cf }, ip) {
      expect(cf.record("home.example.com", "A")).toMatchObject({
        content: ip,
        proxied: true,
        ttl: 300,
        comment: "keep me",
      });
    },
    requests: 4, // zone lookup (host, then parent), record lookup, PATCH
  },
  {
    name: "Cloudflare: existing AAAA record",
    provider: "cloudflare",
    hostname: "v6.example.com",
    recordType: "AAAA",
    setup({ cf }) {
      cf.addZone("example.com");
      cf.addRecord("example.com", { type: "AAAA", name: "v6", content: OLD_IPV6 });
      cf.addRecord("example.com", { type: "A", name: "v6", content: OLD_IPV4 });
    },
    verify({ cf }, ip) {
      expect(cf.record("v6.example.com", "AAAA")?.content).toBe(ip);
      expect(cf.record("v6.example.com", "A")?.content).toBe(OLD_IPV4);
    },
    requests: 4,
  },
  {
    name: "Cloudflare: missing record is created (not proxied, automatic ttl)",
    provider: "cloudflare",
    hostname: "new.example.com",
    recordType: "A",
    setup({ cf }) {
      cf.addZone("example.com");
    },
    verify({ cf }, ip) {
      expect(cf.record("new.example.com", "A")).toMatchObject({ content: ip, proxied: false, ttl: 1 });
    },
    requests: 4, // two zone lookups, record lookup, POST
    created: true,
  },
  {
    name: "Cloudflare: stale record id is looked up again by name",
    provider: "cloudflare",
    hostname: "home.example.com",
    recordType: "A",
    setup({ cf }) {
      const zone = cf.addZone("example.com");
      cf.addRecord("example.com", { type: "A", name: "home", content: OLD_IPV4, proxied: true });
      return { external_id: STALE_ID, config: { zone_id: zone.id } };
    },
    verify({ cf }, ip) {
      expect(cf.record("home.example.com", "A")).toMatchObject({ content: ip, proxied: true });
      expect(cf.records.size).toBe(1);
    },
    requests: 2, // the typed-in id is not followed: record lookup by name, PATCH
  },
  {
    name: "Cloudflare: a typed-in record id of another record is never written; the right one is",
    provider: "cloudflare",
    hostname: "home.example.com",
    recordType: "A",
    setup({ cf }) {
      const zone = cf.addZone("example.com");
      cf.addRecord("example.com", { type: "A", name: "home", content: OLD_IPV4 });
      const other = cf.addRecord("example.com", {
        type: "A",
        name: "other",
        content: OLD_IPV4,
        ttl: 120,
        comment: "not mine",
      });
      otherSnapshot = JSON.stringify(other);
      return { external_id: other.id, config: { zone_id: zone.id } };
    },
    verify({ cf }, ip) {
      expect(cf.record("home.example.com", "A")?.content).toBe(ip);
      expect(JSON.stringify(cf.record("other.example.com", "A"))).toBe(otherSnapshot);
    },
    requests: 2, // the typed-in id is not followed: record lookup by name, PATCH
  },
  {
    name: "Cloudflare: stale zone id is rediscovered",
    provider: "cloudflare",
    hostname: "home.example.com",
    recordType: "A",
    setup({ cf }) {
      cf.addZone("example.com");
      cf.addRecord("example.com", { type: "A", name: "home", content: OLD_IPV4 });
      return { config: { zone_id: STALE_ID } };
    },
    verify({ cf }, ip) {
      expect(cf.record("home.example.com", "A")?.content).toBe(ip);
    },
    requests: 5, // record lookup (7003), two zone lookups, record lookup, PATCH
  },
  {
    name: "Dynu: apex A, IPv6 address, ttl and group untouched",
    provider: "dynu",
    hostname: "example.org",
    recordType: "A",
    setup({ dynu }) {
      dynu.addDomain("example.org", {
        ipv4Address: OLD_IPV4,
        ipv6Address: OLD_IPV6,
        ipv6: true,
        ttl: 90,
        group: "home",
      });
    },
    verify({ dynu }, ip) {
      expect(dynu.domain("example.org")).toMatchObject({
        ipv4Address: ip,
        ipv6Address: OLD_IPV6,
        ipv4: true,
        ipv6: true,
        ttl: 90,
        group: "home",
      });
    },
    requests: 3, // getroot, GET /dns/{id}, POST /dns/{id}
  },
  {
    name: "Dynu: apex AAAA, IPv4 address untouched",
    provider: "dynu",
    hostname: "example.org",
    recordType: "AAAA",
    setup({ dynu }) {
      dynu.addDomain("example.org", { ipv4Address: OLD_IPV4, ipv6Address: OLD_IPV6, ipv6: true, ttl: 90 });
    },
    verify({ dynu }, ip) {
      expect(dynu.domain("example.org")).toMatchObject({
        ipv4Address: OLD_IPV4,
        ipv6Address: ip,
        ipv4: true,
        ipv6: true,
        ttl: 90,
      });
    },
    requests: 3,
  },
  {
    name: "Dynu: DDNS hostname (its own domain)",
    provider: "dynu",
    hostname: "x.freeddns.org",
    recordType: "A",
    setup({ dynu }) {
      dynu.addDomain("x.freeddns.org", { ipv4Address: OLD_IPV4, ttl: 60 });
    },
    verify({ dynu }, ip) {
      expect(dynu.domain("x.freeddns.org")).toMatchObject({ ipv4Address: ip, ttl: 60 });
    },
    requests: 3,
  },
  {
    name: "Dynu: node record A, ttl and group kept, AAAA of the node untouched",
    provider: "dynu",
    hostname: "www.example.org",
    recordType: "A",
    setup({ dynu }) {
      dynu.addDomain("example.org", { ipv4Address: OLD_IPV4 });
      dynu.addRecord("example.org", {
        nodeName: "www",
        recordType: "A",
        ipv4Address: OLD_IPV4,
        ttl: 600,
        group: "web",
      });
      dynu.addRecord("example.org", { nodeName: "www", recordType: "AAAA", ipv6Address: OLD_IPV6, ttl: 600 });
    },
    verify({ dynu }, ip) {
      expect(dynu.record("www.example.org", "A")).toMatchObject({
        ipv4Address: ip,
        ttl: 600,
        group: "web",
        state: true,
      });
      expect(dynu.record("www.example.org", "AAAA")).toMatchObject({ ipv6Address: OLD_IPV6, ttl: 600 });
      expect(dynu.domain("example.org")?.ipv4Address).toBe(OLD_IPV4);
    },
    requests: 3, // getroot, GET /dns/{id}/record, POST /dns/{id}/record/{rid}
  },
  {
    name: "Dynu: node record AAAA",
    provider: "dynu",
    hostname: "v6.example.org",
    recordType: "AAAA",
    setup({ dynu }) {
      dynu.addDomain("example.org");
      dynu.addRecord("example.org", { nodeName: "v6", recordType: "AAAA", ipv6Address: OLD_IPV6, ttl: 300 });
    },
    verify({ dynu }, ip) {
      expect(dynu.record("v6.example.org", "AAAA")).toMatchObject({ ipv6Address: ip, ttl: 300 });
    },
    requests: 3,
  },
  {
    name: "Dynu: missing node record is created",
    provider: "dynu",
    hostname: "new.example.org",
    recordType: "A",
    setup({ dynu }) {
      dynu.addDomain("example.org");
    },
    verify({ dynu }, ip) {
      expect(dynu.record("new.example.org", "A")).toMatchObject({ ipv4Address: ip, ttl: 300, state: true });
    },
    requests: 3, // getroot, listing, POST /dns/{id}/record
    created: true,
  },
];

describe("a forced update writes the record and answers as docs/api.md, domains says", () => {
  for (const c of cases) {
    test(c.name, async () => {
      const extra = c.setup(rig) ?? {};
      const provider = await addProvider(rig.t, c.provider);
      const domain = await addDomain(rig.t, provider.id, c.hostname, { record_type: c.recordType, ...extra });
      const fake = c.provider === "cloudflare" ? rig.cf : rig.dynu;
      const ip = c.recordType === "A" ? ECHO_DEFAULT_IPV4 : ECHO_DEFAULT_IPV6;
      const before = Date.now();
      // What the record held before ddnsd first wrote it (every existing record starts at the OLD address).
      const held = c.created ? null : c.recordType === "A" ? OLD_IPV4 : OLD_IPV6;

      const first = await forceUpdate(rig.t, domain.id);
      expect(first.status).toBe(200);
      expect(Object.keys(first.body).sort()).toEqual([
        "changed",
        "domain_id",
        "duration_ms",
        "history_id",
        "ip_address",
        "message",
        "previous_ip",
        "success",
      ]);
      expect(first.body).toMatchObject({
        domain_id: domain.id,
        success: true,
        ip_address: ip,
        previous_ip: held,
        changed: true,
      });
      // One sentence: the updater's part, then only what the provider adds (never the name twice).
      expect(first.body.message).toStartWith(
        `${c.created ? "Created" : "Updated"} ${c.hostname} ${c.recordType} → ${ip}; ${c.provider === "cloudflare" ? "Cloudflare record" : "Dynu "}`,
      );
      expect(first.body.message.split(c.hostname)).toHaveLength(2);
      expect(first.body.message.split(ip)).toHaveLength(2);
      expect(first.body.duration_ms).toBeGreaterThanOrEqual(0);
      c.verify(rig, ip);
      expect(fake.requests).toHaveLength(c.requests);
      expect(fake.writes()).toBe(c.writes ?? 1);
      // Detection asked the echo service of the record's family only, once.
      expect(rig.echo.requests.map((r) => r.path)).toEqual([c.recordType === "A" ? "/v4" : "/v6"]);

      const rows = await historyOf(rig.t, domain.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        id: first.body.history_id,
        domain_id: domain.id,
        ip_address: ip,
        previous_ip: held,
        status: "SUCCESS",
        trigger: "manual",
        message: first.body.message,
        duration_ms: first.body.duration_ms,
      });
      expect(rows[0].timestamp).toMatch(ISO_UTC);

      const after = await getDomain(rig.t, domain.id);
      expect(after).toMatchObject({ last_known_ip: ip, last_update_status: "SUCCESS" });
      expect(after.last_checked_at).toMatch(ISO_UTC);
      expect(after.last_changed_at).toMatch(ISO_UTC);
      expect(after.external_id).toEqual(expect.any(String));
      expect(after.external_id).not.toBe(STALE_ID);
      expect(after.config.zone_id).toEqual(expect.any(String));
      expect(after.config.zone_id).not.toBe(STALE_ID);
      expectIntervalRun(domainState(rig.t, domain.id).next_run_at, before, 300); // DDNS_UPDATE_INTERVAL default 5m

      // Forced again with nothing changed: the service is asked now, finds its record already
      // holding the address and writes nothing.
      fake.clearRequests();
      const second = await forceUpdate(rig.t, domain.id);
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({ success: true, ip_address: ip, previous_ip: ip, changed: false });
      expect(second.body.message).toStartWith(
        `Checked ${c.hostname} ${c.recordType} → ${ip} (already held at the service; nothing written); `,
      );
      expect(second.body.history_id).toBeGreaterThan(first.body.history_id);
      expect(fake.writes()).toBe(0);
      expect(fake.requests).toHaveLength(1);
      c.verify(rig, ip);
      expect(await historyOf(rig.t, domain.id)).toHaveLength(2);
    });
  }
});

describe("a record id typed in by a person is never followed", () => {
  test("the record of the domain's name and type is written; the one the id names stays byte-identical", async () => {
    const zone = rig.cf.addZone("example.com");
    const home = rig.cf.addRecord("example.com", { type: "A", name: "home", content: OLD_IPV4 });
    const other = rig.cf.addRecord("example.com", { type: "A", name: "other", content: OLD_IPV4, comment: "not mine" });
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "home.example.com");
    expect((await forceUpdate(rig.t, domain.id)).status).toBe(200);

    const edited = await rig.t.request("PUT", `/api/v1/domains/${domain.id}`, { body: { external_id: other.id } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ external_id: other.id, last_known_ip: null });
    const before = JSON.stringify(other);
    rig.echo.ipv4 = NEXT_IPV4;
    rig.cf.clearRequests();
    const response = await forceUpdate(rig.t, domain.id);
    expect(response.status).toBe(200);
    expect(rig.cf.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /zones/${zone.id}/dns_records`,
      `PATCH /zones/${zone.id}/dns_records/${home.id}`,
    ]);
    expect(JSON.stringify(rig.cf.records.get(other.id))).toBe(before);
    expect(rig.cf.record("home.example.com", "A")?.content).toBe(NEXT_IPV4);
    expect(await getDomain(rig.t, domain.id)).toMatchObject({ external_id: home.id, last_known_ip: NEXT_IPV4 });
  });
});

describe("forced updates that are refused before any call", () => {
  /** The one FAILED row a refusal writes (docs/api.md, domains: each failure also writes a history row). */
  async function expectRefusalRow(domainId: number, detail: string, previousIp: string | null = null) {
    const rows = await historyOf(rig.t, domainId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      domain_id: domainId,
      status: "FAILED",
      ip_address: null,
      previous_ip: previousIp,
      trigger: "manual",
      duration_ms: 0,
      message: detail,
    });
    expect(rows[0].timestamp).toMatch(ISO_UTC);
  }

  test("a disabled domain is a 409, calls nobody, writes one FAILED row and leaves the domain's state", async () => {
    rig.cf.addZone("example.com");
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "home.example.com", { is_enabled: false });
    const before = await getDomain(rig.t, domain.id);
    const response = await forceUpdate(rig.t, domain.id);
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ detail: "The domain is disabled; enable it to update it" });
    expect(rig.cf.requests).toHaveLength(0);
    expect(rig.echo.requests).toHaveLength(0);
    await expectRefusalRow(domain.id, response.body.detail);
    expect(await getDomain(rig.t, domain.id)).toEqual(before);
  });

  test("a domain of a disabled provider is a 409 naming the provider, with its row; no backoff", async () => {
    rig.cf.addZone("example.com");
    const provider = await addProvider(rig.t, "cloudflare", { name: "Cloudflare home" });
    const domain = await addDomain(rig.t, provider.id, "home.example.com");
    expect((await forceUpdate(rig.t, domain.id)).status).toBe(200);
    expect(
      (await rig.t.request("PUT", `/api/v1/providers/${provider.id}`, { body: { is_enabled: false } })).status,
    ).toBe(200);
    const before = await getDomain(rig.t, domain.id);
    const stateBefore = domainState(rig.t, domain.id);
    rig.cf.clearRequests();
    rig.echo.clearRequests();

    const response = await forceUpdate(rig.t, domain.id);
    expect(response.status).toBe(409);
    expect(response.body).toEqual({
      detail: 'The provider "Cloudflare home" is disabled; enable it to update this domain',
    });
    expect(rig.cf.requests).toHaveLength(0);
    expect(rig.echo.requests).toHaveLength(0);
    const rows = await historyOf(rig.t, domain.id);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      status: "FAILED",
      ip_address: null,
      previous_ip: ECHO_DEFAULT_IPV4,
      trigger: "manual",
      duration_ms: 0,
      message: response.body.detail,
    });
    // Still SUCCESS, same schedule, no failure counted.
    expect(await getDomain(rig.t, domain.id)).toEqual(before);
    expect(domainState(rig.t, domain.id)).toEqual(stateBefore);
  });

  test("a Dynu domain of a disabled provider: 409 and its row", async () => {
    const provider = await addProvider(rig.t, "dynu", { name: "Dynu home", is_enabled: false });
    const domain = await addDomain(rig.t, provider.id, "x.freeddns.org");
    const response = await forceUpdate(rig.t, domain.id);
    expect(response.status).toBe(409);
    expect(response.body.detail).toContain('"Dynu home" is disabled');
    expect(rig.dynu.requests).toHaveLength(0);
    await expectRefusalRow(domain.id, response.body.detail);
    expect(await getDomain(rig.t, domain.id)).toMatchObject({ last_update_status: null, last_known_ip: null });
  });

  test("an unknown domain is a 404", async () => {
    const response = await forceUpdate(rig.t, 4242);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: "Domain not found" });
  });
});

describe("verify checks credentials and never changes a record", () => {
  const verifyCases = [
    {
      name: "Cloudflare, valid token",
      type: "cloudflare",
      credential: undefined,
      ok: true,
      detail: "This API Token is valid and active",
    },
    {
      name: "Cloudflare, revoked token",
      type: "cloudflare",
      credential: "cf-revoked-token-000000000000",
      ok: false,
      detail: "Cloudflare: Invalid API Token (code 1000, HTTP 401)",
    },
    { name: "Dynu, valid key", type: "dynu", credential: undefined, ok: true, detail: "API key accepted (1 domain)" },
    {
      name: "Dynu, wrong key",
      type: "dynu",
      credential: "dynu-wrong-key-00000000000000",
      ok: false,
      detail: "Dynu: Authentication Exception: Failed. (status 401)",
    },
  ] as const;

  for (const c of verifyCases) {
    test(c.name, async () => {
      rig.cf.addZone("example.com");
      rig.cf.addRecord("example.com", { type: "A", name: "home", content: OLD_IPV4 });
      rig.dynu.addDomain("example.org", { ipv4Address: OLD_IPV4 });
      const provider = await addProvider(rig.t, c.type, c.credential === undefined ? {} : { credential: c.credential });
      const response = await rig.t.request("POST", `/api/v1/providers/${provider.id}/verify`);
      expect(response.status).toBe(200);
      // A refused check says so: the service refused the credentials.
      expect(response.body).toEqual({ ok: c.ok, detail: c.detail, cause: c.ok ? null : "credentials" });
      expect(rig.cf.writes() + rig.dynu.writes()).toBe(0);
      expect(rig.cf.record("home.example.com", "A")?.content).toBe(OLD_IPV4);
      expect(rig.dynu.domain("example.org")?.ipv4Address).toBe(OLD_IPV4);
    });
  }

  test("an unknown provider is a 404", async () => {
    const response = await rig.t.request("POST", "/api/v1/providers/999/verify");
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: "Provider not found" });
  });
});
