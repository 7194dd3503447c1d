// An unsigned DNS question to one server (RFC 1035 §4.2): over UDP first, and again over TCP when the
// answer comes back truncated (TC set), as every resolver does. The server may be named by a host
// name: it is looked up for the address family asked for, so the question leaves over that family.
// Failures are values with a reason in plain words.

import { createSocket } from "node:dgram";
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { exchangeTcp, newId, type ServerAddress } from "./signed-dns";
import { decodeMessage, encodeMessage, type Message, type Question, WireError } from "./wire";

export type PlainAnswer = { ok: true; message: Message } | { ok: false; reason: string };

type Received = { ok: true; bytes: Uint8Array } | { ok: false; reason: string };

/** One datagram out, the first datagram back from that server that answers our id, within `timeoutMs`. */
function exchangeUdp(address: string, port: number, request: Uint8Array, id: number, timeoutMs: number): Promise<Received> {
  return new Promise((resolve) => {
    const socket = createSocket(isIP(address) === 6 ? "udp6" : "udp4");
    let settled = false;
    const finish = (result: Received) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.close();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ ok: false, reason: `no answer within ${timeoutMs / 1000}s` }), timeoutMs);
    socket.on("error", (error: Error & { code?: string }) => finish({ ok: false, reason: error.code ?? error.message }));
    socket.on("message", (bytes: Buffer, from) => {
      // Only the server asked, and only our question's id: anything else is noise or a spoof.
      if (from.address !== address || from.port !== port || bytes.length < 2 || bytes.readUInt16BE(0) !== id) return;
      finish({ ok: true, bytes: new Uint8Array(bytes) });
    });
    socket.send(request, port, address, (error) => {
      if (error) finish({ ok: false, reason: (error as Error & { code?: string }).code ?? error.message });
    });
  });
}

/** The server's address of `family`: itself when it is an address, else its name looked up. */
async function serverAddress(host: string, family: 4 | 6): Promise<{ ok: true; address: string } | { ok: false; reason: string }> {
  if (isIP(host) !== 0) return { ok: true, address: host };
  try {
    const found = await lookup(host, { family });
    return { ok: true, address: found.address };
  } catch (error) {
    return { ok: false, reason: `cannot look up ${host} over IPv${family} (${(error as NodeJS.ErrnoException).code ?? "error"})` };
  }
}

/**
 * Asks `server` one question (recursion desired unset: the servers asked answer from their own data)
 * over UDP, then over TCP when the UDP answer is truncated. The answer must be a response to this
 * question; its rcode is the caller's to read.
 */
export async function askPlain(server: ServerAddress, question: Question, options: { family: 4 | 6; timeoutMs: number }): Promise<PlainAnswer> {
  const resolved = await serverAddress(server.host, options.family);
  if (!resolved.ok) return resolved;
  const id = newId();
  const request = encodeMessage({
    id,
    qr: false,
    opcode: 0,
    aa: false,
    tc: false,
    rd: false,
    rcode: 0,
    questions: [question],
    answers: [],
    authorities: [],
    additionals: [],
  });
  const read = (received: Received): PlainAnswer => {
    if (!received.ok) return received;
    try {
      const message = decodeMessage(received.bytes);
      const asked = message.questions[0];
      const same = asked !== undefined && asked.name === question.name.toLowerCase().replace(/\.$/, "") && asked.type === question.type;
      if (message.id !== id || !message.qr || !same) return { ok: false, reason: "the answer does not belong to our question" };
      return { ok: true, message };
    } catch (error) {
      return { ok: false, reason: `unreadable answer (${error instanceof WireError ? error.message : String(error)})` };
    }
  };
  const overUdp = read(await exchangeUdp(resolved.address, server.port, request, id, options.timeoutMs));
  if (!overUdp.ok || !overUdp.message.tc) return overUdp;
  return read(await exchangeTcp({ host: resolved.address, port: server.port }, request, options.timeoutMs));
}
