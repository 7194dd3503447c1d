// The DNS wire format (RFC 1035 §4), as much of it as ddnsd speaks to a name server: the header,
// questions, resource records with their data kept as bytes (decoded for A, AAAA, SOA and TSIG),
// names written without compression and read with it. Messages of the UPDATE opcode (RFC 2136) have
// the same layout: zone, prerequisite, update and additional sections in place of question, answer,
// authority and additional. Our own few hundred lines rather than a library: TSIG (tsig.ts) must sign
// the exact bytes sent and strip its record from the exact bytes received, and no npm DNS library
// writes TSIG records.
//
// Whatever a name server sends, decoding one message is bounded by the message itself: a name is
// at most 255 octets however its compression pointers run (RFC 1035 §2.3.4), a message holds at
// most one question and 512 records, and an answer that is not to our request (its id, QR bit,
// opcode or question) is refused before any of its records is read. A reply whose records all
// point into one block of labels then costs a few hundred names of 255 octets, not gigabytes.

import { isIPv4, isIPv6 } from "node:net";

export const TYPE = { A: 1, NS: 2, CNAME: 5, SOA: 6, TXT: 16, AAAA: 28, TSIG: 250, ANY: 255 } as const;
export const CLASS = { IN: 1, CH: 3, NONE: 254, ANY: 255 } as const;
export const OPCODE = { QUERY: 0, UPDATE: 5 } as const;
/** Response codes (RFC 1035, RFC 2136, RFC 8945 for the TSIG errors carried in a TSIG record). */
export const RCODE = {
  NOERROR: 0,
  FORMERR: 1,
  SERVFAIL: 2,
  NXDOMAIN: 3,
  NOTIMP: 4,
  REFUSED: 5,
  YXDOMAIN: 6,
  YXRRSET: 7,
  NXRRSET: 8,
  NOTAUTH: 9,
  NOTZONE: 10,
  BADSIG: 16,
  BADKEY: 17,
  BADTIME: 18,
  BADTRUNC: 22,
} as const;

export function rcodeName(code: number): string {
  return Object.entries(RCODE).find(([, value]) => value === code)?.[0] ?? `rcode ${code}`;
}

export interface Question {
  name: string;
  type: number;
  class: number;
}

export interface ResourceRecord {
  /** Lowercase, no trailing dot; "" is the root. */
  name: string;
  type: number;
  class: number;
  ttl: number;
  /** The record's data as it is on the wire (names inside it may be compressed pointers). */
  data: Uint8Array;
  /** Where the record starts in the message it was read from (TSIG strips its own record from there). */
  start?: number;
  /** Where `data` starts in the message it was read from, to follow compressed names inside it. */
  dataOffset?: number;
}

export interface Message {
  id: number;
  /** Query/response bit. */
  qr: boolean;
  opcode: number;
  aa: boolean;
  tc: boolean;
  rd: boolean;
  rcode: number;
  questions: Question[];
  answers: ResourceRecord[];
  authorities: ResourceRecord[];
  additionals: ResourceRecord[];
}

export class WireError extends Error {}

/** An answer whose header or question is not our request's: refused before its records are read. */
export class ForeignAnswer extends WireError {}

/** The longest name, in octets on the wire (its labels, their length octets and the root's). */
export const MAX_NAME_OCTETS = 255;
/** The most records (answer, authority and additional together) a message is read with. */
export const MAX_RECORDS = 512;
/** Compression pointers followed in one name at most; more is a loop. */
const MAX_POINTERS = 64;

const utf8 = new TextDecoder();

/** A new message with empty sections. */
export function message(fields: Partial<Message> & { id: number }): Message {
  return {
    qr: false,
    opcode: OPCODE.QUERY,
    aa: false,
    tc: false,
    rd: false,
    rcode: 0,
    questions: [],
    answers: [],
    authorities: [],
    additionals: [],
    ...fields,
  };
}

/** A domain name as labels, uncompressed: `home.example.com` → 4home7example3com0. Case is kept. */
export function encodeName(name: string): Uint8Array {
  const trimmed = name.replace(/\.$/, "");
  const labels = trimmed === "" ? [] : trimmed.split(".");
  const bytes: number[] = [];
  for (const label of labels) {
    const encoded = new TextEncoder().encode(label);
    if (encoded.length === 0 || encoded.length > 63)
      throw new WireError(`"${name}" has a label that is empty or longer than 63 bytes`);
    bytes.push(encoded.length, ...encoded);
  }
  bytes.push(0);
  if (bytes.length > 255) throw new WireError(`"${name}" is longer than 255 bytes`);
  return Uint8Array.from(bytes);
}

/** Grows as it is written; big-endian integers as DNS has them. */
export class Writer {
  private bytes = new Uint8Array(512);
  length = 0;

  private room(size: number): void {
    if (this.length + size <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + size));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  u8(value: number): this {
    this.room(1);
    this.bytes[this.length++] = value & 0xff;
    return this;
  }

  u16(value: number): this {
    return this.u8(value >>> 8).u8(value);
  }

  u32(value: number): this {
    return this.u16(Math.floor(value / 0x10000) & 0xffff).u16(value & 0xffff);
  }

