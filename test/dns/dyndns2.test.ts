// The dyndns2 client against a faithful update server playing No-IP, Dyn and deSEC: one request per
// write with Basic auth, every return code read from the body before the HTTP status, the codes that
// mean "fix the configuration" stopping retries, 911 pausing 30 minutes, and each well-known server
// in its own dialect.

import { describe, expect, test } from "bun:test";
import type { RecordTarget, RecordType, WriteOutcome } from "../../src/dns/provider";
import { dyndns2 } from "../../src/dns/services/dyndns2";
import {
  DYNDNS2_FAKE_PASSWORD,
  DYNDNS2_FAKE_USER,
  type Dyndns2Fault,
  type Dyndns2Host,
  type Dyndns2Style,
  startDyndns2Fake,
} from "../fakes/dyndns2";
import {
  type FailureCase,
  fails,
  failureTests,
  STOP,
  serviceClient,
  target,
  USER_AGENT,
  useFake,
  waits,
} from "./support";

const HOST = "home.example.net";
const OLD_V4 = "198.51.100.1";
const OLD_V6 = "2001:db8::1";
const NEW_V4 = "203.0.113.7";
const NEW_V6 = "2a01:4f8::7";
const BADAUTH = "badauth — the username or password is wrong";
const NOHOST = "nohost — the hostname does not exist in this account";
const BASIC = `Basic ${btoa(`${DYNDNS2_FAKE_USER}:${DYNDNS2_FAKE_PASSWORD}`)}`;

const fake = useFake(startDyndns2Fake, (fake) => {
  fake.addHost(HOST, { ipv4: OLD_V4, ipv6: OLD_V6 });
  fake.addHost("theirs.example.net", { username: "someone-else", ipv4: "198.51.100.9" });
});
const home = () => fake.hosts.get(HOST)!;
/** How messages name the fake's server: `dyndns2 127.0.0.1:<port>`. */
const service = () => `dyndns2 ${new URL(fake.url).host}`;
const client = (options: { password?: string; server?: string; userAgent?: string } = {}) =>
  serviceClient(
    "dyndns2",
    "",
    { username: DYNDNS2_FAKE_USER, password: options.password ?? DYNDNS2_FAKE_PASSWORD },
    { server: options.server ?? fake.url },
    options.userAgent ? { userAgent: options.userAgent } : {},
  );
/** The record `HOST` of `recordType`, with any other field (its siblings). */
const record = (recordType: RecordType = "A", fields: Partial<RecordTarget> = {}) =>
  target(HOST, {}, { recordType, ...fields });

test("the description: username, secret password, a required server with https presets of distinct hosts; cannot verify", () => {
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
  for (const preset of presets) expect(preset.value).toStartWith("https://");
  expect(new Set(presets.map((p) => new URL(p.value).hostname)).size).toBe(presets.length);
});

test("the dyndns2 page lists every well-known server with its server URL", async () => {
  const page = await Bun.file(new URL("../../docs/services/dyndns2.md", import.meta.url)).text();
  for (const preset of dyndns2.options[0]?.presets ?? []) {
    expect(page).toContain(`| ${preset.label} |`);
    if (!preset.label.includes("your server")) expect(page).toContain(preset.value);
  }
});

describe("the request", () => {
  test("one GET <server>/nic/update?hostname&myip with Basic auth, nothing else", async () => {
    await client().writeRecord(record(), NEW_V4);
    expect(fake.requests.map((r) => [r.method, r.path, r.query])).toEqual([
      ["GET", "/nic/update", { hostname: HOST, myip: NEW_V4 }],
    ]);
    expect(fake.requests[0]?.headers.authorization).toBe(BASIC);
  });

  const servers: [name: string, suffix: string, path: string, query: Record<string, string>][] = [
    ["a base URL with a trailing slash", "/", "/nic/update", {}],
    ["a base URL with a path", "/dyn", "/dyn/nic/update", {}],
    ["a URL that already ends in /nic/update", "/nic/update", "/nic/update", {}],
    [
      "OVH's form: /nic/update?system=dyndns keeps its parameter",
      "/nic/update?system=dyndns",
      "/nic/update",
      { system: "dyndns" },
    ],
  ];
  for (const [name, suffix, path, query] of servers) {
    test(`server given as ${name}`, async () => {
      expect((await client({ server: fake.url + suffix }).writeRecord(record(), NEW_V4)).ok).toBe(true);
      expect(fake.requests[0]?.path).toBe(path);
      expect(fake.requests[0]?.query).toEqual({ ...query, hostname: HOST, myip: NEW_V4 });
    });
  }

  test("a server that is not an http(s) URL is refused without a request", async () => {
    expect(await client({ server: "ftp://example.net" }).writeRecord(record(), NEW_V4)).toEqual({
      ok: false,
      message: 'dyndns2: the server "ftp://example.net" is not an http(s) URL',
      cause: "refused",
      stopRetrying: true,
    });
    expect(fake.requests).toHaveLength(0);
  });
});

