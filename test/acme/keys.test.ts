// Certificate keys at the API and the two protocols (docs/certificates.md), against the Cloudflare
// and deSEC fakes: exactly the value is added and removed, another TXT value of the name stays; a
// key reaches only its own names; wrong keys are throttled; a service that cannot hold TXT is refused.

import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { CLOUDFLARE_FAKE_TOKEN, startCloudflareFake } from "../fakes/cloudflare";
import { DESEC_FAKE_TOKEN, startDesecFake } from "../fakes/desec";
import { DUCKDNS_FAKE_TOKEN, startDuckDnsFake } from "../fakes/duckdns";
import { makeTestApp, type TestApp } from "../support";

const cf = startCloudflareFake();
const desec = startDesecFake();
const duck = startDuckDnsFake();
afterAll(() => Promise.all([cf.stop(), desec.stop(), duck.stop()]));

const VALUE_1 = "a".repeat(43);
const VALUE_2 = "b".repeat(42) + "_";
const VALUE_3 = "c".repeat(42) + "-";
const OTHER = "v=spf1 -all";

let t: TestApp;
beforeEach(async () => {
  cf.reset();
  desec.reset();
  duck.domains.clear();
  duck.clearRequests();
  t = await makeTestApp({
    DDNS_CLOUDFLARE_API_URL: cf.url,
    DDNS_DESEC_API_URL: desec.url,
    DDNS_DUCKDNS_API_URL: duck.url,
  });
});

async function domainAt(type: string, credentials: Record<string, string>, hostname: string): Promise<number> {
  const provider = await t.request("POST", "/api/v1/providers", { body: { name: type, type, credentials } });
  expect(provider.status).toBe(200);
  const domain = await t.request("POST", "/api/v1/domains", {
    body: { provider_id: provider.body.id, domain_name: hostname, record_type: "A" },
  });
  expect(domain.status).toBe(200);
  return domain.body.id;
}

async function keyFor(...domainIds: number[]) {
  const created = await t.request("POST", "/api/v1/acme-keys", { body: { name: "proxy", domain_ids: domainIds } });
  expect(created.status).toBe(200);
  return created.body as { id: number; username: string; password: string; acme_dns_account: Record<string, string> };
}

const basic = (key: { username: string; password: string }) =>
  `Basic ${Buffer.from(`${key.username}:${key.password}`).toString("base64")}`;

function httpreq(
  action: "present" | "cleanup",
  key: { username: string; password: string },
  fqdn: string,
  value: string,
  peer?: string,
) {
  return t.request("POST", `/acme/${action}`, {
    token: null,
    headers: { authorization: basic(key) },
    body: { fqdn, value },
    ...(peer ? { peer } : {}),
  });
}

function acmeDns(key: { username: string; password: string }, subdomain: string, txt: string, peer?: string) {
  return t.request("POST", "/acme-dns/update", {
    token: null,
    headers: { "x-api-user": key.username, "x-api-key": key.password },
    body: { subdomain, txt },
    ...(peer ? { peer } : {}),
  });
}

const cloudflareTxt = () =>
  [...cf.records.values()]
    .filter((r) => r.type === "TXT" && r.name === "_acme-challenge.home.example.com")
    .map((r) => r.content.replace(/^"(.*)"$/, "$1"))
    .sort();

