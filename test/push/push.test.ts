// The router push, GET /nic/update (docs/router-push.md), through the real app against the Cloudflare and
// echo fakes: the answer lines, what reaches the provider (nothing when the record already holds
// the address), the history rows, and that no echo service is asked when the router names its address.

import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { DUCKDNS_FAKE_TOKEN, startDuckDnsFake } from "../fakes/duckdns";
import { addDomain, addProvider, domainState, historyOf, type Rig, useRig } from "../updater/harness";

const current = useRig();
let rig: Rig;
beforeEach(() => {
  rig = current();
  rig.cf.addZone("example.com");
});

const V4 = "81.2.69.160";
const V4_OLD = "81.2.69.142";
const V6 = "2a01:4f8:c17:b8f::99";

async function newKey(domainIds?: number[] | null): Promise<string> {
  const response = await rig.t.request("POST", "/api/v1/update-keys", {
    body: { name: "router", ...(domainIds === undefined ? {} : { domain_ids: domainIds }) },
  });
  expect(response.status).toBe(200);
  return response.body.key;
}

/** A push as a router sends it: the key as the Basic auth password (default), or in the query. */
async function push(
  query: string,
  key: string | null,
  how: "basic" | "query" = "basic",
  peer = `peer-${crypto.randomUUID()}`,
) {
  const headers: Record<string, string> = { "user-agent": "AVM FRITZ!Box" };
  let path = `/nic/update?${query}`;
  if (key !== null && how === "basic")
    headers.authorization = `Basic ${Buffer.from(`fritz:${key}`).toString("base64")}`;
  if (key !== null && how === "query") path += `&password=${encodeURIComponent(key)}`;
  const request = new Request(`http://localhost${path}`, { headers });
  // Each push comes from an address of its own unless the test names one, as a socket's would be seen.
  rig.t.ctx.signIns.rememberPeer(request, peer);
  const response = await rig.t.app.handle(request);
  const retryAfter = response.headers.get("retry-after");
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    text: await response.text(),
    ...(retryAfter === null ? {} : { retryAfter }),
  };
}

async function cloudflareDomain(
  hostname: string,
  recordType: "A" | "AAAA" = "A",
  content = recordType === "A" ? V4_OLD : "2a01:4f8:c17:b8f::1",
  config: Record<string, unknown> = {},
) {
  const provider = await addProvider(rig.t, "cloudflare");
  rig.cf.addRecord("example.com", { type: recordType, name: hostname, content });
  return addDomain(rig.t, provider.id, hostname, { record_type: recordType, config });
}

const cfWrites = () =>
  rig.cf.requests.filter((r) => r.method === "PATCH" || r.method === "POST" || r.method === "PUT").length;
const echoRequests = () => rig.echo.requests.length;

describe("authentication", () => {
  test("a missing key, a wrong key and a deleted key → 401 badauth, nothing written", async () => {
    const domain = await cloudflareDomain("home.example.com");
    const key = await newKey();
    for (const attempt of [
      await push(`hostname=home.example.com&myip=${V4}`, null),
      await push(`hostname=home.example.com&myip=${V4}`, `${key}x`),
    ]) {
      expect(attempt).toMatchObject({ status: 401, text: "badauth" });
      expect(attempt.type).toStartWith("text/plain");
    }
    const list = await rig.t.request("GET", "/api/v1/update-keys");
    expect((await rig.t.request("DELETE", `/api/v1/update-keys/${list.body[0].id}`)).status).toBe(200);
    expect(await push(`hostname=home.example.com&myip=${V4}`, key)).toMatchObject({ status: 401, text: "badauth" });
    expect(cfWrites()).toBe(0);
    expect(await historyOf(rig.t, domain.id)).toEqual([]);
  });

  test("an API token is no update key", async () => {
    await cloudflareDomain("home.example.com");
    expect(await push(`hostname=home.example.com&myip=${V4}`, await rig.t.token())).toMatchObject({
      status: 401,
      text: "badauth",
    });
  });

  test("the key in the password parameter works like Basic auth, and marks the key used", async () => {
    await cloudflareDomain("home.example.com");
    const key = await newKey();
    expect(await push(`hostname=home.example.com&myip=${V4}`, key, "query")).toMatchObject({
      status: 200,
      text: `good ${V4}`,
    });
    const [listed] = (await rig.t.request("GET", "/api/v1/update-keys")).body;
    expect(listed.last_used_at).not.toBeNull();
  });
});

