// Each domain's own address source (docs/operations.md, address sources) through the whole app:
// the field in the API with its refusals, a fixed address, push-only records that the schedule never
// writes (and their forced update, and going stale), two echo services that must agree, one question
// per distinct source in a pass, a domain's own web or dns source beside a system source of the other
// kind (each row saying where its address came from), and failed detections kept out of every
// provider's figures.

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, setSystemTime, test } from "bun:test";
import { type EchoFake, startEchoFake } from "../fakes/echo";
import { startWhoamiDnsFake, type WhoamiDnsFake } from "../fakes/whoami-dns";
import { page, signIn } from "../ui/helpers";
import {
  addDomain,
  addProvider,
  duePass,
  forceUpdate,
  getDomain,
  historyOf,
  makeDue,
  NEXT_IPV4,
  OLD_IPV4,
  type Rig,
  useRig,
} from "./harness";

const PUSHED = "81.2.69.180";
const FIXED = "81.2.69.160";

function cloudflareRecord(rig: Rig, name: string, content = OLD_IPV4): void {
  if (![...rig.cf.zones.values()].some((zone) => zone.name === "example.com")) rig.cf.addZone("example.com");
  rig.cf.addRecord("example.com", { type: "A", name, content });
}

async function push(rig: Rig, query: string, key: string): Promise<string> {
  const response = await rig.t.app.handle(
    new Request(`http://localhost/nic/update?${query}`, {
      headers: { Authorization: `Basic ${btoa(`router:${key}`)}` },
    }),
  );
  return (await response.text()).trim();
}

async function newKey(rig: Rig): Promise<string> {
  return (
    await rig.t.request("POST", "/api/v1/update-keys", { body: { name: `router-${crypto.randomUUID().slice(0, 6)}` } })
  ).body.key;
}