  /** A 48-bit unsigned integer (TSIG's time signed). */
  u48(value: number): this {
    return this.u16(Math.floor(value / 0x1_0000_0000) & 0xffff).u32(value % 0x1_0000_0000);
  }

  raw(data: Uint8Array): this {
    this.room(data.length);
    this.bytes.set(data, this.length);
    this.length += data.length;
    return this;
  }

  name(name: string): this {
    return this.raw(encodeName(name));
  }

  done(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

function writeRecord(writer: Writer, record: ResourceRecord): void {
  if (record.data.length > 0xffff) throw new WireError("record data longer than 65535 bytes");
  writer.name(record.name).u16(record.type).u16(record.class).u32(record.ttl).u16(record.data.length).raw(record.data);
}

export function encodeMessage(msg: Message): Uint8Array {
  const writer = new Writer();
  const flags =
    (msg.qr ? 0x8000 : 0) |
    ((msg.opcode & 0xf) << 11) |
    (msg.aa ? 0x0400 : 0) |
    (msg.tc ? 0x0200 : 0) |
    (msg.rd ? 0x0100 : 0) |
    (msg.rcode & 0xf);
  writer
    .u16(msg.id)
    .u16(flags)
    .u16(msg.questions.length)
    .u16(msg.answers.length)
    .u16(msg.authorities.length)
    .u16(msg.additionals.length);
  for (const question of msg.questions) writer.name(question.name).u16(question.type).u16(question.class);
  for (const record of [...msg.answers, ...msg.authorities, ...msg.additionals]) writeRecord(writer, record);
  return writer.done();
}

/** Reads big-endian integers and (compressed) names from one message, refusing to read past its end. */
export class Reader {
  offset: number;

  constructor(
    readonly bytes: Uint8Array,
    offset = 0,
  ) {
    this.offset = offset;
  }

  private need(size: number): void {
    if (this.offset + size > this.bytes.length) throw new WireError("the message ends in the middle of a field");
  }

  u8(): number {
    this.need(1);
    return this.bytes[this.offset++] as number;
  }

  u16(): number {
    return (this.u8() << 8) | this.u8();
  }

  u32(): number {
    return this.u16() * 0x10000 + this.u16();
  }

  u48(): number {
    return this.u16() * 0x1_0000_0000 + this.u32();
  }

  raw(size: number): Uint8Array {
    this.need(size);
    const data = this.bytes.slice(this.offset, this.offset + size);
    this.offset += size;
    return data;
  }

  /**
   * A name, following compression pointers (RFC 1035 §4.1.4), lowercase without the trailing dot.
   * Its octets are counted as they are followed: past 255 it is refused there, before more is read.
   */
  name(): string {
    const octets = new Uint8Array(MAX_NAME_OCTETS);
    let length = 0;
    let position = this.offset;
    let jumped = false;
    let jumps = 0;
    let total = 1; // the root's length octet
    for (;;) {
      if (position >= this.bytes.length) throw new WireError("a name runs past the end of the message");
      const size = this.bytes[position] as number;
      if ((size & 0xc0) === 0xc0) {
        if (position + 1 >= this.bytes.length) throw new WireError("a name pointer runs past the end of the message");
        const target = ((size & 0x3f) << 8) | (this.bytes[position + 1] as number);
        if (!jumped) this.offset = position + 2;
        jumped = true;
        if (++jumps > MAX_POINTERS) throw new WireError("a name's pointers loop");
        position = target;
        continue;
      }
      if ((size & 0xc0) !== 0) throw new WireError("a name has an unknown label type");
      if (size === 0) {
        if (!jumped) this.offset = position + 1;
        break;
      }
      total += 1 + size;
      if (total > MAX_NAME_OCTETS)
        throw new WireError(`a name is longer than ${MAX_NAME_OCTETS} octets (its pointers included)`);
      if (position + 1 + size > this.bytes.length) throw new WireError("a label runs past the end of the message");
      // Labels are joined with dots as bytes and decoded once per name.
      if (length > 0) octets[length++] = 0x2e;
      octets.set(this.bytes.subarray(position + 1, position + 1 + size), length);
      length += size;
      position += 1 + size;
    }
    return utf8.decode(octets.subarray(0, length)).toLowerCase();
  }
}

function readRecord(reader: Reader): ResourceRecord {
  const start = reader.offset;
  const name = reader.name();
  const type = reader.u16();
  const klass = reader.u16();
  const ttl = reader.u32();
  const size = reader.u16();
  const dataOffset = reader.offset;
  return { name, type, class: klass, ttl, data: reader.raw(size), start, dataOffset };
}

/**
 * Whether `answer`'s header and question answer `request` (RFC 5452 §9.1): its id and opcode, the
 * QR bit, and its one question the one asked (the name without case). An answer without a question
 * is taken only where a server may leave it out: an UPDATE's (RFC 2136 §3.8) and a refusal's.
 */
function checkAnswers(request: Message, id: number, flags: number, question: Question | undefined): void {
  const [asked] = request.questions;
  const opcode = (flags >>> 11) & 0xf;
  const rcode = flags & 0xf;
  const belongs =
    id === request.id &&
    (flags & 0x8000) !== 0 &&
    opcode === request.opcode &&
    (question === undefined
      ? opcode === OPCODE.UPDATE || (rcode !== RCODE.NOERROR && rcode !== RCODE.NXDOMAIN)
      : asked !== undefined &&
        question.name === asked.name.toLowerCase().replace(/\.$/, "") &&
        question.type === asked.type &&
        question.class === asked.class);
  if (!belongs) throw new ForeignAnswer("the answer does not belong to the question");
}

/**
 * A message read from the wire. With `answering`, it must be the answer to that request (see
 * checkAnswers), which is checked before any record is read; more than one question or 512
 * records is refused before any is read, too.
 */
export function decodeMessage(bytes: Uint8Array, answering?: Message): Message {
  const reader = new Reader(bytes);
  const id = reader.u16();
  const flags = reader.u16();
  const counts = [reader.u16(), reader.u16(), reader.u16(), reader.u16()] as const;
  if (counts[0] > 1) throw new WireError(`the message holds ${counts[0]} questions, more than one`);
  const records = counts[1] + counts[2] + counts[3];
  if (records > MAX_RECORDS) throw new WireError(`the message holds ${records} records, more than ${MAX_RECORDS}`);
  const questions: Question[] = [];
  if (counts[0] === 1) questions.push({ name: reader.name(), type: reader.u16(), class: reader.u16() });
  if (answering !== undefined) checkAnswers(answering, id, flags, questions[0]);
  const section = (count: number) => Array.from({ length: count }, () => readRecord(reader));
  return {
    id,
    qr: (flags & 0x8000) !== 0,
    opcode: (flags >>> 11) & 0xf,
    aa: (flags & 0x0400) !== 0,
    tc: (flags & 0x0200) !== 0,
    rd: (flags & 0x0100) !== 0,
    rcode: flags & 0xf,
    questions,
    answers: section(counts[1]),
    authorities: section(counts[2]),
    additionals: section(counts[3]),
  };
}

/** The data of an A or AAAA record, from its text form. */
export function addressData(address: string): Uint8Array {
  if (isIPv4(address)) return Uint8Array.from(address.split(".").map(Number));
  if (!isIPv6(address)) throw new WireError(`"${address}" is not an IP address`);
  const [head = "", tail] = address.split("::");
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const hex = (list: string[]) =>
    list.flatMap((group) => {
      if (!group.includes(".")) return [Number.parseInt(group, 16)];
      const [a = 0, b = 0, c = 0, d = 0] = group.split(".").map(Number);
      return [(a << 8) | b, (c << 8) | d];
    });
  const left = hex(groups(head));
  const right = tail === undefined ? [] : hex(groups(tail));
  const all = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  const writer = new Writer();
  for (const group of all) writer.u16(group);
  return writer.done();
}

/** The text form of an A or AAAA record's data (IPv6 in its shortest form, RFC 5952). */
export function addressText(data: Uint8Array): string {
  if (data.length === 4) return Array.from(data).join(".");
  if (data.length !== 16) throw new WireError(`address data of ${data.length} bytes`);
  const groups = Array.from({ length: 8 }, (_, i) => ((data[2 * i] as number) << 8) | (data[2 * i + 1] as number));
  // The longest run of two or more zero groups becomes "::".
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.length && j - i >= 2) best = { start: i, length: j - i };
    i = j;
  }
  const text = (list: number[]) => list.map((group) => group.toString(16)).join(":");
  if (best.start < 0) return text(groups);
  return `${text(groups.slice(0, best.start))}::${text(groups.slice(best.start + best.length))}`;
}

