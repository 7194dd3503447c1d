// The Scaleway client against its fake: the one `set` that replaces exactly the record read (its
// comment and priority kept), the `add` of a missing one, what it keeps, and its failures in
// Scaleway's words.

import { describe, expect, test } from "bun:test";
import { createScalewayApi, scaleway } from "../../src/dns/services/scaleway";
import { openApi } from "../fakes/descriptions";
import { SCALEWAY_FAKE_SECRET, type ScalewayFault, startScalewayFake } from "../fakes/scaleway";
import { context, type FailureCase, fails, failureTests, STOP, serviceClient, target, useFake } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";
const RECORDS = "/dns-zones/example.com/records";

const fake = useFake(startScalewayFake, (fake) => {
  fake.addZone("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", data: OLD_IP, ttl: 300, comment: "the router" });
  fake.addRecord("example.com", { name: "", type: "A", data: OLD_IP, ttl: 600 });
});
const client = (fields = {}) => serviceClient("scaleway", fake.url, { secret_key: SCALEWAY_FAKE_SECRET }, {}, fields);
const home = () => fake.records("example.com", "home", "A");
const known = { zone_id: "example.com" };
const ADD_OPTIONS = { return_all_records: false, disallow_new_zone_creation: true };

test("the description: one secret key, a UUID; verify counts the zones", async () => {
  expect(scaleway.credentials.map((c) => [c.key, c.secret])).toEqual([["secret_key", true]]);
  expect(scaleway.credentials[0]!.validate!("SCWABCDEFGHIJKLMNOPQ")).toMatch(/UUID/);
  expect(scaleway.credentials[0]!.validate!(SCALEWAY_FAKE_SECRET)).toBeUndefined();
  expect(scaleway.defaultApiUrl).toBe("https://api.scaleway.com/domain/v2beta1");
  expect(await client().verify()).toEqual({ ok: true, detail: "Secret key accepted (1 DNS zone)" });
  expect(fake.requests[0]?.headers["x-auth-token"]).toBe(SCALEWAY_FAKE_SECRET);
});

