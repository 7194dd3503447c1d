// The dyndns2 client against a faithful update server playing No-IP, Dyn and deSEC: one request per
// write with Basic auth and ddnsd's User-Agent, every return code read from the body before the HTTP
// status, the codes that mean "fix the configuration" stopping retries, and 911 pausing 30 minutes.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { RecordTarget, RecordType } from "../../src/dns/provider";
import { createDyndns2Client, dyndns2 } from "../../src/dns/services/dyndns2";
import {
  DYNDNS2_FAKE_PASSWORD,
  DYNDNS2_FAKE_USER,
  type Dyndns2Fake,
  type Dyndns2Fault,
  type Dyndns2Host,
  type Dyndns2Style,
  startDyndns2Fake,
} from "../fakes/dyndns2";

const NEW_V4 = "203.0.113.7";
const NEW_V6 = "2a01:4f8::7";
const USER_AGENT = "ddnsd/1.2.3";

let fake: Dyndns2Fake;
let home: Dyndns2Host;
/** How messages name the fake's server: `dyndns2 127.0.0.1:<port>`. */
let service: string;

beforeEach(() => {
  fake = startDyndns2Fake();
  home = fake.addHost("home.example.net", { ipv4: "198.51.100.1", ipv6: "2001:db8::1" });
  fake.addHost("theirs.example.net", { username: "someone-else", ipv4: "198.51.100.9" });
  service = `dyndns2 ${new URL(fake.url).host}`;
});

afterEach(async () => {
  await fake.stop();
});

function client(
  options: { username?: string; password?: string; server?: string; timeoutMs?: number; userAgent?: string } = {},
) {
  return createDyndns2Client(
    { username: options.username ?? DYNDNS2_FAKE_USER, password: options.password ?? DYNDNS2_FAKE_PASSWORD },
    options.server ?? fake.url,
    { baseUrl: "", fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: options.userAgent ?? USER_AGENT },
  );
}

function target(hostname: string, recordType: RecordType = "A"): RecordTarget {
  return { hostname, recordType, externalId: null, config: {} };
}

describe("the description", () => {
  test("username (shown), password (secret), a required server with well-known presets; cannot verify", () => {
    expect(dyndns2).toMatchObject({
      type: "dyndns2",
      credentials: [
        { key: "username", secret: false },
        { key: "password", secret: true },
      ],
      options: [{ key: "server", kind: "url", required: true }],
      recordTypes: ["A", "AAAA"],
      ttl: null,
      canVerify: false,
    });
    const presets = dyndns2.options[0]?.presets ?? [];
    expect(presets.map((p) => p.label)).toEqual(
      expect.arrayContaining([
        "No-IP",
        "Dyn",
        "dynv6 (IPv4 only)",
        "OVH DynHost",
        "Strato",
        "Infomaniak",
        "Hurricane Electric",
        "INWX",
        "selfHOST",
      ]),
    );
    for (const preset of presets) expect(preset.value).toStartWith("https://");
  });

  test("createClient takes the server from the options", async () => {
    const built = dyndns2.createClient(
      { username: DYNDNS2_FAKE_USER, password: DYNDNS2_FAKE_PASSWORD },
      { server: fake.url },
      { baseUrl: "", fetch, timeoutMs: 2000, userAgent: USER_AGENT },
    );
    expect((await built.writeRecord(target("home.example.net"), NEW_V4)).ok).toBe(true);
    expect(home.ipv4).toBe(NEW_V4);
  });
});

