// Plain DNS queries (src/dns/lookup.ts) against a small name server of the test's own on
// 127.0.0.1 (UDP and TCP on one port, test/fakes/dns-server.ts): an answer too long for UDP comes
// back truncated and is asked again over TCP; an answer that belongs to another question is not
// taken; the compression-pointer bomb is refused, over UDP and over TCP; a closed port is told
// apart from silence. The zone search runs against BIND in test/propagation/.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { addressesIn, query } from "../../src/dns/lookup";
import { addressData, encodeMessage, type Message, TYPE } from "../../src/dns/protocols/wire";
import { compressionBomb, startTestNameServer, type TestNameServer, truncated } from "../fakes/dns-server";
import { freePort } from "../servers/name-servers";

/** Every A record the fake holds for big.example.test: too many for one UDP datagram of 512 bytes. */
const MANY = Array.from({ length: 60 }, (_, i) => `192.0.2.${i + 1}`);

let fake: TestNameServer;
let port: number;
/** How the fake answers: truthfully, with another id, or with the compression-pointer bomb (over UDP, or over TCP after a truncated UDP answer). */
let mode: "truthful" | "wrong id" | "bomb" | "bomb over tcp" = "truthful";
const seen: string[] = [];

function answer(request: Message, transport: "udp" | "tcp"): Uint8Array {
  seen.push(`${transport} rd=${request.rd}`);
  if (mode === "bomb" || (mode === "bomb over tcp" && transport === "tcp")) return compressionBomb(request);
  if (mode === "bomb over tcp") return truncated(request);
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
  if (transport === "udp" && bytes.length > 512) return truncated(full);
  return bytes;
}

beforeAll(async () => {
  fake = await startTestNameServer(answer);
  port = fake.port;
});

afterAll(() => fake.stop());

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

test("the compression-pointer bomb (56 KB, every name pointing into one block of labels) is refused over UDP", async () => {
  mode = "bomb";
  try {
    expect(await query({ host: "127.0.0.1", port }, "home.example.test", TYPE.A, { recursion: false })).toEqual({
      ok: false,
      reason: "unreadable answer (a name is longer than 255 octets (its pointers included))",
    });
  } finally {
    mode = "truthful";
  }
});

test("the same bomb after a truncated UDP answer, over TCP: refused as well", async () => {
  mode = "bomb over tcp";
  seen.length = 0;
  try {
    expect(await query({ host: "127.0.0.1", port }, "home.example.test", TYPE.A, { recursion: true })).toEqual({
      ok: false,
      reason: "unreadable answer (a name is longer than 255 octets (its pointers included))",
    });
    expect(seen).toEqual(["udp rd=true", "tcp rd=true"]);
  } finally {
    mode = "truthful";
  }
});
