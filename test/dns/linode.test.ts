// The Linode client against its fake: what it changes, what it keeps, how many requests it spends,
// the TTLs Linode rounds, and how every failure Linode can give ends up as Linode's own words with its cause.

import { describe, expect, test } from "bun:test";
import { linode, roundedTtl } from "../../src/dns/services/linode";
import {
  LINODE_FAKE_READONLY_TOKEN,
  LINODE_FAKE_TOKEN,
  type LinodeDomain,
  type LinodeFault,
  linodeTtl,
  startLinodeFake,
} from "../fakes/linode";
import { type FailureCase, fails, failureTests, STOP, serviceClient, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let example: LinodeDomain;
const fake = useFake(startLinodeFake, (fake) => {
  example = fake.addDomain("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", target: OLD_IP, ttl: 3600 });
  fake.addRecord("example.com", { name: "", type: "A", target: OLD_IP, ttl: 300 });
});
const client = (token = LINODE_FAKE_TOKEN) => serviceClient("linode", fake.url, { token });
const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.record("example.com", "home", "A");
const known = () => ({ zone_id: String(example.id) });

test("the description names the credential, the record types, the TTL range and the real service", () => {
  expect(linode).toMatchObject({
    type: "linode",
    recordTypes: ["A", "AAAA"],
    ttl: { min: 30, max: 2419200, automatic: 0 },
    defaultApiUrl: "https://api.linode.com/v4",
    canVerify: true,
  });
  expect(linode.credentials.map((c) => [c.key, c.secret])).toEqual([["token", true]]);
});

test("verify: a valid token is accepted, read-only, with the domain count", async () => {
  fake.addDomain("other.org");
  expect(await client().verify()).toEqual({ ok: true, detail: "Token accepted (2 domains)" });
  expect(requestLines()).toEqual(["GET /domains"]);
  expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${LINODE_FAKE_TOKEN}`);
});

test("an existing record: finds the domain, reads the records, PUTs only the address; with the domain id saved, the domain by id, one read, one write", async () => {
  const id = String(home()!.id);
  expect(withoutHeld(await client().writeRecord(target("home.example.com"), NEW_IP))).toEqual({
    ok: true,
    action: "updated",
    externalId: id,
    zoneId: String(example.id),
    message: `Linode record ${id}, ttl 3600`,
  });
  expect(home()).toMatchObject({ target: NEW_IP, ttl_sec: 3600 });
  expect(fake.requests[2]?.body).toEqual({ target: NEW_IP });
  expect(fake.requests[2]?.headers["content-type"]).toBe("application/json");
  await client().writeRecord(target("home.example.com", known()), OLD_IP);
  expect(requestLines()).toEqual([
    "GET /domains",
    `GET /domains/${example.id}/records`,
    `PUT /domains/${example.id}/records/${id}`,
    `GET /domains/${example.id}`,
    `GET /domains/${example.id}/records`,
    `PUT /domains/${example.id}/records/${id}`,
  ]);
});

test("the domains and the records are read page by page", async () => {
  for (let i = 0; i < 520; i++) fake.addDomain(`d${i}.net`);
  fake.addDomain("zz.org");
  for (let i = 0; i < 600; i++) fake.addRecord("zz.org", { name: `h${i}`, type: "A", target: OLD_IP });
  fake.addRecord("zz.org", { name: "last", type: "A", target: OLD_IP });
  expect(await client().writeRecord(target("last.zz.org"), NEW_IP)).toMatchObject({ ok: true, action: "updated" });
  expect(fake.requests.filter((r) => r.path === "/domains").map((r) => r.query.page)).toEqual(["1", "2"]);
  expect(fake.requests.filter((r) => r.path.endsWith("/records")).map((r) => r.query)).toEqual([
    { page: "1", page_size: "500" },
    { page: "2", page_size: "500" },
  ]);
});

test("a missing record is created with the domain's default TTL", async () => {
  const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
  const created = fake.record("example.com", "new", "A");
  expect(outcome).toMatchObject({
    action: "created",
    externalId: String(created!.id),
    message: `Linode record ${created!.id}, ttl: the domain's default`,
  });
  expect(created).toMatchObject({ target: NEW_IP, ttl_sec: 0 });
  expect(fake.requests.at(-1)?.body).toEqual({ type: "A", name: "new", target: NEW_IP, ttl_sec: 0 });
});

test("secondary domains are skipped", async () => {
  const delegated = fake.addDomain("b.example.com");
  fake.addDomain("a.b.example.com", { type: "slave" });
  const outcome = await client().writeRecord(target("x.a.b.example.com"), NEW_IP);
  expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: String(delegated.id) });
  expect(fake.record("b.example.com", "x.a", "A")?.target).toBe(NEW_IP);
});

test("a disabled domain is used, and the history says it is not served", async () => {
  example.status = "disabled";
  expect(await client().writeRecord(target("home.example.com"), NEW_IP)).toMatchObject({
    ok: true,
    message: expect.stringContaining("domain example.com is disabled at Linode"),
  });
});

describe("failures keep Linode's words and leave the record alone", () => {
  failureTests<FailureCase & { arrange: { fault?: LinodeFault; token?: string } }>(
    [
      // A token without the domains scope.
      fails({ fault: { status: 403 } }, "Linode: Unauthorized (HTTP 403)", "credentials", STOP),
      // A read-only token can read, but its PUT is refused.
      fails({ token: LINODE_FAKE_READONLY_TOKEN }, "Linode: Unauthorized (HTTP 403)", "credentials", STOP),
      // A 429 without Retry-After names no wait.
      fails({ fault: { status: 429 } }, "Linode: Too Many Requests (HTTP 429)", "throttled"),
      fails({ fault: { status: 500 } }, "Linode: Internal Server Error (HTTP 500)", "unreachable"),
    ],
    ({ arrange }) => {
      if (arrange.fault) fake.fault(arrange.fault);
      return client(arrange.token).writeRecord(target("home.example.com", known()), NEW_IP);
    },
    ({ arrange }) => {
      // No retry loop, nothing changed.
      expect(fake.requests).toHaveLength(arrange.fault ? 1 : 3);
      expect(home()?.target).toBe(OLD_IP);
    },
  );
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