describe("the request", () => {
  test("GET <server>/nic/update?hostname&myip with Basic auth and ddnsd's User-Agent, nothing else", async () => {
    await client().writeRecord(target("home.example.net"), NEW_V4);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.method).toBe("GET");
    expect(request?.path).toBe("/nic/update");
    expect(request?.query).toEqual({ hostname: "home.example.net", myip: NEW_V4 });
    expect(request?.headers.authorization).toBe(`Basic ${btoa(`${DYNDNS2_FAKE_USER}:${DYNDNS2_FAKE_PASSWORD}`)}`);
    expect(request?.headers["user-agent"]).toBe(USER_AGENT);
  });

  const servers: { name: string; server: (base: string) => string; path: string; query: Record<string, string> }[] = [
    { name: "a base URL with a trailing slash", server: (base) => `${base}/`, path: "/nic/update", query: {} },
    { name: "a base URL with a path", server: (base) => `${base}/dyn`, path: "/dyn/nic/update", query: {} },
    {
      name: "a URL that already ends in /nic/update",
      server: (base) => `${base}/nic/update`,
      path: "/nic/update",
      query: {},
    },
    {
      name: "OVH's form: /nic/update?system=dyndns keeps its parameter",
      server: (base) => `${base}/nic/update?system=dyndns`,
      path: "/nic/update",
      query: { system: "dyndns" },
    },
  ];
  for (const { name, server, path, query } of servers) {
    test(`server given as ${name}`, async () => {
      const outcome = await client({ server: server(fake.url) }).writeRecord(target("home.example.net"), NEW_V4);
      expect(outcome.ok).toBe(true);
      expect(fake.requests[0]?.path).toBe(path);
      expect(fake.requests[0]?.query).toEqual({ ...query, hostname: "home.example.net", myip: NEW_V4 });
    });
  }

  test("a server that is not an http(s) URL is refused without a request", async () => {
    const outcome = await client({ server: "ftp://example.net" }).writeRecord(target("home.example.net"), NEW_V4);
    expect(outcome).toEqual({
      ok: false,
      message: 'dyndns2: the server "ftp://example.net" is not an http(s) URL',
      cause: "refused",
      stopRetrying: true,
    });
    expect(fake.requests).toHaveLength(0);
  });

  test("a well-known server is named by its label", async () => {
    const outcome = await createDyndns2Client({ username: "u", password: "p" }, "https://dynupdate.no-ip.com", {
      baseUrl: "",
      fetch: async () => new Response("badauth", { status: 401 }),
      timeoutMs: 2000,
      userAgent: USER_AGENT,
    }).writeRecord(target("home.example.net"), NEW_V4);
    expect(outcome).toMatchObject({
      ok: false,
      message: "No-IP: badauth — the username or password is wrong (HTTP 401)",
    });
  });
});

