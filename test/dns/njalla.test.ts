// The Njalla API client against its fake: what it changes, what it keeps, how many calls it spends,
// and how each failure Njalla can give — mostly inside an HTTP 200 — ends up in Njalla's own words.

import { describe, expect, test } from "bun:test";
import { njallaTtl } from "../../src/dns/services/njalla";
import { NJALLA_FAKE_TOKEN, type NjallaFault, startNjallaFake } from "../fakes/njalla";
import { fails, failureTests, STOP, serviceClient, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startNjallaFake, (fake) => {
  fake.addDomain("other.org");
  fake.addDomain("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", content: OLD_IP, ttl: 900 });
});
const client = () => serviceClient("njalla", fake.url, { token: NJALLA_FAKE_TOKEN });

const methods = () => fake.requests.map((r) => (r.body as { method: string }).method);
const paramsOf = (request: { body: unknown } | undefined) =>
  (request?.body as { params?: unknown } | undefined)?.params;
const home = () => fake.records("example.com", "home", "A");
const known = { zone_id: "example.com" };

test("verify lists the domains with the token in Njalla's own scheme", async () => {
  expect(await client().verify()).toEqual({ ok: true, detail: "Token accepted (2 domains)" });
  expect(fake.requests[0]).toMatchObject({
    method: "POST",
    path: "/",
    headers: { authorization: `Njalla ${NJALLA_FAKE_TOKEN}` },
  });
  expect(fake.requests[0]?.body).toEqual({ jsonrpc: "2.0", id: "1", method: "list-domains", params: {} });
});

test("njallaTtl picks the nearest TTL Njalla takes", () => {
  expect([30, 60, 120, 200, 3600, 8000, 100000].map(njallaTtl)).toEqual([60, 60, 60, 300, 3600, 10800, 86400]);
});

test("an existing record: finds the domain, lists its records and edits the one record, keeping its name and TTL; then (domain known) two calls", async () => {
  const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
  const id = home()[0]!.id;
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "updated",
    externalId: id,
    zoneId: "example.com",
    message: `Njalla record ${id}, ttl 900`,
  });
  expect(home()).toEqual([{ id, name: "home", type: "A", content: NEW_IP, ttl: 900 }]);
  expect(paramsOf(fake.requests[2])).toEqual({
    domain: "example.com",
    id,
    name: "home",
    type: "A",
    content: NEW_IP,
    ttl: 900,
  });
  await client().writeRecord(target("home.example.com", known), OLD_IP);
  expect(methods()).toEqual(["list-domains", "list-records", "edit-record", "list-records", "edit-record"]);
});

test("writeRecord on a missing record: adds it with TTL 300; a TTL between the ones Njalla takes as the nearest, then already right", async () => {
  const outcome = await client().writeRecord(target("new.example.com", known), NEW_IP);
  const [created] = fake.records("example.com", "new", "A");
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "created",
    externalId: created!.id,
    zoneId: "example.com",
    message: `Njalla record ${created!.id}, ttl 300`,
  });
  expect(paramsOf(fake.requests.at(-1))).toEqual({
    domain: "example.com",
    name: "new",
    type: "A",
    content: NEW_IP,
    ttl: 300,
  });
  // A TTL between the ones Njalla takes is sent as the nearest, and then counts as already right.
  await client().writeRecord(target("near.example.com", { ...known, ttl: 1200 }), NEW_IP);
  expect(fake.records("example.com", "near", "A")).toMatchObject([{ ttl: 900 }]);
  fake.clearRequests();
  const again = await client().writeRecord(target("near.example.com", { ...known, ttl: 1200 }), NEW_IP);
  expect(again).toMatchObject({ ok: true, action: "unchanged" });
  expect(methods()).toEqual(["list-records"]);
});

test('a domain not in the account (403 "permission denied") is refused, not taken for a bad token', async () => {
  expect(await client().writeRecord(target("home.example.org", { zone_id: "example.org" }), NEW_IP)).toEqual({
    ok: false,
    cause: "refused",
    message: "Njalla: no zone of this account holds home.example.org",
  });
  expect(methods()).toEqual(["list-records", "list-domains"]);
});

describe("failures keep Njalla's words and leave the record alone", () => {
  type Arrange = { fault?: NjallaFault; onEdit?: boolean; ip?: string; hostname?: string };
  failureTests(
    [
      // A refused token as an HTTP status without a JSON-RPC error.
      fails({ fault: { status: 401 } }, /^Njalla: unreadable answer \(HTTP 401\)/, "credentials", STOP),
      fails({ fault: { status: 403 } }, /^Njalla: unreadable answer \(HTTP 403\)/, "credentials", STOP),
      fails(
        { fault: { code: 500, message: "Internal error." }, onEdit: true },
        "Njalla: Internal error. (code 500)",
        "unreachable",
      ),
      // Njalla's refusal of a record comes back in its words.
      fails({ hostname: "new.example.com", ip: "not-an-address" }, "Njalla: invalid content (code 400)", "refused"),
    ],
    async ({ arrange }: { arrange: Arrange }) => {
      const onEdit = (r: { body: unknown }) => (r.body as { method: string }).method === "edit-record";
      if (arrange.fault) fake.fault(arrange.fault, undefined, arrange.onEdit ? onEdit : undefined);
      return client().writeRecord(target(arrange.hostname ?? "home.example.com", known), arrange.ip ?? NEW_IP);
    },
    ({ arrange }: { arrange: Arrange }) => {
      if (arrange.fault && !arrange.onEdit) expect(fake.requests).toHaveLength(1);
      expect(home()).toMatchObject([{ content: OLD_IP, ttl: 900 }]);
      expect(fake.records("example.com", "new", "A")).toEqual([]);
    },
  );
});
