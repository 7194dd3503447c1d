// The Cloudflare client (its primitives under the reconciler) against the faithful fake: what it
// changes, what it keeps, how many requests it spends, and how the failures particular to it end up
// as the provider's own reason with its cause. The policy itself is tested once, in
// test/unit/dns/reconcile.test.ts; Cloudflare's failures through the appliance in test/updater/faults.test.ts.

import { describe, expect, test } from "bun:test";
import type { RecordConfig } from "../../src/dns/provider";
import { CLOUDFLARE_FAKE_TOKEN, startCloudflareFake } from "../fakes/cloudflare";
import { failed, serviceClient, stoppedUrl, target, useFake, withoutHeld, wrote } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startCloudflareFake, (fake) => {
  fake.addZone("example.com");
  fake.addRecord("example.com", {
    type: "A",
    name: "home.example.com",
    content: OLD_IP,
    proxied: true,
    ttl: 300,
    comment: "router",
    tags: ["owner:me"],
  });
});
const client = (token = CLOUDFLARE_FAKE_TOKEN, url = fake.url) =>
  serviceClient("cloudflare", url, { api_token: token });
const zoneId = () => [...fake.zones.values()].find((zone) => zone.name === "example.com")!.id;
const home = () => fake.record("home.example.com", "A")!;
/** The state a domain reaches after its first write: zone and record id known, the id saved by that write. */
const steadyHome = (config: RecordConfig = {}) =>
  target("home.example.com", { zone_id: zoneId(), ...config }, { externalId: home().id });
const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);