describe("success", () => {
  const cases: [name: string, type: RecordType, ip: string, words: string, after: Partial<Dyndns2Host>][] = [
    ["A: good", "A", NEW_V4, "answered good", { ipv4: NEW_V4, ipv6: OLD_V6 }],
    ["AAAA: good", "AAAA", NEW_V6, "answered good", { ipv4: OLD_V4, ipv6: NEW_V6 }],
    ["A: nochg (nothing changed)", "A", OLD_V4, "answered nochg, it already held this address", { ipv4: OLD_V4 }],
  ];
  for (const [name, type, ip, words, after] of cases) {
    test(name, async () => {
      expect(await client().writeRecord(record(type), ip)).toEqual({
        ok: true,
        action: words.includes("nochg") ? "unchanged" : "updated",
        externalId: HOST,
        zoneId: "",
        message: `${service()} ${words}`,
      });
      expect(home()).toMatchObject(after);
      expect(fake.updates()).toBe(1);
    });
  }

  const answers: [name: string, body: string, words: string][] = [
    ["Infomaniak's successfully_changed", `successfully_changed ${NEW_V4}`, "answered successfully_changed"],
    ["Infomaniak's no_change", `no_change ${NEW_V4}`, "answered no_change, it already held this address"],
    ["good without an address", "good", "answered good"],
    ["an IPv6 written differently", "good 2A01:04F8:0::7", "answered good"],
  ];
  for (const [name, body, words] of answers) {
    test(`other spellings: ${name}`, async () => {
      fake.fault({ body }, 1);
      const ip = body.includes(":") ? NEW_V6 : NEW_V4;
      expect(await client().writeRecord(record(ip === NEW_V6 ? "AAAA" : "A"), ip)).toMatchObject({
        ok: true,
        message: `${service()} ${words}`,
      });
    });
  }

  test("a success line holding another address stops retrying: the service published something else", async () => {
    fake.fault({ body: "good 192.0.2.55" }, 1);
    expect(await client().writeRecord(record(), NEW_V4)).toEqual({
      ok: false,
      message: `${service()}: answered that ${HOST} holds 192.0.2.55, not what was sent (${NEW_V4}): the update was ignored`,
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
      expect(await client().writeRecord(record(type), ip)).toMatchObject({
        ok: false,
        cause: "refused",
        stopRetrying: true,
      });
    }
  });
});

/** What a failure row arranges: a style, a fault, or other credentials, name or User-Agent. */
interface Arrange {
  style?: Dyndns2Style;
  fault?: Dyndns2Fault;
  password?: string;
  hostname?: string;
  userAgent?: string;
}

/** The write a failure row makes; a row's words are the whole message after the server's name, without the password. */
async function attempt({ arrange, message }: FailureCase & { arrange: Arrange }): Promise<WriteOutcome> {
  if (arrange.style) fake.style = arrange.style;
  if (arrange.fault) fake.fault(arrange.fault, 1);
  const outcome = await client(arrange).writeRecord(target(arrange.hostname ?? HOST), NEW_V4);
  if (outcome.ok) return outcome;
  if (typeof message === "string") expect(outcome.message).toBe(`${service()}: ${message}`);
  expect(outcome.message).not.toContain(arrange.password ?? DYNDNS2_FAKE_PASSWORD);
  return outcome;
}

/** A failure row's answer from the server: `body` in a response of `status`, naming a wait when given. */
const answered = (body: string, status = 200, retryAfter?: number): Arrange => ({
  fault: { body, status, retryAfter },
});

/** One request, and nothing changed. */
function oneRequestNothingChanged() {
  expect(fake.requests).toHaveLength(1);
  expect(home().ipv4).toBe(OLD_V4);
}

describe("codes that mean the configuration is wrong stop retrying, in every style", () => {
  const wrong: [Arrange, Record<Dyndns2Style, number>, string][] = [
    [{ password: "not-the-Pa55word" }, { noip: 401, dyn: 200, desec: 401 }, BADAUTH],
    [{ hostname: "nowhere.example.net" }, { noip: 200, dyn: 200, desec: 404 }, NOHOST],
    [{ hostname: "theirs.example.net" }, { noip: 200, dyn: 200, desec: 404 }, NOHOST],
    [
      { userAgent: "Bun/1.4.5" },
      { noip: 200, dyn: 200, desec: 200 },
      "badagent — the service refuses this client (its User-Agent)",
    ],
  ];
  const styles = ["noip", "dyn", "desec"] as const;
  failureTests(
    styles.flatMap((style) =>
      wrong.map(([arrange, statuses, words]) => ({
        ...fails(
          { ...arrange, style },
          `${words} (HTTP ${statuses[style]})`,
          words.startsWith("badauth") ? "credentials" : "refused",
          STOP,
        ),
        name: `${JSON.stringify(arrange)} as ${style} answers it: ${words} (HTTP ${statuses[style]})`,
      })),
    ),
    attempt,
    oneRequestNothingChanged,
  );

  const reasons: [body: string, status: number, reason: string][] = [
    ["!donator", 200, "the request uses a feature of paid accounts only"],
    ["notfqdn", 200, "the hostname is not a fully qualified domain name"],
    ["numhost", 200, "too many hosts in one request, or the name is a round-robin record"],
    ["abuse", 200, "the hostname is blocked for abuse"],
    ["badsys", 200, "the service refuses the system parameter"],
    ["!yours", 200, "the hostname belongs to another account"],
    ["!active", 200, "the hostname's domain is not activated"],
  ];
  failureTests(
    [
      ...reasons.map(([body, status, reason]) =>
        fails(answered(body, status), `${body} — ${reason} (HTTP ${status})`, "refused", STOP),
      ),
      fails(answered("nohost", 400), `${NOHOST} (HTTP 400)`, "refused", STOP),
      // A bare 401, without badauth, is refused credentials as badauth is.
      ...["", "Unauthorized"].map((body) =>
        fails(answered(body, 401), /the username or password is wrong/, "credentials", STOP),
      ),
    ],
    attempt,
    oneRequestNothingChanged,
  );

  test("repeated nochg gets the host blocked for abuse, which stops retrying", async () => {
    fake.nochgBeforeAbuse = 1;
    await client().writeRecord(record(), OLD_V4);
    expect(await client().writeRecord(record(), OLD_V4)).toMatchObject({
      ok: false,
      message: `${service()}: abuse — the hostname is blocked for abuse (HTTP 200)`,
      stopRetrying: true,
    });
  });
});

describe("temporary failures: retried, never inside the client", () => {
  failureTests(
    [
      fails(answered("911", 500), "911 — the service is down or in maintenance (HTTP 500)", "throttled", waits(1800)),
      // The updater caps the pause.
      fails(answered("911", 200, 86400), /911/, "throttled", waits(86400)),
      fails(
        answered("Too Many Requests", 429, 300),
        'unreadable answer (HTTP 429): "Too Many Requests"',
        "throttled",
        waits(300),
      ),
      // No wait invented: the updater decides.
      fails(answered("slow down", 429), /\(HTTP 429\): "/, "throttled"),
      fails(answered("", 500), "empty answer (HTTP 500)", "unreachable"),
      fails(
        answered("<html>maintenance</html>"),
        'unreadable answer (HTTP 200): "<html>maintenance</html>"',
        "refused",
      ),
      // A word that only an object's prototype knows.
      fails(answered("constructor"), 'unreadable answer (HTTP 200): "constructor"', "refused"),
      fails(
        answered(`denied for ${DYNDNS2_FAKE_PASSWORD}`),
        'unreadable answer (HTTP 200): "denied for ••••"',
        "refused",
      ),
    ],
    attempt,
    oneRequestNothingChanged,
  );
});

test("the fake plays the services' traps: without myip the caller's address is published", async () => {
  const answer = await fetch(`${fake.url}/nic/update?hostname=${HOST}`, {
    headers: { Authorization: BASIC, "User-Agent": USER_AGENT },
  });
  expect(await answer.text()).toBe("good 127.0.0.1\n");
  expect(home().ipv4).toBe("127.0.0.1");
});

describe("each well-known server in its dialect", () => {
  /** A client of `server` whose requests reach the fake (path and query kept). */
  function clientOf(server: string, password = DYNDNS2_FAKE_PASSWORD) {
    const reroute = ((input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : input.toString());
      url.protocol = "http:";
      url.host = new URL(fake.url).host;
      return fetch(url, init);
    }) as typeof fetch;
    return serviceClient("dyndns2", "", { username: DYNDNS2_FAKE_USER, password }, { server }, { fetch: reroute });
  }
  const SIBLING = "2001:db8::1";
  const both = { hostname: HOST, myip: `${NEW_V4},${SIBLING}` };
  const alone = (fields: Record<string, string> = {}) => ({ hostname: HOST, myip: NEW_V4, ...fields });

  const cases: [server: string, path: string, alone: Record<string, string>, both: Record<string, string> | null][] = [
    ["https://members.dyndns.org", "/nic/update", alone(), both],
    ["https://dynupdate.no-ip.com", "/nic/update", alone(), both],
    ["https://dyndns.variomedia.de", "/nic/update", alone(), both],
    [
      "https://update.dedyn.io",
      "/nic/update",
      { hostname: HOST, myipv4: NEW_V4, myipv6: "preserve" },
      { hostname: HOST, myipv4: NEW_V4, myipv6: SIBLING },
    ],
    ["https://api.dynu.com", "/nic/update", alone({ myipv6: "no" }), alone({ myipv6: SIBLING })],
    ["https://dyndns.inwx.com", "/nic/update", alone(), alone({ myipv6: SIBLING })],
    ["https://dyndns.kasserver.com", "/", { host: HOST, myip: NEW_V4 }, { host: HOST, myip: NEW_V4, myip6: SIBLING }],
    // One family per request: the other is the service's to keep.
    ["https://dyn.dns.he.net", "/nic/update", alone(), null],
    ["https://dns.eu.ovhapis.com/nic/update?system=dyndns", "/nic/update", { system: "dyndns", ...alone() }, null],
    ["https://now-dns.com", "/update", alone(), null],
    // IPv4 only: the sibling is never sent.
    ["https://dynv6.com", "/nic/update", alone(), null],
    ["https://updates.opendns.com", "/nic/update", alone(), null],
    ["https://api.nic.ru", "/dyndns/update", alone(), null],
    ["https://ipv4.nsupdate.info", "/nic/update", alone(), null],
    ["https://nic.changeip.com", "/nic/update", { hostname: HOST, ip: NEW_V4 }, null],
  ];
  for (const [server, path, query, withSibling] of cases) {
    test(`${server}: ${path}, ${JSON.stringify(query)}; with an AAAA sibling ${withSibling === null ? "the same" : JSON.stringify(withSibling)}`, async () => {
      fake.style = "desec"; // answers on any path
      await clientOf(server).writeRecord(record(), NEW_V4);
      await clientOf(server).writeRecord(record("A", { siblings: { ipv6: SIBLING } }), NEW_V4);
      expect(fake.requests.map((r) => r.path)).toEqual([path, path]);
      expect(fake.requests.map((r) => r.query)).toEqual([query, withSibling ?? query]);
    });
  }

  test("a well-known server is named by its label", async () => {
    expect(await clientOf("https://dynupdate.no-ip.com", "wrong").writeRecord(record(), NEW_V4)).toMatchObject({
      ok: false,
      message: "No-IP: badauth — the username or password is wrong (HTTP 401)",
    });
  });

  // An AAAA write beside an A: Dyn lists both in myip, the A first; Hurricane Electric keys each record
  // on its own (dns.he.net's dynamic DNS help, qdm12/ddns-updater's he client), and nsupdate.info's
  // IPv6 host takes IPv6 alone ("IP v4 and v6 addresses work completely independently … send 2
  // updates", docs/user.rst): the one address in myip, never the other family.
  const aaaa: [server: string, myip: string][] = [
    ["https://members.dyndns.org", `${OLD_V4},${NEW_V6}`],
    ["https://dyn.dns.he.net", NEW_V6],
    ["https://ipv6.nsupdate.info", NEW_V6],
  ];
  for (const [server, myip] of aaaa) {
    test(`${server}: an AAAA write beside an A sends myip=${myip}`, async () => {
      await clientOf(server).writeRecord(record("AAAA", { siblings: { ipv4: OLD_V4 } }), NEW_V6);
      expect(fake.requests.map((r) => [r.path, r.query])).toEqual([["/nic/update", { hostname: HOST, myip }]]);
      expect(fake.requests[0]?.headers.authorization).toBe(BASIC);
      expect([home().ipv4, home().ipv6]).toEqual([OLD_V4, NEW_V6]);
    });
  }

  test("an IPv4-only server refuses an AAAA record for good, without a request", async () => {
    for (const server of [
      "https://dynv6.com",
      "https://updates.opendns.com",
      "https://nic.changeip.com",
      "https://api.nic.ru",
      "https://ipv4.nsupdate.info",
    ]) {
      expect(await clientOf(server).writeRecord(record("AAAA"), NEW_V6)).toMatchObject({
        ok: false,
        cause: "refused",
        stopRetrying: true,
        message: expect.stringContaining("takes A records only on this update server"),
      });
    }
    expect(fake.requests).toHaveLength(0);
  });

  test("nsupdate.info's IPv6 host refuses an A for good, without a request", async () => {
    expect(await clientOf("https://ipv6.nsupdate.info").writeRecord(record(), NEW_V4)).toMatchObject({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message: expect.stringContaining("takes AAAA records only on this update server"),
    });
    expect(fake.requests).toHaveLength(0);
  });

  test("Dynu: a name under the account's own domain (config.zone_id) is sent as hostname=<domain>&alias=<name>", async () => {
    fake.style = "desec"; // answers on any path
    await clientOf("https://api.dynu.com").writeRecord(target(HOST, { zone_id: "example.net" }), NEW_V4);
    expect(fake.requests[0]?.query).toEqual({ hostname: "example.net", alias: "home", myip: NEW_V4, myipv6: "no" });
    // At the domain itself the full name is sent as it is.
    await clientOf("https://api.dynu.com").writeRecord(target("example.net", { zone_id: "example.net" }), NEW_V4);
    expect(fake.requests[1]?.query).toEqual({ hostname: "example.net", myip: NEW_V4, myipv6: "no" });
  });

  // ipv64 and ChangeIP answer in words of their own; selfHOST with HTTP statuses.
  const successes: [server: string, body: string, action: string, message: string][] = [
    ["ipv64.net", "success", "updated", 'ipv64 answered "success"'],
    ["ipv64.net", "no change", "unchanged", 'ipv64 answered "no change"'],
    ["nic.changeip.com", "200 Successful Update", "updated", 'ChangeIP (IPv4 only) answered "200 Successful Update"'],
  ];
  for (const [server, body, action, message] of successes) {
    test(`${server} answering "${body}": ${action}`, async () => {
      fake.fault({ body }, 1);
      expect(await clientOf(`https://${server}`).writeRecord(record(), NEW_V4)).toMatchObject({
        ok: true,
        action,
        message,
      });
    });
  }

  test("selfHOST's 204: already there", async () => {
    fake.fault({ body: "", status: 204 }, 1);
    expect(await clientOf("https://carol.selfhost.de").writeRecord(record(), NEW_V4)).toMatchObject({
      ok: true,
      action: "unchanged",
      message: "selfHOST answered HTTP 204: no change, it already held this address",
    });
  });

  failureTests(
    [
      fails({ status: 409 }, "selfHOST: HTTP 409 — the account has no zones for this hostname", "refused", STOP),
      fails({ status: 410 }, "selfHOST: HTTP 410 — the account is not active", "refused", STOP),
      fails({ status: 411 }, "selfHOST: HTTP 411 — the address sent is not a valid one", "refused"),
      fails({ status: 412 }, "selfHOST: HTTP 412 — the address sent is a private one", "refused"),
      fails(
        { status: 503 },
        "selfHOST: HTTP 503 — the last update was too recent (update time too brief)",
        "throttled",
      ),
      fails({ status: 401 }, /^selfHOST: .*HTTP 401/, "credentials", STOP),
      fails({ body: "overcommited" }, "ipv64: overcommited (HTTP 200)", "throttled"),
    ],
    ({ arrange }: { arrange: { status?: number; body?: string } }) => {
      fake.fault({ body: "", ...arrange }, 1);
      const server = arrange.status ? "https://carol.selfhost.de" : "https://ipv64.net";
      return clientOf(server).writeRecord(record(), NEW_V4);
    },
  );
});
