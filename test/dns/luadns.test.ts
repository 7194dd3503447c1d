// The LuaDNS client against its fake: records found by their full names, PUT back with the name and
// TTL read, nothing written twice or deleted, and LuaDNS's refusals in its own words.

import { describe, expect, test } from "bun:test";
import { luadns } from "../../src/dns/services/luadns";
import { LUADNS_FAKE_EMAIL, LUADNS_FAKE_KEY, startLuadnsFake } from "../fakes/luadns";
import { serviceClient, target, useFake } from "./support";

const OLD_V4 = "198.51.100.1";
const NEW_V4 = "203.0.113.7";
const OLD_V6 = "2001:db8::1";

const fake = useFake(startLuadnsFake, (fake) => {
  fake.addZone("example.org");
  fake.addRecord("example.org", { hostname: "home.example.org", type: "A", content: OLD_V4, ttl: 600 });
  fake.addRecord("example.org", { hostname: "home.example.org", type: "AAAA", content: OLD_V6, ttl: 600 });
});
const client = () => serviceClient("luadns", fake.url, { email: LUADNS_FAKE_EMAIL, api_key: LUADNS_FAKE_KEY });

const zoneId = () => fake.zoneNamed("example.org")!.id;
const lines = () => fake.requests.map((r) => `${r.method} ${r.path}`);

test("the description: e-mail shown, API key secret, A and AAAA, paced under 1200 per 5 minutes", () => {
  expect(luadns.credentials.map((c) => [c.key, c.secret])).toEqual([
    ["email", false],
    ["api_key", true],
  ]);
  expect(luadns.recordTypes).toEqual(["A", "AAAA"]);
  expect(luadns.defaultApiUrl).toBe("https://api.luadns.com/v1");
  for (const limit of luadns.rateLimits ?? [])
    expect(limit.requests / limit.perSeconds).toBeLessThanOrEqual(1200 / 300);
});

test("verify: Basic auth with Accept: application/json", async () => {
  expect(await client().verify()).toEqual({ ok: true, detail: `API key accepted for ${LUADNS_FAKE_EMAIL} (1 zone)` });
  const request = fake.requests[0]!;
  expect(request.headers.authorization).toBe(
    `Basic ${Buffer.from(`${LUADNS_FAKE_EMAIL}:${LUADNS_FAKE_KEY}`).toString("base64")}`,
  );
  expect(request.headers.accept).toBe("application/json");
});

describe("writes", () => {
  test("a record: listed, then PUT with its full name and the TTL it had; then, with the saved zone id, two requests", async () => {
    const outcome = await client().writeRecord(target("home.example.org"), NEW_V4);
    const record = fake.recordsOf("example.org", "home.example.org", "A")[0]!;
    expect(outcome).toMatchObject({
      ok: true,
      action: "updated",
      externalId: String(record.id),
      zoneId: String(zoneId()),
      message: `LuaDNS record ${record.id}, ttl 600`,
    });
    expect(fake.requests[2]?.body).toEqual({ name: "home.example.org.", type: "A", content: NEW_V4, ttl: 600 });
    expect(record).toMatchObject({ content: NEW_V4, ttl: 600 });
    expect(fake.recordsOf("example.org", "home.example.org", "AAAA")[0]?.content).toBe(OLD_V6);
    await client().writeRecord(target("home.example.org", { zone_id: String(zoneId()) }), OLD_V4);
    expect(lines()).toEqual([
      "GET /zones",
      `GET /zones/${zoneId()}/records`,
      `PUT /zones/${zoneId()}/records/${record.id}`,
      `GET /zones/${zoneId()}/records`,
      `PUT /zones/${zoneId()}/records/${record.id}`,
    ]);
  });

  test("a missing record is created (TTL 300), in a zone given by id only after checking its name", async () => {
    const outcome = await client().writeRecord(target("new.example.org", { zone_id: String(zoneId()) }), NEW_V4);
    expect(outcome).toMatchObject({ ok: true, action: "created" });
    expect(fake.requests.at(-1)).toMatchObject({
      method: "POST",
      body: { name: "new.example.org.", type: "A", content: NEW_V4, ttl: 300 },
    });
    expect(lines()).toContain(`GET /zones/${zoneId()}`);
    expect(fake.requests.some((r) => r.method === "DELETE")).toBe(false);
  });

  test("a generated record is left alone", async () => {
    const generated = { hostname: "gen.example.org", type: "A", content: OLD_V4, ttl: 300, generated: true } as const;
    fake.addRecord("example.org", generated);
    expect(await client().writeRecord(target("gen.example.org"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "refused",
      stopRetrying: true,
    });
    expect(fake.writes()).toBe(0);
  });
});

test("a refused body is reported field by field", async () => {
  expect(await client().writeRecord(target("home.example.org", { ttl: -1 }), NEW_V4)).toMatchObject({
    ok: false,
    cause: "refused",
    message: "LuaDNS: ttl invalid TTL (HTTP 400)",
  });
});
