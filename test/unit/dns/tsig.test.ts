// The DNS wire format and TSIG (RFC 8945) against a message BIND's own nsupdate signed, and the
// checks an answer's signature must pass: the MAC over the request's MAC, the key, the time.

import { describe, expect, test } from "bun:test";
import { sign, TSIG_ALGORITHMS, type TsigKey, verify } from "../../../src/dns/protocols/tsig";
import {
  addressData,
  addressText,
  CLASS,
  decodeMessage,
  encodeMessage,
  message,
  OPCODE,
  RCODE,
  TYPE,
  WireError,
} from "../../../src/dns/protocols/wire";

// An UPDATE that BIND's own client signed: `nsupdate -y hmac-sha256:ddnsd-key:<secret>` sending
// "update delete home.example.test A" and "update add home.example.test 300 A 192.0.2.1" for zone
// example.test, captured on a UDP socket. It uses name compression, so reading it also checks that.
const NSUPDATE_SECRET = "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LTEyMzQ=";
const NSUPDATE_MESSAGE =
  "b23528000001000000020001076578616d706c650474657374000006000104686f6d65c00c000100ff000000000000c01e000100010000012c0004c00002010964646e73642d6b65790000fa00ff00000000003d0b686d61632d7368613235360000006b05542a012c0020a8aa14424644d4583f7df93ccfe2290514107f50c18c43845c18c02f0b1ce1ebb23500000000";
const NSUPDATE_TIME = 0x6b05542a;
const key: TsigKey = { name: "ddnsd-key", algorithm: "hmac-sha256", secret: Buffer.from(NSUPDATE_SECRET, "base64") };
const captured = Uint8Array.from(Buffer.from(NSUPDATE_MESSAGE, "hex"));

describe("the wire format", () => {
  test("reads nsupdate's UPDATE, compressed names and all", () => {
    const update = decodeMessage(captured);
    expect(update.opcode).toBe(OPCODE.UPDATE);
    expect(update.questions).toEqual([{ name: "example.test", type: TYPE.SOA, class: CLASS.IN }]);
    expect(update.authorities.map((r) => [r.name, r.type, r.class, r.ttl, addressOrEmpty(r.data)])).toEqual([
      ["home.example.test", TYPE.A, CLASS.ANY, 0, ""],
      ["home.example.test", TYPE.A, CLASS.IN, 300, "192.0.2.1"],
    ]);
    expect(update.additionals[0]?.type).toBe(TYPE.TSIG);
  });

  test("writes what it reads", () => {
    const query = message({
      id: 7,
      rd: true,
      questions: [{ name: "Home.Example.test", type: TYPE.AAAA, class: CLASS.IN }],
    });
    query.answers.push({
      name: "home.example.test",
      type: TYPE.AAAA,
      class: CLASS.IN,
      ttl: 60,
      data: addressData("2001:db8::1"),
    });
    const read = decodeMessage(encodeMessage(query));
    expect(read.questions[0]?.name).toBe("home.example.test");
    expect(read.rd).toBe(true);
    expect(addressText(read.answers[0]!.data)).toBe("2001:db8::1");
  });

  test("addresses in their shortest form", () => {
    for (const [given, shortest] of [
      ["2001:0db8:0:0:0:0:0:1", "2001:db8::1"],
      ["::", "::"],
      ["2001:db8:0:1:0:0:0:0", "2001:db8:0:1::"],
      ["2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"],
      ["203.0.113.7", "203.0.113.7"],
    ] as const) {
      expect(addressText(addressData(given))).toBe(shortest);
    }
  });

  test("refuses a message cut short, and a name whose pointers loop", () => {
    expect(() => decodeMessage(captured.subarray(0, 40))).toThrow(WireError);
    const loop = Uint8Array.from([0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 12, 0, 1, 0, 1]);
    expect(() => decodeMessage(loop)).toThrow(WireError);
  });
});

