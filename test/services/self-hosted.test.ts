// The self-hosted DNS servers through the whole appliance, against the real thing: `rfc2136` with
// BIND 9 and Knot, `powerdns` with PowerDNS and its sqlite3 backend (test/servers/name-servers.ts
// starts them on loopback). Providers and domains are made through the API, updates forced or
// scheduled, and every result is read back over DNS with dig, so what is asserted is what a resolver
// would see: the address, the TTL kept, the name's other records untouched, nothing written twice.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { RecordType } from "../../src/dns/provider";
import { createRfc2136Api, rfc2136Options } from "../../src/dns/services/rfc2136";
import { ECHO_DEFAULT_IPV4, ECHO_DEFAULT_IPV6, type EchoFake, startEchoFake } from "../fakes/echo";
import {
  dig,
  freePort,
  KEY_NAME,
  KEY_SECRET,
  LOCKED_ZONE,
  missingPrograms,
  type NameServer,
  OTHER_SECRET,
  type PowerDns,
  SUB_ZONE,
  startBind,
  startKnot,
  startPowerDns,
  ZONE,
} from "../servers/name-servers";
import { loopbackAddresses } from "../servers/zone-pair";
import { makeTestApp, type TestApp } from "../support";
import { domainState, duePass, forceUpdate, historyOf, NEXT_IPV4 } from "../updater/harness";

const DETECTED: Record<RecordType, string> = { A: ECHO_DEFAULT_IPV4, AAAA: ECHO_DEFAULT_IPV6 };
/** The ACME challenge tests' PowerDNS: a loopback address of their own, on port 53. */
const ACME_ADDRESS = "127.31.0.47";
/** A TXT value of the challenge name that ddnsd did not write: it must stay. */
const FOREIGN = "another-value-ddnsd-must-keep";

test("the name servers the self-hosted tests run are installed (bind9, knot, pdns-server, pdns-backend-sqlite3, bind9-dnsutils)", () => {
  expect(missingPrograms()).toEqual([]);
});

interface Rig<Server extends NameServer> {
  server: Server;
  echo: EchoFake;
  t: TestApp;
}

function useRig<Server extends NameServer>(
  start: () => Promise<Server>,
  settings: Record<string, string> = {},
): () => Rig<Server> {
  let rig: Rig<Server> | undefined;
  beforeAll(async () => {
    const server = await start();
    const echo = startEchoFake();
    const t = await makeTestApp({ DDNS_IPV4_URLS: `${echo.url}/v4`, DDNS_IPV6_URLS: `${echo.url}/v6`, ...settings });
    await t.token();
    rig = { server, echo, t };
  });
  beforeEach(() => {
    const { echo, t } = rig!;
    echo.reset();
    t.ctx.sqlite.exec(
      "DELETE FROM history; DELETE FROM acme_values; DELETE FROM acme_keys; DELETE FROM domains; DELETE FROM providers;",
    );
    t.ctx.publicIp.ipv4 = t.ctx.publicIp.ipv6 = t.ctx.publicIp.checkedAt = null;
  });
  afterAll(async () => {
    if (!rig) return;
    await rig.t.ctx.scheduler.stop(5_000);
    rig.t.ctx.sqlite.close();
    await Promise.all([rig.server.stop(), rig.echo.stop()]);
  });
  return () => rig!;
}

let providers = 0;
async function createProvider(
  t: TestApp,
  body: { type: string; credentials: Record<string, string>; options: Record<string, unknown> },
): Promise<number> {
  const response = await t.request("POST", "/api/v1/providers", { body: { name: `server ${++providers}`, ...body } });
  expect(response.status).toBe(200);
  return response.body.id;
}

async function createDomain(
  t: TestApp,
  providerId: number,
  hostname: string,
  type: RecordType,
  config?: Record<string, unknown>,
): Promise<number> {
  const response = await t.request("POST", "/api/v1/domains", {
    body: { provider_id: providerId, domain_name: hostname, record_type: type, ...(config ? { config } : {}) },
  });
  expect(response.status).toBe(200);
  return response.body.id;
}