describe("address_source in the API", () => {
  const current = useRig();
  let rig: Rig;
  beforeEach(() => {
    rig = current();
  });

  test("each kind is stored as written (a fixed address in canonical form), returned, changed and reset to null", async () => {
    const provider = await addProvider(rig.t, "cloudflare");
    const cases: [string, string, string][] = [
      ["web", "A", "web"],
      ["DNS", "A", "dns"],
      ["push", "A", "push"],
      [`fixed:${FIXED}`, "A", `fixed:${FIXED}`],
      ["fixed:2A01:4F8:0:0::5", "AAAA", "fixed:2a01:4f8::5"],
    ];
    for (const [index, [given, type, stored]] of cases.entries()) {
      const domain = await addDomain(rig.t, provider.id, `h${index}.example.com`, {
        record_type: type,
        address_source: given,
      });
      expect((await getDomain(rig.t, domain.id)).address_source).toBe(stored);
    }
    const plain = await addDomain(rig.t, provider.id, "plain.example.com");
    expect((await getDomain(rig.t, plain.id)).address_source).toBeNull();
    const changed = await rig.t.request("PUT", `/api/v1/domains/${plain.id}`, { body: { address_source: "push" } });
    expect(changed.status).toBe(200);
    expect(changed.body.address_source).toBe("push");
    const reset = await rig.t.request("PUT", `/api/v1/domains/${plain.id}`, { body: { address_source: null } });
    expect(reset.body.address_source).toBeNull();
  });

  test("an unknown value, a private or malformed fixed address, or one of the other family: 422 naming address_source, nothing stored", async () => {
    const provider = await addProvider(rig.t, "cloudflare");
    for (const [source, type] of [
      ["echo", "A"],
      ["interface:", "A"],
      ["interface:has space", "A"],
      ["fixed:192.168.1.10", "A"],
      ["fixed:not-an-address", "A"],
      ["fixed:2a01:4f8::5", "A"],
      [`fixed:${FIXED}`, "AAAA"],
      // No such interface; lo, whose loopback addresses are not what the updater would publish.
      ["interface:nosuch0", "A"],
      ["interface:lo", "A"],
      ["interface:lo", "AAAA"],
    ]) {
      const response = await rig.t.request("POST", "/api/v1/domains", {
        body: { provider_id: provider.id, domain_name: "bad.example.com", record_type: type, address_source: source },
      });
      expect(response.status).toBe(422);
      expect(response.body.errors.map((error: { field: string }) => error.field)).toEqual(["address_source"]);
    }
    expect((await rig.t.request("GET", "/api/v1/domains")).body).toEqual([]);
    const domain = await addDomain(rig.t, provider.id, "ok.example.com");
    const refused = await rig.t.request("PUT", `/api/v1/domains/${domain.id}`, {
      body: { address_source: "fixed:10.0.0.1" },
    });
    expect(refused.status).toBe(422);
    expect((await getDomain(rig.t, domain.id)).address_source).toBeNull();
  });

  test("an interface source is refused saying what the interface lacks, on a create and an edit, and nothing is stored", async () => {
    const provider = await addProvider(rig.t, "cloudflare");
    const missing = await rig.t.request("POST", "/api/v1/domains", {
      body: { provider_id: provider.id, domain_name: "wan.example.com", address_source: "interface:nosuch0" },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([
      { field: "address_source", message: "this machine has no interface named nosuch0 now" },
    ]);
    const loopback = await rig.t.request("POST", "/api/v1/domains", {
      body: { provider_id: provider.id, domain_name: "wan.example.com", address_source: "interface:lo" },
    });
    expect(loopback.status).toBe(422);
    expect(loopback.body.errors[0].field).toBe("address_source");
    expect(loopback.body.errors[0].message).toStartWith("interface lo has no public (global) IPv4 address now");
    expect((await rig.t.request("GET", "/api/v1/domains")).body).toEqual([]);

    const domain = await addDomain(rig.t, provider.id, "ok.example.com", { address_source: "dns" });
    const refused = await rig.t.request("PUT", `/api/v1/domains/${domain.id}`, {
      body: { address_source: "interface:nosuch0", cron_schedule: "*/5 * * * *" },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((error: { field: string }) => error.field)).toEqual(["address_source"]);
    expect(await getDomain(rig.t, domain.id)).toMatchObject({ address_source: "dns", cron_schedule: null });
  });

  test("a stored interface that has gone is kept on an edit of something else, and checked when the record type changes", async () => {
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "ppp.example.com");
    // As if the interface had been there when it was chosen (a PPPoE link now down for a moment).
    rig.t.ctx.sqlite.query("UPDATE domains SET address_source = 'interface:gone0' WHERE id = ?").run(domain.id);
    const sentBack = await rig.t.request("PUT", `/api/v1/domains/${domain.id}`, {
      body: { address_source: "interface:gone0", cron_schedule: "*/5 * * * *" },
    });
    expect(sentBack.status).toBe(200);
    expect(sentBack.body).toMatchObject({ address_source: "interface:gone0", cron_schedule: "*/5 * * * *" });
    const retyped = await rig.t.request("PUT", `/api/v1/domains/${domain.id}`, { body: { record_type: "AAAA" } });
    expect(retyped.status).toBe(422);
    expect(retyped.body.errors.map((error: { field: string }) => error.field)).toEqual(["address_source"]);
    expect((await getDomain(rig.t, domain.id)).record_type).toBe("A");
  });
});

// lo's loopback addresses are usable only with DDNS_ALLOW_PRIVATE_IPS: the one interface every
// machine has, so an interface source that is accepted can be tested without making one (the
// test/ip/interfaces.test.ts namespace has interfaces with global addresses).
describe("address_source of an interface that has a usable address", () => {
  const current = useRig({ env: { DDNS_ALLOW_PRIVATE_IPS: "true" } });
  let rig: Rig;
  beforeEach(() => {
    rig = current();
  });

  test("is stored as written on a create and an edit", async () => {
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "lo.example.com", { address_source: "interface:lo" });
    expect((await getDomain(rig.t, domain.id)).address_source).toBe("interface:lo");
    const plain = await addDomain(rig.t, provider.id, "plain.example.com");
    const changed = await rig.t.request("PUT", `/api/v1/domains/${plain.id}`, {
      body: { address_source: "interface:lo" },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.address_source).toBe("interface:lo");
  });

  test("the export file carries address_source and an import sets it; an interface missing from this machine is refused", async () => {
    const provider = await addProvider(rig.t, "cloudflare", { name: "home" });
    const domain = await addDomain(rig.t, provider.id, "wan.example.com", { address_source: "interface:lo" });
    const exported = await rig.t.app.handle(
      new Request("http://localhost/api/v1/config/export", {
        headers: { Authorization: `Bearer ${await rig.t.token()}` },
      }),
    );
    const text = await exported.text();
    expect(text).toContain("address_source: interface:lo");
    const load = async (body: string) =>
      await rig.t.app.handle(
        new Request("http://localhost/api/v1/config/import", {
          method: "POST",
          headers: { Authorization: `Bearer ${await rig.t.token()}`, "Content-Type": "application/yaml" },
          body,
        }),
      );
    const missing = await load(text.replace("address_source: interface:lo", "address_source: interface:nosuch0"));
    expect(missing.status).toBe(422);
    expect(JSON.stringify(await missing.json())).toContain("this machine has no interface named nosuch0 now");
    expect((await getDomain(rig.t, domain.id)).address_source).toBe("interface:lo");
    // The same file loaded again changes nothing and refuses nothing.
    expect((await load(text)).status).toBe(200);
    const imported = await load(text.replace("address_source: interface:lo", `address_source: fixed:${FIXED}`));
    expect(imported.status).toBe(200);
    expect((await getDomain(rig.t, domain.id)).address_source).toBe(`fixed:${FIXED}`);
  });
});

describe("fixed and push-only records", () => {
  const current = useRig({ env: { DDNS_UPDATE_INTERVAL: "1s" } });
  let rig: Rig;
  beforeEach(() => {
    rig = current();
  });
  afterEach(() => {
    setSystemTime();
  });

  test("a fixed address is written without asking any echo service; a changed echo answer does not move it", async () => {
    cloudflareRecord(rig, "static");
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "static.example.com", { address_source: `fixed:${FIXED}` });
    await duePass(rig.t);
    expect(rig.cf.record("static.example.com", "A")!.content).toBe(FIXED);
    rig.echo.ipv4 = NEXT_IPV4;
    await duePass(rig.t);
    expect(rig.cf.record("static.example.com", "A")!.content).toBe(FIXED);
    expect(rig.echo.requests).toHaveLength(0);
    const rows = await historyOf(rig.t, domain.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "SUCCESS", ip_address: FIXED, trigger: "schedule" });
  });

  test("a private fixed address stored while DDNS_ALLOW_PRIVATE_IPS was on is refused once it is off: a failed detection, nothing written", async () => {
    cloudflareRecord(rig, "static");
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "static.example.com");
    // As a database from a run with DDNS_ALLOW_PRIVATE_IPS=true holds it.
    rig.t.ctx.sqlite.query("UPDATE domains SET address_source = 'fixed:10.0.0.7' WHERE id = ?").run(domain.id);
    const [outcome] = await duePass(rig.t);
    expect(outcome).toMatchObject({ result: "failed", failure: "detection" });
    expect(outcome!.message).toContain("fixed:10.0.0.7 is not a globally routable address");
    expect(rig.cf.record("static.example.com", "A")!.content).toBe(OLD_IPV4);
  });

  test("a push-only record keeps the pushed address through pass after pass while the echo services say otherwise", async () => {
    cloudflareRecord(rig, "home");
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "home.example.com", { address_source: "push" });
    const key = await newKey(rig);
    expect(await push(rig, `hostname=home.example.com&myip=${PUSHED}`, key)).toBe(`good ${PUSHED}`);
    rig.echo.ipv4 = NEXT_IPV4;
    rig.cf.clearRequests();
    for (let pass = 0; pass < 5; pass++) {
      makeDue(rig.t);
      expect(await rig.t.ctx.scheduler.runPass()).toEqual([]);
      expect(await rig.t.ctx.scheduler.runPass({ all: true })).toEqual([]);
    }
    expect(rig.cf.record("home.example.com", "A")!.content).toBe(PUSHED);
    expect(rig.cf.requests).toHaveLength(0);
    expect(rig.echo.requests).toHaveLength(0);
    const rows = await historyOf(rig.t, domain.id);
    expect(rows.map((row) => [row.trigger, row.ip_address])).toEqual([["push", PUSHED]]);
    const shown = await getDomain(rig.t, domain.id);
    expect(shown).toMatchObject({ address_source: "push", pushed_ip: PUSHED, last_known_ip: PUSHED });
  });

  test("a forced update of a push-only record: 409 before any push, then the last pushed address is sent again", async () => {
    cloudflareRecord(rig, "home");
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "home.example.com", { address_source: "push" });
    const early = await forceUpdate(rig.t, domain.id);
    expect(early.status).toBe(409);
    expect(early.body.detail).toContain("No address was pushed");
    expect(rig.cf.record("home.example.com", "A")!.content).toBe(OLD_IPV4);
    await push(rig, `hostname=home.example.com&myip=${PUSHED}`, await newKey(rig));
    rig.cf.record("home.example.com", "A")!.content = OLD_IPV4; // someone else changed it
    rig.echo.ipv4 = NEXT_IPV4;
    const forced = await forceUpdate(rig.t, domain.id);
    expect(forced.status).toBe(200);
    expect(forced.body.ip_address).toBe(PUSHED);
    expect(rig.cf.record("home.example.com", "A")!.content).toBe(PUSHED);
    expect(rig.echo.requests).toHaveLength(0);
  });

  test("no push for DDNS_PUSH_STALE_AFTER: /metrics says stale, one push_stale notification, and a push makes it fresh", async () => {
    const received: unknown[] = [];
    const hook = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (request) => {
        received.push(await request.json());
        return new Response("ok");
      },
    });
    try {
      cloudflareRecord(rig, "home");
      const provider = await addProvider(rig.t, "cloudflare");
      await addDomain(rig.t, provider.id, "home.example.com", { address_source: "push" });
      const key = await newKey(rig);
      await push(rig, `hostname=home.example.com&myip=${PUSHED}`, key);
      const made = await rig.t.request("POST", "/api/v1/notifications", {
        body: {
          name: "hook",
          type: "webhook",
          options: { url: `http://127.0.0.1:${hook.port}/` },
          events: ["push_stale"],
        },
      });
      expect(made.status).toBe(200);
      const metrics = async () =>
        (
          await rig.t.app.handle(
            new Request("http://localhost/metrics", { headers: { Authorization: `Bearer ${await rig.t.token()}` } }),
          )
        ).text();
      expect(await metrics()).toContain('ddnsd_push_stale{domain="home.example.com",record_type="A"} 0');

      setSystemTime(new Date(Date.now() + 25 * 3600_000));
      rig.t.ctx.scheduler.start();
      rig.t.ctx.scheduler.tick();
      rig.t.ctx.scheduler.tick();
      await rig.t.ctx.notifier.idle();
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ event: "push_stale", domain: "home.example.com", record_type: "A" });
      expect(await metrics()).toContain('ddnsd_push_stale{domain="home.example.com",record_type="A"} 1');

      await push(rig, `hostname=home.example.com&myip=${PUSHED}`, key);
      expect(await metrics()).toContain('ddnsd_push_stale{domain="home.example.com",record_type="A"} 0');
    } finally {
      await rig.t.ctx.scheduler.stop();
      await hook.stop(true);
    }
  });
});

