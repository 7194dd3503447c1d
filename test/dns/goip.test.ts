// The GoIP.de client against the faithful fake: one GET per write with the router login, the full
// subdomain and the address in its family's parameter (both when the hostname has both, so GoIP never
// publishes the caller's address instead), the answer's address checked, `Zugriff verweigert` not
// retried, and the password never in a message.

import { describe, expect, test } from "bun:test";
import {
  GOIP_FAKE_PASSWORD,
  GOIP_FAKE_USERNAME,
  type GoipFault,
  type GoipSubdomain,
  startGoipFake,
} from "../fakes/goip";
import { fails, failureTests, STOP, serviceClient, target, useFake } from "./support";

const NEW_V4 = "203.0.113.7";
const NEW_V6 = "2a01:4f8::7";

let home: GoipSubdomain;
const fake = useFake(startGoipFake, (fake) => {
  home = fake.addSubdomain("home.goip.de", { ipv4: "198.51.100.1", ipv6: "2001:db8::1" });
  fake.logins.set("someone-else", "their-password");
  fake.addSubdomain("elsewhere.goip.it", { username: "someone-else", ipv4: "198.51.100.9" });
});
const client = () => serviceClient("goip", fake.url, { username: GOIP_FAKE_USERNAME, password: GOIP_FAKE_PASSWORD });

test("A: ip= carries the IPv4, with the full subdomain and a one-line answer asked for", async () => {
  const outcome = await client().writeRecord(target("home.goip.de"), NEW_V4);
  expect(outcome).toEqual({
    ok: true,
    action: "updated",
    externalId: "home.goip.de",
    zoneId: "",
    message: "GoIP subdomain home.goip.de",
  });
  expect(fake.requests).toHaveLength(1);
  expect(fake.requests[0]).toMatchObject({ method: "GET", path: "/setip" });
  expect(fake.requests[0]?.query).toEqual({
    username: GOIP_FAKE_USERNAME,
    password: GOIP_FAKE_PASSWORD,
    subdomain: "home.goip.de",
    ip: NEW_V4,
    shortResponse: "true",
  });
  expect(home).toMatchObject({ ipv4: NEW_V4, ipv6: "2001:db8::1", updates: 1 });
});

test("AAAA alone: ip6= carries the IPv6; with an A sibling, both addresses in one request, so the A is not replaced by the caller's", async () => {
  expect(await client().writeRecord(target("home.goip.de", {}, { recordType: "AAAA" }), NEW_V6)).toMatchObject({
    ok: true,
  });
  expect(fake.requests[0]?.query).toMatchObject({ ip6: NEW_V6 });
  expect(fake.requests[0]?.query.ip).toBeUndefined();
  const withSibling = target("home.goip.de", {}, { recordType: "AAAA", siblings: { ipv4: "198.51.100.1" } });
  expect(await client().writeRecord(withSibling, "2001:db8::7")).toMatchObject({ ok: true, action: "updated" });
  expect(fake.requests[1]?.query).toMatchObject({ ip: "198.51.100.1", ip6: "2001:db8::7" });
  expect(home).toMatchObject({ ipv4: "198.51.100.1", ipv6: "2001:db8::7" });
});

test("a name under goip.it and an uppercase name work the same; one outside goip.de and goip.it is refused without a request", async () => {
  fake.addSubdomain("nas.goip.it");
  expect(await client().writeRecord(target("NAS.goip.it"), NEW_V4)).toMatchObject({
    ok: true,
    externalId: "nas.goip.it",
  });
  expect(fake.subdomains.get("nas.goip.it")?.ipv4).toBe(NEW_V4);
  fake.clearRequests();
  expect(await client().writeRecord(target("home.example.com"), NEW_V4)).toEqual({
    ok: false,
    message: "GoIP: home.example.com is not a name under goip.de or goip.it",
    cause: "refused",
    stopRetrying: true,
  });
  expect(fake.requests).toHaveLength(0);
});

test("an answer naming another address than the one sent: the update was ignored, not retried", async () => {
  fake.fault({ body: "home.goip.de (192.0.2.55) erfolgreich aktualisiert" }, 1);
  expect(await client().writeRecord(target("home.goip.de"), NEW_V4)).toEqual({
    ok: false,
    message: `GoIP: answered that home.goip.de holds 192.0.2.55, not what was sent (${NEW_V4}): the update was ignored`,
    cause: "refused",
    stopRetrying: true,
  });
});

describe("failures keep GoIP's words and never show the password", () => {
  failureTests(
    [
      // Another login's subdomain, and one that does not exist: the wrong password's answer, not retried.
      fails(
        { hostname: "elsewhere.goip.it" },
        /^GoIP: Zugriff verweigert — .* elsewhere\.goip\.it /,
        "credentials",
        STOP,
      ),
      fails({ hostname: "nothere.goip.de" }, /^GoIP: Zugriff verweigert — .* nothere\.goip\.de /, "credentials", STOP),
      fails({ fault: { status: 500 } }, 'GoIP: unreadable answer (HTTP 500): "Error"', "unreachable"),
      fails({ fault: { body: "" } }, "GoIP: empty answer (HTTP 200)", "refused"),
      fails(
        { fault: { body: `bad request password=${GOIP_FAKE_PASSWORD}` } },
        'GoIP: unreadable answer (HTTP 200): "bad request password=••••"',
        "refused",
      ),
    ],
    async ({ arrange }: { arrange: { hostname?: string; fault?: GoipFault } }) => {
      if (arrange.fault) fake.fault(arrange.fault);
      const outcome = await client().writeRecord(target(arrange.hostname ?? "home.goip.de"), NEW_V4);
      expect(JSON.stringify(outcome)).not.toContain(GOIP_FAKE_PASSWORD);
      return outcome;
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home).toMatchObject({ ipv4: "198.51.100.1", updates: 0 });
    },
  );
});

test("the fake plays GoIP's trap: without ip the caller's IPv4 is published, even when ip6 is given", async () => {
  await fetch(
    `${fake.url}/setip?username=${GOIP_FAKE_USERNAME}&password=${GOIP_FAKE_PASSWORD}&subdomain=home.goip.de&ip6=${NEW_V6}`,
  );
  expect(home).toMatchObject({ ipv4: "127.0.0.1", ipv6: NEW_V6 });
});