/** The one record dig sees for `name type`, as "address ttl"; "" when there is none. */
async function published(server: NameServer, name: string, type: string): Promise<string> {
  const answer = await dig(server.port, name, type, server.host);
  return answer.records
    .filter((record) => record.type === type)
    .map((record) => `${record.data} ${record.ttl}`)
    .join(", ");
}

async function serial(server: NameServer, zone: string): Promise<number> {
  const [soa] = (await dig(server.port, zone, "SOA", server.host)).records;
  return Number(soa?.data.split(" ")[2]);
}

/** What every self-hosted server must do the same way, whichever protocol reaches it. */
function commonCases<Server extends NameServer>(
  current: () => Rig<Server>,
  provider: (server: Server) => Parameters<typeof createProvider>[1],
) {
  test("A and AAAA: each replaces only its own record set, keeps its TTL, and leaves the name's other records alone", async () => {
    const { server, t } = current();
    const providerId = await createProvider(t, provider(server));
    const a = await createDomain(t, providerId, `www.${ZONE}`, "A");
    const forced = await forceUpdate(t, a);
    expect(forced.status).toBe(200);
    expect(await published(server, `www.${ZONE}`, "A")).toBe(`${DETECTED.A} 1234`);
    expect(await published(server, `www.${ZONE}`, "AAAA")).toBe("2001:db8::10 1234");
    expect(await published(server, `www.${ZONE}`, "TXT")).toBe('"keep me" 3600');
    expect(await published(server, `www.${ZONE}`, "MX")).toBe(`10 mail.${ZONE}. 3600`);
    const [row] = await historyOf(t, a);
    expect(row).toMatchObject({ status: "SUCCESS", ip_address: DETECTED.A });
    expect(row.message).toContain("ttl 1234");
    expect((await t.request("GET", `/api/v1/domains/${a}`)).body.config.zone_id).toBe(
      server.kind === "powerdns" ? `${ZONE}.` : ZONE,
    );

    const aaaa = await createDomain(t, providerId, `www.${ZONE}`, "AAAA");
    expect((await forceUpdate(t, aaaa)).status).toBe(200);
    expect(await published(server, `www.${ZONE}`, "AAAA")).toBe(`${DETECTED.AAAA} 1234`);
    expect(await published(server, `www.${ZONE}`, "A")).toBe(`${DETECTED.A} 1234`);
    expect(await published(server, `www.${ZONE}`, "TXT")).toBe('"keep me" 3600');
  });

  test("an address already published is not written again (the zone's serial stays)", async () => {
    const { server, t } = current();
    const id = await createDomain(t, await createProvider(t, provider(server)), `home.${ZONE}`, "A");
    expect((await duePass(t)).map((outcome) => outcome.result)).toEqual(["updated"]);
    const before = await serial(server, ZONE);
    expect((await duePass(t)).map((outcome) => outcome.result)).toEqual(["unchanged"]);
    expect(await serial(server, ZONE)).toBe(before);

    current().echo.ipv4 = NEXT_IPV4;
    expect((await duePass(t)).map((outcome) => outcome.result)).toEqual(["updated"]);
    expect(await published(server, `home.${ZONE}`, "A")).toBe(`${NEXT_IPV4} 1234`);
    expect(await serial(server, ZONE)).toBeGreaterThan(before);
    expect((await historyOf(t, id)).map((row) => row.status)).toEqual(["SUCCESS", "SUCCESS"]);
  });

  test("the apex, and a name inside a delegated sub-zone (written in that zone, with its TTL)", async () => {
    const { server, t } = current();
    const providerId = await createProvider(t, provider(server));
    const apex = await createDomain(t, providerId, ZONE, "A");
    const delegated = await createDomain(t, providerId, `host.${SUB_ZONE}`, "A");
    const outcomes = await duePass(t);
    expect(
      outcomes.map((outcome) => outcome.result),
      JSON.stringify(outcomes),
    ).toEqual(["updated", "updated"]);
    expect(await published(server, ZONE, "A")).toBe(`${DETECTED.A} 600`);
    expect(await published(server, ZONE, "NS")).toBe(`ns.${ZONE}. 3600`);
    expect(await published(server, `host.${SUB_ZONE}`, "A")).toBe(`${DETECTED.A} 900`);
    expect((await t.request("GET", `/api/v1/domains/${apex}`)).body.config.zone_id).toStartWith(ZONE);
    expect((await t.request("GET", `/api/v1/domains/${delegated}`)).body.config.zone_id).toStartWith(SUB_ZONE);
  });

  test("a missing record set is created (TTL 300, or the domain's); with create_if_missing false it stays missing", async () => {
    const { server, t } = current();
    const providerId = await createProvider(t, provider(server));
    const created = await createDomain(t, providerId, `new.${ZONE}`, "AAAA");
    const withTtl = await createDomain(t, providerId, `timed.${ZONE}`, "A", { ttl: 120 });
    const absent = await createDomain(t, providerId, `absent.${ZONE}`, "A", { create_if_missing: false });
    const outcomes = await duePass(t);
    expect(await published(server, `new.${ZONE}`, "AAAA"), JSON.stringify(outcomes)).toBe(`${DETECTED.AAAA} 300`);
    expect((await historyOf(t, created))[0].message).toStartWith(`Created new.${ZONE} AAAA → ${DETECTED.AAAA}`);
    expect(await published(server, `timed.${ZONE}`, "A")).toBe(`${DETECTED.A} 120`);
    expect((await historyOf(t, withTtl))[0].status).toBe("SUCCESS");
    expect(await published(server, `absent.${ZONE}`, "A")).toBe("");
    expect((await historyOf(t, absent))[0]).toMatchObject({ status: "FAILED" });
    expect((await historyOf(t, absent))[0].message).toContain("create_if_missing is false");
  });
  test("a name answered only by a wildcard is missing, not the wildcard's to replace: created when allowed, else left alone", async () => {
    const { server, t } = current();
    const providerId = await createProvider(t, provider(server));
    const kept = await createDomain(t, providerId, `kept.wild.${ZONE}`, "A", { create_if_missing: false });
    const created = await createDomain(t, providerId, `made.wild.${ZONE}`, "A");
    await duePass(t);
    expect((await historyOf(t, kept))[0].message).toContain("create_if_missing is false");
    expect(await published(server, `kept.wild.${ZONE}`, "A")).toBe("192.0.2.77 600");
    expect((await historyOf(t, created))[0].message).toStartWith(`Created made.wild.${ZONE} A → ${DETECTED.A}`);
    expect(await published(server, `made.wild.${ZONE}`, "A")).toBe(`${DETECTED.A} 300`);
    expect(await published(server, `other.wild.${ZONE}`, "A")).toBe("192.0.2.77 600");
  });
}

