// The DuckDNS client against the faithful fake: one request per write, the address always sent in its
// own family's parameter (never the caller's address, never `clear`), and every answer that is not
// `OK` ending up as a failure with DuckDNS's words, the token never among them.

import { describe, expect, test } from "bun:test";
import type { RecordTarget } from "../../src/dns/provider";
import { DUCKDNS_FAKE_TOKEN, type DuckDnsFault, startDuckDnsFake } from "../fakes/duckdns";
import {
  type FailureCase,
  failed,
  fails,
  failureTests,
  STOP,
  serviceClient,
  target,
  useFake,
  waits,
  wrote,
} from "./support";

const NEW_V4 = "203.0.113.7";
const NEW_V6 = "2a01:4f8::7";
const OLD_V4 = "198.51.100.1";
const OLD_V6 = "2001:db8::1";

const fake = useFake(startDuckDnsFake, (fake) => {
  fake.addDomain("home", { ipv4: OLD_V4, ipv6: OLD_V6 });
  fake.addDomain("elsewhere", { token: "someone-elses-token", ipv4: "198.51.100.9" });
});
const client = () => serviceClient("duckdns", fake.url, { token: DUCKDNS_FAKE_TOKEN });
const home = () => fake.domains.get("home")!;
const v6 = (hostname: string, fields: Partial<RecordTarget> = {}) =>
  target(hostname, {}, { recordType: "AAAA", ...fields });

describe("writeRecord", () => {
  // Each row: the record written, the address, the query of the one GET /update beside domains, token and
  // verbose. The other family's address stays as it was.
  const cases: [string, RecordTarget, string, Record<string, string>][] = [
    ["A: ip= carries the IPv4, the AAAA stays", target("home.duckdns.org"), NEW_V4, { ip: NEW_V4 }],
    ["AAAA: ipv6= carries the IPv6, the A stays (no caller address)", v6("home.duckdns.org"), NEW_V6, { ipv6: NEW_V6 }],
    ["a name below a subdomain updates that subdomain", target("www.home.duckdns.org"), NEW_V4, { ip: NEW_V4 }],
    // A hostname's two addresses: the sibling of the other family is named in the same request.
    [
      "with an AAAA sibling, an A write names both in one request",
      target("home.duckdns.org", {}, { siblings: { ipv6: OLD_V6 } }),
      NEW_V4,
      { ip: NEW_V4, ipv6: OLD_V6 },
    ],
    [
      "with an A sibling, an AAAA write names both",
      v6("home.duckdns.org", { siblings: { ipv4: OLD_V4 } }),
      NEW_V6,
      { ip: OLD_V4, ipv6: NEW_V6 },
    ],
  ];
  for (const [name, record, ip, query] of cases) {
    test(name, async () => {
      expect(await client().writeRecord(record, ip)).toEqual(wrote("updated", "home", "", "DuckDNS domain home"));
      expect(fake.requests).toHaveLength(1);
      expect(fake.requests[0]).toMatchObject({ method: "GET", path: "/update" });
      expect(fake.requests[0]?.query).toEqual({
        domains: "home",
        token: DUCKDNS_FAKE_TOKEN,
        verbose: "true",
        ...query,
      });
      expect(home()).toMatchObject(record.recordType === "A" ? { ipv4: ip, ipv6: OLD_V6 } : { ipv4: OLD_V4, ipv6: ip });
    });
  }

  test("an address DuckDNS already holds: success that says nothing changed, still one request", async () => {
    expect(await client().writeRecord(target("home.duckdns.org"), OLD_V4)).toEqual(
      wrote("unchanged", "home", "", "DuckDNS domain home, it already held this address"),
    );
    expect(home().changes).toBe(0);
    expect(fake.updates()).toBe(1);
  });

  test("a bare OK (no verbose answer) is success", async () => {
    fake.fault({ body: "OK" }, 1);
    expect(await client().writeRecord(target("home.duckdns.org"), NEW_V4)).toMatchObject({
      ok: true,
      message: "DuckDNS domain home",
    });
  });
});

describe("failures keep DuckDNS's words and never show the token", () => {
  failureTests<FailureCase & { arrange: { hostname?: string; fault?: DuckDnsFault } }>(
    [
      fails(
        { hostname: "elsewhere.duckdns.org" },
        "DuckDNS: KO — the token is wrong or elsewhere.duckdns.org is not a subdomain of its account (HTTP 200)",
        "credentials",
        STOP,
      ),
      fails({ hostname: "nothere.duckdns.org" }, /^DuckDNS: KO — .* nothere\.duckdns\.org /, "credentials", STOP),
      // No Retry-After: no wait invented (the updater decides); a week is named as asked (the updater caps it).
      fails({ fault: { status: 429 } }, /\(HTTP 429\): "/, "throttled"),
      fails({ fault: { status: 429, retryAfter: 604800 } }, /\(HTTP 429\): "/, "throttled", waits(604800)),
      fails(
        { fault: { status: 503, retryAfter: 30 } },
        'DuckDNS: unreadable answer (HTTP 503): "Error"',
        "throttled",
        waits(30),
      ),
      fails({ fault: { status: 500 } }, 'DuckDNS: unreadable answer (HTTP 500): "Error"', "unreachable"),
      fails({ fault: { body: "" } }, "DuckDNS: empty answer (HTTP 200)", "refused"),
      fails(
        { fault: { body: `bad request token=${DUCKDNS_FAKE_TOKEN}` } },
        'DuckDNS: unreadable answer (HTTP 200): "bad request token=••••"',
        "refused",
      ),
      fails(
        { fault: { body: "OK\n192.0.2.55\n\nUPDATED" } },
        `DuckDNS: answered that home.duckdns.org holds 192.0.2.55, not what was sent (${NEW_V4}): the update was ignored`,
        "refused",
        STOP,
      ),
    ],
    async ({ arrange }) => {
      if (arrange.fault) fake.fault(arrange.fault);
      const outcome = await client().writeRecord(target(arrange.hostname ?? "home.duckdns.org"), NEW_V4);
      expect(JSON.stringify(outcome)).not.toContain(DUCKDNS_FAKE_TOKEN);
      return outcome;
    },
    () => {
      // No retry loop inside the client: one request, whatever the answer.
      expect(fake.requests).toHaveLength(1);
      expect(home()).toMatchObject({ ipv4: OLD_V4, changes: 0 });
    },
  );

  test("a name outside duckdns.org is refused without a request", async () => {
    expect(await client().writeRecord(target("home.example.com"), NEW_V4)).toEqual(
      failed("refused", "DuckDNS: home.example.com is not a name under duckdns.org", STOP),
    );
    expect(fake.requests).toHaveLength(0);
  });
});

test("the fake plays DuckDNS's traps: without ip the caller's address is published; clear=true empties both records", async () => {
  await fetch(`${fake.url}/update?domains=home&token=${DUCKDNS_FAKE_TOKEN}`);
  expect(home().ipv4).toBe("127.0.0.1");
  const cleared = await fetch(`${fake.url}/update?domains=home.duckdns.org&token=${DUCKDNS_FAKE_TOKEN}&clear=true`);
  expect(await cleared.text()).toBe("OK");
  expect(home()).toMatchObject({ ipv4: "", ipv6: "" });
});