describe("success", () => {
  const cases: {
    name: string;
    recordType: RecordType;
    ip: string;
    dualStack?: boolean;
    message: string;
    after: Partial<Dyndns2Host>;
  }[] = [
    {
      name: "A: good",
      recordType: "A",
      ip: NEW_V4,
      message: "answered good",
      after: { ipv4: NEW_V4, ipv6: "2001:db8::1" },
    },
    {
      name: "AAAA: good",
      recordType: "AAAA",
      ip: NEW_V6,
      message: "answered good",
      after: { ipv4: "198.51.100.1", ipv6: NEW_V6 },
    },
    {
      name: "A: nochg (nothing changed)",
      recordType: "A",
      ip: "198.51.100.1",
      message: "answered nochg, it already held this address",
      after: { ipv4: "198.51.100.1" },
    },
    {
      name: "A with a dual-stack answer (good v4,v6)",
      recordType: "A",
      ip: NEW_V4,
      dualStack: true,
      message: "answered good",
      after: { ipv4: NEW_V4 },
    },
    {
      name: "AAAA with a dual-stack answer",
      recordType: "AAAA",
      ip: NEW_V6,
      dualStack: true,
      message: "answered good",
      after: { ipv6: NEW_V6 },
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      fake.dualStackAnswers = c.dualStack ?? false;
      const outcome = await client().writeRecord(target("home.example.net", c.recordType), c.ip);
      const action = c.message.includes("nochg") ? "unchanged" : "updated";
      expect(outcome).toEqual({
        ok: true,
        action,
        externalId: "home.example.net",
        zoneId: "",
        message: `${service} ${c.message}`,
      });
      expect(home).toMatchObject(c.after);
      expect(fake.updates()).toBe(1);
    });
  }

  const answers: { name: string; body: string; message: string }[] = [
    {
      name: "Infomaniak's successfully_changed",
      body: `successfully_changed ${NEW_V4}`,
      message: "answered successfully_changed",
    },
    {
      name: "Infomaniak's no_change",
      body: `no_change ${NEW_V4}`,
      message: "answered no_change, it already held this address",
    },
    { name: "good without an address", body: "good", message: "answered good" },
    { name: "an IPv6 written differently", body: "good 2A01:04F8:0::7", message: "answered good" },
  ];
  for (const { name, body, message } of answers) {
    test(`other spellings: ${name}`, async () => {
      fake.fault({ body }, 1);
      const ip = body.includes(":") ? NEW_V6 : NEW_V4;
      expect(await client().writeRecord(target("home.example.net", ip === NEW_V6 ? "AAAA" : "A"), ip)).toMatchObject({
        ok: true,
        message: `${service} ${message}`,
      });
    });
  }

  test("a success line holding another address stops retrying: the service published something else", async () => {
    fake.fault({ body: "good 192.0.2.55" }, 1);
    expect(await client().writeRecord(target("home.example.net"), NEW_V4)).toEqual({
      ok: false,
      message: `${service}: answered that home.example.net holds 192.0.2.55, not what was sent (${NEW_V4}): the update was ignored`,
      cause: "refused",
      stopRetrying: true,
    });
  });

  test("Dyn's good 127.0.0.1 (request ignored) stops retrying, whichever family was sent", async () => {
    for (const [type, ip] of [
      ["A", NEW_V4],
      ["AAAA", NEW_V6],
    ] as const) {
      fake.fault({ body: "good 127.0.0.1" }, 1);
      expect(await client().writeRecord(target("home.example.net", type), ip)).toMatchObject({
        ok: false,
        cause: "refused",
        stopRetrying: true,
      });
    }
  });
});

