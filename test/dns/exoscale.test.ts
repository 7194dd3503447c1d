// The Exoscale client against its fake: the EXO2-HMAC-SHA256 signature (checked against the official
// SDK's published test vectors), what it changes, how it follows an operation, what it keeps, and
// its failures in Exoscale's words.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { zoneClient } from "../../src/dns/reconcile";
import { createExoscaleApi, exoscale, exoscaleAuthorization } from "../../src/dns/services/exoscale";
import type { FetchLike } from "../../src/net/outbound";
import { openApi } from "../fakes/descriptions";
import { EXOSCALE_FAKE_KEY, EXOSCALE_FAKE_SECRET, type ExoscaleFake, startExoscaleFake } from "../fakes/exoscale";
import { context, serviceClient, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

// Not useFake: tests set the fake's operation quirks, fields of the fake itself.
let fake: ExoscaleFake;
let domainId: string;

beforeEach(() => {
  fake = startExoscaleFake();
  domainId = fake.addDomain("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", content: OLD_IP, ttl: 300 });
  fake.addRecord("example.com", { name: "", type: "A", content: OLD_IP, ttl: 600 });
});

afterEach(async () => {
  await fake.stop();
});

const credentials = { api_key: EXOSCALE_FAKE_KEY, api_secret: EXOSCALE_FAKE_SECRET };
const client = () => serviceClient("exoscale", fake.url, credentials);
/** A client whose operation checks follow each other at once, on the clock given. */
const timedApi = (now = Date.now, fetched: FetchLike = fetch) =>
  createExoscaleApi(credentials, context(fake.url, { fetch: fetched }), { pauseMs: 5, now });
const timed = (now?: () => number) => zoneClient(timedApi(now));

const home = () => fake.records("example.com", "home", "A");

// exoscale/requests-exoscale-auth tests/test_auth.py: the official Python signer's vectors.
const KEY = "EXOxxxxxxxxxxxxxxxxxxxxxxxx";
const SECRET = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX";
const EXPIRES = Date.UTC(2077, 0, 1) / 1000;

test("the signature matches the official signer without a query, and with query parameters, which it names", () => {
  expect(exoscaleAuthorization(KEY, SECRET, "GET", "https://api.exoscale.com/v2/zone", "", EXPIRES)).toBe(
    `EXO2-HMAC-SHA256 credential=${KEY},expires=${EXPIRES},signature=Ntbq/p0HVmA3Zg1HHY+Lq1vjFGi7HeMrrgXDS5jRNlY=`,
  );
  expect(exoscaleAuthorization(KEY, SECRET, "GET", "https://api.exoscale.com/v2/zone?k2=v2&k1=v1", "", EXPIRES)).toBe(
    `EXO2-HMAC-SHA256 credential=${KEY},signed-query-args=k1;k2,expires=${EXPIRES},signature=iqOBz13+44L5j0uJclE8hmUhQQcvtCSoPEOXYK6liqY=`,
  );
});

test("every request carries a signature the service accepts, expiring ten minutes ahead", async () => {
  expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted (1 domain)" });
  const header = fake.requests[0]!.headers.authorization!;
  const expires = Number(/expires=(\d+)/.exec(header)?.[1]);
  expect(expires - Date.now() / 1000).toBeGreaterThan(590);
  expect(expires - Date.now() / 1000).toBeLessThanOrEqual(600);
});

