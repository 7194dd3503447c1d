// The checks an answer must pass before ddnsd believes it, against a name server played by the test
// on a loopback TCP port: its signature covers our request's MAC, its time is within the fudge, and
// the server's own TSIG errors are told apart (a wrong key stops retries; clocks apart do not).
// The real servers' answers are covered in test/services/self-hosted.test.ts.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:net";
import { ask, parseServer, type SignedServer } from "../../src/dns/protocols/signed-dns";
import { sign, type TsigKey } from "../../src/dns/protocols/tsig";
import { CLASS, decodeMessage, encodeMessage, message, RCODE, TYPE, Writer } from "../../src/dns/protocols/wire";
import { compressionBomb } from "../fakes/dns-server";

const key: TsigKey = {
  name: "ddnsd-key",
  algorithm: "hmac-sha256",
  secret: Buffer.from("0123456789abcdef0123456789abcdef"),
};

/** How the played server answers a request (its bytes and the MAC it carried). */
type Responder = (request: Uint8Array, requestMac: Uint8Array) => Uint8Array;
let respond: Responder = () => new Uint8Array();
let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((socket) => {
    let received = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 2 || received.length < 2 + received.readUInt16BE(0)) return;
      const request = new Uint8Array(received.subarray(2, 2 + received.readUInt16BE(0)));
      const tsig = decodeMessage(request).additionals.at(-1)!;
      const macSize = (request[tsig.dataOffset! + 21]! << 8) | request[tsig.dataOffset! + 22]!;
      const mac = request.slice(tsig.dataOffset! + 23, tsig.dataOffset! + 23 + macSize);
      const answer = respond(request, mac);
      const framed = Buffer.alloc(2 + answer.length);
      framed.writeUInt16BE(answer.length, 0);
      framed.set(answer, 2);
      // In two pieces: the length alone first, as a TCP stream may deliver it.
      socket.write(framed.subarray(0, 2));
      setTimeout(() => socket.end(framed.subarray(2)), 5);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => server.close());

const target = (): SignedServer => ({
  server: { host: "127.0.0.1", port },
  key,
  timeoutMs: 2000,
  label: "DNS server test",
});
const query = () => message({ id: 4242, questions: [{ name: "example.test", type: TYPE.SOA, class: CLASS.IN }] });
/** The answer a server makes to `request`, unsigned: the same id and question, with `rcode`. */
function reply(request: Uint8Array, rcode: number = RCODE.NOERROR): Uint8Array {
  const asked = decodeMessage(request);
  return encodeMessage(message({ id: asked.id, qr: true, aa: true, rcode, questions: asked.questions }));
}

/** The answer with a TSIG record that reports `error` and has no MAC, as a server answers a request it could not verify (RFC 8945 §5.3.2). */
function unsignedError(answer: Uint8Array, error: number): Uint8Array {
  const id = (answer[0]! << 8) | answer[1]!;
  const data = new Writer()
    .name(key.algorithm)
    .u48(Math.floor(Date.now() / 1000))
    .u16(300)
    .u16(0)
    .u16(id)
    .u16(error)
    .u16(0)
    .done();
  const record = new Writer().name(key.name).u16(TYPE.TSIG).u16(CLASS.ANY).u32(0).u16(data.length).raw(data).done();
  const bytes = Uint8Array.from([...answer, ...record]);
  bytes[11] = bytes[11]! + 1;
  return bytes;
}