describe("several sources in one pass", () => {
  const current = useRig();
  let rig: Rig;
  beforeEach(() => {
    rig = current();
  });

  test("one question per distinct source: domains on the system's source share one echo request, a fixed one asks nothing", async () => {
    for (const name of ["a", "b", "c"]) cloudflareRecord(rig, name);
    const provider = await addProvider(rig.t, "cloudflare");
    await addDomain(rig.t, provider.id, "a.example.com");
    await addDomain(rig.t, provider.id, "b.example.com");
    await addDomain(rig.t, provider.id, "c.example.com", { address_source: `fixed:${FIXED}` });
    await duePass(rig.t);
    expect(rig.echo.hits("/v4")).toBe(1);
    expect(rig.cf.record("a.example.com", "A")!.content).toBe(rig.echo.ipv4);
    expect(rig.cf.record("b.example.com", "A")!.content).toBe(rig.echo.ipv4);
    expect(rig.cf.record("c.example.com", "A")!.content).toBe(FIXED);
  });
});

describe("a domain's own source beside another system source", () => {
  // Started before the rig, whose settings name it.
  let whoami: WhoamiDnsFake;
  beforeAll(async () => {
    whoami = await startWhoamiDnsFake();
  });
  const current = useRig({
    env: () => ({ DDNS_IPV4_SOURCE: "dns", DDNS_IPV4_DNS: `myip.example.test/A@${whoami.server}` }),
  });
  let rig: Rig;
  let cookie: string;
  beforeEach(async () => {
    rig = current();
    whoami.reset();
    cookie ??= await signIn(rig.t);
  });
  afterAll(async () => {
    await whoami.stop();
  });

  /** What the dashboard's row of a domain says about where its address came from. */
  async function sourceMarks(ids: number[]): Promise<string[]> {
    const html = (await page(rig.t, "/", { cookie })).text;
    return ids.map((id) => {
      const row = html.slice(html.indexOf(`<tr id="domain-${id}">`));
      const mark = row.slice(row.indexOf('<div class="source-mark'));
      return mark.slice(mark.indexOf("<span>") + "<span>".length, mark.indexOf("</span>")).replaceAll("&#x27;", "'");
    });
  }

  test("the system's source is dns: a web domain gets the echo services' address, a domain without its own source the resolvers'", async () => {
    for (const name of ["viaweb", "sys"]) cloudflareRecord(rig, name);
    const provider = await addProvider(rig.t, "cloudflare");
    const web = await addDomain(rig.t, provider.id, "viaweb.example.com", { address_source: "web" });
    const sys = await addDomain(rig.t, provider.id, "sys.example.com");
    await duePass(rig.t);
    expect(rig.cf.record("viaweb.example.com", "A")!.content).toBe(rig.echo.ipv4);
    expect(rig.cf.record("sys.example.com", "A")!.content).toBe(whoami.ipv4);
    expect(rig.echo.hits("/v4")).toBe(1);
    expect(whoami.asked).toHaveLength(1);
    expect((await historyOf(rig.t, web.id))[0]).toMatchObject({ status: "SUCCESS", ip_address: rig.echo.ipv4 });
    expect((await historyOf(rig.t, sys.id))[0]).toMatchObject({ status: "SUCCESS", ip_address: whoami.ipv4 });
    expect(await sourceMarks([web.id, sys.id])).toEqual([
      "from echo services",
      "from DNS resolvers (the system's source)",
    ]);
  });

  test("the system's source is web: a dns domain gets the resolvers' address, a domain without its own source the echo services'", async () => {
    for (const name of ["viadns", "sys"]) cloudflareRecord(rig, name);
    const chosen = await rig.t.request("PUT", "/api/v1/system/address-sources", {
      body: { ipv4: { source: "web", urls: [`${rig.echo.url}/v4`] } },
    });
    expect(chosen.status).toBe(200);
    try {
      const provider = await addProvider(rig.t, "cloudflare");
      const dns = await addDomain(rig.t, provider.id, "viadns.example.com", { address_source: "dns" });
      const sys = await addDomain(rig.t, provider.id, "sys.example.com");
      await duePass(rig.t);
      expect(rig.cf.record("viadns.example.com", "A")!.content).toBe(whoami.ipv4);
      expect(rig.cf.record("sys.example.com", "A")!.content).toBe(rig.echo.ipv4);
      expect((await historyOf(rig.t, dns.id))[0]).toMatchObject({ status: "SUCCESS", ip_address: whoami.ipv4 });
      expect((await historyOf(rig.t, sys.id))[0]).toMatchObject({ status: "SUCCESS", ip_address: rig.echo.ipv4 });
      expect(await sourceMarks([dns.id, sys.id])).toEqual([
        "from DNS resolvers",
        "from echo services (the system's source)",
      ]);
    } finally {
      await rig.t.request("PUT", "/api/v1/system/address-sources", { body: { ipv4: null } });
    }
  });
});

