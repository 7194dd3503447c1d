// The myaddr.tools client against the faithful fake: one form POST per write with the name's key and
// the address (never `ip=self`), A and AAAA set independently, a wrong or malformed key not retried,
// and the key never in a message.

import { describe, expect, test } from "bun:test";
import { MYADDR_FAKE_KEY, type MyaddrFault, type MyaddrName, startMyaddrFake } from "../fakes/myaddr";
import { fails, failureTests, STOP, serviceClient, target, useFake } from "./support";

const NEW_V4 = "203.0.113.7";
const NEW_V6 = "2a01:4f8::7";

let home: MyaddrName;
const fake = useFake(startMyaddrFake, (fake) => {
  home = fake.claim("home", { ipv4: "198.51.100.1", ipv6: "2001:db8::1" });
  fake.claim("elsewhere", { key: "someoneelseskey0123456789", ipv4: "198.51.100.9" });
});
const client = (key = MYADDR_FAKE_KEY) => serviceClient("myaddr", fake.url, { key });
const form = (index: number) => Object.fromEntries(new URLSearchParams(fake.requests[index]?.body as string));

test("A: one form POST with the key and the IPv4, the AAAA kept; AAAA: the IPv6 in the same ip field, the A kept", async () => {
  const outcome = await client().writeRecord(target("home.myaddr.tools"), NEW_V4);
  expect(outcome).toEqual({
    ok: true,
    action: "updated",
    externalId: "home",
    zoneId: "",
    message: "myaddr name home",
  });
  expect(fake.requests).toHaveLength(1);
  expect(fake.requests[0]).toMatchObject({ method: "POST", path: "/update", query: {} });
  expect(fake.requests[0]?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
  expect(form(0)).toEqual({ key: MYADDR_FAKE_KEY, ip: NEW_V4 });
  expect(home).toMatchObject({ ipv4: NEW_V4, ipv6: "2001:db8::1", updates: 1 });
  expect(await client().writeRecord(target("home.myaddr.tools", {}, { recordType: "AAAA" }), NEW_V6)).toMatchObject({
    ok: true,
  });
  expect(form(1)).toEqual({ key: MYADDR_FAKE_KEY, ip: NEW_V6 });
  expect(home).toMatchObject({ ipv4: NEW_V4, ipv6: NEW_V6 });
});

test("the name under myaddr.dev or myaddr.io, and a name below it, use the same key; one outside myaddr's zones is refused without a request", async () => {
  for (const hostname of ["home.myaddr.dev", "www.home.myaddr.io"]) {
    expect(await client().writeRecord(target(hostname), NEW_V4)).toMatchObject({ ok: true, externalId: "home" });
  }
  expect(home.updates).toBe(2);
  fake.clearRequests();
  expect(await client().writeRecord(target("home.example.com"), NEW_V4)).toEqual({
    ok: false,
    message: "myaddr: home.example.com is not a name under myaddr.tools, myaddr.dev or myaddr.io",
    cause: "refused",
    stopRetrying: true,
  });
  expect(fake.requests).toHaveLength(0);
});

describe("failures keep myaddr's words and never show the key", () => {
  failureTests(
    [
      fails(
        { key: "not a key!" },
        `myaddr: invalid value for "key" — the key is wrong or home's claim is gone (HTTP 400)`,
        "credentials",
        STOP,
      ),
      fails(
        { fault: { status: 400, body: 'invalid value for "ip"' } },
        'myaddr: invalid value for "ip" (HTTP 400)',
        "refused",
        STOP,
      ),
      fails(
        { fault: { status: 500, body: `failed for key=${MYADDR_FAKE_KEY}` } },
        'myaddr: unreadable answer (HTTP 500): "failed for key=••••"',
        "unreachable",
      ),
    ],
    async ({ arrange }: { arrange: { key?: string; fault?: MyaddrFault } }) => {
      if (arrange.fault) fake.fault(arrange.fault);
      const outcome = await client(arrange.key).writeRecord(target("home.myaddr.tools"), NEW_V4);
      expect(JSON.stringify(outcome)).not.toContain(MYADDR_FAKE_KEY);
      return outcome;
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home).toMatchObject({ ipv4: "198.51.100.1", updates: 0 });
    },
  );
});

test("the fake plays myaddr's trap: ip=self publishes the caller's address; the query works as well as the form", async () => {
  const answer = await fetch(`${fake.url}/update?key=${MYADDR_FAKE_KEY}&ip=self`, { method: "POST" });
  expect(await answer.text()).toBe("OK");
  expect(home.ipv4).toBe("127.0.0.1");
});
