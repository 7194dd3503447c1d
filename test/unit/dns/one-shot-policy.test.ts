// The one-shot policy, once, against a recording service: what a write sends (the record's own
// address, the other family's where one request carries both), which record types are refused
// before any request, and which answers are believed.

import { describe, expect, test } from "bun:test";
import { type OneShotApi, oneShotClient, type Sent } from "../../../src/dns/one-shot-policy";
import type { Addresses, RecordTarget, RecordType, Step } from "../../../src/dns/provider";

const V4 = "203.0.113.7";
const V6 = "2a01:4f8::7";

function service(carries: "both" | "one", answer: Partial<Sent> = {}, recordTypes: RecordType[] = ["A", "AAAA"]) {
  const sent: Addresses[] = [];
  const api: OneShotApi = {
    service: "Test",
    verifyUnavailable: "cannot verify",
    carries,
    recordTypes,
    async send(_target, addresses): Promise<Step<Sent>> {
      sent.push(addresses);
      return { ok: true, value: { held: [], externalId: "x", detail: "Test host x", ...answer } };
    },
  };
  return { client: oneShotClient(api), sent };
}

function target(recordType: RecordType, siblings?: Addresses): RecordTarget {
  return { hostname: "home.example.net", recordType, externalId: null, config: {}, ...(siblings ? { siblings } : {}) };
}

describe("what is sent", () => {
  const cases: {
    name: string;
    carries: "both" | "one";
    recordType: RecordType;
    siblings?: Addresses;
    recordTypes?: RecordType[];
    sent: Addresses;
  }[] = [
    { name: "an A alone", carries: "both", recordType: "A", sent: { ipv4: V4 } },
    {
      name: "an A with its AAAA sibling, both in one request",
      carries: "both",
      recordType: "A",
      siblings: { ipv6: "2001:db8::1" },
      sent: { ipv4: V4, ipv6: "2001:db8::1" },
    },
    {
      name: "an AAAA with its A sibling",
      carries: "both",
      recordType: "AAAA",
      siblings: { ipv4: "198.51.100.1" },
      sent: { ipv4: "198.51.100.1", ipv6: V6 },
    },
    {
      name: "a sibling of the same family is not the other family",
      carries: "both",
      recordType: "A",
      siblings: { ipv4: "198.51.100.1" },
      sent: { ipv4: V4 },
    },
    {
      name: "one family per request: the sibling is the service's to keep",
      carries: "one",
      recordType: "A",
      siblings: { ipv6: "2001:db8::1" },
      sent: { ipv4: V4 },
    },
    {
      name: "a service that takes A only never hears of the AAAA",
      carries: "both",
      recordType: "A",
      siblings: { ipv6: "2001:db8::1" },
      recordTypes: ["A"],
      sent: { ipv4: V4 },
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const { client, sent } = service(c.carries, {}, c.recordTypes);
      await client.writeRecord(target(c.recordType, c.siblings), c.recordType === "A" ? V4 : V6);
      expect(sent).toEqual([c.sent]);
    });
  }

  test("a record type the service does not take is refused for good, without a request", async () => {
    const { client, sent } = service("both", {}, ["A"]);
    expect(await client.writeRecord(target("AAAA"), V6)).toEqual({
      ok: false,
      message: "Test: takes A records only",
      cause: "refused",
      stopRetrying: true,
    });
    expect(sent).toEqual([]);
  });
});

describe("which answers are believed", () => {
  const cases: {
    name: string;
    sent: RecordType;
    siblings?: Addresses;
    answer: Partial<Sent>;
    ok: boolean;
    action?: string;
  }[] = [
    { name: "no addresses named", sent: "A", answer: {}, ok: true, action: "updated" },
    { name: "the address sent", sent: "A", answer: { held: [V4], change: "changed" }, ok: true, action: "updated" },
    {
      name: "the address sent, nothing changed",
      sent: "A",
      answer: { held: [V4], change: "unchanged" },
      ok: true,
      action: "unchanged",
    },
    {
      name: "the address sent and the other family's, which was not sent",
      sent: "A",
      answer: { held: [V4, "2001:db8::9"] },
      ok: true,
    },
    { name: "an IPv6 written differently", sent: "AAAA", answer: { held: ["2A01:04F8:0:0::7"] }, ok: true },
    { name: "another address of the family sent", sent: "A", answer: { held: ["192.0.2.55"] }, ok: false },
    {
      name: "only an address of a family not sent (Dyn's good 127.0.0.1 to an IPv6 update)",
      sent: "AAAA",
      answer: { held: ["127.0.0.1"] },
      ok: false,
    },
    {
      name: "both sent, one answered otherwise",
      sent: "A",
      siblings: { ipv6: "2001:db8::1" },
      answer: { held: [V4, "2001:db8::9"] },
      ok: false,
    },
  ];
  for (const c of cases) {
    test(`${c.name}: ${c.ok ? "success" : "not retried"}`, async () => {
      const { client } = service("both", c.answer);
      const outcome = await client.writeRecord(target(c.sent, c.siblings), c.sent === "A" ? V4 : V6);
      if (c.ok)
        expect(outcome).toMatchObject({
          ok: true,
          ...(c.action ? { action: c.action } : {}),
          externalId: "x",
          zoneId: "",
          message: "Test host x",
        });
      else
        expect(outcome).toMatchObject({
          ok: false,
          cause: "refused",
          stopRetrying: true,
          message: expect.stringContaining("the update was ignored"),
        });
    });
  }
});