describe("two echo services must agree", () => {
  let second: EchoFake;
  const current = useRig({
    env: ({ echo }) => {
      second = startEchoFake();
      return { DDNS_IPV4_URLS: `${echo.url}/v4,${second.url}/json` };
    },
  });
  let rig: Rig;
  beforeEach(() => {
    rig = current();
    second.reset();
  });
  afterAll(async () => {
    await second.stop();
  });

  test("a disagreement is a failed detection naming each service and its answer; nothing is written", async () => {
    cloudflareRecord(rig, "home");
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "home.example.com");
    second.ipv4 = NEXT_IPV4;
    const [outcome] = await duePass(rig.t);
    expect(outcome).toMatchObject({ result: "failed", failure: "detection" });
    expect(outcome!.message).toBe(
      `IPv4 detection failed: the echo services disagree (${rig.echo.url}/v4 answered ${rig.echo.ipv4}, ${second.url}/json answered ${NEXT_IPV4}); nothing is written until 2 agree`,
    );
    expect(rig.cf.record("home.example.com", "A")!.content).toBe(OLD_IPV4);
    expect(rig.cf.requests).toHaveLength(0);
    const forced = await forceUpdate(rig.t, domain.id);
    expect(forced.status).toBe(503);
    expect(forced.body.detail).toContain("disagree");
  });

  test("when both agree the address is written; one answering alone is not enough", async () => {
    cloudflareRecord(rig, "home");
    const provider = await addProvider(rig.t, "cloudflare");
    await addDomain(rig.t, provider.id, "home.example.com");
    second.fault({ status: 503 });
    const [alone] = await duePass(rig.t);
    expect(alone).toMatchObject({ result: "failed", failure: "detection" });
    expect(alone!.message).toContain(`only ${rig.echo.url}/v4 answered ${rig.echo.ipv4}`);
    second.clearFaults();
    const [agreed] = await duePass(rig.t);
    expect(agreed).toMatchObject({ result: "updated", ip: rig.echo.ipv4 });
    expect(rig.cf.record("home.example.com", "A")!.content).toBe(rig.echo.ipv4);
  });
});

