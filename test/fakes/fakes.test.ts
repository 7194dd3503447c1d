// The fakes themselves: they must refuse what the real services refuse and reset what they reset,
// or client tests would pass against behaviour no service has.

import { afterEach, describe, expect, test } from "bun:test";
import { signRequest } from "../../src/dns/signing/sigv4";
import { CLOUDFLARE_FAKE_TOKEN, startCloudflareFake } from "./cloudflare";
import {
  DYNDNS2_CALLER_IPV4,
  DYNDNS2_FAKE_PASSWORD,
  DYNDNS2_FAKE_USER,
  type Dyndns2Fake,
  startDyndns2Fake,
} from "./dyndns2";
import { DYNU_FAKE_API_KEY, DYNU_RESET_TTL, startDynuFake } from "./dynu";
import { startEchoFake } from "./echo";
import { GANDI_DEFAULT_TTL, GANDI_FAKE_TOKEN, startGandiFake } from "./gandi";
import { HETZNER_FAKE_TOKEN, HETZNER_READONLY_TOKEN, startHetznerFake } from "./hetzner";
import { PORKBUN_FAKE_API_KEY, PORKBUN_FAKE_SECRET, startPorkbunFake } from "./porkbun";
import { ROUTE53_FAKE_ACCESS_KEY_ID, ROUTE53_FAKE_SECRET, startRoute53Fake } from "./route53";
import { waitFor } from "./server";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