describe("writing", () => {
  test("a new address: good, the record follows, a push row in the history, no echo request", async () => {
    const domain = await cloudflareDomain("home.example.com");
    const key = await newKey();
    const answer = await push(`hostname=home.example.com&myip=${V4}`, key);
    expect(answer).toEqual({ status: 200, type: "text/plain; charset=utf-8", text: `good ${V4}` });
    expect(rig.cf.record("home.example.com", "A")!.content).toBe(V4);
    const [row] = await historyOf(rig.t, domain.id);
    // previous_ip: what the record held, as the service was read (ddnsd had not written it yet).
    expect(row).toMatchObject({ status: "SUCCESS", trigger: "push", ip_address: V4, previous_ip: V4_OLD });
    expect(echoRequests()).toBe(0);
    const status = await rig.t.request("GET", "/api/v1/system/status");
    expect(status.body.public_ip.ipv4).toBe(V4);
  });

  test("the same address again: nochg once the record is read at the service (nothing written), no echo request, no history row", async () => {
    const domain = await cloudflareDomain("home.example.com");
    const key = await newKey();
    await push(`hostname=home.example.com&myip=${V4}`, key);
    rig.cf.clearRequests();
    expect((await push(`hostname=home.example.com&myip=${V4}`, key)).text).toBe(`nochg ${V4}`);
    expect(rig.cf.requests.length).toBeGreaterThan(0);
    expect(rig.cf.requests.every((request) => request.method === "GET")).toBe(true);
    expect(echoRequests()).toBe(0);
    expect(await historyOf(rig.t, domain.id)).toHaveLength(1);
  });

  test("a push that finds the record holding the address ddnsd knows asks the zone's name servers about it, as a scheduled check does", async () => {
    const domain = await cloudflareDomain("home.example.com", "A", V4);
    // Known from before a restart: nothing is being asked about the record.
    rig.t.ctx.sqlite.query("UPDATE domains SET last_known_ip = ? WHERE id = ?").run(V4, domain.id);
    const propagation = async () => (await rig.t.request("GET", `/api/v1/domains/${domain.id}`)).body.propagation;
    expect((await propagation()).state).toBe("unknown");
    expect((await push(`hostname=home.example.com&myip=${V4}`, await newKey())).text).toBe(`nochg ${V4}`);
    expect(cfWrites()).toBe(0);
    rig.t.ctx.propagation.runDue();
    await rig.t.ctx.propagation.idle();
    // The tests' resolvers never answer, so the zone's name servers cannot be found: asked, and said so.
    expect(await propagation()).toMatchObject({
      state: "unreachable",
      detail: expect.stringContaining("home.example.com"),
    });
  });

  describe("at a service that can only be asked by writing (DuckDNS)", () => {
    const duck = startDuckDnsFake();
    const duckRig = useRig({ env: { DDNS_DUCKDNS_API_URL: duck.url } });
    afterAll(() => duck.stop());

    test("the address last written, pushed again: nochg with no request, since such a service counts repeats against the sender; a new address is sent", async () => {
      rig = duckRig();
      duck.addDomain("home");
      const provider = await rig.t.request("POST", "/api/v1/providers", {
        body: { name: "duck", type: "duckdns", credentials: { token: DUCKDNS_FAKE_TOKEN } },
      });
      expect(provider.status).toBe(200);
      const domain = await addDomain(rig.t, provider.body.id, "home.duckdns.org");
      const key = await newKey();
      expect((await push(`hostname=home.duckdns.org&myip=${V4}`, key)).text).toBe(`good ${V4}`);
      expect(duck.updates()).toBe(1);
      expect((await push(`hostname=home.duckdns.org&myip=${V4}`, key)).text).toBe(`nochg ${V4}`);
      expect(duck.updates()).toBe(1);
      expect(await historyOf(rig.t, domain.id)).toHaveLength(1);
      expect((await push(`hostname=home.duckdns.org&myip=81.2.69.161`, key)).text).toBe("good 81.2.69.161");
      expect(duck.updates()).toBe(2);
      expect(duck.domains.get("home")!.ipv4).toBe("81.2.69.161");
    });
  });

  test("another writer changed the record: the same push is good again and the record follows (nochg is never answered from memory)", async () => {
    const domain = await cloudflareDomain("home.example.com");
    const key = await newKey();
    await push(`hostname=home.example.com&myip=${V4}`, key);
    rig.cf.record("home.example.com", "A")!.content = V4_OLD;
    expect((await push(`hostname=home.example.com&myip=${V4}`, key)).text).toBe(`good ${V4}`);
    expect(rig.cf.record("home.example.com", "A")!.content).toBe(V4);
    const [row] = await historyOf(rig.t, domain.id);
    expect(row).toMatchObject({ trigger: "push", status: "SUCCESS", ip_address: V4 });
    expect(row.message).not.toContain("nothing written");
  });

  test("several hostnames: one line each, in order (good, nohost, notfqdn, good)", async () => {
    const a = await cloudflareDomain("a.example.com");
    const provider = await addProvider(rig.t, "cloudflare");
    rig.cf.addRecord("example.com", { type: "A", name: "b", content: V4_OLD });
    await addDomain(rig.t, provider.id, "b.example.com");
    const key = await newKey();
    const answer = await push(`hostname=a.example.com,unknown.example.com,not_a_host!,B.Example.com.&myip=${V4}`, key);
    expect(answer.text.split("\n")).toEqual([`good ${V4}`, "nohost", "notfqdn", `good ${V4}`]);
    expect(rig.cf.record("b.example.com", "A")!.content).toBe(V4);
    expect(domainState(rig.t, a.id).last_known_ip).toBe(V4);
  });

  test("myip=<ipv4>,<ipv6>: the A record gets the IPv4 and the AAAA the IPv6", async () => {
    const provider = await addProvider(rig.t, "cloudflare");
    rig.cf.addRecord("example.com", { type: "A", name: "home", content: V4_OLD });
    rig.cf.addRecord("example.com", { type: "AAAA", name: "home", content: "2a01:4f8:c17:b8f::1" });
    await addDomain(rig.t, provider.id, "home.example.com", { record_type: "A" });
    await addDomain(rig.t, provider.id, "home.example.com", { record_type: "AAAA" });
    const answer = await push(`hostname=home.example.com&myip=${V4},${V6}`, await newKey());
    expect(answer.text).toBe(`good ${V4},${V6}`);
    expect(rig.cf.record("home.example.com", "A")!.content).toBe(V4);
    expect(rig.cf.record("home.example.com", "AAAA")!.content).toBe(V6);
    expect(echoRequests()).toBe(0);
  });

  test("myipv6= alone: the AAAA record follows and the A record is left alone", async () => {
    const provider = await addProvider(rig.t, "cloudflare");
    rig.cf.addRecord("example.com", { type: "A", name: "home", content: V4_OLD });
    rig.cf.addRecord("example.com", { type: "AAAA", name: "home", content: "2a01:4f8:c17:b8f::1" });
    const a = await addDomain(rig.t, provider.id, "home.example.com", { record_type: "A" });
    await addDomain(rig.t, provider.id, "home.example.com", { record_type: "AAAA" });
    expect((await push(`hostname=home.example.com&myipv6=${V6}`, await newKey())).text).toBe(`good ${V6}`);
    expect(rig.cf.record("home.example.com", "AAAA")!.content).toBe(V6);
    expect(rig.cf.record("home.example.com", "A")!.content).toBe(V4_OLD);
    expect(await historyOf(rig.t, a.id)).toEqual([]);
  });

  test("without myip ddnsd detects the address itself", async () => {
    await cloudflareDomain("home.example.com");
    const answer = await push("hostname=home.example.com", await newKey());
    expect(answer.text).toBe(`good ${rig.echo.ipv4}`);
    expect(rig.echo.hits("/v4")).toBe(1);
  });

  test("an AAAA record with ipv6_suffix gets the pushed prefix and the LAN host's suffix", async () => {
    await cloudflareDomain("nas.example.com", "AAAA", "2a01:4f8:c17:b8f::1", { ipv6_suffix: "::1234:5678:9abc:def0" });
    expect((await push(`hostname=nas.example.com&myipv6=2a01:4f8:c17:aaaa::1`, await newKey())).status).toBe(200);
    expect(rig.cf.record("nas.example.com", "AAAA")!.content).toBe("2a01:4f8:c17:aaaa:1234:5678:9abc:def0");
  });
});

