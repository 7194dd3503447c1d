// The Constellix client against the faithful fake: what it changes, what it keeps (TTL, note), how
// many requests it spends, and how every failure ends up as Constellix's own words. The security
// token is checked against the format the lego client's test asserts and against an HMAC-SHA1
// computed independently with WebCrypto; the fake checks every request's token.

import { describe, expect, test } from "bun:test";
import { securityToken } from "../../src/dns/services/constellix";
import {
  CONSTELLIX_FAKE_API_KEY,
  CONSTELLIX_FAKE_SECRET,
  type ConstellixFault,
  startConstellixFake,
} from "../fakes/constellix";
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
  withoutHeld,
  wrote,
} from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startConstellixFake, (fake) => {
  fake.addDomain("example.com");
  fake.addRecord("example.com", { type: "A", name: "home", values: [OLD_IP], ttl: 1800, note: "home router" });
  fake.addRecord("example.com", { type: "A", name: "", values: [OLD_IP], ttl: 600 });
});
const client = () =>
  serviceClient("constellix", fake.url, { api_key: CONSTELLIX_FAKE_API_KEY, secret_key: CONSTELLIX_FAKE_SECRET });
const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.records("example.com", "home", "A");
const domainId = () => String([...fake.domains.values()].find((domain) => domain.name === "example.com")!.id);

test("the security token is apiKey:base64(HMAC-SHA1(secret, epoch ms)):epoch ms", async () => {
  const epochMs = 1700000000123;
  const token = securityToken("api", "secret", epochMs);
  // The shape lego's TestTokenTransport_RoundTrip asserts: 28 base64 characters, 13 digits.
  expect(token).toMatch(/^api:[^:]{28}:\d{13}$/);
  // The HMAC computed a second way, with WebCrypto, as the API documentation's Postman script does with CryptoJS.
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode("secret"),
    { name: "HMAC", hash: "SHA-1" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(String(epochMs))));
  expect(token).toBe(`api:${Buffer.from(mac).toString("base64")}:${epochMs}`);
});

test("verify: a valid key pair is accepted, read-only; the secret key never travels", async () => {
  expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted" });
  expect(requestLines()).toEqual(["GET /domains"]);
  expect(fake.writes()).toBe(0);
  expect(fake.requests[0]?.headers["x-cns-security-token"]).toStartWith(`${CONSTELLIX_FAKE_API_KEY}:`);
  expect(JSON.stringify(fake.requests)).not.toContain(CONSTELLIX_FAKE_SECRET);
});

describe("an existing record", () => {
  test("finds the domain by exact name, reads the record, PUTs it back with only the address changed; then four requests", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    const [record] = home();
    const id = domainId();
    expect(withoutHeld(outcome)).toEqual(
      wrote("updated", String(record!.id), id, `Constellix record ${record!.id}, ttl 1800`),
    );
    expect(record).toMatchObject({
      ttl: 1800,
      note: "home router",
      roundRobin: [{ value: NEW_IP, disableFlag: false }],
    });
    expect(fake.requests.slice(0, 3).map((r) => r.query.exact)).toEqual(["home.example.com", "example.com", "home"]);
    expect(fake.requests[4]?.body).toMatchObject({
      name: "home",
      ttl: 1800,
      note: "home router",
      value: [NEW_IP],
      roundRobin: [{ value: NEW_IP, disableFlag: false }],
    });
    // With the domain known: the domain named, the record searched and read, the PUT.
    await client().writeRecord(target("home.example.com", { zone_id: id }), OLD_IP);
    const records = `/domains/${id}/records/A`;
    expect(requestLines()).toEqual([
      "GET /domains/search",
      "GET /domains/search",
      `GET ${records}/search`,
      `GET ${records}/${record!.id}`,
      `PUT ${records}/${record!.id}`,
      `GET /domains/${id}`,
      `GET ${records}/search`,
      `GET ${records}/${record!.id}`,
      `PUT ${records}/${record!.id}`,
    ]);
  });

  test("a pool record is left alone", async () => {
    fake.addRecord("example.com", { type: "A", name: "pooled", values: [], recordOption: "pools" });
    expect(await client().writeRecord(target("pooled.example.com", { zone_id: domainId() }), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message:
        "Constellix: pooled.example.com A is a pools record; ddnsd changes only a plain one, so nothing was written",
    });
    expect(fake.writes()).toBe(0);
  });
});

test("a missing record is created with TTL 3600, its id from the answer", async () => {
  const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
  const [record] = fake.records("example.com", "new", "A");
  expect(record).toMatchObject({ ttl: 3600, roundRobin: [{ value: NEW_IP, disableFlag: false }] });
  expect(withoutHeld(outcome)).toEqual(
    wrote("created", String(record!.id), domainId(), `Constellix record ${record!.id}, ttl 3600`),
  );
  expect(fake.requests.at(-1)?.body).toEqual({
    name: "new",
    ttl: 3600,
    roundRobin: [{ value: NEW_IP, disableFlag: false }],
  });
});

describe("failures keep Constellix's words and leave the record alone", () => {
  failureTests<FailureCase & { arrange: ConstellixFault }>(
    [
      fails({ status: 403, errors: ["Access denied"] }, "Constellix: Access denied (HTTP 403)", "credentials", STOP),
      fails(
        { status: 429, errors: ["Too many requests"], retryAfter: 12 },
        "Constellix: Too many requests (HTTP 429)",
        "throttled",
        waits(12),
      ),
    ],
    async ({ arrange }) => {
      fake.fault(arrange);
      return client().writeRecord(target("home.example.com", { zone_id: domainId() }), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()[0]).toMatchObject({ ttl: 1800, roundRobin: [{ value: OLD_IP }] });
    },
  );

  test("a value Constellix refuses is a refusal in its words", async () => {
    fake.fault({ status: 400, errors: ["Invalid A record value"] }, 1, (r) => r.method === "PUT");
    expect(await client().writeRecord(target("home.example.com", { zone_id: domainId() }), NEW_IP)).toEqual(
      failed("refused", "Constellix: Invalid A record value (HTTP 400)"),
    );
  });
});