describe("Exoscale's published description", () => {
  test("an existing record: a PUT of the content alone, by its id, its pending operation asked again until it succeeds; a missing AAAA created with the relative name and TTL 3600, its id from the operation; every answer in the description's own shapes", async () => {
    const answers: { method: string; pathname: string; status: number; body: unknown }[] = [];
    const recording = async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init);
      answers.push({
        method: init?.method ?? "GET",
        pathname: new URL(String(input)).pathname,
        status: response.status,
        body: await response.clone().json(),
      });
      return response;
    };
    fake.pendingChecks = 2;
    const api = timedApi(Date.now, recording);
    const id = home()[0]!.id;
    expect(await zoneClient(api).writeRecord(target("home.example.com"), NEW_IP)).toMatchObject({
      ok: true,
      action: "updated",
      zoneId: domainId,
      externalId: id,
      message: expect.stringContaining("ttl 300"),
    });
    expect(home()).toMatchObject([{ content: NEW_IP, ttl: 300 }]);
    expect(fake.requests[2]?.body).toEqual({ content: NEW_IP });
    const aaaa = target("new.example.com", { zone_id: domainId }, { recordType: "AAAA" });
    const created = await zoneClient(api).writeRecord(aaaa, "2001:db8::7");
    const [record] = fake.records("example.com", "new", "AAAA");
    expect(record).toMatchObject({ content: "2001:db8::7", ttl: 3600 });
    expect(created).toMatchObject({ ok: true, action: "created", externalId: record!.id });
    const post = fake.requests.find((r) => r.method === "POST");
    expect(post?.body).toEqual({ name: "new", type: "AAAA", content: "2001:db8::7", ttl: 3600 });
    const { checkResponse } = openApi("exoscale", "/v2");
    expect(answers.map((a) => `${a.method} ${a.pathname.replace(/[0-9a-f-]{36}/g, "{id}")}`)).toEqual([
      "GET /v2/dns-domain",
      "GET /v2/dns-domain/{id}/record",
      "PUT /v2/dns-domain/{id}/record/{id}",
      "GET /v2/operation/{id}",
      "GET /v2/operation/{id}",
      "GET /v2/dns-domain/{id}",
      "GET /v2/dns-domain/{id}/record",
      "POST /v2/dns-domain/{id}/record",
      "GET /v2/operation/{id}",
      "GET /v2/operation/{id}",
    ]);
    for (const answer of answers)
      expect(checkResponse(answer.method, answer.pathname, answer.status, answer.body)).toEqual([]);
  });

  test("a request the description forbids is refused and recorded", async () => {
    const url = `${fake.url}/dns-domain/${domainId}/record`;
    const body = JSON.stringify({ name: "x", type: "A", content: NEW_IP, ttl: -5 });
    const authorization = exoscaleAuthorization(
      EXOSCALE_FAKE_KEY,
      EXOSCALE_FAKE_SECRET,
      "POST",
      url,
      body,
      Math.floor(Date.now() / 1000) + 600,
    );
    const response = await fetch(url, {
      method: "POST",
      headers: { Authorization: authorization, "Content-Type": "application/json" },
      body,
    });
    expect(response.status).toBe(400);
    expect(fake.takeViolations()).toEqual([
      expect.objectContaining({ description: "Exoscale OpenAPI", problems: [expect.stringContaining("ttl")] }),
    ]);
    expect(fake.records("example.com", "x", "A")).toEqual([]);
  });
});

test("the description names the key, the secret and the real service", () => {
  expect(exoscale.credentials.map((c) => [c.key, c.secret])).toEqual([
    ["api_key", false],
    ["api_secret", true],
  ]);
  expect(exoscale.credentials[0]!.validate!("nope")).toMatch(/EXO/);
  expect(exoscale.credentials[0]!.validate!(EXOSCALE_FAKE_KEY)).toBeUndefined();
  expect(exoscale.defaultApiUrl).toBe("https://api-ch-gva-2.exoscale.com/v2");
});

test("an operation still pending after five checks is reported unfinished; a failed one in its words", async () => {
  fake.pendingChecks = 10;
  expect(await timed().writeRecord(target("home.example.com", { zone_id: domainId }), NEW_IP)).toMatchObject({
    ok: false,
    cause: "unreachable",
    message: expect.stringContaining("still pending after 5 checks"),
  });
  fake.pendingChecks = 0;
  fake.failOperations = "conflict";
  expect(await client().writeRecord(target("example.com", { zone_id: domainId }), NEW_IP)).toEqual({
    ok: false,
    cause: "refused",
    message: "Exoscale: operation failure (conflict: The operation could not be completed)",
  });
});

test("a signature refused as expired (this machine's clock is behind) is retried later, and says to check the clock", async () => {
  const outcome = await timed(() => Date.now() - 20 * 60_000).writeRecord(target("home.example.com"), NEW_IP);
  expect(outcome).toMatchObject({
    ok: false,
    cause: "refused",
    message: expect.stringContaining("check this machine's clock"),
  });
  expect(outcome).not.toHaveProperty("stopRetrying");
  expect(fake.writes()).toBe(0);
});

test("a 500 keeps Exoscale's words and leaves the record alone", async () => {
  fake.fault({ status: 500 });
  expect(await client().writeRecord(target("home.example.com", { zone_id: domainId }), NEW_IP)).toEqual({
    ok: false,
    cause: "unreachable",
    message: "Exoscale: Internal server error (HTTP 500)",
  });
  expect(home()[0]?.content).toBe(OLD_IP);
});
