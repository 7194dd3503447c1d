// The OVH client against its fake: the signature (pinned to the official SDK's test vectors), the
// server clock it signs with, what it changes and publishes, what it keeps, and its failures.

import { describe, expect, test } from "bun:test";
import { ovh, ovhSignature } from "../../src/dns/services/ovh";
import {
  OVH_FAKE_APPLICATION_KEY,
  OVH_FAKE_APPLICATION_SECRET,
  OVH_FAKE_CONSUMER_KEY,
  type OvhFault,
  startOvhFake,
} from "../fakes/ovh";
import type { LoggedRequest } from "../fakes/server";
import { type FailureCase, fails, failureTests, STOP, serviceClient, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startOvhFake, (fake) => {
  fake.addZone("example.com");
  fake.addRecord("example.com", { subDomain: "home", fieldType: "A", target: OLD_IP, ttl: 3600 });
  fake.addRecord("example.com", { subDomain: "", fieldType: "A", target: OLD_IP });
});
const client = () =>
  serviceClient("ovh", fake.url, {
    application_key: OVH_FAKE_APPLICATION_KEY,
    application_secret: OVH_FAKE_APPLICATION_SECRET,
    consumer_key: OVH_FAKE_CONSUMER_KEY,
  });
const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.record("example.com", "home", "A");
const known = { zone_id: "example.com" };

describe("the signature", () => {
  test("matches the official SDK's (ovh/go-ovh) test vectors", () => {
    const sign = (method: string, body: string) =>
      ovhSignature(
        OVH_FAKE_APPLICATION_SECRET,
        OVH_FAKE_CONSUMER_KEY,
        method,
        "https://api.eu.ovhcloud.com/1.0/auth",
        body,
        1457018875,
      );
    expect(sign("GET", "")).toBe("$1$52992e595b398f6aba591ee5925b379081614ced");
    expect(sign("POST", '{"a":"b","c":"d"}')).toBe("$1$ea0e0d82447373a3ddf5947065f1d519ca0bcaf2");
    expect(sign("PUT", '{"a":"b","c":"d"}')).toBe("$1$0fdc3ed192ffbf3d1be414dbb733bbb7729500ee");
    expect(sign("DELETE", "")).toBe("$1$f685c165fa9da88b294b5fd2504588588105f994");
  });

  test("carries OVH's clock, learnt once from /auth/time, not this machine's", async () => {
    fake.clockAheadSeconds = 900;
    const built = client();
    expect((await built.verify()).ok).toBe(true);
    expect((await built.verify()).ok).toBe(true);
    expect(requestLines()).toEqual(["GET /auth/time", "GET /domain/zone", "GET /domain/zone"]);
    expect(fake.requests[0]?.headers["x-ovh-signature"]).toBeUndefined();
    expect(fake.requests[1]?.headers).toMatchObject({
      "x-ovh-application": OVH_FAKE_APPLICATION_KEY,
      "x-ovh-consumer": OVH_FAKE_CONSUMER_KEY,
    });
  });
});

test("the description names the credentials, the record types, the TTL range and the real service", () => {
  expect(ovh).toMatchObject({
    type: "ovh",
    ttl: { min: 60, automatic: 0 },
    defaultApiUrl: "https://eu.api.ovh.com/1.0",
  });
  expect(ovh.credentials.map((c) => [c.key, c.secret])).toEqual([
    ["application_key", false],
    ["application_secret", true],
    ["consumer_key", true],
  ]);
  expect(ovh.credentials[0]!.help).toContain("GET /domain/zone/*");
});

