// The Domain Discount24 client against the faithful fake: one GET per write naming the full hostname
// and the address (never `ip=auto`, never `mx=`), only Key-Systems' `code` deciding, a refused
// password not retried, DD24's other refusals (its 30-minute hold) retried later, and the password
// never in a message.

import { describe, expect, test } from "bun:test";
import { DD24_FAKE_PASSWORD, type Dd24Fault, startDd24Fake } from "../fakes/dd24";
import { fails, failureTests, STOP, serviceClient, target, useFake } from "./support";

const NEW_V4 = "203.0.113.7";

const fake = useFake(startDd24Fake, (fake) => {
  fake.addHost("home.example.com", { ipv4: "198.51.100.1", mx: "198.51.100.25" });
  fake.addHost("example.net", { ipv4: "198.51.100.2", password: "apex-password-1234" });
});
const client = (password = DD24_FAKE_PASSWORD) => serviceClient("dd24", fake.url, { password });
const home = () => fake.hosts.get("home.example.com");

describe("writeRecord", () => {
  test("A: one GET naming the full hostname, the password and the address; the MX stays; the apex of a domain is its own host", async () => {
    expect(await client().writeRecord(target("home.example.com"), NEW_V4)).toEqual({
      ok: true,
      action: "updated",
      externalId: "home.example.com",
      zoneId: "",
      message: "Domain Discount24 dynamic DNS host home.example.com",
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ method: "GET", path: "/update.php" });
    expect(fake.requests[0]?.query).toEqual({ hostname: "home.example.com", password: DD24_FAKE_PASSWORD, ip: NEW_V4 });
    expect(home()).toMatchObject({ ipv4: NEW_V4, mx: "198.51.100.25", updates: 1 });
    const apex = await client("apex-password-1234").writeRecord(target("example.net"), NEW_V4);
    expect(apex).toMatchObject({ ok: true, externalId: "example.net" });
    expect(fake.hosts.get("example.net")?.ipv4).toBe(NEW_V4);
  });

  test("an empty 200 for a done update is taken as done, so the update is not sent again into DD24's hold", async () => {
    fake.emptyWhenDone = true;
    expect(await client().writeRecord(target("home.example.com"), NEW_V4)).toMatchObject({
      ok: true,
      action: "updated",
      message: "Domain Discount24 dynamic DNS host home.example.com, empty answer (HTTP 200)",
    });
    expect(home()).toMatchObject({ ipv4: NEW_V4, updates: 1 });
  });
});

describe("failures keep DD24's words and never show the password", () => {
  type Arrange = { hostname?: string; fault?: Dd24Fault; aaaa?: boolean };
  failureTests(
    [
      // Refused for good without a request.
      fails({ aaaa: true }, "Domain Discount24: Dynamic DNS sets IPv4 (A) addresses only", "refused", STOP),
      // A host that is not a dynamic DNS subdomain: the wrong password's answer, not retried.
      fails(
        { hostname: "other.example.com" },
        /^Domain Discount24: Authorization failed — .* other\.example\.com .*\(code 531\)$/,
        "credentials",
        STOP,
      ),
      fails({ fault: { status: 500 } }, 'Domain Discount24: unreadable answer (HTTP 500): "Error"', "unreachable"),
      fails(
        { fault: { body: `bad request password=${DD24_FAKE_PASSWORD}` } },
        'Domain Discount24: unreadable answer (HTTP 200): "bad request password=••••"',
        "refused",
      ),
    ],
    async ({ arrange }: { arrange: Arrange }) => {
      if (arrange.fault) fake.fault(arrange.fault);
      const record = target(arrange.hostname ?? "home.example.com", {}, { recordType: arrange.aaaa ? "AAAA" : "A" });
      return client().writeRecord(record, arrange.aaaa ? "2001:db8::7" : NEW_V4);
    },
    ({ arrange }: { arrange: Arrange }) => {
      expect(fake.requests).toHaveLength(arrange.aaaa ? 0 : 1);
      expect(home()).toMatchObject({ ipv4: "198.51.100.1", updates: 0 });
    },
  );

  test("a second update within DD24's hold is refused and retried later, not given up", async () => {
    fake.holdSeconds = 1800;
    expect((await client().writeRecord(target("home.example.com"), NEW_V4)).ok).toBe(true);
    const second = await client().writeRecord(target("home.example.com"), "203.0.113.8");
    expect(second).toMatchObject({ ok: false, cause: "refused", message: expect.stringMatching(/\(code 549\)$/) });
    expect(second.ok ? undefined : second.stopRetrying).toBeUndefined();
    expect(home()?.ipv4).toBe(NEW_V4);
  });
});

test("the fake plays DD24's traps: ip=auto publishes the caller's address; mx= replaces the MX", async () => {
  const answer = await fetch(
    `${fake.url}/update.php?hostname=home.example.com&password=${DD24_FAKE_PASSWORD}&ip=auto&mx=192.0.2.9`,
  );
  expect(await answer.text()).toContain("code = 200");
  expect(home()).toMatchObject({ ipv4: "127.0.0.1", mx: "192.0.2.9" });
});
