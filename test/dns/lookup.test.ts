// Plain DNS queries (src/dns/lookup.ts) against a small name server of the test's own on
// 127.0.0.1 (UDP and TCP on one port): an answer too long for UDP comes back truncated and is asked
// again over TCP; an answer that belongs to another question is not taken; a closed port is told
// apart from silence. The zone search runs against BIND in test/propagation/.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { createSocket, type Socket } from "node:dgram";
import { createServer, type Server } from "node:net";
import { addressesIn, query } from "../../src/dns/lookup";
import { addressData, decodeMessage, encodeMessage, type Message, TYPE } from "../../src/dns/protocols/wire";
import { freePort } from "../servers/name-servers";

/** Every A record the fake holds for big.example.test: too many for one UDP datagram of 512 bytes. */
const MANY = Array.from({ length: 60 }, (_, i) => `192.0.2.${i + 1}`);

let udp: Socket;
let tcp: Server;
let port: number;
/** How the fake answers: truthfully, or with another id. */
let mode: "truthful" | "wrong id" = "truthful";
const seen: string[] = [];

function answer(request: Message, overTcp: boolean): Uint8Array {
  const [question] = request.questions;
  const name = question?.name ?? "";
  const addresses = name === "big.example.test" ? MANY : ["192.0.2.99"];
  const full = {
    ...request,
    qr: true,
    aa: true,
    id: mode === "wrong id" ? (request.id + 1) & 0xffff : request.id,
    answers: addresses.map((ip) => ({ name, type: TYPE.A, class: 1, ttl: 60, data: addressData(ip) })),
  };
  const bytes = encodeMessage(full);
  // Over UDP, an answer past 512 bytes is cut to its question with the TC bit (RFC 1035 §4.2.1).
  if (!overTcp && bytes.length > 512) return encodeMessage({ ...full, tc: true, answers: [] });
  return bytes;
}

beforeAll(async () => {
  port = await freePort();
  udp = createSocket("udp4");
  udp.on("message", (bytes, from) => {
    const request = decodeMessage(new Uint8Array(bytes));
    seen.push(`udp rd=${request.rd}`);
    udp.send(answer(request, false), from.port, from.address);
  });
  await new Promise<void>((resolve) => udp.bind(port, "127.0.0.1", resolve));
  tcp = createServer((socket) => {
    socket.on("data", (chunk: Buffer) => {
      const request = decodeMessage(new Uint8Array(chunk.subarray(2)));
      seen.push(`tcp rd=${request.rd}`);
      const bytes = answer(request, true);
      const framed = Buffer.alloc(2 + bytes.length);
      framed.writeUInt16BE(bytes.length, 0);
      framed.set(bytes, 2);
      socket.end(framed);
    });
  });
  await new Promise<void>((resolve) => tcp.listen(port, "127.0.0.1", resolve));
});

afterAll(() => {
  udp.close();
  tcp.close();
});

test("a short answer over UDP, with the recursion bit as asked", async () => {
  seen.length = 0;
  const found = await query({ host: "127.0.0.1", port }, "home.example.test", TYPE.A, { recursion: false });
  expect(found.ok && addressesIn(found.message, "home.example.test", TYPE.A)).toEqual(["192.0.2.99"]);
  expect(seen).toEqual(["udp rd=false"]);
});

test("a truncated answer is asked again over TCP, and read whole", async () => {
  seen.length = 0;
  const found = await query({ host: "127.0.0.1", port }, "big.example.test", TYPE.A, { recursion: true });
  expect(found.ok && addressesIn(found.message, "big.example.test", TYPE.A)).toEqual(MANY);
  expect(seen).toEqual(["udp rd=true", "tcp rd=true"]);
});

test("an answer to another question (another id) is not taken", async () => {
  mode = "wrong id";
  try {
    expect(await query({ host: "127.0.0.1", port }, "home.example.test", TYPE.A, { recursion: false })).toEqual({
      ok: false,
      reason: "the answer does not belong to the question",
    });
  } finally {
    mode = "truthful";
  }
});

test("no name server on the port: connection refused, not a wait for the timeout", async () => {
  const closed = await freePort();
  const found = await query({ host: "127.0.0.1", port: closed }, "home.example.test", TYPE.A, {
    recursion: false,
    timeoutMs: 30_000,
  });
  expect(found).toEqual({ ok: false, reason: "connection refused (no name server on this address)" });
});