/** A provider whose server nothing listens on: the failure is retried, never final. */
async function downCase(t: TestApp, body: Parameters<typeof createProvider>[1], words: RegExp): Promise<void> {
  const id = await createDomain(t, await createProvider(t, body), `home.${ZONE}`, "A");
  const forced = await forceUpdate(t, id);
  expect(forced.status).toBe(502);
  expect(forced.body.detail).toMatch(words);
  const [row] = await historyOf(t, id);
  expect(row.status).toBe("FAILED");
  expect(row.message).not.toContain("not retried");
  expect(domainState(t, id).next_run_at).not.toBeNull();
}

function rfc2136Provider(server: NameServer, overrides: { secret?: string; options?: Record<string, unknown> } = {}) {
  return {
    type: "rfc2136",
    credentials: { tsig_secret: overrides.secret ?? KEY_SECRET },
    options: { server: server.address, tsig_key_name: KEY_NAME, ...overrides.options },
  };
}

for (const [name, start] of [
  ["BIND 9", startBind],
  ["Knot", startKnot],
] as const) {
  describe(`rfc2136 against ${name}`, () => {
    const current = useRig(start);
    commonCases(current, (server) => rfc2136Provider(server));

    test("verify: a signed SOA query the server accepts; a wrong secret is refused in plain words", async () => {
      const { server, t } = current();
      // Knot signs only within its zones, so its verify needs the zone option.
      const good = await createProvider(t, rfc2136Provider(server, { options: { zone: ZONE } }));
      const verified = await t.request("POST", `/api/v1/providers/${good}/verify`);
      expect(verified.body).toMatchObject({ ok: true });
      expect(verified.body.detail).toContain(`serves zone ${ZONE}`);

      // Without a zone, the root's SOA: BIND signs its REFUSED (the key is accepted); Knot cannot, and says what to set.
      const zoneless = await createProvider(t, rfc2136Provider(server));
      const root = await t.request("POST", `/api/v1/providers/${zoneless}/verify`);
      if (server.kind === "bind") expect(root.body).toMatchObject({ ok: true });
      else expect(root.body).toMatchObject({ ok: false, detail: expect.stringContaining("set the zone option") });

      const wrong = await createProvider(t, rfc2136Provider(server, { secret: OTHER_SECRET, options: { zone: ZONE } }));
      const refused = await t.request("POST", `/api/v1/providers/${wrong}/verify`);
      expect(refused.body.ok).toBe(false);
      expect(refused.body.detail).toMatch(/BADSIG|BADKEY/);
    });

    test("a wrong key: the history says so in plain words, and it is not retried until the provider is edited", async () => {
      const { server, t } = current();
      const providerId = await createProvider(t, rfc2136Provider(server, { secret: OTHER_SECRET }));
      const id = await createDomain(t, providerId, `home.${ZONE}`, "A");
      const before = await published(server, `home.${ZONE}`, "A");
      const forced = await forceUpdate(t, id);
      expect(forced.status).toBe(502);
      const [row] = await historyOf(t, id);
      expect(row.status).toBe("FAILED");
      expect(row.message).toMatch(
        /(the secret does not match|does not accept key).*(BADSIG|BADKEY)|(BADSIG|BADKEY).*(secret|key)/,
      );
      expect(row.message).not.toContain(OTHER_SECRET);
      expect(row.message).toEndWith("not retried until the provider or domain is edited");
      expect(domainState(t, id).next_run_at).toBeNull();
      expect(await t.ctx.scheduler.runPass()).toHaveLength(0);
      expect(await published(server, `home.${ZONE}`, "A")).toBe(before);

      const edited = await t.request("PUT", `/api/v1/providers/${providerId}`, {
        body: { credentials: { tsig_secret: KEY_SECRET } },
      });
      expect(edited.status).toBe(200);
      expect(domainState(t, id).next_run_at).not.toBeNull();
    });

    test("a zone the key may not update: refused in the server's words, not retried, nothing changed", async () => {
      const { server, t } = current();
      const id = await createDomain(t, await createProvider(t, rfc2136Provider(server)), `home.${LOCKED_ZONE}`, "A");
      const forced = await forceUpdate(t, id);
      expect(forced.status).toBe(502);
      // BIND refuses the update (REFUSED); Knot refuses a key its zone's ACL does not name for updates (NOTAUTH, BADKEY).
      expect(forced.body.detail).toMatch(
        server.kind === "bind"
          ? /REFUSED.*policy does not let key "ddnsd-key" update/
          : /BADKEY.*ACL \(Knot\) names this key/,
      );
      expect(forced.body.detail).toEndWith("not retried until the provider or domain is edited");
      expect(domainState(t, id).next_run_at).toBeNull();
      expect(await published(server, `home.${LOCKED_ZONE}`, "A")).toBe("192.0.2.30 600");
    });

    test("a name in no zone the server serves: refused, one row, not retried until an edit", async () => {
      const { server, t } = current();
      const id = await createDomain(t, await createProvider(t, rfc2136Provider(server)), "home.nowhere.test", "A");
      const forced = await forceUpdate(t, id);
      expect(forced.status).toBe(502);
      expect(forced.body.detail).toEndWith("not retried until the provider or domain is edited");
      expect(domainState(t, id).next_run_at).toBeNull();
      expect(await t.ctx.scheduler.runPass()).toHaveLength(0);
      expect((await t.request("GET", `/api/v1/domains/${id}/history`)).body).toHaveLength(1);
    });

    test("a zone_id that no longer holds the name (a sub-zone delegated since) gives way to the zone the server names", async () => {
      const { server, t } = current();
      const id = await createDomain(t, await createProvider(t, rfc2136Provider(server)), `host.${SUB_ZONE}`, "AAAA", {
        zone_id: ZONE,
      });
      expect((await forceUpdate(t, id)).status).toBe(200);
      expect(await published(server, `host.${SUB_ZONE}`, "AAAA")).toBe(`${DETECTED.AAAA} 300`);
      expect((await t.request("GET", `/api/v1/domains/${id}`)).body.config.zone_id).toBe(SUB_ZONE);
    });

    test("a zone option that is not the name's zone: refused before anything is written there", async () => {
      const { server, t } = current();
      const id = await createDomain(
        t,
        await createProvider(t, rfc2136Provider(server, { options: { zone: ZONE } })),
        `host.${SUB_ZONE}`,
        "A",
      );
      const before = await published(server, `host.${SUB_ZONE}`, "A");
      current().echo.ipv4 = NEXT_IPV4;
      const forced = await forceUpdate(t, id);
      expect(forced.status).toBe(502);
      expect(forced.body.detail).toContain(`serves host.${SUB_ZONE} in zone ${SUB_ZONE}, not in ${ZONE}`);
      expect(await published(server, `host.${SUB_ZONE}`, "A")).toBe(before);
    });

    test("a write made on a stale read is refused by the server itself (prerequisites), and nothing changes", async () => {
      const { server } = current();
      const api = createRfc2136Api(
        rfc2136Options({ tsig_secret: KEY_SECRET }, { server: server.address, tsig_key_name: KEY_NAME }, 5_000),
      );
      const zone = { id: ZONE, name: ZONE };
      const read = await api.readRecordSet(zone, `race.${ZONE}`, "A", null);
      if (!read.ok || !read.value) throw new Error(`race.${ZONE} A was not read: ${JSON.stringify(read)}`);
      // Someone else writes between ddnsd's read and its write.
      expect((await api.updateRecordSet(zone, `race.${ZONE}`, "A", read.value, "192.0.2.41", {})).ok).toBe(true);
      const stale = await api.updateRecordSet(zone, `race.${ZONE}`, "A", read.value, "192.0.2.42", {});
      expect(stale.ok ? "written" : stale.message).toContain(
        `race.${ZONE} A changed at the server after ddnsd read it (NXRRSET), so nothing was written`,
      );
      const created = await api.createRecordSet(zone, `race.${ZONE}`, "A", "192.0.2.43", {});
      expect(created.ok ? "written" : created.message).toContain("(YXRRSET)");
      expect(await published(server, `race.${ZONE}`, "A")).toBe("192.0.2.41 300");
    });

    test("a server that is down: a failure that is retried", async () => {
      const { t } = current();
      const port = await freePort();
      await downCase(
        t,
        {
          type: "rfc2136",
          credentials: { tsig_secret: KEY_SECRET },
          options: { server: `127.0.0.1:${port}`, tsig_key_name: KEY_NAME },
        },
        /nothing accepts connections at that address and port/,
      );
    });
  });
}

