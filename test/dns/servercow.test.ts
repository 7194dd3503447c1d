// The Servercow DNS API client against its fake: what it changes, what it keeps, how many requests
// it spends, and how each failure — mostly inside an HTTP 200 — ends up in Servercow's own words.

import { describe, expect, test } from "bun:test";
import {
  SERVERCOW_FAKE_PASSWORD,
  SERVERCOW_FAKE_USERNAME,
  type ServercowFault,
  startServercowFake,
} from "../fakes/servercow";
import {
  type FailureCase,
  failed,
  fails,
  failureTests,
  STOP,
  serviceClient,
  target,
  useFake,
  withoutHeld,
  wrote,
} from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startServercowFake, (fake) => {
  fake.addDomain("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", content: OLD_IP, ttl: 600 });
  fake.addRecord("example.com", { name: "", type: "A", content: OLD_IP, ttl: 1200 });
  fake.addRecord("example.com", {
    name: "",
    type: "TXT",
    content: ["v=spf1 -all", "google-site-verification=x"],
    ttl: 3600,
  });
});
const client = () =>
  serviceClient("servercow", fake.url, { username: SERVERCOW_FAKE_USERNAME, password: SERVERCOW_FAKE_PASSWORD });
const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.records("example.com", "home", "A");
const known = { zone_id: "example.com" };

test("an existing record: finds the domain, POSTs the name and type with the new address and the TTL it read; then one read and one write", async () => {
  expect(withoutHeld(await client().writeRecord(target("home.example.com"), NEW_IP))).toEqual(
    wrote("updated", "home/A", "example.com", "Servercow record home/A, ttl 600"),
  );
  expect(home()).toEqual([{ name: "home", type: "A", content: NEW_IP, ttl: 600 }]);
  expect(fake.requests[2]?.body).toEqual({ type: "A", name: "home", content: NEW_IP, ttl: 600 });
  expect(fake.requests[2]?.headers).toMatchObject({
    "x-auth-username": SERVERCOW_FAKE_USERNAME,
    "x-auth-password": SERVERCOW_FAKE_PASSWORD,
  });
  await client().writeRecord(target("home.example.com", known), OLD_IP);
  // home.example.com is no domain of the account; example.com's listing is also the read.
  expect(requestLines()).toEqual([
    "GET /home.example.com",
    "GET /example.com",
    "POST /example.com",
    "GET /example.com",
    "POST /example.com",
  ]);
});

test("a missing record is created with TTL 300", async () => {
  expect(withoutHeld(await client().writeRecord(target("new.example.com", known), NEW_IP))).toEqual(
    wrote("created", "new/A", "example.com", "Servercow record new/A, ttl 300"),
  );
  expect(fake.records("example.com", "new", "A")).toEqual([{ name: "new", type: "A", content: NEW_IP, ttl: 300 }]);
});

test("every candidate answered 'no such domain in user context': the failure says the credentials or the account may be wrong, and is retried", async () => {
  const outcome = await client().writeRecord(target("host.other.org"), NEW_IP);
  expect(outcome).toMatchObject({
    ok: false,
    cause: "refused",
    message: expect.stringContaining("check the API username and password"),
  });
  expect(outcome).not.toHaveProperty("stopRetrying");
});

describe("failures keep Servercow's words and leave the record alone", () => {
  failureTests<FailureCase & { arrange: ServercowFault }>(
    [
      // Refused credentials in the other words Servercow uses (in an HTTP 200).
      fails({ error: "Access denied" }, "Servercow: Access denied", "credentials", STOP),
      fails({ error: "Zugangsdaten ungültig" }, "Servercow: Zugangsdaten ungültig", "credentials", STOP),
      fails({ error: "forbidden" }, "Servercow: forbidden", "credentials", STOP),
      fails({ error: "domain is locked" }, "Servercow: domain is locked", "refused"),
    ],
    async ({ arrange }) => {
      fake.fault(arrange);
      return client().writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()).toMatchObject([{ content: OLD_IP }]);
    },
  );

  test("a refused address comes back in Servercow's words", async () => {
    expect(await client().writeRecord(target("new.example.com", known), "not-an-address")).toEqual(
      failed("refused", "Servercow: invalid content for type A"),
    );
  });

  test("a failing POST is reported and nothing changed", async () => {
    fake.fault({ error: "internal error" }, 1, (r) => r.method === "POST");
    expect(await client().writeRecord(target("home.example.com", known), NEW_IP)).toMatchObject({
      ok: false,
      message: "Servercow: internal error",
    });
    expect(home()).toMatchObject([{ content: OLD_IP, ttl: 600 }]);
  });
});