describe("TSIG", () => {
  test("accepts nsupdate's signature, and signs the same bytes itself", () => {
    expect(verify(captured, key, { now: NSUPDATE_TIME + 10 }).status).toBe("valid");
    const tsigStart = decodeMessage(captured).additionals[0]!.start!;
    const unsigned = captured.slice(0, tsigStart);
    unsigned[11] = 0; // the additional count before the TSIG record
    expect(Buffer.from(sign(unsigned, key, { now: NSUPDATE_TIME }).bytes).toString("hex")).toBe(NSUPDATE_MESSAGE);
  });

  test("a changed byte, another secret, another key name: not valid", () => {
    const changed = captured.slice();
    changed[40] = (changed[40] as number) ^ 1;
    expect(verify(changed, key, { now: NSUPDATE_TIME }).status).toBe("badsig");
    expect(verify(captured, { ...key, secret: Buffer.from("another") }, { now: NSUPDATE_TIME }).status).toBe("badsig");
    expect(verify(captured, { ...key, name: "other-key" }, { now: NSUPDATE_TIME }).status).toBe("badkey");
    expect(verify(captured, { ...key, algorithm: "hmac-sha512" }, { now: NSUPDATE_TIME }).status).toBe("badkey");
  });

  test("the time check allows the fudge and no more", () => {
    expect(verify(captured, key, { now: NSUPDATE_TIME + 300 }).status).toBe("valid");
    expect(verify(captured, key, { now: NSUPDATE_TIME - 300 }).status).toBe("valid");
    expect(verify(captured, key, { now: NSUPDATE_TIME + 301 }).status).toBe("badtime");
    expect(verify(captured, key, { now: NSUPDATE_TIME - 301 }).status).toBe("badtime");
  });

  test("an answer's MAC covers the request's MAC, so it answers that request only", () => {
    for (const algorithm of TSIG_ALGORITHMS) {
      const k: TsigKey = { name: "k", algorithm, secret: Buffer.from("0123456789abcdef") };
      const request = sign(encodeMessage(message({ id: 1 })), k);
      const answer = sign(encodeMessage(message({ id: 1, qr: true })), k, { requestMac: request.mac });
      expect(verify(answer.bytes, k, { requestMac: request.mac }).status).toBe("valid");
      const other = sign(encodeMessage(message({ id: 1 })), k, { now: 1 });
      expect(verify(answer.bytes, k, { requestMac: other.mac }).status).toBe("badsig");
      expect(verify(answer.bytes, k).status).toBe("badsig");
    }
  });

  test("a server's unsigned BADKEY is reported as the server's, an answer without TSIG as unsigned", () => {
    const refused = sign(encodeMessage(message({ id: 2, qr: true, rcode: RCODE.NOTAUTH })), key, {
      error: RCODE.BADKEY,
    });
    // A server that does not know the key cannot sign: the MAC is empty.
    const bytes = refused.bytes;
    const record = decodeMessage(bytes).additionals[0]!;
    const withoutMac = Uint8Array.from([
      ...bytes.subarray(0, record.start!),
      ...unsignedTsig(bytes, record.start!, record.dataOffset!),
    ]);
    const check = verify(withoutMac, key);
    expect(check.status).toBe("server-error");
    expect(check.status !== "unsigned" && check.status !== "valid" ? check.error : 0).toBe(RCODE.BADKEY);
    expect(verify(encodeMessage(message({ id: 2, qr: true })), key).status).toBe("unsigned");
  });
});

function addressOrEmpty(data: Uint8Array): string {
  return data.length === 0 ? "" : addressText(data);
}

/** The TSIG record at `start` rewritten with an empty MAC, as a server sends BADKEY. */
function unsignedTsig(bytes: Uint8Array, start: number, dataOffset: number): number[] {
  const owner = Array.from(bytes.subarray(start, dataOffset - 10));
  const data = bytes.subarray(dataOffset);
  const algorithm = Array.from(data.subarray(0, 13)); // 11hmac-sha256 0
  const time = Array.from(data.subarray(13, 21)); // time signed + fudge
  const macSize = ((data[21] as number) << 8) | (data[22] as number);
  const rest = Array.from(data.subarray(23 + macSize));
  const rdata = [...algorithm, ...time, 0, 0, ...rest];
  return [...owner, 0, 250, 0, 255, 0, 0, 0, 0, rdata.length >> 8, rdata.length & 0xff, ...rdata];
}