describe("what a key covers", () => {
  test("a key for some domains answers nohost for the others, and for disabled domains", async () => {
    const a = await cloudflareDomain("a.example.com");
    await cloudflareDomain("b.example.com");
    const c = await cloudflareDomain("c.example.com");
    await rig.t.request("PUT", `/api/v1/domains/${c.id}`, { body: { is_enabled: false } });
    const key = await newKey([a.id, c.id]);
    expect((await push(`hostname=a.example.com,b.example.com,c.example.com&myip=${V4}`, key)).text).toBe(
      `good ${V4}\nnohost\nnohost`,
    );
    expect(rig.cf.record("b.example.com", "A")!.content).toBe(V4_OLD);
  });
});

describe("failures", () => {
  test("a private or malformed address → 911 and a history row saying why; nothing sent to the provider", async () => {
    const domain = await cloudflareDomain("home.example.com");
    const key = await newKey();
    expect(await push("hostname=home.example.com&myip=192.168.1.20", key)).toMatchObject({ status: 200, text: "911" });
    expect(await push("hostname=home.example.com&myip=81.2.69.999", key)).toMatchObject({ status: 200, text: "911" });
    const rows = await historyOf(rig.t, domain.id);
    expect(rows.map((row: any) => [row.status, row.trigger, row.ip_address])).toEqual([
      ["FAILED", "push", null],
      ["FAILED", "push", null],
    ]);
    expect(rows[1].message).toContain("192.168.1.20, which is not a globally routable address");
    expect(rows[0].message).toContain('"81.2.69.999", which is not an IP address');
    expect(rig.cf.requests).toHaveLength(0);
    expect(echoRequests()).toBe(0);
  });

  test("the provider refuses → 911 and the reason in the history", async () => {
    const domain = await cloudflareDomain("home.example.com");
    rig.cf.fault({ status: 500 });
    expect((await push(`hostname=home.example.com&myip=${V4}`, await newKey())).text).toBe("911");
    const [row] = await historyOf(rig.t, domain.id);
    expect(row).toMatchObject({ status: "FAILED", trigger: "push", ip_address: V4 });
  });

  test("a provider paused by a 429 is not called: 911, and the history says until when", async () => {
    const domain = await cloudflareDomain("home.example.com");
    rig.t.ctx.sqlite.query("UPDATE providers SET paused_until = ?").run(Date.now() + 600_000);
    rig.cf.clearRequests();
    expect((await push(`hostname=home.example.com&myip=${V4}`, await newKey())).text).toBe("911");
    expect(rig.cf.requests).toHaveLength(0);
    const [row] = await historyOf(rig.t, domain.id);
    expect(row.message).toContain("asked to wait until");
  });

  test("no hostname → notfqdn", async () => {
    expect((await push(`myip=${V4}`, await newKey())).text).toBe("notfqdn");
  });
});

