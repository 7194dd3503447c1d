// The DNS wire decoder's bounds (issue 41): whatever a name server sends, one message costs its
// own size. The compression-pointer bomb is refused at its first long name, a message past 512
// records before any record is read, and an answer to another question before its records. The
// same answers sent by a name server on loopback are in test/dns/lookup.test.ts.

import { describe, expect, test } from "bun:test";
import { sign, type TsigKey, verify } from "../../../src/dns/protocols/tsig";
import {
  CLASS,
  decodeMessage,
  encodeMessage,
  ForeignAnswer,
  MAX_RECORDS,
  message,
  OPCODE,
  TYPE,
  WireError,
  Writer,
} from "../../../src/dns/protocols/wire";
import { compressionBomb } from "../../fakes/dns-server";

const request = message({ id: 4321, questions: [{ name: "home.example.test", type: TYPE.A, class: CLASS.IN }] });
const bomb = compressionBomb(request);
/** Where the bomb's first record that points into the block starts: after the header, question and the block's record. */
const firstPointing = bomb.length - 400 * 16;

describe("the compression-pointer bomb", () => {
  test("is the finding's input: about 56 KB, 401 records", () => {
    expect(bomb.length).toBeGreaterThan(55_000);
    expect(bomb.length).toBeLessThan(60_000);
    expect((bomb[6]! << 8) | bomb[7]!).toBe(401);
  });

  test("is refused at its first name longer than 255 octets, before the records after it are read", () => {
    expect(() => decodeMessage(bomb, request)).toThrow("a name is longer than 255 octets (its pointers included)");
    // Cut right after that first name's pointer: refused for the same reason, so nothing after it was read.
    expect(() => decodeMessage(bomb.subarray(0, firstPointing + 2), request)).toThrow(
      "a name is longer than 255 octets",
    );
    // Without the request to check it against, too.
    expect(() => decodeMessage(bomb)).toThrow("a name is longer than 255 octets");
  });

  test("sent as an answer to another question, another id, or as a query: refused before its records", () => {
    const otherId = message({ ...request, id: 4322 });
    const otherName = message({ ...request, questions: [{ name: "other.example.test", type: TYPE.A, class: 1 }] });
    const otherType = message({ ...request, questions: [{ name: "home.example.test", type: TYPE.AAAA, class: 1 }] });
    const otherClass = message({ ...request, questions: [{ name: "home.example.test", type: TYPE.A, class: 3 }] });
    const update = message({ ...request, opcode: OPCODE.UPDATE });
    for (const asked of [otherId, otherName, otherType, otherClass, update])
      expect(() => decodeMessage(bomb, asked)).toThrow(ForeignAnswer);
    const query = bomb.slice();
    query[2] = query[2]! & 0x7f; // the QR bit cleared
    expect(() => decodeMessage(query, request)).toThrow(ForeignAnswer);
  });

  test("signed or not, a TSIG check reads no further than the plain decoder", () => {
    const key: TsigKey = { name: "ddnsd-key", algorithm: "hmac-sha256", secret: Buffer.from("0123456789abcdef") };
    const signed = sign(bomb, key).bytes;
    expect(() => verify(signed, key, { answering: request })).toThrow("a name is longer than 255 octets");
    expect(() => verify(signed, key, { answering: message({ ...request, id: 1 }) })).toThrow(ForeignAnswer);
  });
});

describe("a name's length", () => {
  /** A message whose question names `labels` labels of 63 octets, then one of `last` octets, each reached through a pointer. */
  function pointedName(last: number): Uint8Array {
    const writer = new Writer().u16(1).u16(0x8400).u16(1).u16(0).u16(0).u16(0);
    // The question's name: a pointer to the labels that follow the question.
    writer
      .u16(0xc000 | 18)
      .u16(TYPE.A)
      .u16(CLASS.IN);
    // Three labels of 63 octets, each followed by a pointer to the next (192 octets with their lengths) …
    let at = 18;
    for (let i = 0; i < 3; i++) {
      writer.u8(63).raw(new Uint8Array(63).fill(0x61));
      at += 64 + 2;
      writer.u16(0xc000 | at);
    }
    // … then one label of `last` octets and the root.
    writer.u8(last).raw(new Uint8Array(last).fill(0x62)).u8(0);
    return writer.done();
  }

  test("255 octets counted through pointers is read; one more is refused", () => {
    // 3 × 64 + (1 + 61) + the root's octet = 255.
    const name = decodeMessage(pointedName(61)).questions[0]!.name;
    expect(name.length).toBe(3 * 64 + 61);
    expect(() => decodeMessage(pointedName(62))).toThrow("a name is longer than 255 octets");
  });

  test("pointers that loop are refused", () => {
    const loop = Uint8Array.from([0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 12, 0, 1, 0, 1]);
    expect(() => decodeMessage(loop)).toThrow("a name's pointers loop");
  });
});

describe("the number of records", () => {
  test("512 records are read; a message claiming more is refused before any is read", () => {
    const records = (count: number) =>
      Array.from({ length: count }, (_, i) => ({
        name: "home.example.test",
        type: TYPE.A,
        class: CLASS.IN,
        ttl: 60,
        data: Uint8Array.from([192, 0, 2, i % 250]),
      }));
    const full = encodeMessage(message({ ...request, qr: true, answers: records(MAX_RECORDS) }));
    expect(decodeMessage(full, request).answers).toHaveLength(MAX_RECORDS);
    // The header claims 300 answers and 213 additionals, and nothing follows the question: counted, not read.
    const claimed = encodeMessage(message({ ...request, qr: true }));
    claimed[7] = 44; // 300 answers
    claimed[6] = 1;
    claimed[11] = 213; // 213 additionals
    expect(() => decodeMessage(claimed, request)).toThrow("the message holds 513 records, more than 512");
  });

  test("a message of more than one question is refused", () => {
    const two = encodeMessage(message({ ...request, questions: [...request.questions, ...request.questions] }));
    expect(() => decodeMessage(two)).toThrow(WireError);
  });
});
