// The IPv64.net client against its fake: get_domains read first, the update URL called with the
// domain's own update hash only when the address differs, never a delete, and IPv64's refusals.

import { describe, expect, test } from "bun:test";
import type { RecordType } from "../../src/dns/provider";
import { ipv64 } from "../../src/dns/services/ipv64";
import { IPV64_FAKE_API_KEY, type Ipv64Fault, startIpv64Fake } from "../fakes/ipv64";
import { type FailureCase, fails, failureTests, STOP, serviceClient, target as targetOf, useFake } from "./support";

const OLD_V4 = "198.51.100.1";
const NEW_V4 = "203.0.113.7";
const OLD_V6 = "2001:db8::1";
const NEW_V6 = "2001:db8::7";

const fake = useFake(startIpv64Fake, (fake) => {
  fake.addDomain("home.ipv64.net");
  fake.addRecord("home.ipv64.net", { praefix: "", type: "A", content: OLD_V4, ttl: 60 });
  fake.addRecord("home.ipv64.net", { praefix: "", type: "AAAA", content: OLD_V6, ttl: 60 });
  fake.addRecord("home.ipv64.net", { praefix: "nas", type: "A", content: OLD_V4, ttl: 300 });
});
const client = () => serviceClient("ipv64", fake.url, { api_key: IPV64_FAKE_API_KEY });
const target = (hostname: string, recordType: RecordType = "A") => targetOf(hostname, {}, { recordType });
const hash = () => fake.domains.get("home.ipv64.net")!.domain_update_hash;
const updates = () => fake.requests.filter((r) => r.path === "/nic/update");
const apex = (type: RecordType) => fake.recordsOf("home.ipv64.net", "", type)[0];

test("the description: one secret API key, A and AAAA, no TTL of its own, paced under 3 requests in 10 s", () => {
  expect(ipv64).toMatchObject({ recordTypes: ["A", "AAAA"], ttl: null });
  expect(ipv64.credentials.map((c) => [c.key, c.secret])).toEqual([["api_key", true]]);
  for (const limit of ipv64.rateLimits ?? []) if (limit.perSeconds === 10) expect(limit.requests).toBeLessThan(3);
});

test("verify: get_domains with the Bearer key, nothing written", async () => {
  expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted (1 domain)" });
  expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${IPV64_FAKE_API_KEY}`);
  expect(updates()).toHaveLength(0);
});

describe("writes", () => {
  test("one listing, then the update URL with the domain's hash: ip= for an A, ip6= for an AAAA, praefix= for a name inside", async () => {
    const outcome = await client().writeRecord(target("home.ipv64.net"), NEW_V4);
    expect(outcome).toMatchObject({ ok: true, action: "updated", zoneId: "home.ipv64.net" });
    expect(fake.requests).toHaveLength(2);
    expect(apex("A")).toMatchObject({ content: NEW_V4, ttl: 60 });
    expect(apex("AAAA")?.content).toBe(OLD_V6);
    await client().writeRecord(target("home.ipv64.net", "AAAA"), NEW_V6);
    expect(apex("AAAA")?.content).toBe(NEW_V6);
    await client().writeRecord(target("nas.home.ipv64.net"), NEW_V4);
    expect(fake.recordsOf("home.ipv64.net", "nas", "A")[0]).toMatchObject({ content: NEW_V4, ttl: 300 });
    expect(updates().map((r) => r.query)).toEqual([
      { key: hash(), domain: "home.ipv64.net", ip: NEW_V4 },
      { key: hash(), domain: "home.ipv64.net", ip6: NEW_V6 },
      { key: hash(), domain: "home.ipv64.net", praefix: "nas", ip: NEW_V4 },
    ]);
  });

  test("a missing record is added with add_record, never by deleting anything", async () => {
    expect(await client().writeRecord(target("pi.home.ipv64.net"), NEW_V4)).toMatchObject({
      ok: true,
      action: "created",
    });
    expect(fake.requests.at(-1)).toMatchObject({ method: "POST", path: "/api" });
    expect(new URLSearchParams(fake.requests.at(-1)?.body as string).toString()).toBe(
      `add_record=home.ipv64.net&praefix=pi&type=A&content=${NEW_V4}`,
    );
    expect(fake.recordsOf("home.ipv64.net", "pi", "A")[0]?.content).toBe(NEW_V4);
    expect(fake.requests.some((r) => r.method === "DELETE" || r.query.del_record !== undefined)).toBe(false);
  });

  test("the update hash never appears in a message", async () => {
    fake.fault({ status: 500, body: `boom ${hash()}` }, 1, "/nic/update");
    const outcome = await client().writeRecord(target("home.ipv64.net"), NEW_V4);
    expect(outcome.ok).toBe(false);
    expect(JSON.stringify(outcome)).not.toContain(hash());
  });

  for (const text of ["success", "no change", '{"info":"success","status":"success"}', `nochg ${NEW_V4}`]) {
    test(`IPv64's words of success, "${text}", are a success`, async () => {
      fake.fault({ status: 200, text }, 1, "/nic/update");
      expect(await client().writeRecord(target("home.ipv64.net"), NEW_V4)).toMatchObject({
        ok: true,
        action: "updated",
      });
    });
  }
});

describe("the update's failures: IPv64's words, the record left alone", () => {
  failureTests<FailureCase & { arrange: Ipv64Fault }>(
    [
      fails(
        { status: 401, body: "Unauthorized" },
        /: .* — the domain's update hash was refused \(HTTP 401\)$/,
        "credentials",
        STOP,
      ),
      // Over the account's daily limit: a slow-down.
      fails({ status: 200, text: "overcommited" }, "IPv64: overcommited (HTTP 200)", "throttled"),
      fails(
        { status: 200, text: "Updater Account Limit reached" },
        "IPv64: Updater Account Limit reached (HTTP 200)",
        "throttled",
      ),
      // Neither good nor nochg: no success.
      fails(
        { status: 200, text: "911" },
        'IPv64: the update answered "911" (HTTP 200), which does not say the address was taken',
        "unreachable",
      ),
    ],
    ({ arrange }) => {
      fake.fault(arrange, 1, "/nic/update");
      return client().writeRecord(target("home.ipv64.net"), NEW_V4);
    },
    () => expect(apex("A")?.content).toBe(OLD_V4),
  );

  test("get_domains refused inside an HTTP 200 is a refused key, not an account without domains", async () => {
    fake.fault({ status: 200, json: { status: "401 Unauthorized", info: "Unauthorized" } }, 2, "/api");
    expect(await client().verify()).toMatchObject({ ok: false, detail: expect.stringContaining("Unauthorized") });
    expect(await client().writeRecord(target("home.ipv64.net"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "credentials",
      stopRetrying: true,
    });
    expect(updates()).toHaveLength(0);
  });
});