describe("writeRecord", () => {
  test("an existing record: only its target is PUT, and the zone is refreshed", async () => {
    const id = String(home()!.id);
    expect(withoutHeld(await client().writeRecord(target("home.example.com"), NEW_IP))).toEqual({
      ok: true,
      action: "updated",
      externalId: id,
      zoneId: "example.com",
      message: `OVH record ${id}, ttl 3600`,
    });
    expect(home()).toMatchObject({ target: NEW_IP, ttl: 3600 });
    expect(requestLines()).toEqual([
      "GET /auth/time",
      "GET /domain/zone",
      "GET /domain/zone/example.com/record",
      `GET /domain/zone/example.com/record/${id}`,
      `PUT /domain/zone/example.com/record/${id}`,
      "POST /domain/zone/example.com/refresh",
    ]);
    expect(fake.requests[2]?.query).toEqual({ fieldType: "A", subDomain: "home" });
    expect(fake.requests[4]?.body).toEqual({ target: NEW_IP });
    expect(fake.refreshes.get("example.com")).toBe(1);
  });

  test('the apex is subDomain "" and keeps the zone default TTL', async () => {
    const outcome = await client().writeRecord(target("example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, message: expect.stringContaining("ttl zone default") });
    expect(fake.record("example.com", "", "A")).toMatchObject({ target: NEW_IP, ttl: 0 });
  });

  test("a missing record is created (TTL 0: the zone's default) and the zone refreshed", async () => {
    const outcome = await client().writeRecord(target("new.example.com", known), NEW_IP);
    const created = fake.record("example.com", "new", "A");
    expect(outcome).toMatchObject({ ok: true, action: "created", externalId: String(created!.id) });
    expect(fake.requests.at(-2)?.body).toEqual({ fieldType: "A", subDomain: "new", target: NEW_IP, ttl: 0 });
    expect(fake.refreshes.get("example.com")).toBe(1);
  });
});

describe("several addresses for one name", () => {
  test("the difference is written (the old address PUT to a new one, one created) and published by one refresh", async () => {
    const id = String(home()!.id);
    const outcome = await client().writeRecord(
      target("home.example.com", known, { addressSet: { wanted: [NEW_IP, "203.0.113.8"], published: [OLD_IP] } }),
      NEW_IP,
    );
    expect(outcome).toMatchObject({ ok: true, action: "updated", removed: [OLD_IP] });
    expect(
      fake.zones
        .get("example.com")!
        .filter((r) => r.subDomain === "home" && r.fieldType === "A")
        .map((r) => r.target)
        .sort(),
    ).toEqual([NEW_IP, "203.0.113.8"]);
    expect(requestLines().filter((line) => !line.startsWith("GET"))).toEqual([
      `PUT /domain/zone/example.com/record/${id}`,
      "POST /domain/zone/example.com/record",
      "POST /domain/zone/example.com/refresh",
    ]);
    expect(fake.refreshes.get("example.com")).toBe(1);
  });
});

describe("failures keep OVH's words, leave the record alone and refresh nothing", () => {
  const notTime = (r: LoggedRequest) => r.path !== "/auth/time";
  failureTests<FailureCase & { arrange: { fault: OvhFault; match?: (r: LoggedRequest) => boolean } }>(
    [
      fails(
        { fault: { status: 403, message: "This call has not been granted" } },
        "OVH: This call has not been granted (HTTP 403)",
        "credentials",
        STOP,
      ),
      fails(
        { fault: { status: 400, message: "Invalid signature" } },
        "OVH: Invalid signature (HTTP 400)",
        "credentials",
        STOP,
      ),
      // Without Retry-After.
      fails({ fault: { status: 429 } }, "OVH: Too many requests (HTTP 429)", "throttled"),
      fails({ fault: { status: 500 } }, "OVH: Internal server error (HTTP 500)", "unreachable"),
      fails(
        { fault: { status: 400, message: "Invalid target for a A record" }, match: (r) => r.method === "PUT" },
        "OVH: Invalid target for a A record (HTTP 400)",
        "refused",
      ),
    ],
    ({ arrange }) => {
      fake.fault(arrange.fault, undefined, arrange.match ?? notTime);
      return client().writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(home()?.target).toBe(OLD_IP);
      expect(fake.refreshes.get("example.com")).toBeUndefined();
    },
  );

  test("a failed refresh is remembered: the next attempt finds the address there and still refreshes, once", async () => {
    fake.fault({ status: 500, message: "Internal server error" }, 1, (r) => r.path.endsWith("/refresh"));
    const first = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(first).toMatchObject({ ok: false, cause: "unreachable" });
    if (!first.ok) expect(first.message).toContain("not published");
    expect(home()?.target).toBe(NEW_IP);
    expect(fake.refreshes.get("example.com")).toBeUndefined();
    fake.clearRequests();
    const second = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(second).toMatchObject({ ok: true, action: "unchanged" });
    expect(fake.refreshes.get("example.com")).toBe(1);
    expect(requestLines().filter((line) => line.startsWith("PUT"))).toEqual([]);
    fake.clearRequests();
    // Published: the pass after that writes nothing and sends no refresh.
    expect(await client().writeRecord(target("home.example.com", known), NEW_IP)).toMatchObject({
      ok: true,
      action: "unchanged",
    });
    expect(fake.writes()).toBe(0);
  });
});
