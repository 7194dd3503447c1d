// The Vultr client against its fake: what it changes, what it keeps, how many requests it spends,
// and how every failure Vultr can give ends up as Vultr's own words with its cause.

import { describe, expect, test } from "bun:test";
import { startVultrFake, VULTR_FAKE_API_KEY, VULTR_FAKE_FENCED_KEY, type VultrFault } from "../fakes/vultr";
import { fails, failureTests, STOP, serviceClient, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startVultrFake, (fake) => {
  fake.addDomain("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", data: OLD_IP, ttl: 1800 });
  fake.addRecord("example.com", { name: "", type: "A", data: OLD_IP, ttl: 600 });
});
const client = (apiKey = VULTR_FAKE_API_KEY) => serviceClient("vultr", fake.url, { api_key: apiKey });
const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.record("example.com", "home", "A");
const known = { zone_id: "example.com" };

test("verify: a valid key is accepted, read-only, with the domain count", async () => {
  fake.addDomain("other.org");
  expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted (2 domains)" });
  expect(requestLines()).toEqual(["GET /domains"]);
  expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${VULTR_FAKE_API_KEY}`);
});

test("verify: a key from an address its access control does not allow is refused in Vultr's words", async () => {
  expect(await client(VULTR_FAKE_FENCED_KEY).verify()).toMatchObject({
    ok: false,
    detail: "Vultr: Unauthorized IP address: 127.0.0.1 (HTTP 401)",
  });
});

test("an existing record: finds the domain, reads the records, PATCHes only the address; then one read and one write", async () => {
  const id = home()!.id;
  expect(withoutHeld(await client().writeRecord(target("home.example.com"), NEW_IP))).toEqual({
    ok: true,
    action: "updated",
    externalId: id,
    zoneId: "example.com",
    message: `Vultr record ${id}, ttl 1800`,
  });
  expect(home()).toMatchObject({ data: NEW_IP, ttl: 1800 });
  expect(fake.requests[2]?.body).toEqual({ data: NEW_IP });
  await client().writeRecord(target("home.example.com", known), OLD_IP);
  expect(requestLines()).toEqual([
    "GET /domains",
    "GET /domains/example.com/records",
    `PATCH /domains/example.com/records/${id}`,
    "GET /domains/example.com/records",
    `PATCH /domains/example.com/records/${id}`,
  ]);
});

test("a TTL from config is sent; the same address with another TTL is written", async () => {
  await client().writeRecord(target("home.example.com", { ...known, ttl: 900 }), OLD_IP);
  expect(home()).toMatchObject({ data: OLD_IP, ttl: 900 });
  expect(fake.requests.at(-1)?.body).toEqual({ data: OLD_IP, ttl: 900 });
});

test("the domains and the records are read page by page, following the cursor", async () => {
  for (let i = 0; i < 520; i++) fake.addDomain(`d${String(i).padStart(3, "0")}.net`);
  fake.addDomain("zz.org");
  for (let i = 0; i < 600; i++) fake.addRecord("zz.org", { name: `h${i}`, type: "A", data: OLD_IP });
  fake.addRecord("zz.org", { name: "last", type: "A", data: OLD_IP });
  expect(await client().writeRecord(target("last.zz.org"), NEW_IP)).toMatchObject({ ok: true, zoneId: "zz.org" });
  expect(fake.requests.filter((r) => r.path === "/domains")).toHaveLength(2);
  const reads = fake.requests.filter((r) => r.path.endsWith("/records")).map((r) => r.query);
  expect(reads).toHaveLength(2);
  expect(reads[0]).toEqual({ per_page: "500" });
  expect(reads[1]?.cursor).toBeString();
});

test("a missing record is created with TTL 300", async () => {
  const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
  const created = fake.record("example.com", "new", "A")!;
  expect(outcome).toMatchObject({
    action: "created",
    externalId: created.id,
    message: `Vultr record ${created.id}, ttl 300`,
  });
  expect(fake.requests.at(-1)?.body).toEqual({ name: "new", type: "A", data: NEW_IP, ttl: 300 });
});

describe("failures keep Vultr's words and leave the record alone", () => {
  failureTests(
    [
      fails(
        { apiKey: VULTR_FAKE_FENCED_KEY },
        "Vultr: Unauthorized IP address: 127.0.0.1 (HTTP 401)",
        "credentials",
        STOP,
      ),
      fails({ fault: { status: 403 } }, "Vultr: Unauthorized (HTTP 403)", "credentials", STOP),
      fails({ fault: { status: 429 } }, /\(HTTP 429\)$/, "throttled"),
    ],
    async ({ arrange }: { arrange: { fault?: VultrFault; apiKey?: string } }) => {
      if (arrange.fault) fake.fault(arrange.fault);
      return client(arrange.apiKey).writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()?.data).toBe(OLD_IP);
    },
  );

  test("a refused PATCH is reported in Vultr's words; the record stays", async () => {
    fake.fault({ status: 400, error: "Unable to update record." }, 1, (r) => r.method === "PATCH");
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({ ok: false, cause: "refused", message: "Vultr: Unable to update record. (HTTP 400)" });
    expect(home()).toMatchObject({ data: OLD_IP, ttl: 1800 });
  });
});