describe("rfc2136: what the provider form refuses", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(() => t.ctx.sqlite.close());

  for (const [field, credentials, options, words] of [
    [
      "options.server",
      { tsig_secret: KEY_SECRET },
      { server: "ns1.example.com:99999", tsig_key_name: KEY_NAME },
      /port from 1 to 65535/,
    ],
    [
      "options.server",
      { tsig_secret: KEY_SECRET },
      { server: "http://ns1.example.com", tsig_key_name: KEY_NAME },
      /host name or IP address/,
    ],
    [
      "credentials.tsig_secret",
      { tsig_secret: "not base64!" },
      { server: "127.0.0.1", tsig_key_name: KEY_NAME },
      /base64/,
    ],
    [
      "options.tsig_algorithm",
      { tsig_secret: KEY_SECRET },
      { server: "127.0.0.1", tsig_key_name: KEY_NAME, tsig_algorithm: "hmac-md5" },
      /hmac-sha256/,
    ],
    ["options.tsig_key_name", { tsig_secret: KEY_SECRET }, { server: "127.0.0.1" }, /required/],
  ] as const) {
    test(`${field}: ${JSON.stringify(field.startsWith("credentials") ? credentials : options)}`, async () => {
      const response = await t.request("POST", "/api/v1/providers", {
        body: { name: "ns", type: "rfc2136", credentials, options },
      });
      expect(response.status).toBe(422);
      expect(response.body.errors).toEqual([expect.objectContaining({ field })]);
      expect(response.body.detail).toMatch(words);
      expect((await t.request("GET", "/api/v1/providers")).body).toEqual([]);
    });
  }
});

