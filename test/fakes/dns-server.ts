// A name server of the test's own, over UDP and TCP on one port (127.0.0.1 on a free port unless
// told another address or port: a zone's NS records carry no port, so a name server asked through
// them listens on port 53 at a loopback address of its own). Each question is answered by the
// test's function, as bytes (anything, hostile included), or held: the fake counts the questions
// waiting for their answer and the most at once (of this fake, and of several together).
//
// Also the hostile answers of issue 41, as bytes: the compression-pointer bomb.

import { createSocket, type Socket } from "node:dgram";
import { createServer, type Server, type Socket as TcpSocket } from "node:net";
import {
  CLASS,
  decodeMessage,
  encodeMessage,
  encodeName,
  type Message,
  TYPE,
  Writer,
} from "../../src/dns/protocols/wire";

/** How the fake answers one question: its bytes, or null to send nothing (a server that stays silent). */
export type Answerer = (request: Message, transport: "udp" | "tcp") => Uint8Array | null;

export interface TestNameServer {
  host: string;
  port: number;
  /** `host:port`, as a resolver or a provider's server is written. */
  server: string;
  /** Every question, in order of arrival. */
  asked: { name: string; type: number; transport: "udp" | "tcp" }[];
  /** Questions received and not yet answered. */
  waiting: number;
  /** The most questions waiting at once since the start (or `reset()`). */
  mostWaiting: number;
  /** Answers after this many ms (0: at once); the questions wait meanwhile. */
  delayMs: number;
  answer: Answerer;
  reset(): void;
  stop(): Promise<void>;
}

/** Questions waiting at several fakes together, and the most at once. */
export interface Waiting {
  now: number;
  most: number;
}

export async function startTestNameServer(
  answer: Answerer,
  listen: { host?: string; port?: number; together?: Waiting } = {},
): Promise<TestNameServer> {
  const host = listen.host ?? "127.0.0.1";
  const udp: Socket = createSocket("udp4");
  const connections = new Set<TcpSocket>();
  const fake: TestNameServer = {
    host,
    port: 0,
    server: "",
    asked: [],
    waiting: 0,
    mostWaiting: 0,
    delayMs: 0,
    answer,
    reset() {
      fake.asked = [];
      fake.mostWaiting = fake.waiting;
      fake.delayMs = 0;
    },
    stop: async () => {
      for (const socket of connections) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    },
  };
  /** Decodes the question, counts it while it waits, then hands its answer (or nothing) to `send`. */
  const take = (bytes: Uint8Array, transport: "udp" | "tcp", send: (answer: Uint8Array) => void) => {
    const request = decodeMessage(bytes);
    const [question] = request.questions;
    fake.asked.push({ name: question?.name ?? "", type: question?.type ?? 0, transport });
    fake.waiting++;
    fake.mostWaiting = Math.max(fake.mostWaiting, fake.waiting);
    const together = listen.together;
    if (together !== undefined) together.most = Math.max(together.most, ++together.now);
    const reply = () => {
      fake.waiting--;
      if (together !== undefined) together.now--;
      const bytes = fake.answer(request, transport);
      if (bytes !== null) send(bytes);
    };
    if (fake.delayMs > 0) setTimeout(reply, fake.delayMs);
    else reply();
  };
  udp.on("message", (bytes, from) =>
    take(new Uint8Array(bytes), "udp", (answer) => udp.send(answer, from.port, from.address)),
  );
  const tcp: Server = createServer((socket) => {
    connections.add(socket);
    socket.on("close", () => connections.delete(socket));
    socket.on("error", () => {});
    let received = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 2 || received.length < 2 + received.readUInt16BE(0)) return;
      take(new Uint8Array(received.subarray(2, 2 + received.readUInt16BE(0))), "tcp", (answer) => {
        const framed = Buffer.alloc(2 + answer.length);
        framed.writeUInt16BE(answer.length, 0);
        framed.set(answer, 2);
        socket.end(framed);
      });
    });
  });
  const port = await new Promise<number>((resolve, reject) => {
    udp.once("error", reject);
    udp.bind(listen.port ?? 0, host, () => resolve(udp.address().port));
  });
  await new Promise<void>((resolve, reject) => {
    tcp.once("error", reject);
    tcp.listen(port, host, resolve);
  });
  fake.port = port;
  fake.server = `${host}:${port}`;
  return fake;
}

/** The answer to `request` with these records, as the question asked it (id, question echoed). */
export function answerWith(request: Message, fields: Partial<Message>): Uint8Array {
  return encodeMessage({ ...request, qr: true, aa: true, ...fields });
}

/** Over UDP, the question alone with the TC bit: ask again over TCP (RFC 1035 §4.2.1). */
export function truncated(request: Message): Uint8Array {
  return encodeMessage({ ...request, qr: true, aa: true, tc: true });
}

/**
 * The compression-pointer bomb of issue 41, as an answer to `request` (about 56 KB with 400
 * records): one record's data is a block of 49,984 bytes of 63-byte labels followed by a tail of
 * pointers, and each of the other records' names points into the block. Read from an even offset
 * of it the block's labels run to the tail, where a pointer sends the reader back to the block's
 * start two octets further on, so every name goes through the block 32 times without ever looping:
 * 1.6 MB a name, unless a name's length is counted.
 */
export function compressionBomb(request: Message, records = 400): Uint8Array {
  const [question] = request.questions;
  const qname = encodeName(question?.name ?? "");
  const writer = new Writer()
    .u16(request.id)
    .u16(0x8000 | ((request.opcode & 0xf) << 11) | 0x0400)
    .u16(1)
    .u16(1 + records)
    .u16(0)
    .u16(0)
    .raw(qname)
    .u16(question?.type ?? TYPE.A)
    .u16(question?.class ?? CLASS.IN);
  const block = 781 * 64;
  const start = 12 + qname.length + 4 + 12; // where the first record's data, the block, begins
  const tail = new Uint8Array(64);
  for (let offset = 0; offset < 62; offset += 2) {
    const target = start + offset + 2;
    tail[offset] = 0xc0 | (target >> 8);
    tail[offset + 1] = target & 0xff;
  }
  writer
    .u16(0xc00c)
    .u16(TYPE.TXT)
    .u16(CLASS.IN)
    .u32(0)
    .u16(block + tail.length)
    .raw(new Uint8Array(block).fill(63))
    .raw(tail);
  for (let i = 0; i < records; i++)
    writer
      .u16(0xc000 | start)
      .u16(TYPE.A)
      .u16(CLASS.IN)
      .u32(0)
      .u16(4)
      .raw(Uint8Array.from([192, 0, 2, 1]));
  return writer.done();
}
