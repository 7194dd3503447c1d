// The Namecheap client against the faithful fake: the hostname split by the Public Suffix List (or by
// config.zone_id), one request per write, only ErrCount deciding (through the false utf-16 prolog),
// Namecheap's own words in every failure, and the password never among them.

import { describe, expect, test } from "bun:test";
import type { RecordConfig } from "../../src/dns/provider";
import { NAMECHEAP_FAKE_PASSWORD, type NamecheapFault, startNamecheapFake } from "../fakes/namecheap";
import { fails, failureTests, STOP, serviceClient, target, useFake } from "./support";

const NEW_V4 = "203.0.113.7";

const fake = useFake(startNamecheapFake, (fake) => {
  fake.addDomain("example.co.uk", { "@": "198.51.100.1", home: "198.51.100.2", "a.b": "198.51.100.3" });
  fake.addDomain("example.com", { "@": "198.51.100.4", "vpn.home": "198.51.100.5" });
  fake.addDomain("home.example.com", { vpn: "198.51.100.8" });
});
const client = () => serviceClient("namecheap", fake.url, { password: NAMECHEAP_FAKE_PASSWORD });
const held = (domain: string, host: string) => fake.domains.get(domain)?.hosts.get(host);

describe("the hostname is split into host and registered domain", () => {
  // Under a two-label public suffix, the apex (@), two labels deep; a .com apex and a name two labels deep; a
  // config.zone_id naming the domain (with a trailing dot and capitals too) or a sub-zone delegated to Namecheap.
  const cases: [hostname: string, zoneId: string | undefined, host: string, domain: string][] = [
    ["home.example.co.uk", undefined, "home", "example.co.uk"],
    ["example.co.uk", undefined, "@", "example.co.uk"],
    ["a.b.example.co.uk", undefined, "a.b", "example.co.uk"],
    ["example.com", undefined, "@", "example.com"],
    ["vpn.home.example.com", undefined, "vpn.home", "example.com"],
    ["home.example.co.uk", "example.co.uk", "home", "example.co.uk"],
    ["example.co.uk", "Example.co.uk.", "@", "example.co.uk"],
    ["vpn.home.example.com", "home.example.com", "vpn", "home.example.com"],
  ];
  for (const [hostname, zoneId, host, domain] of cases) {
    const config: RecordConfig = zoneId ? { zone_id: zoneId } : {};
    const name = `${hostname}${zoneId ? ` with config.zone_id ${zoneId}` : ""}: host ${host} of ${domain}`;
    test(name, async () => {
      expect(await client().writeRecord(target(hostname, config), NEW_V4)).toEqual({
        ok: true,
        action: "updated",
        externalId: hostname,
        zoneId: domain,
        message: `Namecheap host ${host} of ${domain}`,
      });
      expect(fake.requests).toHaveLength(1);
      expect(fake.requests[0]?.path).toBe("/update");
      expect(fake.requests[0]?.query).toEqual({ host, domain, password: NAMECHEAP_FAKE_PASSWORD, ip: NEW_V4 });
      expect(held(domain, host)).toBe(NEW_V4);
    });
  }
});

test("the false utf-16 prolog and the plain one both read; success without <IP> is still success", async () => {
  for (const prolog of ["utf-16", "plain"] as const) {
    fake.prolog = prolog;
    expect((await client().writeRecord(target("home.example.co.uk"), NEW_V4)).ok).toBe(true);
  }
  fake.fault(
    { xml: '<?xml version="1.0"?><interface-response><ErrCount>0</ErrCount><Done>true</Done></interface-response>' },
    1,
  );
  expect(await client().writeRecord(target("home.example.co.uk"), NEW_V4)).toMatchObject({ ok: true });
});

