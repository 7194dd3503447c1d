// The YDNS client against its fake: one request per write naming the address, the family's record
// only, and YDNS's refusals in its own words (those that never succeed stop retrying).

import { describe, expect, test } from "bun:test";
import { ydns } from "../../src/dns/services/ydns";
import { startYdnsFake, YDNS_FAKE_PASSWORD, YDNS_FAKE_USER, type YdnsFault } from "../fakes/ydns";
import { fails, failureTests, STOP, serviceClient, target, useFake } from "./support";

const NEW_V4 = "203.0.113.7";
const OLD_V6 = "2001:db8::1";

const fake = useFake(startYdnsFake, (fake) => fake.hosts.set("home.ydns.eu", { A: "198.51.100.1", AAAA: OLD_V6 }));
const client = () => serviceClient("ydns", fake.url, { username: YDNS_FAKE_USER, password: YDNS_FAKE_PASSWORD });

test("the description: API username shown, API password secret, A and AAAA, cannot verify", () => {
  expect(ydns.credentials.map((c) => [c.key, c.secret])).toEqual([
    ["username", false],
    ["password", true],
  ]);
  expect(ydns.recordTypes).toEqual(["A", "AAAA"]);
  expect(ydns.canVerify).toBe(false);
});

describe("writes", () => {
  test("A: one GET /update/?host&ip with Basic auth; the AAAA record stays", async () => {
    expect(await client().writeRecord(target("home.ydns.eu"), NEW_V4)).toMatchObject({
      ok: true,
      action: "updated",
      externalId: "home.ydns.eu",
      message: "YDNS host home.ydns.eu",
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({
      method: "GET",
      path: "/update/",
      query: { host: "home.ydns.eu", ip: NEW_V4 },
    });
    expect(fake.requests[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${YDNS_FAKE_USER}:${YDNS_FAKE_PASSWORD}`).toString("base64")}`,
    );
    expect(fake.hosts.get("home.ydns.eu")).toEqual({ A: NEW_V4, AAAA: OLD_V6 });
  });

  test("the published server's `ok` is a success too", async () => {
    fake.success = "ok";
    expect(await client().writeRecord(target("home.ydns.eu"), NEW_V4)).toMatchObject({ ok: true, action: "updated" });
  });
});

describe("refusals that never succeed stop retrying", () => {
  type Arrange = { hostname?: string; fault?: YdnsFault };
  failureTests(
    [
      // A host that is not the account's (404).
      fails({ hostname: "other.ydns.eu" }, /host not found/, "refused", STOP),
      fails(
        { fault: { status: 400, body: "invalid ip address (x)" } },
        "YDNS: invalid ip address (x) (HTTP 400)",
        "refused",
        STOP,
      ),
    ],
    async ({ arrange }: { arrange: Arrange }) => {
      if (arrange.fault) fake.fault(arrange.fault);
      return client().writeRecord(target(arrange.hostname ?? "home.ydns.eu"), NEW_V4);
    },
  );
});
