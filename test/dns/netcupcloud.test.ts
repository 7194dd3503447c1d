// The Netcup CloudDNS client against its fake (netcup's REST API): the domain found by name, the
// records of the served revision read, a change made as one committed changeset, and netcup's refusals
// (a refused key in an HTTP 400, a domain not on CloudDNS) in its own words.

import { describe, expect, test } from "bun:test";
import { netcupcloud } from "../../src/dns/services/netcupcloud";
import { NETCUPCLOUD_FAKE_KEY, startNetcupCloudFake } from "../fakes/netcupcloud";
import { failed, serviceClient, target, useFake } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startNetcupCloudFake, (fake) => {
  fake.addDomain("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", rdata: OLD_IP, ttl: 600 });
  fake.addRecord("example.com", { name: "@", type: "MX", rdata: "10 mail.example.com.", ttl: 3600 });
});
const client = () => serviceClient("netcupcloud", fake.url, { api_key: NETCUPCLOUD_FAKE_KEY });
const known = { zone_id: "example.com" };
const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const served = (name: string, type = "A") =>
  fake.served("example.com").filter((r) => r.name === name && r.type === type);

test("the description: one API key of 64 characters, a legacy key refused with a pointer to the Netcup type", () => {
  expect(netcupcloud.defaultApiUrl).toBe("https://api.netcup.com/v1");
  expect(netcupcloud.credentials.map((c) => [c.key, c.secret])).toEqual([["api_key", true]]);
  expect(netcupcloud.credentials[0]!.validate!(NETCUPCLOUD_FAKE_KEY)).toBeUndefined();
  expect(netcupcloud.credentials[0]!.validate!("x".repeat(50))).toContain("Netcup type");
});

test("verify: a working key is accepted without reading or changing anything", async () => {
  expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted" });
  expect(requestLines()).toEqual(["GET /domain"]);
  expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${NETCUPCLOUD_FAKE_KEY}`);
});

describe("writeRecord", () => {
  test("finds the domain by name, reads the served revision, and changes the record in one committed changeset", async () => {
    expect(await client().writeRecord(target("home.example.com"), NEW_IP)).toMatchObject({
      ok: true,
      action: "updated",
      zoneId: "example.com",
      message: expect.stringContaining("ttl 600"),
    });
    expect(served("home")).toEqual([expect.objectContaining({ rdata: NEW_IP, ttl: 600 })]);
    expect(served("@", "MX")).toHaveLength(1);
    expect(fake.requests.find((r) => r.method === "POST")?.body).toEqual({
      autoCommit: true,
      strict: true,
      delete: [{ name: "home", type: "A", rdata: OLD_IP, ttl: 600 }],
      create: [{ name: "home", type: "A", rdata: NEW_IP, ttl: 600 }],
    });
    // Each name is asked once (home.example.com, then example.com): the read and the write use the id found.
    expect(requestLines().filter((line) => line === "GET /domain")).toHaveLength(2);
    expect(fake.requests).toHaveLength(5);
  });

  test("a missing record is created with TTL 300", async () => {
    const outcome = await client().writeRecord(target("new.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created" });
    expect(served("new")).toEqual([expect.objectContaining({ rdata: NEW_IP, ttl: 300 })]);
  });

  test("a draft revision someone staged by hand is not what is served: the committed one is read", async () => {
    fake.addDraft("example.com", [{ name: "home", type: "A", rdata: NEW_IP }]);
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(served("home")).toEqual([expect.objectContaining({ rdata: NEW_IP })]);
  });

  test("listings that page are read to their last page", async () => {
    fake.perPage = 1;
    for (const name of ["a", "b", "c"]) fake.addRecord("example.com", { name, type: "A", rdata: OLD_IP });
    fake.addRecord("example.com", { name: "late", type: "A", rdata: OLD_IP, ttl: 900 });
    const outcome = await client().writeRecord(target("late.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(served("late")).toEqual([expect.objectContaining({ rdata: NEW_IP, ttl: 900 })]);
  });

  test("a domain not on CloudDNS is refused for good, pointing to the Netcup type", async () => {
    fake.addDomain("legacy.org", { isDnsManaged: false });
    expect(await client().writeRecord(target("home.legacy.org"), NEW_IP)).toMatchObject({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message: expect.stringContaining("use the Netcup type"),
    });
  });
});

test("a 500 keeps netcup's words and leaves the record alone", async () => {
  fake.fault({ status: 500 });
  expect(await client().writeRecord(target("home.example.com", known), NEW_IP)).toEqual(
    failed("unreachable", "Netcup CloudDNS: internalError: Internal error. (HTTP 500)"),
  );
  expect(served("home")).toEqual([expect.objectContaining({ rdata: OLD_IP })]);
});