describe("certificate keys", () => {
  test("the password is shown once with the acme-dns account, and only a hash is kept", async () => {
    cf.addZone("example.com");
    const id = await domainAt("cloudflare", { api_token: CLOUDFLARE_FAKE_TOKEN }, "home.example.com");
    const key = await keyFor(id);
    expect(key.password).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(key.acme_dns_account).toEqual({
      fulldomain: "_acme-challenge.home.example.com",
      subdomain: "home.example.com",
      username: key.username,
      password: key.password,
      server_url: "http://localhost/acme-dns",
    });
    const listed = await t.request("GET", "/api/v1/acme-keys");
    expect(JSON.stringify(listed.body)).not.toContain(key.password);
    expect(JSON.stringify(t.ctx.store.acme.listKeys())).not.toContain(key.password);
    expect((await t.request("GET", `/api/v1/acme-keys/${key.id}`)).body.hostnames).toEqual(["home.example.com"]);
    expect((await t.request("DELETE", `/api/v1/acme-keys/${key.id}`)).status).toBe(200);
    expect((await httpreq("present", key, "_acme-challenge.home.example.com.", VALUE_1)).status).toBe(401);
    expect((await t.request("GET", `/api/v1/acme-keys/${key.id}`)).status).toBe(404);
  });

  test("a domain at a service that cannot hold TXT is refused, naming the service", async () => {
    const id = await domainAt("dynu", { api_key: "dynu-key-0123456789" }, "home.example.org");
    const refused = await t.request("POST", "/api/v1/acme-keys", { body: { name: "proxy", domain_ids: [id] } });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toContain("home.example.org is at Dynu, which cannot hold TXT records");
    expect(t.ctx.store.acme.listKeys()).toEqual([]);
  });

  test("Cloudflare: present adds exactly the value, cleanup removes exactly it; another TXT value stays", async () => {
    cf.addZone("example.com");
    cf.addRecord("example.com", { type: "TXT", name: "_acme-challenge.home", content: `"${OTHER}"` });
    const key = await keyFor(await domainAt("cloudflare", { api_token: CLOUDFLARE_FAKE_TOKEN }, "home.example.com"));
    expect((await httpreq("present", key, "_acme-challenge.home.example.com.", VALUE_1)).status).toBe(200);
    expect(cloudflareTxt()).toEqual([OTHER, VALUE_1].sort());
    expect((await httpreq("cleanup", key, "_acme-challenge.home.example.com.", VALUE_1)).status).toBe(200);
    expect(cloudflareTxt()).toEqual([OTHER]);
    const history = await t.request("GET", "/api/v1/domains/1/history");
    const said = history.body.items ?? history.body;
    expect(JSON.stringify(said)).toContain(
      `Removed _acme-challenge.home.example.com TXT \\"${VALUE_1}\\" for certificate key \\"proxy\\" (httpreq)`,
    );
    expect(JSON.stringify(said)).not.toContain(key.password);
    expect(t.logs.join("\n")).not.toContain(key.password);
  });

  test("acme-dns on Cloudflare keeps the latest two values, so a name and its wildcard validate together", async () => {
    cf.addZone("example.com");
    cf.addRecord("example.com", { type: "TXT", name: "_acme-challenge.home", content: `"${OTHER}"` });
    const key = await keyFor(await domainAt("cloudflare", { api_token: CLOUDFLARE_FAKE_TOKEN }, "home.example.com"));
    for (const value of [VALUE_1, VALUE_2, VALUE_3]) {
      const answer = await acmeDns(key, key.acme_dns_account.subdomain!, value);
      expect(answer).toMatchObject({ status: 200, body: { txt: value } });
    }
    expect(cloudflareTxt()).toEqual([OTHER, VALUE_2, VALUE_3].sort());
  });

  test("deSEC: the RRset holds the value beside the other one, and drops exactly it", async () => {
    desec.addDomain("example.net");
    desec.addRRset("example.net", { subname: "_acme-challenge.home", type: "TXT", records: [`"${OTHER}"`] });
    const key = await keyFor(await domainAt("desec", { token: DESEC_FAKE_TOKEN }, "home.example.net"));
    expect((await httpreq("present", key, "_acme-challenge.home.example.net.", VALUE_1)).status).toBe(200);
    expect(desec.rrset("example.net", "_acme-challenge.home", "TXT")?.records).toEqual([`"${OTHER}"`, `"${VALUE_1}"`]);
    expect((await httpreq("cleanup", key, "_acme-challenge.home.example.net.", VALUE_1)).status).toBe(200);
    expect(desec.rrset("example.net", "_acme-challenge.home", "TXT")?.records).toEqual([`"${OTHER}"`]);
  });

  test("DuckDNS: its one TXT value is set and cleared; the addresses stay", async () => {
    const home = duck.addDomain("home", { ipv4: "203.0.113.7", ipv6: "2001:db8::7" });
    const key = await keyFor(await domainAt("duckdns", { token: DUCKDNS_FAKE_TOKEN }, "home.duckdns.org"));
    expect((await httpreq("present", key, "_acme-challenge.home.duckdns.org.", VALUE_1)).status).toBe(200);
    expect(home).toMatchObject({ txt: VALUE_1, ipv4: "203.0.113.7", ipv6: "2001:db8::7" });
    // The same value again is not sent again.
    duck.clearRequests();
    expect((await httpreq("present", key, "_acme-challenge.home.duckdns.org.", VALUE_1)).status).toBe(200);
    expect(duck.updates()).toBe(0);
    expect((await httpreq("cleanup", key, "_acme-challenge.home.duckdns.org.", VALUE_1)).status).toBe(200);
    expect(home).toMatchObject({ txt: "", ipv4: "203.0.113.7", ipv6: "2001:db8::7" });
    expect(duck.requests.at(-1)?.query).toMatchObject({ domains: "home", txt: "", clear: "true" });
  });

  test("DuckDNS holds one value: a second replaces the first, whose cleanup then leaves the second alone", async () => {
    const home = duck.addDomain("home", { ipv4: "203.0.113.7" });
    const key = await keyFor(await domainAt("duckdns", { token: DUCKDNS_FAKE_TOKEN }, "home.duckdns.org"));
    // A name's and its wildcard's challenge, one after the other (acme-dns keeps both; DuckDNS the newest).
    expect((await acmeDns(key, "home.duckdns.org", VALUE_1)).status).toBe(200);
    expect((await acmeDns(key, "home.duckdns.org", VALUE_2)).status).toBe(200);
    expect(home.txt).toBe(VALUE_2);
    duck.clearRequests();
    expect((await httpreq("cleanup", key, "_acme-challenge.home.duckdns.org.", VALUE_1)).status).toBe(200);
    expect(home.txt).toBe(VALUE_2);
    expect(duck.updates()).toBe(0);
    expect((await httpreq("cleanup", key, "_acme-challenge.home.duckdns.org.", VALUE_2)).status).toBe(200);
    expect(home).toMatchObject({ txt: "", ipv4: "203.0.113.7" });
  });

  test("a key never reaches another name, and a value that is no ACME value is refused; nothing is written", async () => {
    cf.addZone("example.com");
    const mine = await domainAt("cloudflare", { api_token: CLOUDFLARE_FAKE_TOKEN }, "home.example.com");
    const other = await t.request("POST", "/api/v1/domains", {
      body: { provider_id: 1, domain_name: "office.example.com", record_type: "A" },
    });
    expect(other.status).toBe(200);
    const key = await keyFor(mine);
    const refused = await httpreq("present", key, "_acme-challenge.office.example.com.", VALUE_1);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe("This certificate key may set the ACME challenge of home.example.com only");
    expect((await acmeDns(key, "office.example.com", VALUE_1)).status).toBe(403);
    const bad = await httpreq("present", key, "_acme-challenge.home.example.com.", "not-a-challenge");
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toContain("43 characters of base64url");
    expect([...cf.records.values()].filter((r) => r.type === "TXT")).toEqual([]);
    // The wildcard certificate's challenge is the name's own.
    expect((await httpreq("present", key, "*.home.example.com", VALUE_1)).status).toBe(200);
  });

  test("wrong keys are throttled per client address, as update keys are", async () => {
    cf.addZone("example.com");
    const key = await keyFor(await domainAt("cloudflare", { api_token: CLOUDFLARE_FAKE_TOKEN }, "home.example.com"));
    const wrong = { username: key.username, password: "x".repeat(43) };
    for (let i = 0; i < 5; i++)
      expect((await httpreq("present", wrong, "_acme-challenge.home.example.com.", VALUE_1, "192.0.2.9")).status).toBe(
        401,
      );
    const throttled = await acmeDns(key, "home.example.com", VALUE_1, "192.0.2.9");
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another client is not held back.
    expect((await acmeDns(key, "home.example.com", VALUE_1, "192.0.2.10")).status).toBe(200);
  });
});
