// The DNS Made Easy client against its fake: the signature (checked against a published vector), the
// domain found by name, the record read with filters and PUT back whole with only its value changed,
// the rate limit's 400, the clock check, and every failure in DNS Made Easy's own words.

import { afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { dnsmadeeasy, dnsmeSignature } from "../../src/dns/services/dnsmadeeasy";
import { DNSME_FAKE_KEY, DNSME_FAKE_SECRET, type DnsmeFake, startDnsmeFake } from "../fakes/dnsmadeeasy";
import { fails, failureTests, serviceClient, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startDnsmeFake, (fake) => {
  fake.addDomain("example.com");
  const settings = { ttl: 600, dynamicDns: true, password: "ddns-pass", monitor: true };
  fake.addRecord("example.com", { name: "home", type: "A", value: OLD_IP, ...settings });
});
afterEach(() => setSystemTime());
const client = () => serviceClient("dnsmadeeasy", fake.url, { api_key: DNSME_FAKE_KEY, secret_key: DNSME_FAKE_SECRET });

const requestLines = () =>
  fake.requests.map((r) => `${r.method} ${r.path}${r.query.domainname ? `?domainname=${r.query.domainname}` : ""}`);
const home = () => fake.records("example.com", "home", "A");
const known = { zone_id: "example.com" };

test("the signature matches the vector in go-acme/lego's DNS Made Easy client tests (providers/dns/dnsmadeeasy/internal/client_test.go)", () => {
  // Secret "secret", the date 2015-06-02 02:36:07 UTC as Go's RFC1123 writes it.
  expect(dnsmeSignature("secret", "Tue, 02 Jun 2015 02:36:07 UTC")).toBe("6b6c8432119c31e1d3776eb4cd3abd92fae4a71c");
});

test("the description names the key and sealed secret, the record types, a pace under 150 per 5 minutes and the real service", () => {
  expect(dnsmadeeasy.credentials.map((c) => [c.key, c.secret])).toEqual([
    ["api_key", false],
    ["secret_key", true],
  ]);
  expect(dnsmadeeasy.recordTypes).toEqual(["A", "AAAA"]);
  expect(dnsmadeeasy.defaultApiUrl).toBe("https://api.dnsmadeeasy.com/V2.0");
  for (const limit of dnsmadeeasy.rateLimits ?? []) expect(limit.requests / limit.perSeconds).toBeLessThan(150 / 300);
});

test("verify: valid keys are accepted, read-only; every request carries the key, the current time as an HTTP date and that date's signature", async () => {
  setSystemTime(new Date("2026-11-25T13:30:00Z"));
  expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted (1 domain)" });
  expect(requestLines()).toEqual(["GET /dns/managed"]);
  const headers = fake.requests[0]!.headers;
  expect(headers["x-dnsme-apikey"]).toBe(DNSME_FAKE_KEY);
  expect(headers["x-dnsme-requestdate"]).toBe("Wed, 25 Nov 2026 13:30:00 GMT");
  expect(headers["x-dnsme-hmac"]).toBe(dnsmeSignature(DNSME_FAKE_SECRET, "Wed, 25 Nov 2026 13:30:00 GMT"));
});

test("an existing record: the domain found by name, the record read with filters and PUT back whole (TTL, dynamic DNS, its password, monitoring) with the new value; then (domain known) the id by name, one read and one write", async () => {
  const before = { ...home()[0]! };
  const domainId = fake.domains.keys().next().value;
  expect(withoutHeld(await client().writeRecord(target("home.example.com"), NEW_IP))).toEqual({
    ok: true,
    action: "updated",
    externalId: String(before.id),
    zoneId: "example.com",
    message: `DNS Made Easy record ${before.id}, ttl 600`,
  });
  expect(home()).toEqual([{ ...before, value: NEW_IP }]);
  expect(fake.requests[2]?.query).toEqual({ recordName: "home", type: "A" });
  await client().writeRecord(target("home.example.com", known), OLD_IP);
  expect(requestLines()).toEqual([
    "GET /dns/managed/name?domainname=home.example.com",
    "GET /dns/managed/name?domainname=example.com",
    `GET /dns/managed/${domainId}/records`,
    `PUT /dns/managed/${domainId}/records/${before.id}`,
    "GET /dns/managed/name?domainname=example.com",
    `GET /dns/managed/${domainId}/records`,
    `PUT /dns/managed/${domainId}/records/${before.id}`,
  ]);
});

test("a missing record is created with TTL 1800 and its id saved", async () => {
  const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
  const [created] = fake.records("example.com", "new", "A");
  expect(created).toMatchObject({ value: NEW_IP, ttl: 1800, gtdLocation: "DEFAULT" });
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "created",
    externalId: String(created!.id),
    zoneId: "example.com",
    message: `DNS Made Easy record ${created!.id}, ttl 1800`,
  });
});

describe("failures keep DNS Made Easy's words and leave the record alone", () => {
  type Arrange = (fake: DnsmeFake) => void;
  failureTests(
    [
      fails<Arrange>(
        (fake) => fake.fault({ status: 500 }),
        "DNS Made Easy: Internal server error (HTTP 500)",
        "unreachable",
      ),
      // The real rate limit: past 150 requests in 5 minutes every request is refused as "slow down".
      fails<Arrange>((fake) => (fake.requestLimit = 2), "DNS Made Easy: Rate limit exceeded (HTTP 400)", "throttled"),
      // A clock that is off is named, and does not stop retries.
      fails<Arrange>(
        (fake) => (fake.clockOffsetMs = 20 * 60 * 1000),
        /^DNS Made Easy: Request sent with date header too far out of sync\..* \(check this machine's clock\) \(HTTP 403\)$/,
        "refused",
      ),
    ],
    ({ arrange }) => {
      arrange(fake);
      return client().writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(home()).toMatchObject([{ value: OLD_IP, ttl: 600 }]);
    },
  );
});