function cloudflare() {
  const fake = startCloudflareFake();
  stops.push(fake.stop);
  const zone = fake.addZone("example.com");
  const record = fake.addRecord("example.com", {
    type: "A",
    name: "home",
    content: "198.51.100.1",
    ttl: 300,
    comment: "c",
  });
  const call = async (method: string, path: string, body?: unknown, token = CLOUDFLARE_FAKE_TOKEN) => {
    const response = await fetch(fake.url + path, {
      method,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  return { fake, zone, record, call };
}

describe("Cloudflare fake", () => {
  const errorCases: {
    name: string;
    method: string;
    path: (z: string, r: string) => string;
    body?: unknown;
    status: number;
    code: number;
  }[] = [
    { name: "malformed zone id", method: "GET", path: () => "/zones/nope/dns_records", status: 400, code: 7003 },
    {
      name: "malformed record id",
      method: "PATCH",
      path: (z) => `/zones/${z}/dns_records/nope`,
      body: { content: "1.2.3.4" },
      status: 400,
      code: 7003,
    },
    {
      name: "unknown record id",
      method: "PATCH",
      path: (z) => `/zones/${z}/dns_records/${"0".repeat(32)}`,
      body: { content: "1.2.3.4" },
      status: 404,
      code: 81044,
    },
    {
      name: "invalid A content",
      method: "PATCH",
      path: (z, r) => `/zones/${z}/dns_records/${r}`,
      body: { content: "::1" },
      status: 400,
      code: 9005,
    },
    {
      name: "identical create",
      method: "POST",
      path: (z) => `/zones/${z}/dns_records`,
      body: { type: "A", name: "home.example.com", content: "198.51.100.1" },
      status: 400,
      code: 81058,
    },
  ];
  for (const { name, method, path, body, status, code } of errorCases) {
    test(`${name} → HTTP ${status}, code ${code}, envelope intact`, async () => {
      const { zone, record, call } = cloudflare();
      const answer = await call(method, path(zone.id, record.id), body);
      expect(answer.status).toBe(status);
      expect(answer.body).toMatchObject({ success: false, result: null, messages: [] });
      expect(answer.body.errors[0].code).toBe(code);
    });
  }

  test("a second A record of a name with another address is created beside the first, as for round robin", async () => {
    const { zone, record, call } = cloudflare();
    const answer = await call("POST", `/zones/${zone.id}/dns_records`, {
      type: "A",
      name: "home.example.com",
      content: "198.51.100.2",
    });
    expect(answer.status).toBe(200);
    expect(answer.body.result).toMatchObject({ type: "A", name: "home.example.com", content: "198.51.100.2" });
    expect(answer.body.result.id).not.toBe(record.id);
    const listed = await call("GET", `/zones/${zone.id}/dns_records?type=A&name=home.example.com`);
    expect(listed.body.result.map((r: { content: string }) => r.content).sort()).toEqual([
      "198.51.100.1",
      "198.51.100.2",
    ]);
  });

  test("a bad token: 401 code 1000 on verify, 403 code 9109 elsewhere", async () => {
    const { call } = cloudflare();
    expect((await call("GET", "/user/tokens/verify", undefined, "bad")).body.errors[0].code).toBe(1000);
    const zones = await call("GET", "/zones", undefined, "bad");
    expect([zones.status, zones.body.errors[0].code]).toEqual([403, 9109]);
  });

  test("PATCH changes only what it sends; PUT resets what it omits", async () => {
    const { zone, record, call } = cloudflare();
    await call("PATCH", `/zones/${zone.id}/dns_records/${record.id}`, { content: "198.51.100.7" });
    expect(record).toMatchObject({ content: "198.51.100.7", ttl: 300, comment: "c" });
    await call("PUT", `/zones/${zone.id}/dns_records/${record.id}`, {
      type: "A",
      name: "home",
      content: "198.51.100.8",
    });
    expect(record).toMatchObject({ content: "198.51.100.8", ttl: 1, comment: null, proxied: false });
  });

  test("lists carry result_info and page", async () => {
    const { fake, zone, call } = cloudflare();
    for (let i = 0; i < 7; i++) fake.addRecord("example.com", { type: "A", name: `h${i}`, content: "198.51.100.1" });
    const page = await call("GET", `/zones/${zone.id}/dns_records?per_page=5&page=2`);
    expect(page.body.result_info).toEqual({ page: 2, per_page: 5, count: 3, total_count: 8, total_pages: 2 });
  });
});

describe("Dynu fake", () => {
  function dynu() {
    const fake = startDynuFake();
    stops.push(fake.stop);
    const domain = fake.addDomain("example.com", { ipv4Address: "198.51.100.1" });
    const record = fake.addRecord("example.com", {
      nodeName: "www",
      recordType: "A",
      ipv4Address: "198.51.100.2",
      ttl: 600,
    });
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(fake.url + path, {
        method,
        headers: { "API-Key": DYNU_FAKE_API_KEY, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };
    return { fake, domain, record, call };
  }

  test("a record update that omits ttl resets it", async () => {
    const { domain, record, call } = dynu();
    await call("POST", `/dns/${domain.id}/record/${record.id}`, {
      nodeName: "www",
      recordType: "A",
      ipv4Address: "198.51.100.9",
    });
    expect(record).toMatchObject({ ipv4Address: "198.51.100.9", ttl: DYNU_RESET_TTL });
  });

  test("a domain update needs the name and changes only what it sends", async () => {
    const { domain, call } = dynu();
    const nameless = await call("POST", `/dns/${domain.id}`, { ipv4Address: "198.51.100.9" });
    expect(nameless).toEqual({
      status: 501,
      body: { statusCode: 501, type: "Argument Exception", message: "Name is required." },
    });
    await call("POST", `/dns/${domain.id}`, { name: "example.com", ipv4Address: "198.51.100.9" });
    expect(domain).toMatchObject({ ipv4Address: "198.51.100.9", ttl: 90, ipv4: true, ipv6: false });
  });

  test("the listing includes SOA and NS; getroot splits node and domain", async () => {
    const { domain, call } = dynu();
    const listing = await call("GET", `/dns/${domain.id}/record`);
    expect(listing.body.dnsRecords.map((r: { recordType: string }) => r.recordType)).toEqual(["SOA", "NS", "NS", "A"]);
    const root = await call("GET", "/dns/getroot/a.b.example.com");
    expect(root.body).toEqual({
      statusCode: 200,
      id: domain.id,
      domainName: "example.com",
      hostname: "a.b.example.com",
      node: "a.b",
    });
    expect((await call("GET", "/dns/getroot/nowhere.net")).status).toBe(501);
  });

  test("timestamps have no zone suffix", async () => {
    const { domain } = dynu();
    expect(domain.updatedOn).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d\d$/);
  });
});

describe("Gandi fake", () => {
  function gandi() {
    const fake = startGandiFake();
    stops.push(fake.stop);
    fake.addDomain("example.com");
    const rrset = fake.addRrset("example.com", { name: "home", type: "A", values: ["198.51.100.1"], ttl: 1800 });
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(fake.url + path, {
        method,
        headers: { Authorization: `Bearer ${GANDI_FAKE_TOKEN}`, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, headers: response.headers, body: (await response.json()) as any };
    };
    return { fake, rrset, call };
  }

  test("a PUT answers 201 even for an update, and one without rrset_ttl resets the TTL (or keeps it, the other form)", async () => {
    const { fake, rrset, call } = gandi();
    const put = await call("PUT", "/domains/example.com/records/home/A", { rrset_values: ["198.51.100.2"] });
    expect(put).toMatchObject({ status: 201, body: { message: "DNS Record Created" } });
    expect(rrset).toMatchObject({ rrset_values: ["198.51.100.2"], rrset_ttl: GANDI_DEFAULT_TTL });
    fake.omittedTtl = "kept";
    await call("PUT", "/domains/example.com/records/home/A", { rrset_values: ["198.51.100.3"], rrset_ttl: 900 });
    await call("PUT", "/domains/example.com/records/home/A", { rrset_values: ["198.51.100.4"] });
    expect(rrset.rrset_ttl).toBe(900);
  });

  test("validation errors, 404s and the paginated listing look like Gandi's", async () => {
    const { fake, call } = gandi();
    expect(
      (await call("PUT", "/domains/example.com/records/home/A", { rrset_values: ["198.51.100.2"], rrset_ttl: 60 }))
        .body,
    ).toEqual({
      status: "error",
      errors: [{ location: "body", name: "rrset_ttl", description: "60 is less than minimum value 300" }],
    });
    expect((await call("GET", "/domains/example.com/records/nope/A")).body).toMatchObject({
      code: 404,
      cause: "Not Found",
    });
    for (const name of ["a.org", "b.org"]) fake.addDomain(name);
    const page = await call("GET", "/domains?per_page=2&page=2");
    expect(page.headers.get("total-count")).toBe("3");
    expect(page.body.map((d: { fqdn: string }) => d.fqdn)).toEqual(["example.com"]);
  });
});

describe("Hetzner fake", () => {
  function hetzner() {
    const fake = startHetznerFake();
    stops.push(fake.stop);
    fake.addZone("example.com");
    fake.addRrset("example.com", { name: "home", type: "A", values: ["198.51.100.1"], ttl: 600 });
    const call = async (method: string, path: string, body?: unknown, token = HETZNER_FAKE_TOKEN) => {
      const response = await fetch(fake.url + path, {
        method,
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    return { fake, call };
  }

  test("set_records answers 201 with a running action that succeeds after the set number of looks", async () => {
    const { fake, call } = hetzner();
    fake.actionLooks = 2;
    const set = await call("POST", "/zones/example.com/rrsets/home/A/actions/set_records", {
      records: [{ value: "198.51.100.2" }],
    });
    expect(set.status).toBe(201);
    expect(set.body.action).toMatchObject({ status: "running", command: "set_rrset_records" });
    const id = set.body.action.id;
    expect((await call("GET", `/zones/actions/${id}`)).body.action.status).toBe("running");
    expect((await call("GET", `/zones/actions/${id}`)).body.action.status).toBe("success");
    expect(fake.rrset("example.com", "home", "A")).toMatchObject({ ttl: 600, records: [{ value: "198.51.100.2" }] });
  });

  test("edits need a primary zone, a writing token and a relative name", async () => {
    const { fake, call } = hetzner();
    fake.addZone("sec.org", { mode: "secondary" });
    expect(
      (await call("POST", "/zones/sec.org/rrsets", { name: "x", type: "A", records: [{ value: "198.51.100.2" }] })).body
        .error.code,
    ).toBe("incorrect_zone_mode");
    expect(
      (
        await call(
          "POST",
          "/zones/example.com/rrsets/home/A/actions/set_records",
          { records: [{ value: "198.51.100.2" }] },
          HETZNER_READONLY_TOKEN,
        )
      ).status,
    ).toBe(403);
    const absolute = await call("POST", "/zones/example.com/rrsets", {
      name: "x.example.com",
      type: "A",
      records: [{ value: "198.51.100.2" }],
    });
    expect([absolute.status, absolute.body.error.code]).toEqual([422, "invalid_input"]);
  });
});

describe("Route 53 fake", () => {
  function route53() {
    const fake = startRoute53Fake();
    stops.push(fake.stop);
    const zone = fake.addZone("example.com");
    const call = async (method: string, path: string, body = "", secret = ROUTE53_FAKE_SECRET) => {
      const url = new URL(fake.url + path);
      const headers = signRequest(
        { method, url, headers: body ? { "content-type": "text/xml" } : {}, body },
        { accessKeyId: ROUTE53_FAKE_ACCESS_KEY_ID, secretAccessKey: secret },
        { region: "us-east-1", service: "route53" },
      );
      const response = await fetch(url, { method, headers, body: body || undefined });
      return { status: response.status, text: await response.text() };
    };
    return { fake, zone, call };
  }

  test("an unsigned request and a wrong secret are refused with 403; a right signature is accepted", async () => {
    const { fake, call } = route53();
    expect((await fetch(`${fake.url}/hostedzonecount`)).status).toBe(403);
    expect((await call("GET", "/hostedzonecount", "", "wrong")).text).toContain("<Code>SignatureDoesNotMatch</Code>");
    expect((await call("GET", "/hostedzonecount")).text).toContain("<HostedZoneCount>1</HostedZoneCount>");
  });

  test("hostedzonesbyname and rrset listings start AT the name asked, in reversed-label order", async () => {
    const { fake, zone, call } = route53();
    fake.addZone("zzz.com");
    fake.addSet(zone.id, { name: "b.example.com", type: "A", ttl: 60, values: ["198.51.100.1"] });
    const zones = await call("GET", "/hostedzonesbyname?dnsname=f.example.com.&maxitems=1");
    expect(zones.text).toContain("<Name>zzz.com.</Name>");
    const sets = await call("GET", `/hostedzone/${zone.id}/rrset?name=a.example.com.&type=A&maxitems=1`);
    expect(sets.text).toContain("<Name>b.example.com.</Name>");
    expect(sets.text).toContain("<IsTruncated>false</IsTruncated>");
  });

  test("a change batch with one bad change is refused whole; UPSERT replaces the whole set", async () => {
    const { fake, zone, call } = route53();
    const batch = (changes: string) =>
      `<ChangeResourceRecordSetsRequest xmlns="https://route53.amazonaws.com/doc/2013-04-01/"><ChangeBatch><Changes>${changes}</Changes></ChangeBatch></ChangeResourceRecordSetsRequest>`;
    const change = (action: string, name: string, value: string) =>
      `<Change><Action>${action}</Action><ResourceRecordSet><Name>${name}</Name><Type>A</Type><TTL>60</TTL><ResourceRecords><ResourceRecord><Value>${value}</Value></ResourceRecord></ResourceRecords></ResourceRecordSet></Change>`;
    const refused = await call(
      "POST",
      `/hostedzone/${zone.id}/rrset`,
      batch(change("CREATE", "a.example.com.", "198.51.100.1") + change("CREATE", "b.other.org.", "198.51.100.1")),
    );
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(
      "<Message>RRSet with DNS name b.other.org. is not permitted in zone example.com.</Message>",
    );
    expect(fake.set("a.example.com", "A")).toBeUndefined();
    fake.addSet(zone.id, {
      name: "c.example.com",
      type: "A",
      ttl: 900,
      values: ["198.51.100.1", "198.51.100.2"],
      healthCheckId: "hc",
    });
    expect(
      (await call("POST", `/hostedzone/${zone.id}/rrset`, batch(change("UPSERT", "c.example.com.", "198.51.100.3"))))
        .status,
    ).toBe(200);
    expect(fake.set("c.example.com", "A")).toEqual({
      name: "c.example.com.",
      type: "A",
      ttl: 60,
      values: ["198.51.100.3"],
    });
  });
});

describe("fault injection", () => {
  test("a timeout fault holds the request until stop(), and stop() does not hang", async () => {
    const echo = startEchoFake();
    echo.fault("timeout");
    const pending = fetch(`${echo.url}/v4`).then(
      (r) => r.status,
      () => "failed",
    );
    await waitFor(() => echo.requests.length > 0, 5_000, "the request to reach the echo fake");
    await echo.stop();
    expect(["failed", 504]).toContain(await pending);
  });

  test("a counted fault applies to the next N matching requests only", async () => {
    const echo = startEchoFake();
    stops.push(echo.stop);
    echo.fault({ status: 429 }, 2, "/v4");
    const statuses = [];
    for (const path of ["/v6", "/v4", "/v4", "/v4"]) statuses.push((await fetch(echo.url + path)).status);
    expect(statuses).toEqual([200, 429, 429, 200]);
    expect(echo.hits("/v4")).toBe(3);
  });

  test("a delay fault gives the service's own answer late, and its state changes", async () => {
    const { fake, zone, record, call } = cloudflare();
    fake.fault({ delayMs: 150 }, 1, (r) => r.method === "PATCH");
    const started = performance.now();
    const patched = await call("PATCH", `/zones/${zone.id}/dns_records/${record.id}`, { content: "198.51.100.9" });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(patched.body.result.content).toBe("198.51.100.9");
    expect(record.content).toBe("198.51.100.9");
  });

  test("maxInFlight counts the requests answered side by side, in all or in those matched", async () => {
    const echo = startEchoFake();
    stops.push(echo.stop);
    echo.fault({ delayMs: 100 }, undefined, "/v4");
    await Promise.all([fetch(`${echo.url}/v4`), fetch(`${echo.url}/v4`), fetch(`${echo.url}/v4`)]);
    await fetch(`${echo.url}/v6`);
    expect(echo.maxInFlight()).toBe(3);
    expect(echo.maxInFlight((r) => r.path === "/v6")).toBe(1);
    expect(echo.inFlight()).toBe(0);
    expect(echo.requests.every((r) => r.answeredAt! >= r.receivedAt)).toBe(true);
  });

  test("reset() empties the service, the faults and the log, on the same URL", async () => {
    const { fake, call } = cloudflare();
    fake.tokens.clear();
    fake.fault({ status: 500 });
    fake.reset();
    expect(fake.zones.size).toBe(0);
    expect(fake.record("home.example.com", "A")).toBeUndefined();
    expect((await call("GET", "/zones?name=example.com")).body.result).toEqual([]);
    expect(fake.requests).toHaveLength(1);

    const dynu = startDynuFake({ errorShape: "nested" });
    stops.push(dynu.stop);
    dynu.addDomain("example.org");
    dynu.errorShape = "flat";
    dynu.apiKeys.clear();
    dynu.reset();
    expect(dynu.domain("example.org")).toBeUndefined();
    expect(dynu.errorShape as string).toBe("nested"); // (narrowed to "flat" by the assignment above)
    expect([...dynu.apiKeys]).toEqual([DYNU_FAKE_API_KEY]);

    const echo = startEchoFake({ ipv4: "185.103.110.1" });
    stops.push(echo.stop);
    echo.ipv4 = "185.103.110.2";
    echo.reset();
    expect(echo.ipv4).toBe("185.103.110.1");
  });
});

describe("dyndns2 fake: one hostname, two address families", () => {
  async function update(fake: Dyndns2Fake, query: Record<string, string>) {
    const response = await fetch(
      `${fake.url}/nic/update?${new URLSearchParams({ hostname: "home.example.net", ...query })}`,
      {
        headers: {
          Authorization: `Basic ${Buffer.from(`${DYNDNS2_FAKE_USER}:${DYNDNS2_FAKE_PASSWORD}`).toString("base64")}`,
          "User-Agent": "ddnsd-test/1.0 (fakes)",
        },
      },
    );
    return (await response.text()).trim();
  }
  function started(options: Parameters<typeof startDyndns2Fake>[0]) {
    const fake = startDyndns2Fake(options);
    stops.push(fake.stop);
    const host = fake.addHost("home.example.net", { ipv4: "198.51.100.1", ipv6: "2001:db8::1" });
    return { fake, host };
  }

  test("Dyn and deSEC: an update naming only one family removes the other", async () => {
    for (const style of ["dyn", "desec"] as const) {
      const { fake, host } = started({ style });
      expect(await update(fake, { myip: "198.51.100.2" })).toBe("good 198.51.100.2");
      expect([host.ipv4, host.ipv6]).toEqual(["198.51.100.2", ""]);
      host.ipv4 = "198.51.100.2";
      host.ipv6 = "2001:db8::1";
      await update(fake, { myip: "2001:db8::2" });
      expect([host.ipv4, host.ipv6]).toEqual(["", "2001:db8::2"]);
    }
  });

  test("No-IP keeps the other family; both in one request keep both everywhere", async () => {
    const { fake, host } = started({ style: "noip" });
    await update(fake, { myip: "198.51.100.2" });
    expect([host.ipv4, host.ipv6]).toEqual(["198.51.100.2", "2001:db8::1"]);
    const dyn = started({ style: "dyn" });
    expect(await update(dyn.fake, { myip: "198.51.100.3,2001:db8::3" })).toBe("good 198.51.100.3,2001:db8::3");
    expect([dyn.host.ipv4, dyn.host.ipv6]).toEqual(["198.51.100.3", "2001:db8::3"]);
  });

  test("deSEC: myipv4/myipv6, and preserve keeps a family", async () => {
    const { fake, host } = started({ style: "desec" });
    await update(fake, { myipv4: "198.51.100.2", myipv6: "preserve" });
    expect([host.ipv4, host.ipv6]).toEqual(["198.51.100.2", "2001:db8::1"]);
    await update(fake, { myipv4: "preserve", myipv6: "2001:db8::2" });
    expect([host.ipv4, host.ipv6]).toEqual(["198.51.100.2", "2001:db8::2"]);
  });

  test('otherFamily "caller": a missing IPv4 is taken from the connection', async () => {
    const { fake, host } = started({ style: "dyn", otherFamily: "caller" });
    await update(fake, { myip: "2001:db8::2" });
    expect([host.ipv4, host.ipv6]).toEqual([DYNDNS2_CALLER_IPV4, "2001:db8::2"]);
  });

  test('ignoreUpdates: Dyn\'s "good 127.0.0.1", and nothing changes', async () => {
    const { fake, host } = started({ style: "dyn" });
    fake.ignoreUpdates = true;
    expect(await update(fake, { myip: "198.51.100.2,2001:db8::2" })).toBe("good 127.0.0.1");
    expect([host.ipv4, host.ipv6]).toEqual(["198.51.100.1", "2001:db8::1"]);
  });
});

describe("the services' known answers, each switchable", () => {
  test("Dynu's quota answer: 503 Quota Exception, without Retry-After", async () => {
    const fake = startDynuFake();
    stops.push(fake.stop);
    fake.fault({ status: 503 }, 1);
    const response = await fetch(`${fake.url}/dns`, { headers: { "API-Key": DYNU_FAKE_API_KEY } });
    expect([response.status, response.headers.get("retry-after")]).toEqual([503, null]);
    expect(await response.json()).toMatchObject({ statusCode: 503, type: "Quota Exception" });
  });

  test("Porkbun's throttle: two requests of one key too close get the openresty 503 page, without Retry-After", async () => {
    const fake = startPorkbunFake();
    stops.push(fake.stop);
    fake.minIntervalMs = 60_000;
    const ping = () =>
      fetch(`${fake.url}/ping`, {
        method: "POST",
        body: JSON.stringify({ apikey: PORKBUN_FAKE_API_KEY, secretapikey: PORKBUN_FAKE_SECRET }),
      });
    expect((await ping()).status).toBe(200);
    const throttled = await ping();
    expect([throttled.status, throttled.headers.get("retry-after")]).toEqual([503, null]);
    expect(await throttled.text()).toContain("openresty");
  });

  test("Hetzner: a protected rrset refuses every change with 423 protected", async () => {
    const fake = startHetznerFake();
    stops.push(fake.stop);
    fake.addZone("example.com");
    const rrset = fake.addRrset("example.com", { name: "home", type: "A", values: ["198.51.100.1"] });
    rrset.protection.change = true;
    const response = await fetch(`${fake.url}/zones/example.com/rrsets/home/A/actions/set_records`, {
      method: "POST",
      headers: { Authorization: `Bearer ${HETZNER_FAKE_TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ records: [{ value: "198.51.100.2" }] }),
    });
    expect([response.status, ((await response.json()) as { error: { code: string } }).error.code]).toEqual([
      423,
      "protected",
    ]);
    expect(rrset.records).toEqual([{ value: "198.51.100.1" }]);
  });

  test("Cloudflare lists a pending zone beside the active one of the same name", async () => {
    const fake = startCloudflareFake();
    stops.push(fake.stop);
    fake.addZone("example.com", "pending");
    fake.addZone("example.com");
    const response = await fetch(`${fake.url}/zones?name=example.com`, {
      headers: { Authorization: `Bearer ${CLOUDFLARE_FAKE_TOKEN}` },
    });
    const body = (await response.json()) as { result: { status: string; activated_on: string | null }[] };
    expect(body.result.map((z) => [z.status, z.activated_on === null])).toEqual([
      ["pending", true],
      ["active", false],
    ]);
  });
});