describe("a key holder or a guesser cannot do more than a router", () => {
  test("wrong keys are throttled like sign-ins: 429 abuse with Retry-After after 5 in a row, an IPv6 /64 counted as one, one log line", async () => {
    await cloudflareDomain("home.example.com");
    const key = await newKey();
    const logged = () =>
      rig.t.logs.filter((line) => line.includes("a push with a wrong update key was refused")).length;
    const before = logged();
    for (let i = 1; i <= 5; i++) {
      expect((await push(`hostname=home.example.com&myip=${V4}`, `${key}x`, "basic", `2001:db8:1:2::${i}`)).text).toBe(
        "badauth",
      );
    }
    // The sixth from the same /64, even with the right key: refused without a check.
    const refused = await push(`hostname=home.example.com&myip=${V4}`, key, "basic", "2001:db8:1:2:ffff::9");
    expect(refused).toMatchObject({ status: 429, text: "abuse" });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(cfWrites()).toBe(0);
    // Another /64, and sign-ins from the same one, are not affected.
    expect((await push(`hostname=home.example.com&myip=${V4}`, key, "basic", "2001:db8:1:3::1")).text).toBe(
      `good ${V4}`,
    );
    expect(logged() - before).toBe(1);
  });

  test("a scoped key pushing a hostname it does not cover leaves the dashboard's public address alone", async () => {
    const a = await cloudflareDomain("a.example.com");
    await cloudflareDomain("b.example.com");
    const key = await newKey([a.id]);
    rig.t.ctx.publicIp.ipv4 = V4_OLD;
    expect((await push("hostname=b.example.com&myip=81.2.69.1", key)).text).toBe("nohost");
    expect(rig.t.ctx.publicIp.ipv4).toBe(V4_OLD);
    expect((await push(`hostname=a.example.com&myip=${V4}`, key)).text).toBe(`good ${V4}`);
    expect(rig.t.ctx.publicIp.ipv4).toBe(V4);
  });

  test("pushing the same refused or failing address again adds no history row and calls no provider", async () => {
    const domain = await cloudflareDomain("home.example.com");
    const key = await newKey();
    for (let i = 0; i < 5; i++)
      expect((await push("hostname=home.example.com&myip=192.168.1.20", key)).text).toBe("911");
    expect(await historyOf(rig.t, domain.id)).toHaveLength(1);
    rig.cf.fault({ status: 500 });
    expect((await push(`hostname=home.example.com&myip=${V4}`, key)).text).toBe("911");
    const calls = rig.cf.requests.length;
    for (let i = 0; i < 5; i++) expect((await push(`hostname=home.example.com&myip=${V4}`, key)).text).toBe("911");
    expect((await historyOf(rig.t, domain.id)).map((row: any) => row.ip_address)).toEqual([V4, null]);
    expect(rig.cf.requests.length).toBe(calls);
    // Once the service works again, a push of that address is tried (the scheduler's retry came first here).
    rig.cf.clearFaults();
    rig.t.ctx.sqlite.query("UPDATE history SET trigger = 'schedule' WHERE domain_id = ?").run(domain.id);
    expect((await push(`hostname=home.example.com&myip=${V4}`, key)).text).toBe(`good ${V4}`);
  });
});

describe("a domain with several sources", () => {
  test("a push makes its sources asked now: the set stays whole, the router's one address is not written over it", async () => {
    const provider = await addProvider(rig.t, "cloudflare");
    rig.cf.addRecord("example.com", { type: "A", name: "rr", content: V4_OLD });
    const domain = await addDomain(rig.t, provider.id, "rr.example.com", {
      address_source: ["fixed:81.2.69.170", "fixed:81.2.69.171"],
    });
    const key = await newKey();
    const answer = await push(`hostname=rr.example.com&myip=${V4}`, key);
    expect(answer.status).toBe(200);
    const held = [...rig.cf.records.values()]
      .filter((record) => record.name === "rr.example.com")
      .map((record) => record.content)
      .sort();
    expect(held).toEqual(["81.2.69.170", "81.2.69.171"]);
    const [row] = await historyOf(rig.t, domain.id);
    expect(row).toMatchObject({ trigger: "push", addresses: ["81.2.69.170", "81.2.69.171"] });
  });
});