describe("DDNS_ECHO_AGREE=1", () => {
  const current = useRig({
    env: ({ echo }) => ({ DDNS_IPV4_URLS: `${echo.url}/v4,${echo.url}/json`, DDNS_ECHO_AGREE: "1" }),
  });

  test("the first answer is enough, as before", async () => {
    const rig = current();
    cloudflareRecord(rig, "home");
    const provider = await addProvider(rig.t, "cloudflare");
    await addDomain(rig.t, provider.id, "home.example.com");
    const [outcome] = await duePass(rig.t);
    expect(outcome).toMatchObject({ result: "updated" });
    expect(rig.echo.requests.map((request) => request.path)).toEqual(["/v4"]);
  });
});

describe("a detection outage is the detection's", () => {
  const current = useRig();

  test("history rows, but no provider's failed updates or success rate; the provider's figures stay those of its writes", async () => {
    const rig = current();
    cloudflareRecord(rig, "home");
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "home.example.com");
    await duePass(rig.t);
    rig.echo.fault({ status: 500 });
    await duePass(rig.t);
    await duePass(rig.t);
    // The two identical detection failures are one history row with a count.
    expect((await historyOf(rig.t, domain.id)).map((row) => [row.status, row.repeat_count])).toEqual([
      ["FAILED", 2],
      ["SUCCESS", 1],
    ]);
    const stats = (await rig.t.request("GET", "/api/v1/metrics/provider-stats")).body.providers[0];
    expect(stats).toMatchObject({
      updates_24h: 1,
      successful_updates_24h: 1,
      failed_updates_24h: 0,
      success_rate_24h: 100,
    });
    const dashboard = (await rig.t.request("GET", "/api/v1/metrics/dashboard")).body;
    expect(dashboard).toMatchObject({ total_updates_24h: 1, failed_updates_24h: 0, success_rate_24h: 100 });
  });
});

describe("the log and the history say the same thing", () => {
  const current = useRig();

  test("a record the service already holds is logged as nothing written, never as 'record updated'", async () => {
    const rig = current();
    cloudflareRecord(rig, "home", rig.echo.ipv4);
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "home.example.com");
    const before = rig.t.logs.length;
    const forced = await forceUpdate(rig.t, domain.id);
    expect(forced.status).toBe(200);
    const [row] = await historyOf(rig.t, domain.id);
    expect(row.message).toContain("already held at the service; nothing written");
    const lines = rig.t.logs.slice(before).join("\n");
    expect(lines).toContain("record already current; nothing written");
    expect(lines).not.toContain("record updated");

    rig.echo.ipv4 = NEXT_IPV4;
    await forceUpdate(rig.t, domain.id);
    expect(rig.t.logs.slice(before).join("\n")).toContain("record updated");
  });
});
