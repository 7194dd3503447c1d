// The DonDominio (DonDNS) client against the faithful fake: one GET per write with the username, the
// DonDNS key as `password`, the full host and the address (never left for DonDNS to guess), only
// `success` deciding, DonDNS's words in every refusal (retried with backoff), and the key never in a
// message.

import { describe, expect, test } from "bun:test";
import {
  DONDOMINIO_FAKE_KEY,
  DONDOMINIO_FAKE_USER,
  type DonDominioFault,
  type DonDominioRecord,
  startDonDominioFake,
} from "../fakes/dondominio";
import { fails, failureTests, serviceClient, target, useFake } from "./support";

const NEW_V4 = "203.0.113.7";

let home: DonDominioRecord;
let apex: DonDominioRecord;
const fake = useFake(startDonDominioFake, (fake) => {
  home = fake.addRecord("home.example.es", { ipv4: "198.51.100.1" });
  apex = fake.addRecord("example.es", { ipv4: "198.51.100.2" });
  fake.keys.set("someone-else", "their-key");
  fake.addRecord("shop.example.org", { user: "someone-else", ipv4: "198.51.100.9" });
});
const client = (username = DONDOMINIO_FAKE_USER) =>
  serviceClient("dondominio", fake.url, { username, key: DONDOMINIO_FAKE_KEY });

test("A: one GET to /json/ with the user, the key as password, the full host and the address; the apex is its own host", async () => {
  const outcome = await client().writeRecord(target("home.example.es"), NEW_V4);
  expect(outcome).toEqual({
    ok: true,
    action: "updated",
    externalId: "home.example.es",
    zoneId: "",
    message: "DonDominio DonDNS host home.example.es",
  });
  expect(fake.requests).toHaveLength(1);
  expect(fake.requests[0]).toMatchObject({ method: "GET", path: "/json/" });
  expect(fake.requests[0]?.query).toEqual({
    user: DONDOMINIO_FAKE_USER,
    password: DONDOMINIO_FAKE_KEY,
    host: "home.example.es",
    ip: NEW_V4,
    lang: "en",
  });
  expect(home).toMatchObject({ ipv4: NEW_V4, updates: 1 });
  expect(await client().writeRecord(target("example.es"), NEW_V4)).toMatchObject({
    ok: true,
    externalId: "example.es",
  });
  expect(apex.ipv4).toBe(NEW_V4);
  expect(home.updates).toBe(1);
});

test("AAAA is refused for good without a request", async () => {
  expect(await client().writeRecord(target("home.example.es", {}, { recordType: "AAAA" }), "2001:db8::7")).toEqual({
    ok: false,
    message: "DonDominio: DonDNS sets IPv4 (A) records only",
    cause: "refused",
    stopRetrying: true,
  });
  expect(fake.requests).toHaveLength(0);
});

describe("failures keep DonDNS's words and never show the key", () => {
  failureTests(
    [
      // A wrong username is refused as a wrong key is: retried with backoff.
      fails({ username: "nobody" }, /^DonDominio: Invalid username or DonDNS key /, "refused"),
      fails(
        { hostname: "shop.example.org" },
        "DonDominio: Host not found in your DNS zones (code 1002, HTTP 200)",
        "refused",
      ),
      fails({ fault: { body: '{"success": false}' } }, "DonDominio: update refused (HTTP 200)", "refused"),
      fails({ fault: { status: 500 } }, 'DonDominio: unreadable answer (HTTP 500): "Error"', "unreachable"),
      fails({ fault: { body: "" } }, "DonDominio: empty answer (HTTP 200)", "refused"),
      fails(
        { fault: { body: JSON.stringify({ success: false, messages: [`bad password ${DONDOMINIO_FAKE_KEY}`] }) } },
        "DonDominio: bad password •••• (HTTP 200)",
        "refused",
      ),
    ],
    async ({ arrange }: { arrange: { username?: string; hostname?: string; fault?: DonDominioFault } }) => {
      if (arrange.fault) fake.fault(arrange.fault);
      const outcome = await client(arrange.username).writeRecord(target(arrange.hostname ?? "home.example.es"), NEW_V4);
      expect(JSON.stringify(outcome)).not.toContain(DONDOMINIO_FAKE_KEY);
      return outcome;
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home).toMatchObject({ ipv4: "198.51.100.1", updates: 0 });
    },
  );
});

test("the fake plays DonDNS's traps: without ip the caller's address is set; the page's `apikey` name is refused like a wrong key", async () => {
  const auto = await fetch(
    `${fake.url}/json/?user=${DONDOMINIO_FAKE_USER}&password=${DONDOMINIO_FAKE_KEY}&host=home.example.es`,
  );
  expect(await auto.json()).toMatchObject({ success: true });
  expect(home.ipv4).toBe("127.0.0.1");
  const apikey = await fetch(
    `${fake.url}/json/?user=${DONDOMINIO_FAKE_USER}&apikey=${DONDOMINIO_FAKE_KEY}&host=home.example.es&ip=${NEW_V4}`,
  );
  expect(await apikey.json()).toMatchObject({ success: false });
});