describe("codes that mean the configuration is wrong stop retrying, in every style", () => {
  const cases: {
    name: string;
    password?: string;
    hostname?: string;
    userAgent?: string;
    statuses: Record<Dyndns2Style, number>;
    message: string;
  }[] = [
    {
      name: "a wrong password",
      password: "not-the-Pa55word",
      statuses: { noip: 401, dyn: 200, desec: 401 },
      message: "badauth — the username or password is wrong",
    },
    {
      name: "an unknown host",
      hostname: "nowhere.example.net",
      statuses: { noip: 200, dyn: 200, desec: 404 },
      message: "nohost — the hostname does not exist in this account",
    },
    {
      name: "another account's host",
      hostname: "theirs.example.net",
      statuses: { noip: 200, dyn: 200, desec: 404 },
      message: "nohost — the hostname does not exist in this account",
    },
    {
      name: "a bare User-Agent",
      userAgent: "Bun/1.4.5",
      statuses: { noip: 200, dyn: 200, desec: 200 },
      message: "badagent — the service refuses this client (its User-Agent)",
    },
  ];
  for (const style of ["noip", "dyn", "desec"] as const) {
    for (const c of cases) {
      test(`${c.name} (${style} style, HTTP ${c.statuses[style]})`, async () => {
        fake.style = style;
        const outcome = await client({ password: c.password, userAgent: c.userAgent }).writeRecord(
          target(c.hostname ?? "home.example.net"),
          NEW_V4,
        );
        const cause = c.message.startsWith("badauth") ? "credentials" : "refused";
        expect(outcome).toEqual({
          ok: false,
          message: `${service}: ${c.message} (HTTP ${c.statuses[style]})`,
          cause,
          stopRetrying: true,
        });
        expect(outcome.ok || outcome.message).not.toContain(c.password ?? DYNDNS2_FAKE_PASSWORD);
        expect(fake.requests).toHaveLength(1);
        expect(home.ipv4).toBe("198.51.100.1");
      });
    }
  }

  const codes: { body: string; status?: number; reason: string }[] = [
    { body: "!donator", reason: "the request uses a feature of paid accounts only" },
    { body: "notfqdn", reason: "the hostname is not a fully qualified domain name" },
    { body: "numhost", reason: "too many hosts in one request, or the name is a round-robin record" },
    { body: "abuse", reason: "the hostname is blocked for abuse" },
    { body: "badsys", reason: "the service refuses the system parameter" },
    { body: "!yours", reason: "the hostname belongs to another account" },
    { body: "!active", reason: "the hostname's domain is not activated" },
    { body: "nohost", status: 400, reason: "the hostname does not exist in this account" },
  ];
  for (const { body, status = 200, reason } of codes) {
    test(`${body} (HTTP ${status})`, async () => {
      fake.fault({ body, status }, 1);
      expect(await client().writeRecord(target("home.example.net"), NEW_V4)).toEqual({
        ok: false,
        message: `${service}: ${body} — ${reason} (HTTP ${status})`,
        cause: "refused",
        stopRetrying: true,
      });
    });
  }

  for (const body of ["", "Unauthorized"]) {
    test(`a bare 401 (${JSON.stringify(body)}, no badauth) is refused credentials and stops retrying, as badauth does`, async () => {
      fake.fault({ body, status: 401 }, 1);
      const outcome = await client().writeRecord(target("home.example.net"), NEW_V4);
      expect(outcome).toMatchObject({
        ok: false,
        cause: "credentials",
        stopRetrying: true,
        message: expect.stringContaining("the username or password is wrong"),
      });
      expect(fake.requests).toHaveLength(1);
    });
  }

  test("repeated nochg gets the host blocked for abuse, which stops retrying", async () => {
    fake.nochgBeforeAbuse = 1;
    await client().writeRecord(target("home.example.net"), "198.51.100.1");
    const outcome = await client().writeRecord(target("home.example.net"), "198.51.100.1");
    expect(outcome).toMatchObject({
      ok: false,
      message: `${service}: abuse — the hostname is blocked for abuse (HTTP 200)`,
      stopRetrying: true,
    });
  });
});

describe("temporary failures: retried, never inside the client", () => {
  /** 911, dnserr and 429 pause the provider; a server error or silence is "unreachable"; a 200 that says nothing known is a refusal. */
  const causeOf = (name: string) =>
    /^(911|dnserr|429)/.test(name) ? "throttled" : /^(500|502|timeout)/.test(name) ? "unreachable" : "refused";
  const cases: {
    name: string;
    fault: Dyndns2Fault;
    message: string | RegExp;
    retryAfterSeconds?: number;
  }[] = [
    {
      name: "dnserr: the provider waits 5 minutes",
      fault: { body: "dnserr" },
      message: `dnserr — the service's DNS failed (HTTP 200)`,
      retryAfterSeconds: 300,
    },
    {
      name: "911: no sooner than 30 minutes",
      fault: { body: "911" },
      message: "911 — the service is down or in maintenance (HTTP 200)",
      retryAfterSeconds: 1800,
    },
    {
      name: "911 in a 500",
      fault: { body: "911", status: 500 },
      message: "911 — the service is down or in maintenance (HTTP 500)",
      retryAfterSeconds: 1800,
    },
    {
      name: "911 with a shorter Retry-After still waits 30 minutes",
      fault: { body: "911", retryAfter: 60 },
      message: /^.*911 .*\(HTTP 200\)$/,
      retryAfterSeconds: 1800,
    },
    {
      name: "911 with a longer Retry-After names that wait (the updater caps the pause)",
      fault: { body: "911", retryAfter: 86400 },
      message: /911/,
      retryAfterSeconds: 86400,
    },
    {
      name: "429 with Retry-After",
      fault: { body: "Too Many Requests", status: 429, retryAfter: 300 },
      message: 'unreadable answer (HTTP 429): "Too Many Requests"',
      retryAfterSeconds: 300,
    },
    {
      name: "429 without Retry-After: no wait invented (the updater decides)",
      fault: { body: "slow down", status: 429 },
      message: /\(HTTP 429\): "/,
    },
    { name: "500 with an empty body", fault: { body: "", status: 500 }, message: "empty answer (HTTP 500)" },
    {
      name: "garbage in a 200",
      fault: { body: "<html>maintenance</html>" },
      message: 'unreadable answer (HTTP 200): "<html>maintenance</html>"',
    },
    {
      name: "a word that only an object's prototype knows",
      fault: { body: "constructor" },
      message: 'unreadable answer (HTTP 200): "constructor"',
    },
    {
      name: "garbage echoing the password",
      fault: { body: `denied for ${DYNDNS2_FAKE_PASSWORD}` },
      message: 'unreadable answer (HTTP 200): "denied for ••••"',
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      fake.fault(c.fault);
      const outcome = await client({ timeoutMs: 1000 }).writeRecord(target("home.example.net"), NEW_V4);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      if (typeof c.message === "string") expect(outcome.message).toBe(`${service}: ${c.message}`);
      else expect(outcome.message).toMatch(c.message);
      expect(outcome.retryAfterSeconds).toBe(c.retryAfterSeconds);
      expect(outcome.cause).toBe(causeOf(c.name));
      expect(outcome.stopRetrying).toBeUndefined();
      expect(outcome.message).not.toContain(DYNDNS2_FAKE_PASSWORD);
      expect(fake.requests).toHaveLength(1);
    });
  }
});