describe("writeRecord", () => {
  test("an existing record: one PATCH whose set names the record read, keeping TTL and comment; a missing AAAA is added with TTL 3600; every answer in the description's shapes", async () => {
    const answers: { method: string; pathname: string; status: number; body: unknown }[] = [];
    const recording = async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init);
      const pathname = new URL(String(input)).pathname;
      answers.push({
        method: init?.method ?? "GET",
        pathname,
        status: response.status,
        body: await response.clone().json(),
      });
      return response;
    };
    const built = client({ fetch: recording });
    expect(await built.writeRecord(target("home.example.com"), NEW_IP)).toMatchObject({
      ok: true,
      action: "updated",
      zoneId: "example.com",
      message: expect.stringContaining("ttl 300"),
    });
    expect(home()).toMatchObject([{ data: NEW_IP, ttl: 300, comment: "the router" }]);
    expect(fake.requests[1]?.query).toEqual({ name: "home", type: "A", page: "1", page_size: "100" });
    expect(fake.requests[2]?.body).toEqual({
      changes: [
        {
          set: {
            id_fields: { name: "home", type: "A", data: OLD_IP },
            records: [{ name: "home", type: "A", data: NEW_IP, ttl: 300, priority: 0, comment: "the router" }],
          },
        },
      ],
      ...ADD_OPTIONS,
    });

    const outcome = await built.writeRecord(target("new.example.com", known, { recordType: "AAAA" }), "2001:db8::7");
    const [created] = fake.records("example.com", "new", "AAAA");
    expect(created).toMatchObject({ data: "2001:db8::7", ttl: 3600 });
    expect(outcome).toMatchObject({ ok: true, action: "created", externalId: created!.id });
    expect(fake.requests.at(-1)?.body).toEqual({
      changes: [{ add: { records: [{ name: "new", type: "AAAA", data: "2001:db8::7", ttl: 3600 }] } }],
      ...ADD_OPTIONS,
    });

    expect(answers.map((a) => `${a.method} ${a.pathname}`)).toEqual([
      "GET /domain/v2beta1/dns-zones",
      `GET /domain/v2beta1${RECORDS}`,
      `PATCH /domain/v2beta1${RECORDS}`,
      `GET /domain/v2beta1${RECORDS}`,
      `PATCH /domain/v2beta1${RECORDS}`,
    ]);
    const { checkResponse } = openApi("scaleway", "/");
    for (const answer of answers)
      expect(checkResponse(answer.method, answer.pathname, answer.status, answer.body)).toEqual([]);
  });

  test("a record changed by someone else meanwhile is not overwritten", async () => {
    // The read sees the old address; the record changes before the write arrives.
    const api = createScalewayApi({ secret_key: SCALEWAY_FAKE_SECRET }, context(fake.url));
    const zone = { id: "example.com", name: "example.com" };
    const read = await api.readRecordSet(zone, "home.example.com", "A", null);
    if (!read.ok || read.value === null) throw new Error("no record read");
    home()[0]!.data = "192.0.2.99";
    expect(await api.updateRecordSet(zone, "home.example.com", "A", read.value, NEW_IP, {})).toMatchObject({
      ok: false,
      cause: "refused",
      message: "Scaleway: record not found (not_found, HTTP 404)",
    });
    expect(home()).toMatchObject([{ data: "192.0.2.99" }]);
  });

  test("a dynamic record (weighted, geo) is refused, not flattened: its addresses live in its config", async () => {
    const weighted_config = {
      weighted_ips: [
        { ip: OLD_IP, weight: 1 },
        { ip: "198.51.100.2", weight: 3 },
      ],
    };
    fake.addRecord("example.com", { name: "lb", type: "A", data: OLD_IP, weighted_config });
    const outcome = await client().writeRecord(target("lb.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "refused", message: expect.stringContaining("weighted") });
    expect(fake.records("example.com", "lb", "A")).toMatchObject([{ data: OLD_IP, weighted_config }]);
    expect(fake.writes()).toBe(0);
  });

  test("the apex's records (an empty name filters nothing) are read page by page: one past the first page is updated, not doubled", async () => {
    fake.maxPageSize = 2;
    fake.zones.set("example.com", fake.records("example.com", "home", "A"));
    fake.addRecord("example.com", { name: "a", type: "A", data: "198.51.100.10" });
    fake.addRecord("example.com", { name: "b", type: "A", data: "198.51.100.11" });
    fake.addRecord("example.com", { name: "", type: "A", data: OLD_IP });
    const outcome = await client().writeRecord(target("example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(fake.records("example.com", "", "A")).toMatchObject([{ data: NEW_IP }]);
  });
});

describe("failures keep Scaleway's words and leave the record alone", () => {
  failureTests<FailureCase & { arrange: { fault?: ScalewayFault; ttl?: number } }>(
    [
      fails(
        { fault: { status: 403, message: "insufficient permissions", type: "permissions_denied" } },
        "Scaleway: insufficient permissions (permissions_denied, HTTP 403)",
        "credentials",
        STOP,
      ),
      fails({ fault: { status: 500 } }, "Scaleway: internal error (internal_error, HTTP 500)", "unreachable"),
      fails(
        { ttl: 30 },
        "Scaleway: invalid argument(s): changes[0].records[0].ttl: must be at least 60 (invalid_arguments, HTTP 400)",
        "refused",
      ),
    ],
    async ({ arrange }) => {
      if (arrange.fault) fake.fault(arrange.fault);
      return client().writeRecord(target("home.example.com", { ...known, ttl: arrange.ttl }), NEW_IP);
    },
    () => expect(home()[0]?.data).toBe(OLD_IP),
  );

  test("a request the description forbids is refused and recorded", async () => {
    const response = await fetch(`${fake.url}${RECORDS}`, {
      method: "PATCH",
      headers: { "X-Auth-Token": SCALEWAY_FAKE_SECRET, "Content-Type": "application/json" },
      body: JSON.stringify({ return_all_records: false }),
    });
    expect(response.status).toBe(400);
    expect(fake.takeViolations()).toEqual([
      expect.objectContaining({ description: "Scaleway OpenAPI", problems: [expect.stringContaining("changes")] }),
    ]);
  });
});
