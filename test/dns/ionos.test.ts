// The IONOS DNS API client against its fake: what it changes, what it keeps, how many requests it
// spends, and how every failure IONOS can give ends up as IONOS's own words with its cause.

import { describe, expect, test } from "bun:test";
import { ionos } from "../../src/dns/services/ionos";
import { IONOS_FAKE_API_KEY, type IonosFault, startIonosFake } from "../fakes/ionos";
import { type FailureCase, fails, failureTests, serviceClient, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let zoneId = "";
const fake = useFake(startIonosFake, (fake) => {
  zoneId = fake.addZone("example.com");
  fake.addRecord("example.com", { name: "home.example.com", type: "A", content: OLD_IP, ttl: 1800 });
  fake.addRecord("example.com", { name: "example.com", type: "A", content: OLD_IP, ttl: 600 });
});
const client = () => serviceClient("ionos", fake.url, { api_key: IONOS_FAKE_API_KEY });
const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.record("example.com", "home.example.com", "A");
const known = () => ({ zone_id: zoneId });

test("the description: the key with the page where it is made and its form, the real service", () => {
  expect(ionos.credentials.map((c) => [c.key, c.secret])).toEqual([["api_key", true]]);
  expect(ionos.credentials[0]?.url).toBe("https://developer.hosting.ionos.com/keys");
  expect(ionos.credentials[0]?.validate?.("justonepart")).toBeString();
  expect(ionos.credentials[0]?.validate?.(IONOS_FAKE_API_KEY)).toBeUndefined();
  expect(ionos.defaultApiUrl).toBe("https://api.hosting.ionos.com/dns");
});

test("verify: a valid key is accepted, read-only, with the zone count", async () => {
  expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted (1 zone)" });
  expect(requestLines()).toEqual(["GET /v1/zones"]);
  expect(fake.writes()).toBe(0);
});

describe("an existing record", () => {
  test("lists the zones, reads the name's records, PUTs the record with what it read; then one read and one write", async () => {
    const id = home()!.id;
    expect(withoutHeld(await client().writeRecord(target("home.example.com"), NEW_IP))).toEqual({
      ok: true,
      action: "updated",
      externalId: id,
      zoneId,
      message: `IONOS record ${id}, ttl 1800`,
    });
    expect(home()).toMatchObject({ content: NEW_IP, ttl: 1800, disabled: false });
    expect(fake.requests[1]?.query).toEqual({ recordName: "home.example.com", recordType: "A" });
    expect(fake.requests[2]?.body).toEqual({ content: NEW_IP, ttl: 1800, prio: 0, disabled: false });
    await client().writeRecord(target("home.example.com", known()), OLD_IP);
    expect(requestLines()).toEqual([
      "GET /v1/zones",
      `GET /v1/zones/${zoneId}`,
      `PUT /v1/zones/${zoneId}/records/${id}`,
      `GET /v1/zones/${zoneId}`,
      `PUT /v1/zones/${zoneId}/records/${id}`,
    ]);
  });

  test("a disabled record stays disabled", async () => {
    fake.addRecord("example.com", { name: "off.example.com", type: "A", content: OLD_IP, ttl: 3600, disabled: true });
    await client().writeRecord(target("off.example.com", known()), NEW_IP);
    expect(fake.record("example.com", "off.example.com", "A")).toMatchObject({
      content: NEW_IP,
      ttl: 3600,
      disabled: true,
    });
  });
});

test("a missing record is created with TTL 3600", async () => {
  const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
  const created = fake.record("example.com", "new.example.com", "A")!;
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "created",
    externalId: created.id,
    zoneId,
    message: `IONOS record ${created.id}, ttl 3600`,
  });
  expect(fake.requests.at(-1)?.body).toEqual([
    { name: "new.example.com", type: "A", content: NEW_IP, ttl: 3600, prio: 0, disabled: false },
  ]);
});

describe("failures keep IONOS's words and leave the record alone", () => {
  failureTests<FailureCase & { arrange: IonosFault }>(
    [
      // No Retry-After: the client names no wait.
      fails({ status: 429 }, "IONOS: Too many requests. (TOO_MANY_REQUESTS, HTTP 429)", "throttled"),
      fails({ status: 500 }, "IONOS: Internal server error. (INTERNAL_SERVER_ERROR, HTTP 500)", "unreachable"),
    ],
    async ({ arrange }) => {
      fake.fault(arrange);
      return client().writeRecord(target("home.example.com", known()), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()?.content).toBe(OLD_IP);
    },
  );
});