describe("the fake plays the services' traps", () => {
  test("without myip the caller's address is published", async () => {
    const auth = `Basic ${btoa(`${DYNDNS2_FAKE_USER}:${DYNDNS2_FAKE_PASSWORD}`)}`;
    const answer = await fetch(`${fake.url}/nic/update?hostname=home.example.net`, {
      headers: { Authorization: auth, "User-Agent": USER_AGENT },
    });
    expect(await answer.text()).toBe("good 127.0.0.1\n");
    expect(home.ipv4).toBe("127.0.0.1");
  });

  test("No-IP sends badauth with 401 and WWW-Authenticate; Dyn with 200", async () => {
    const noip = await fetch(`${fake.url}/nic/update?hostname=home.example.net`, {
      headers: { "User-Agent": USER_AGENT },
    });
    expect([noip.status, noip.headers.get("www-authenticate"), await noip.text()]).toEqual([
      401,
      'Basic realm="DDNS"',
      "badauth\n",
    ]);
    fake.style = "dyn";
    const dyn = await fetch(`${fake.url}/nic/update?hostname=home.example.net`, {
      headers: { "User-Agent": USER_AGENT },
    });
    expect([dyn.status, await dyn.text()]).toEqual([200, "badauth\n"]);
  });
});

describe("each well-known server in its dialect", () => {
  /** A client of `server` whose requests reach the fake (path and query kept). */
  function clientOf(server: string) {
    const reroute: typeof fetch = ((input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : input.toString());
      url.protocol = "http:";
      url.host = new URL(fake.url).host;
      return fetch(url, init);
    }) as typeof fetch;
    return createDyndns2Client({ username: DYNDNS2_FAKE_USER, password: DYNDNS2_FAKE_PASSWORD }, server, {
      baseUrl: "",
      fetch: reroute,
      timeoutMs: 2000,
      userAgent: USER_AGENT,
    });
  }
  const SIBLING_V6 = "2001:db8::1";
  const withSibling = (recordType: RecordType, siblings: RecordTarget["siblings"]): RecordTarget => ({
    ...target("home.example.net", recordType),
    siblings,
  });

  const cases: { server: string; path: string; alone: Record<string, string>; both: Record<string, string> | null }[] =
    [
      {
        server: "https://members.dyndns.org",
        path: "/nic/update",
        alone: { hostname: "home.example.net", myip: NEW_V4 },
        both: { hostname: "home.example.net", myip: `${NEW_V4},${SIBLING_V6}` },
      },
      {
        server: "https://dynupdate.no-ip.com",
        path: "/nic/update",
        alone: { hostname: "home.example.net", myip: NEW_V4 },
        both: { hostname: "home.example.net", myip: `${NEW_V4},${SIBLING_V6}` },
      },
      {
        server: "https://dyndns.variomedia.de",
        path: "/nic/update",
        alone: { hostname: "home.example.net", myip: NEW_V4 },
        both: { hostname: "home.example.net", myip: `${NEW_V4},${SIBLING_V6}` },
      },
      {
        server: "https://update.dedyn.io",
        path: "/nic/update",
        alone: { hostname: "home.example.net", myipv4: NEW_V4, myipv6: "preserve" },
        both: { hostname: "home.example.net", myipv4: NEW_V4, myipv6: SIBLING_V6 },
      },
      {
        server: "https://api.dynu.com",
        path: "/nic/update",
        alone: { hostname: "home.example.net", myip: NEW_V4, myipv6: "no" },
        both: { hostname: "home.example.net", myip: NEW_V4, myipv6: SIBLING_V6 },
      },
      {
        server: "https://dyndns.inwx.com",
        path: "/nic/update",
        alone: { hostname: "home.example.net", myip: NEW_V4 },
        both: { hostname: "home.example.net", myip: NEW_V4, myipv6: SIBLING_V6 },
      },
      {
        server: "https://dyndns.kasserver.com",
        path: "/",
        alone: { host: "home.example.net", myip: NEW_V4 },
        both: { host: "home.example.net", myip: NEW_V4, myip6: SIBLING_V6 },
      },
      // One family per request: the other is the service's to keep.
      {
        server: "https://dyn.dns.he.net",
        path: "/nic/update",
        alone: { hostname: "home.example.net", myip: NEW_V4 },
        both: null,
      },
      {
        server: "https://dns.eu.ovhapis.com/nic/update?system=dyndns",
        path: "/nic/update",
        alone: { system: "dyndns", hostname: "home.example.net", myip: NEW_V4 },
        both: null,
      },
      {
        server: "https://now-dns.com",
        path: "/update",
        alone: { hostname: "home.example.net", myip: NEW_V4 },
        both: null,
      },
      // IPv4 only: the sibling is never sent.
      {
        server: "https://dynv6.com",
        path: "/nic/update",
        alone: { hostname: "home.example.net", myip: NEW_V4 },
        both: null,
      },
      {
        server: "https://updates.opendns.com",
        path: "/nic/update",
        alone: { hostname: "home.example.net", myip: NEW_V4 },
        both: null,
      },
      {
        server: "https://api.nic.ru",
        path: "/dyndns/update",
        alone: { hostname: "home.example.net", myip: NEW_V4 },
        both: null,
      },
      {
        server: "https://ipv4.nsupdate.info",
        path: "/nic/update",
        alone: { hostname: "home.example.net", myip: NEW_V4 },
        both: null,
      },
      {
        server: "https://nic.changeip.com",
        path: "/nic/update",
        alone: { hostname: "home.example.net", ip: NEW_V4 },
        both: null,
      },
    ];
  for (const c of cases) {
    test(`${c.server}: ${c.path}, ${JSON.stringify(c.alone)}; with an AAAA sibling ${c.both === null ? "the same" : JSON.stringify(c.both)}`, async () => {
      fake.style = "desec"; // answers on any path
      await clientOf(c.server).writeRecord(target("home.example.net"), NEW_V4);
      await clientOf(c.server).writeRecord(withSibling("A", { ipv6: SIBLING_V6 }), NEW_V4);
      expect(fake.requests.map((r) => r.path)).toEqual([c.path, c.path]);
      expect(fake.requests.map((r) => r.query)).toEqual([c.alone, c.both ?? c.alone]);
    });
  }

  // dns.he.net's dynamic DNS help and qdm12/ddns-updater's he client: Basic auth with the hostname
  // and the record's DDNS key, `hostname=` and the one address in `myip`, IPv4 or IPv6 alike; each
  // A or AAAA record is enabled (and keyed) on its own, so a request never names the other family.
  test("Hurricane Electric: an AAAA write sends its IPv6 address alone in myip, never the A sibling", async () => {
    fake.style = "desec"; // answers on any path
    await clientOf("https://dyn.dns.he.net").writeRecord(withSibling("AAAA", { ipv4: "198.51.100.1" }), NEW_V6);
    expect(fake.requests.map((r) => [r.path, r.query])).toEqual([
      ["/nic/update", { hostname: "home.example.net", myip: NEW_V6 }],
    ]);
    expect(fake.requests[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${DYNDNS2_FAKE_USER}:${DYNDNS2_FAKE_PASSWORD}`).toString("base64")}`,
    );
  });

  test("an IPv4-only server refuses an AAAA record for good, without a request", async () => {
    for (const server of [
      "https://dynv6.com",
      "https://updates.opendns.com",
      "https://nic.changeip.com",
      "https://api.nic.ru",
      "https://ipv4.nsupdate.info",
    ]) {
      const outcome = await clientOf(server).writeRecord(target("home.example.net", "AAAA"), NEW_V6);
      expect(outcome).toMatchObject({
        ok: false,
        cause: "refused",
        stopRetrying: true,
        message: expect.stringContaining("takes A records only on this update server"),
      });
    }
    expect(fake.requests).toHaveLength(0);
  });

  // nsupdate.info: "IP v4 and v6 addresses work completely independently … send 2 updates", the
  // IPv4-only host for A and the IPv6-only host for AAAA (docs/user.rst and its router help).
  test("nsupdate.info's IPv6 host takes an AAAA alone in myip and refuses an A for good, without a request", async () => {
    fake.style = "desec"; // answers on any path
    await clientOf("https://ipv6.nsupdate.info").writeRecord(withSibling("AAAA", { ipv4: "198.51.100.1" }), NEW_V6);
    expect(fake.requests.map((r) => [r.path, r.query])).toEqual([
      ["/nic/update", { hostname: "home.example.net", myip: NEW_V6 }],
    ]);
    const outcome = await clientOf("https://ipv6.nsupdate.info").writeRecord(target("home.example.net"), NEW_V4);
    expect(outcome).toMatchObject({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message: expect.stringContaining("takes AAAA records only on this update server"),
    });
    expect(fake.requests).toHaveLength(1);
  });

  describe("selfHOST answers with HTTP statuses", () => {
    const cases: { status: number; outcome: Record<string, unknown> }[] = [
      {
        status: 204,
        outcome: {
          ok: true,
          action: "unchanged",
          message: "selfHOST answered HTTP 204: no change, it already held this address",
        },
      },
      {
        status: 409,
        outcome: {
          ok: false,
          cause: "refused",
          stopRetrying: true,
          message: "selfHOST: HTTP 409 — the account has no zones for this hostname",
        },
      },
      {
        status: 410,
        outcome: {
          ok: false,
          cause: "refused",
          stopRetrying: true,
          message: "selfHOST: HTTP 410 — the account is not active",
        },
      },
      {
        status: 411,
        outcome: { ok: false, cause: "refused", message: "selfHOST: HTTP 411 — the address sent is not a valid one" },
      },
      {
        status: 412,
        outcome: { ok: false, cause: "refused", message: "selfHOST: HTTP 412 — the address sent is a private one" },
      },
      {
        status: 503,
        outcome: {
          ok: false,
          cause: "throttled",
          message: "selfHOST: HTTP 503 — the last update was too recent (update time too brief)",
        },
      },
      { status: 401, outcome: { ok: false, cause: "credentials", stopRetrying: true } },
    ];
    for (const c of cases) {
      test(`HTTP ${c.status}`, async () => {
        fake.fault({ body: "", status: c.status }, 1);
        const outcome = await clientOf("https://carol.selfhost.de").writeRecord(target("home.example.net"), NEW_V4);
        expect(outcome).toMatchObject(c.outcome);
        if (c.status === 411 || c.status === 412 || c.status === 503)
          expect(outcome).not.toHaveProperty("stopRetrying");
      });
    }
  });

  describe("ipv64's own words", () => {
    const cases: { body: string; outcome: Record<string, unknown> }[] = [
      { body: "success", outcome: { ok: true, action: "updated", message: 'ipv64 answered "success"' } },
      { body: "no change", outcome: { ok: true, action: "unchanged", message: 'ipv64 answered "no change"' } },
      { body: "overcommited", outcome: { ok: false, cause: "throttled", message: "ipv64: overcommited (HTTP 200)" } },
    ];
    for (const c of cases) {
      test(c.body, async () => {
        fake.fault({ body: c.body }, 1);
        expect(await clientOf("https://ipv64.net").writeRecord(target("home.example.net"), NEW_V4)).toMatchObject(
          c.outcome,
        );
      });
    }
  });

  test("Dynu: a name under the account's own domain (config.zone_id) is sent as hostname=<domain>&alias=<name>", async () => {
    fake.style = "desec"; // answers on any path
    await clientOf("https://api.dynu.com").writeRecord(
      { ...target("home.example.net"), config: { zone_id: "example.net" } },
      NEW_V4,
    );
    expect(fake.requests[0]?.query).toEqual({ hostname: "example.net", alias: "home", myip: NEW_V4, myipv6: "no" });
    fake.clearRequests();
    // Without a domain named, or at the domain itself, the full name is sent as it is.
    await clientOf("https://api.dynu.com").writeRecord(
      { ...target("example.net"), config: { zone_id: "example.net" } },
      NEW_V4,
    );
    expect(fake.requests[0]?.query).toEqual({ hostname: "example.net", myip: NEW_V4, myipv6: "no" });
  });

  test("ChangeIP's own success words are a success", async () => {
    fake.fault({ body: "200 Successful Update" }, 1);
    expect(await clientOf("https://nic.changeip.com").writeRecord(target("home.example.net"), NEW_V4)).toMatchObject({
      ok: true,
      action: "updated",
      message: 'ChangeIP (IPv4 only) answered "200 Successful Update"',
    });
  });

  test("an AAAA write names its A sibling first, as myip lists them", async () => {
    fake.style = "dyn";
    await clientOf("https://members.dyndns.org").writeRecord(withSibling("AAAA", { ipv4: "198.51.100.1" }), NEW_V6);
    expect(fake.requests[0]?.query).toEqual({ hostname: "home.example.net", myip: `198.51.100.1,${NEW_V6}` });
    expect([home.ipv4, home.ipv6]).toEqual(["198.51.100.1", NEW_V6]);
  });

  test("every preset is an https URL whose host the dialect table knows", () => {
    const presets = dyndns2.options[0]?.presets ?? [];
    expect(presets.map((p) => p.label)).toEqual(
      expect.arrayContaining([
        "ChangeIP (IPv4 only)",
        "OpenDNS (IPv4 only)",
        "Variomedia",
        "All-Inkl",
        "DDNSS",
        "WebSupport",
        "NIC.RU (IPv4 only)",
        "Now-DNS",
        "Dynu (dyndns2)",
        "PowerDNS-Admin (your server)",
        "nsupdate.info (IPv4)",
        "nsupdate.info (IPv6)",
      ]),
    );
    expect(new Set(presets.map((p) => new URL(p.value).hostname)).size).toBe(presets.length);
  });
});

test("the dyndns2 page lists every well-known server with its server URL", async () => {
  const page = await Bun.file(new URL("../../docs/services/dyndns2.md", import.meta.url)).text();
  for (const preset of dyndns2.options[0]?.presets ?? []) {
    expect(page).toContain(`| ${preset.label} |`);
    if (!preset.label.includes("your server")) expect(page).toContain(preset.value);
  }
});