describe("powerdns against PowerDNS", () => {
  const current = useRig(startPowerDns);
  const provider = (server: PowerDns, apiKey = server.apiKey) => ({
    type: "powerdns",
    credentials: { api_key: apiKey },
    options: { server: server.apiUrl },
  });
  commonCases(current, (server) => provider(server));

  async function rrset(server: PowerDns, name: string, type: string): Promise<any> {
    const zone = await fetch(`${server.apiUrl}/api/v1/servers/localhost/zones/${ZONE}.`, {
      headers: { "X-API-Key": server.apiKey },
    });
    return ((await zone.json()) as any).rrsets.find((set: any) => set.name === `${name}.` && set.type === type);
  }

  test("the record set's comments are kept", async () => {
    const { server, t } = current();
    const id = await createDomain(t, await createProvider(t, provider(server)), `www.${ZONE}`, "A");
    current().echo.ipv4 = NEXT_IPV4;
    expect((await forceUpdate(t, id)).status).toBe(200);
    const set = await rrset(server, `www.${ZONE}`, "A");
    expect(set.records).toEqual([{ content: NEXT_IPV4, disabled: false }]);
    expect(set.comments).toEqual([expect.objectContaining({ content: "the web server", account: "admin" })]);
  });

  test("verify reads the server; a wrong API key is refused, in the history too, and not retried", async () => {
    const { server, t } = current();
    // The URL as copied from the API's documentation works too.
    const good = await createProvider(t, { ...provider(server), options: { server: `${server.apiUrl}/api/v1/` } });
    expect((await t.request("POST", `/api/v1/providers/${good}/verify`)).body).toMatchObject({ ok: true });

    const wrong = await createProvider(t, provider(server, "wrong-key"));
    const refused = await t.request("POST", `/api/v1/providers/${wrong}/verify`);
    expect(refused.body).toMatchObject({ ok: false });
    expect(refused.body.detail).toContain("HTTP 401");
    const id = await createDomain(t, wrong, `home.${ZONE}`, "A");
    expect((await forceUpdate(t, id)).status).toBe(502);
    const [row] = await historyOf(t, id);
    expect(row.message).toMatch(/API key was refused.*HTTP 401/);
    expect(row.message).toEndWith("not retried until the provider or domain is edited");
    expect(domainState(t, id).next_run_at).toBeNull();
  });

  test("a server that is down: a failure that is retried", async () => {
    const { t } = current();
    const port = await freePort();
    await downCase(
      t,
      { type: "powerdns", credentials: { api_key: "key" }, options: { server: `http://127.0.0.1:${port}` } },
      /PowerDNS: request failed|Unable to connect|ECONNREFUSED/,
    );
  });
});

