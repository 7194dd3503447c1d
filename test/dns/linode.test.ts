// The Linode client against its fake: what it changes, what it keeps, how many requests it spends,
// and how every failure Linode can give ends up as Linode's own words with its cause.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { zoneClient } from "../../src/dns/reconcile";
import { createLinodeApi, linode, roundedTtl } from "../../src/dns/services/linode";
import {
  LINODE_FAKE_READONLY_TOKEN,
  LINODE_FAKE_TOKEN,
  type LinodeDomain,
  type LinodeFake,
  type LinodeFault,
  linodeTtl,
  startLinodeFake,
} from "../fakes/linode";
import { type FailureCase, failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: LinodeFake;
let example: LinodeDomain;

beforeEach(() => {
  fake = startLinodeFake();
  example = fake.addDomain("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", target: OLD_IP, ttl: 3600 });
  fake.addRecord("example.com", { name: "", type: "A", target: OLD_IP, ttl: 300 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { token?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createLinodeApi(
      { token: options.token ?? LINODE_FAKE_TOKEN },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.record("example.com", "home", "A");
const known = () => ({ zone_id: String(example.id) });

describe("the description", () => {
  test("names the credential, the record types, the TTL range and the real service", () => {
    expect(linode.type).toBe("linode");
    expect(linode.credentials.map((c) => [c.key, c.secret])).toEqual([["token", true]]);
    expect(linode.recordTypes).toEqual(["A", "AAAA"]);
    expect(linode.ttl).toMatchObject({ min: 30, max: 2419200, automatic: 0 });
    expect(linode.defaultApiUrl).toBe("https://api.linode.com/v4");
    expect(linode.canVerify).toBe(true);
  });
});

describe("verify", () => {
  test("a valid token is accepted, read-only, with the domain count", async () => {
    fake.addDomain("other.org");
    expect(await client().verify()).toEqual({ ok: true, detail: "Token accepted (2 domains)" });
    expect(requestLines()).toEqual(["GET /domains"]);
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${LINODE_FAKE_TOKEN}`);
    expect(fake.writes()).toBe(0);
  });

  test("an unknown token is refused in Linode's words", async () => {
    expect(await client({ token: "wrong" }).verify()).toMatchObject({
      ok: false,
      detail: "Linode: Invalid Token (HTTP 401)",
    });
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the domain, reads the records, and PUTs only the address: three requests", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    const id = String(home()!.id);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: id,
      zoneId: String(example.id),
      message: `Linode record ${id}, ttl 3600`,
    });
    expect(home()).toMatchObject({ target: NEW_IP, ttl_sec: 3600 });
    expect(requestLines()).toEqual([
      "GET /domains",
      `GET /domains/${example.id}/records`,
      `PUT /domains/${example.id}/records/${id}`,
    ]);
    expect(fake.requests[2]?.body).toEqual({ target: NEW_IP });
    expect(fake.requests[2]?.headers["content-type"]).toBe("application/json");
  });

  test("with the domain id saved: the domain by id, one read, one write", async () => {
    await client().writeRecord(target("home.example.com", known()), NEW_IP);
    expect(requestLines()).toEqual([
      `GET /domains/${example.id}`,
      `GET /domains/${example.id}/records`,
      `PUT /domains/${example.id}/records/${home()!.id}`,
    ]);
  });

  test("the TTL is kept; a TTL from config is sent and the same address with another TTL is written", async () => {
    await client().writeRecord(target("home.example.com", { ...known(), ttl: 300 }), OLD_IP);
    expect(home()).toMatchObject({ target: OLD_IP, ttl_sec: 300 });
    expect(fake.requests.at(-1)?.body).toEqual({ target: OLD_IP, ttl_sec: 300 });
    expect(fake.writes()).toBe(1);
  });

  test("the records are read page by page", async () => {
    for (let i = 0; i < 600; i++) fake.addRecord("example.com", { name: `h${i}`, type: "A", target: OLD_IP });
    fake.addRecord("example.com", { name: "last", type: "A", target: OLD_IP });
    const outcome = await client().writeRecord(target("last.example.com", known()), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(fake.requests.filter((r) => r.path.endsWith("/records")).map((r) => r.query)).toEqual([
      { page: "1", page_size: "500" },
      { page: "2", page_size: "500" },
    ]);
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it with the domain's default TTL", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    const created = fake.record("example.com", "new", "A");
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: String(created!.id),
      zoneId: String(example.id),
      message: `Linode record ${created!.id}, ttl: the domain's default`,
    });
    expect(created).toMatchObject({ target: NEW_IP, ttl_sec: 0 });
    expect(fake.requests.at(-1)?.body).toEqual({ type: "A", name: "new", target: NEW_IP, ttl_sec: 0 });
  });

  test("creates it with the TTL from config, as Linode rounds it", async () => {
    await client().writeRecord(target("new.example.com", { ttl: 3000 }), NEW_IP);
    expect(fake.record("example.com", "new", "A")?.ttl_sec).toBe(3600);
  });

  test("an AAAA at the apex", async () => {
    const outcome = await client().writeRecord(target("example.com", {}, { recordType: "AAAA" }), "2001:db8::7");
    expect(outcome).toMatchObject({ ok: true, action: "created" });
    expect(fake.record("example.com", "", "AAAA")?.target).toBe("2001:db8::7");
  });
});

describe("domain discovery", () => {
  test("the longest domain at a label boundary wins; secondary domains are skipped", async () => {
    const delegated = fake.addDomain("b.example.com");
    fake.addDomain("a.b.example.com", { type: "slave" });
    fake.addDomain("ample.com");
    const outcome = await client().writeRecord(target("x.a.b.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: String(delegated.id) });
    expect(fake.record("b.example.com", "x.a", "A")?.target).toBe(NEW_IP);
  });

  test("a disabled domain is used, and the history says it is not served", async () => {
    example.status = "disabled";
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toMatchObject({
      ok: true,
      message: expect.stringContaining("domain example.com is disabled at Linode"),
    });
  });

  test("the domain listing is followed page by page", async () => {
    for (let i = 0; i < 520; i++) fake.addDomain(`d${i}.net`);
    const last = fake.addDomain("zz.org");
    const outcome = await client().writeRecord(target("home.zz.org"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, zoneId: String(last.id) });
    expect(fake.requests.filter((r) => r.path === "/domains").map((r) => r.query.page)).toEqual(["1", "2"]);
  });

  test("a configured domain that does not hold the name is refused before any write", async () => {
    const other = fake.addDomain("other.org");
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: String(other.id) }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: `Linode: config.zone_id ${other.id} (other.org) does not hold home.example.com; correct config.zone_id or remove it`,
    });
    expect(fake.writes()).toBe(0);
  });
});

describe("failures keep Linode's words and leave the record alone", () => {
  const cases: (FailureCase & { fault?: LinodeFault; token?: string })[] = [
    {
      name: "token without the domains scope",
      fault: { status: 403 },
      message: "Linode: Unauthorized (HTTP 403)",
      stopRetrying: true,
      cause: "credentials",
    },
    {
      name: "429 without Retry-After names no wait",
      fault: { status: 429 },
      message: "Linode: Too Many Requests (HTTP 429)",
      cause: "throttled",
    },
    { name: "500", fault: { status: 500 }, message: "Linode: Internal Server Error (HTTP 500)", cause: "unreachable" },
  ];
  failureTests(
    cases,
    async ({ fault, token }) => {
      if (fault) fake.fault(fault);
      return client({ token, timeoutMs: 1000 }).writeRecord(target("home.example.com", known()), NEW_IP);
    },
    () => {
      // One request, no retry loop, nothing changed.
      expect(fake.requests).toHaveLength(1);
      expect(home()?.target).toBe(OLD_IP);
    },
  );

  test("a read-only token can read but its PUT is refused, and not retried", async () => {
    const outcome = await client({ token: LINODE_FAKE_READONLY_TOKEN }).writeRecord(
      target("home.example.com", known()),
      NEW_IP,
    );
    expect(outcome).toEqual({
      ok: false,
      cause: "credentials",
      stopRetrying: true,
      message: "Linode: Unauthorized (HTTP 403)",
    });
    expect(home()?.target).toBe(OLD_IP);
  });

  test("a refused write is reported in Linode's words", async () => {
    fake.fault({ status: 400, reason: "Domain is in edit mode" }, 1, (r) => r.method === "PUT");
    const outcome = await client().writeRecord(target("home.example.com", known()), NEW_IP);
    expect(outcome).toEqual({ ok: false, cause: "refused", message: "Linode: Domain is in edit mode (HTTP 400)" });
  });
});

describe("TTLs Linode rounds", () => {
  test("a record holding the rounded TTL of the config's TTL already holds it: zero writes", async () => {
    // 90 is kept by Linode as 120: asking again for 90 must not write again and again.
    fake.addRecord("example.com", { name: "r", type: "A", target: NEW_IP, ttl: 120 });
    const outcome = await client().writeRecord(target("r.example.com", { ...known(), ttl: 90 }), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "unchanged" });
    expect(fake.writes()).toBe(0);
  });

  test("a TTL Linode would round is sent already rounded, so a Linode that rounds up keeps it: the next pass writes nothing", async () => {
    fake.rounding = "up";
    fake.addRecord("example.com", { name: "r", type: "A", target: OLD_IP, ttl: 3600 });
    const first = await client().writeRecord(target("r.example.com", { ...known(), ttl: 600 }), NEW_IP);
    expect(first).toMatchObject({ ok: true, action: "updated" });
    expect(fake.record("example.com", "r", "A")).toMatchObject({ target: NEW_IP, ttl_sec: 300 });
    fake.clearRequests();
    const second = await client().writeRecord(target("r.example.com", { ...known(), ttl: 600 }), NEW_IP);
    expect(second).toMatchObject({ ok: true, action: "unchanged" });
    expect(fake.writes()).toBe(0);
  });

  test("the client rounds as the fake does", () => {
    for (const ttl of [0, 1, 30, 74, 75, 90, 200, 301, 1950, 2000, 3600, 100000, 2419200])
      expect(roundedTtl(ttl)).toBe(linodeTtl(ttl));
  });
});