describe("a signed exchange", () => {
  test("an answer signed over our request's MAC is believed", async () => {
    respond = (request, mac) => sign(reply(request), key, { requestMac: mac }).bytes;
    const answer = await ask(target(), query());
    expect(answer).toMatchObject({ ok: true, signed: true });
  });

  test("an answer signed without our request's MAC (a replay of another answer) is not", async () => {
    respond = (request) => sign(reply(request), key).bytes;
    const answer = await ask(target(), query());
    expect(answer).toMatchObject({ ok: false, cause: "unreachable" });
    expect(!answer.ok && answer.message).toContain("does not verify");
  });

  test("an answer signed ten minutes ago: BADTIME, retried (a clock can be corrected)", async () => {
    respond = (request, mac) =>
      sign(reply(request), key, { requestMac: mac, now: Math.floor(Date.now() / 1000) - 600 }).bytes;
    const answer = await ask(target(), query());
    expect(answer).toMatchObject({ ok: false, cause: "refused" });
    expect(answer).not.toHaveProperty("stopRetrying");
    expect(!answer.ok && answer.message).toContain("BADTIME");
  });

  test("the server's BADTIME and BADSIG in plain words; BADSIG stops retries", async () => {
    respond = (request, mac) =>
      sign(reply(request, RCODE.NOTAUTH), key, { requestMac: mac, error: RCODE.BADTIME }).bytes;
    const late = await ask(target(), query());
    expect(late).toMatchObject({ ok: false, cause: "refused" });
    expect(!late.ok && late.message).toContain("clock");

    respond = (request) => unsignedError(reply(request, RCODE.NOTAUTH), RCODE.BADSIG);
    const refused = await ask(target(), query());
    expect(refused).toMatchObject({ ok: false, cause: "credentials", stopRetrying: true });
  });

  test("unsigned: a success is never believed, a refusal is passed on as one", async () => {
    respond = (request) => reply(request);
    const forged = await ask(target(), query());
    expect(forged).toMatchObject({ ok: false });
    expect(!forged.ok && forged.message).toContain("not signed");

    respond = (request) => reply(request, RCODE.REFUSED);
    expect(await ask(target(), query())).toMatchObject({ ok: true, signed: false, message: { rcode: RCODE.REFUSED } });
  });

  test("an answer to another request (another id) is not taken", async () => {
    respond = (request, mac) => {
      const other = reply(request);
      other[0] = other[0]! ^ 0xff;
      return sign(other, key, { requestMac: mac }).bytes;
    };
    expect(await ask(target(), query())).toMatchObject({ ok: false, cause: "unreachable" });
  });

  test("the compression-pointer bomb, signed or not: refused before its records are expanded", async () => {
    respond = (request, mac) => sign(compressionBomb(decodeMessage(request)), key, { requestMac: mac }).bytes;
    const answer = await ask(target(), query());
    expect(answer).toMatchObject({ ok: false, cause: "unreachable" });
    expect(!answer.ok && answer.message).toBe(
      "DNS server test: unreadable answer (a name is longer than 255 octets (its pointers included))",
    );
  });

  test("nothing listening: unreachable, in plain words", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const freePort = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const answer = await ask({ ...target(), server: { host: "127.0.0.1", port: freePort } }, query());
    expect(answer).toMatchObject({ ok: false, cause: "unreachable" });
    expect(!answer.ok && answer.message).toContain(
      "nothing accepts connections at that address and port (is the server running, and on this port?)",
    );
  });
});

describe("the server option", () => {
  test("host, host:port, IPv4, IPv6 bare or in brackets", () => {
    expect(parseServer("ns1.example.com")).toEqual({ host: "ns1.example.com", port: 53 });
    expect(parseServer("192.0.2.53:5353")).toEqual({ host: "192.0.2.53", port: 5353 });
    expect(parseServer("2001:db8::53")).toEqual({ host: "2001:db8::53", port: 53 });
    expect(parseServer("[2001:db8::53]:5300")).toEqual({ host: "2001:db8::53", port: 5300 });
  });

  test("anything else says what is wrong", () => {
    for (const bad of [
      "http://ns1.example.com",
      "ns1.example.com:0",
      "ns1.example.com:65536",
      "[ns1]:53",
      "a b",
      "",
      "ns1..example.com",
    ]) {
      expect(typeof parseServer(bad)).toBe("string");
    }
  });
});