describe("powerdns holds the ACME challenge (certificate keys)", () => {
  // PowerDNS on a loopback address of its own, port 53, where the zone's NS record points: the
  // challenge's wait asks it, as it would ask a home's PowerDNS, and answers once it serves the value.
  let removeAddress = () => {};
  beforeAll(() => {
    removeAddress = loopbackAddresses([ACME_ADDRESS]);
  });
  afterAll(() => removeAddress());
  const current = useRig(
    () =>
      startPowerDns({
        listen: { address: ACME_ADDRESS, port: 53 },
        records: [`_acme-challenge.home 120 IN TXT "${FOREIGN}"`],
      }),
    { DDNS_RESOLVERS: ACME_ADDRESS },
  );
  const VALUE_1 = "a".repeat(43);
  const VALUE_2 = `${"b".repeat(42)}_`;
  const CHALLENGE = `_acme-challenge.home.${ZONE}`;

  /** The TXT texts dig sees at `name`, sorted, each with its TTL. */
  async function txt(server: NameServer, name: string): Promise<string[]> {
    const answer = await dig(server.port, name, "TXT", server.host);
    return answer.records.map((record) => `${record.data} ${record.ttl}`).sort();
  }

  async function keyFor(t: TestApp, server: PowerDns, hostname: string) {
    const providerId = await createProvider(t, {
      type: "powerdns",
      credentials: { api_key: server.apiKey },
      options: { server: server.apiUrl },
    });
    const domainId = await createDomain(t, providerId, hostname, "A");
    const key = await t.request("POST", "/api/v1/acme-keys", { body: { name: "proxy", domain_ids: [domainId] } });
    expect(key.status).toBe(200);
    const basic = `Basic ${Buffer.from(`${key.body.username}:${key.body.password}`).toString("base64")}`;
    return {
      httpreq: (action: "present" | "cleanup", value: string) =>
        t.request("POST", `/acme/${action}`, {
          token: null,
          headers: { authorization: basic },
          body: { fqdn: `_acme-challenge.${hostname}.`, value },
        }),
      acmeDns: (value: string) =>
        t.request("POST", "/acme-dns/update", {
          token: null,
          headers: { "x-api-user": key.body.username, "x-api-key": key.body.password },
          body: { subdomain: hostname, txt: value },
        }),
    };
  }

  test("present adds one value beside the name's other TXT value and answers once PowerDNS serves it; cleanup removes exactly it", async () => {
    const { server, t } = current();
    const key = await keyFor(t, server, `home.${ZONE}`);
    const address = await published(server, `home.${ZONE}`, "A");

    expect((await key.httpreq("present", VALUE_1)).status).toBe(200);
    // Served when the answer came: the wait asked PowerDNS itself and saw the value.
    expect(t.logs.some((line) => line.includes("acme challenge served") && line.includes(CHALLENGE))).toBe(true);
    expect(await txt(server, CHALLENGE)).toEqual([`"${FOREIGN}" 120`, `"${VALUE_1}" 120`].sort());

    // acme-dns adds a second value (the wildcard's) and keeps the first.
    expect((await key.acmeDns(VALUE_2)).status).toBe(200);
    expect(await txt(server, CHALLENGE)).toEqual([`"${FOREIGN}" 120`, `"${VALUE_1}" 120`, `"${VALUE_2}" 120`].sort());

    // A value already there is not written again (the zone's serial stays).
    const before = await serial(server, ZONE);
    expect((await key.httpreq("present", VALUE_1)).status).toBe(200);
    expect(await serial(server, ZONE)).toBe(before);

    expect((await key.httpreq("cleanup", VALUE_1)).status).toBe(200);
    expect(await txt(server, CHALLENGE)).toEqual([`"${FOREIGN}" 120`, `"${VALUE_2}" 120`].sort());
    expect((await key.httpreq("cleanup", VALUE_2)).status).toBe(200);
    expect(await txt(server, CHALLENGE)).toEqual([`"${FOREIGN}" 120`]);
    expect(await published(server, `home.${ZONE}`, "A")).toBe(address);
    expect(await published(server, `www.${ZONE}`, "TXT")).toBe('"keep me" 3600');
  });

  test("a name with no TXT of its own gets a set holding the value (TTL 60), and no empty set is left after cleanup", async () => {
    const { server, t } = current();
    const key = await keyFor(t, server, `www.${ZONE}`);
    expect((await key.httpreq("present", VALUE_1)).status).toBe(200);
    expect(await txt(server, `_acme-challenge.www.${ZONE}`)).toEqual([`"${VALUE_1}" 60`]);
    expect((await key.httpreq("cleanup", VALUE_1)).status).toBe(200);
    expect(await txt(server, `_acme-challenge.www.${ZONE}`)).toEqual([]);
    const zone = await fetch(`${server.apiUrl}/api/v1/servers/localhost/zones/${ZONE}.`, {
      headers: { "X-API-Key": server.apiKey },
    });
    const sets = ((await zone.json()) as { rrsets: { name: string }[] }).rrsets;
    expect(sets.filter((set) => set.name === `_acme-challenge.www.${ZONE}.`)).toEqual([]);
    // The name's own records are as they were.
    expect(await published(server, `www.${ZONE}`, "TXT")).toBe('"keep me" 3600');
    expect(await published(server, `www.${ZONE}`, "A")).toBe("192.0.2.10 1234");
  });
});