describe("verify", () => {
  test("an active token is accepted with Cloudflare's words, and nothing is written", async () => {
    expect(await client().verify()).toEqual({ ok: true, detail: "This API Token is valid and active" });
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${CLOUDFLARE_FAKE_TOKEN}`);
    expect(fake.writes()).toBe(0);
  });

  test("an unknown token is refused with code and status", async () => {
    expect(await client("nope").verify()).toMatchObject({
      ok: false,
      detail: "Cloudflare: Invalid API Token (code 1000, HTTP 401)",
    });
  });

  test("a service that cannot be reached", async () => {
    const outcome = await client(CLOUDFLARE_FAKE_TOKEN, await stoppedUrl(startCloudflareFake)).verify();
    expect(outcome.ok).toBe(false);
    expect(outcome.detail).toStartWith("Cloudflare: request failed: ");
  });
});

describe("an existing record", () => {
  test("zone by suffix, then the record by name, then a PATCH of the content alone; then two requests", async () => {
    const { id } = home();
    expect(withoutHeld(await client().writeRecord(target("home.example.com"), NEW_IP))).toEqual(
      wrote("updated", id, zoneId(), `Cloudflare record ${id}, ttl 300, proxied`),
    );
    expect(home()).toMatchObject({ content: NEW_IP, proxied: true, ttl: 300, comment: "router", tags: ["owner:me"] });
    const patch = fake.requests[3]!;
    expect(patch.body).toEqual({ type: "A", name: "home.example.com", content: NEW_IP });
    expect(patch.headers["content-type"]).toBe("application/json");
    expect(fake.requests.map((r) => r.query.name)).toEqual([
      "home.example.com",
      "example.com",
      "home.example.com",
      undefined,
    ]);
    expect(fake.requests[2]?.query).toEqual({ type: "A", name: "home.example.com", per_page: "100" });
    await client().writeRecord(steadyHome(), OLD_IP);
    const records = `/zones/${zoneId()}/dns_records`;
    expect(requestLines()).toEqual([
      "GET /zones",
      "GET /zones",
      `GET ${records}`,
      `PATCH ${records}/${id}`,
      `GET ${records}`,
      `PATCH ${records}/${id}`,
    ]);
  });

  // Each row: the config, the address written, what the PATCH adds to the content, what the record then holds.
  const configCases: [RecordConfig, string, Record<string, unknown>, Record<string, unknown>][] = [
    // The address already held, but not the proxying the config asks for: written.
    [{ proxied: false }, OLD_IP, { proxied: false }, { proxied: false, ttl: 300 }],
    [{ ttl: 120 }, NEW_IP, { ttl: 120 }, { proxied: true, ttl: 120 }],
    [{ ttl: 1, proxied: true }, NEW_IP, { proxied: true, ttl: 1 }, { proxied: true, ttl: 1 }],
  ];
  for (const [config, ip, body, after] of configCases) {
    test(`config decides: ${JSON.stringify(config)} writing ${ip}`, async () => {
      expect(await client().writeRecord(steadyHome(config), ip)).toMatchObject({ ok: true, action: "updated" });
      expect(fake.requests.find((r) => r.method === "PATCH")?.body).toEqual({
        type: "A",
        name: "home.example.com",
        content: ip,
        ...body,
      });
      expect(home()).toMatchObject({ content: ip, comment: "router", ...after });
    });
  }
});

test("a missing record is created with automatic ttl, not proxied; or with proxied and ttl from config", async () => {
  const outcome = await client().writeRecord(target("new.example.com", { zone_id: zoneId() }), NEW_IP);
  const created = fake.record("new.example.com", "A")!;
  expect(created).toMatchObject({ content: NEW_IP, ttl: 1, proxied: false });
  expect(withoutHeld(outcome)).toEqual(
    wrote("created", created.id, zoneId(), `Cloudflare record ${created.id}, ttl auto, not proxied`),
  );
  expect(fake.requests.at(-1)?.body).toEqual({
    type: "A",
    name: "new.example.com",
    content: NEW_IP,
    ttl: 1,
    proxied: false,
  });
  await client().writeRecord(target("other.example.com", { proxied: true, ttl: 600 }), NEW_IP);
  expect(fake.record("other.example.com", "A")).toMatchObject({ proxied: true, ttl: 600 });
});

test("a pending zone is used, and the history says it is not served yet; a moved one is no zone", async () => {
  const pending = fake.addZone("pending.org", "pending");
  const outcome = await client().writeRecord(target("host.pending.org"), NEW_IP);
  expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: pending.id });
  expect(outcome.ok && outcome.message).toMatch(/zone pending\.org is still pending at Cloudflare/);
  expect(fake.record("host.pending.org", "A")?.content).toBe(NEW_IP);
  fake.addZone("moved.org", "moved");
  fake.clearRequests();
  expect(await client().writeRecord(target("host.moved.org"), NEW_IP)).toEqual(
    failed("refused", "Cloudflare: no active zone found for host.moved.org"),
  );
  expect(fake.requests.map((r) => r.query.name)).toEqual(["host.moved.org", "moved.org"]);
});

describe("failures keep the provider's reason, say their cause and leave the record alone", () => {
  test("a malformed Authorization header is refused, not taken for a wrong token", async () => {
    expect(await client("").writeRecord(steadyHome(), NEW_IP)).toEqual(
      failed("refused", "Cloudflare: Invalid request headers (code 6003, HTTP 400)"),
    );
    expect(fake.requests).toHaveLength(1);
    expect(home().content).toBe(OLD_IP);
  });

  test("an address the record type cannot hold is refused by Cloudflare, nothing changed", async () => {
    expect(await client().writeRecord(steadyHome(), "2a01:4f8::7")).toEqual(
      failed("refused", "Cloudflare: Content for A record must be a valid IPv4 address. (code 9005, HTTP 400)"),
    );
    expect(home().content).toBe(OLD_IP);
    // Sent on purpose: Cloudflare's description forbids it, and the fake recorded it.
    expect(fake.takeViolations().map((v) => v.problems.join(" "))).toEqual([expect.stringContaining("ipv4")]);
  });

  test("a failure after the lookups (PATCH answered 500) is reported, nothing changed", async () => {
    fake.fault({ status: 500 }, 1, (r) => r.method === "PATCH");
    expect(await client().writeRecord(target("home.example.com"), NEW_IP)).toEqual(
      failed("unreachable", "Cloudflare: Internal Server Error (code 500, HTTP 500)"),
    );
    expect(home().content).toBe(OLD_IP);
  });

  test("a failing zone lookup stops the write", async () => {
    fake.fault({ status: 429, retryAfter: 30 }, 1);
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "throttled", retryAfterSeconds: 30 });
    expect(fake.requests).toHaveLength(1);
  });
});

describe("the account's zones, for the domain form", () => {
  test("every active or pending zone by name, read 50 a page", async () => {
    for (let i = 0; i < 54; i++) fake.addZone(`zone${String(i).padStart(2, "0")}.example.net`);
    fake.addZone("waiting.example.org", "pending");
    fake.addZone("gone.example.org", "moved");
    fake.clearRequests();
    const listed = await client().listZones!();
    expect(listed.ok).toBe(true);
    const names = listed.ok ? listed.value : [];
    expect(names).toHaveLength(56);
    expect(names).toContain("example.com");
    expect(names).toContain("waiting.example.org");
    expect(names).not.toContain("gone.example.org");
    expect(fake.requests.map((r) => `${r.path} ${r.query.page}/${r.query.per_page}`)).toEqual([
      "/zones 1/50",
      "/zones 2/50",
    ]);
  });

  test("a refused token is the service's refusal, as for a write", async () => {
    const listed = await client("cf-wrong-token").listZones!();
    expect(listed).toMatchObject({ ok: false, cause: "credentials" });
  });
});
