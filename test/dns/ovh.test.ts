// The OVH client against its fake: the signature (pinned to the official SDK's test vectors), the
// server clock it signs with, what it changes and publishes, what it keeps, and its failures.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FailureCause } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createOvhApi, ovh, ovhSignature } from "../../src/dns/services/ovh";
import {
  OVH_FAKE_APPLICATION_KEY,
  OVH_FAKE_APPLICATION_SECRET,
  OVH_FAKE_CONSUMER_KEY,
  type OvhFake,
  type OvhFault,
  startOvhFake,
} from "../fakes/ovh";
import { failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: OvhFake;

beforeEach(() => {
  fake = startOvhFake();
  fake.addZone("example.com");
  fake.addRecord("example.com", { subDomain: "home", fieldType: "A", target: OLD_IP, ttl: 3600 });
  fake.addRecord("example.com", { subDomain: "", fieldType: "A", target: OLD_IP });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { consumer?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createOvhApi(
      {
        application_key: OVH_FAKE_APPLICATION_KEY,
        application_secret: OVH_FAKE_APPLICATION_SECRET,
        consumer_key: options.consumer ?? OVH_FAKE_CONSUMER_KEY,
      },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

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

describe("the description", () => {
  test("names the credentials, the record types, the TTL range and the real service", () => {
    expect(ovh.type).toBe("ovh");
    expect(ovh.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["application_key", false],
      ["application_secret", true],
      ["consumer_key", true],
    ]);
    expect(ovh.credentials[0]!.help).toContain("GET /domain/zone/*");
    expect(ovh.ttl).toMatchObject({ min: 60, automatic: 0 });
    expect(ovh.defaultApiUrl).toBe("https://eu.api.ovh.com/1.0");
  });

  test("an unknown consumer key is refused in OVH's words", async () => {
    expect(await client({ consumer: "nope" }).verify()).toMatchObject({
      ok: false,
      detail: "OVH: This credential does not exist (HTTP 403)",
    });
  });
});

describe("writeRecord", () => {
  test("an existing record: only its target is PUT, and the zone is refreshed", async () => {
    const id = String(home()!.id);
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
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

  test("an address already there: nothing written, nothing refreshed", async () => {
    expect(await client().writeRecord(target("home.example.com", known), OLD_IP)).toMatchObject({
      action: "unchanged",
    });
    expect(fake.writes()).toBe(0);
  });

  test('a TTL from config is sent; the apex is subDomain "" and keeps the zone default', async () => {
    await client().writeRecord(target("home.example.com", { ...known, ttl: 600 }), NEW_IP);
    expect(home()).toMatchObject({ target: NEW_IP, ttl: 600 });
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

describe("failures keep OVH's words and leave the record alone", () => {
  const cases: {
    name: string;
    fault: OvhFault;
    message: string | RegExp;
    cause: FailureCause;
    retryAfterSeconds?: number;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "a call not granted",
      fault: { status: 403, message: "This call has not been granted" },
      message: "OVH: This call has not been granted (HTTP 403)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "a bad signature",
      fault: { status: 400, message: "Invalid signature" },
      message: "OVH: Invalid signature (HTTP 400)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "429 without Retry-After",
      fault: { status: 429 },
      message: "OVH: Too many requests (HTTP 429)",
      cause: "throttled",
    },
    { name: "500", fault: { status: 500 }, message: "OVH: Internal server error (HTTP 500)", cause: "unreachable" },
  ];
  failureTests(
    cases,
    async ({ fault }) => {
      fake.fault(fault, undefined, (r) => r.path !== "/auth/time");
      return client({ timeoutMs: 1000 }).writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(home()?.target).toBe(OLD_IP);
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
    // Published: the pass after that sends no refresh.
    expect(await client().writeRecord(target("home.example.com", known), NEW_IP)).toMatchObject({
      ok: true,
      action: "unchanged",
    });
    expect(requestLines().some((line) => line.endsWith("/refresh"))).toBe(false);
  });

  test("a refused PUT is reported in OVH's words; nothing is refreshed", async () => {
    fake.fault({ status: 400, message: "Invalid target for a A record" }, 1, (r) => r.method === "PUT");
    expect(await client().writeRecord(target("home.example.com", known), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message: "OVH: Invalid target for a A record (HTTP 400)",
    });
    expect(fake.refreshes.get("example.com")).toBeUndefined();
  });
});