/** The data of a TXT record holding `text` (ASCII, as ACME challenge values are) as character-strings of up to 255 bytes. */
export function txtData(text: string): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  const parts: number[] = [];
  for (let at = 0; at === 0 || at < bytes.length; at += 255) {
    const chunk = bytes.subarray(at, at + 255);
    parts.push(chunk.length, ...chunk);
  }
  return Uint8Array.from(parts);
}

/** A TXT record's text: its character-strings joined (RFC 7208 §3.3 reads a long value the same way). */
export function txtText(data: Uint8Array): string {
  const parts: Uint8Array[] = [];
  for (let at = 0; at < data.length; ) {
    const length = data[at] as number;
    parts.push(data.subarray(at + 1, at + 1 + length));
    at += 1 + length;
  }
  return parts.map((part) => new TextDecoder().decode(part)).join("");
}

export interface Soa {
  mname: string;
  rname: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  minimum: number;
}

/** An SOA record's data; `message` is the whole message it came in (its names may point into it). */
export function soaData(record: ResourceRecord, message: Uint8Array): Soa {
  const reader = new Reader(message, record.dataOffset ?? 0);
  if (record.dataOffset === undefined) return soaData({ ...record, dataOffset: 0 }, record.data);
  return {
    mname: reader.name(),
    rname: reader.name(),
    serial: reader.u32(),
    refresh: reader.u32(),
    retry: reader.u32(),
    expire: reader.u32(),
    minimum: reader.u32(),
  };
}