describe("failures keep Namecheap's words and never show the password", () => {
  type Arrange = { hostname?: string; config?: RecordConfig; ip?: string; fault?: NamecheapFault; unsent?: boolean };
  const unsent = true;
  const twoErrors =
    "<interface-response><ErrCount>2</ErrCount><errors><Err1>Bad &amp; worse</Err1><Err2>Also &lt;this&gt;</Err2></errors><Done>true</Done></interface-response>";
  const otherIp = "<interface-response><IP>192.0.2.55</IP><ErrCount>0</ErrCount><Done>true</Done></interface-response>";
  failureTests(
    [
      // Refused without a request: a zone_id not holding the name (nor one that only ends like it), a public suffix, AAAA.
      fails(
        { config: { zone_id: "example.com" }, unsent },
        "Namecheap: config.zone_id example.com does not hold home.example.co.uk; correct it or remove it",
        "refused",
        STOP,
      ),
      fails(
        { hostname: "home.myexample.com", config: { zone_id: "example.com" }, unsent },
        /does not hold home\.myexample\.com/,
        "refused",
        STOP,
      ),
      fails(
        { hostname: "co.uk", unsent },
        "Namecheap: co.uk is not under a registrable domain (Public Suffix List)",
        "refused",
        STOP,
      ),
      fails({ ip: "2a01:4f8::7", unsent }, "Namecheap: Dynamic DNS sets IPv4 (A) records only", "refused", STOP),
      fails(
        { hostname: "home.example.org" },
        "Namecheap: Domain name not found (response 316153, HTTP 200)",
        "refused",
        STOP,
      ),
      fails(
        { hostname: "nothere.example.co.uk" },
        "Namecheap: No Records updated. A record not Found; (HTTP 200)",
        "refused",
        STOP,
      ),
      fails({ ip: "not-an-ip" }, "Namecheap: Invalid IP (response 304156, HTTP 200)", "refused"),
      fails({ fault: { xml: twoErrors } }, "Namecheap: Bad & worse; Also <this> (2 errors, HTTP 200)", "refused"),
      // Namecheap published something else: retrying stops.
      fails(
        { fault: { xml: otherIp } },
        `Namecheap: answered that home.example.co.uk holds 192.0.2.55, not what was sent (${NEW_V4}): the update was ignored`,
        "refused",
        STOP,
      ),
      fails(
        { fault: { status: 503 } },
        'Namecheap: unreadable answer (HTTP 503): "Service Unavailable"',
        "unreachable",
      ),
      fails(
        { fault: { xml: "<interface-response><Done>true</Done></interface-response>" } },
        /^Namecheap: unreadable answer \(HTTP 200\): "<interface-response>/,
        "refused",
      ),
      fails({ fault: { xml: "" } }, "Namecheap: empty answer (HTTP 200)", "refused"),
      fails(
        { fault: { xml: `error for password=${NAMECHEAP_FAKE_PASSWORD}` } },
        'Namecheap: unreadable answer (HTTP 200): "error for password=••••"',
        "refused",
      ),
    ],
    async ({ arrange }: { arrange: Arrange }) => {
      if (arrange.fault) fake.fault(arrange.fault);
      const recordType = arrange.ip?.includes(":") ? "AAAA" : "A";
      return client().writeRecord(
        target(arrange.hostname ?? "home.example.co.uk", arrange.config, { recordType }),
        arrange.ip ?? NEW_V4,
      );
    },
    ({ arrange }: { arrange: Arrange }) => {
      expect(fake.requests).toHaveLength(arrange.unsent ? 0 : 1);
      expect(held("example.co.uk", "home")).toBe("198.51.100.2");
    },
  );
});

test("the fake plays Namecheap's traps: errors come with Done true in an HTTP 200; without ip the caller's address is published", async () => {
  const refused = await fetch(`${fake.url}/update?host=home&domain=example.co.uk&password=wrong`);
  const body = await refused.text();
  expect(refused.status).toBe(200);
  expect(body).toStartWith('<?xml version="1.0" encoding="utf-16"?>');
  expect(body).toContain("<ErrCount>1</ErrCount>");
  expect(body).toContain("<Done>true</Done>");
  await fetch(`${fake.url}/update?host=home&domain=example.co.uk&password=${NAMECHEAP_FAKE_PASSWORD}`);
  expect(held("example.co.uk", "home")).toBe("127.0.0.1");
});
