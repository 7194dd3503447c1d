// A TSIG-signed conversation with one authoritative name server: a query or an UPDATE goes out
// signed, over TCP (every DNS server takes TCP, an UPDATE is never truncated, and a TCP answer cannot
// be spoofed from off-path), and comes back only when its own signature proves it answers that very
// request from a server that holds the key. Failures are values with their cause, in plain words.

import { createConnection, isIP } from "node:net";
import { connectionProblem } from "../../util/connection-problem";
import { failed } from "../answers";
import type { FailureCause, StepFailure } from "../provider";
import { sign, type TsigKey, verify } from "./tsig";
import { encodeMessage, ForeignAnswer, type Message, RCODE, rcodeName, WireError } from "./wire";

export interface ServerAddress {
  host: string;
  port: number;
}

export const DNS_PORT = 53;

/** `host`, `host:port`, `[v6]:port` or a bare IPv6 address; a string saying what is wrong otherwise. */
export function parseServer(text: string): ServerAddress | string {
  const trimmed = text.trim();
  const problem =
    "must be a host name or IP address, optionally followed by :port (e.g. ns1.example.com, 192.0.2.53:5353 or [2001:db8::53]:53)";
  let host = trimmed;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(trimmed);
  if (bracketed) {
    host = bracketed[1] ?? "";
    portText = bracketed[2];
    if (isIP(host) !== 6) return problem;
  } else if (isIP(trimmed) === 6) {
    host = trimmed;
  } else {
    const parts = trimmed.split(":");
    if (parts.length > 2) return problem;
    host = parts[0] ?? "";
    portText = parts[1];
    if (portText !== undefined && !/^\d+$/.test(portText)) return problem;
    const hostname =
      /^(?=.{1,253}$)([A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;
    if (isIP(host) !== 4 && !hostname.test(host)) return problem;
  }
  let port = DNS_PORT;
  if (portText !== undefined) {
    port = Number(portText);
    if (!/^\d{1,5}$/.test(portText) || port < 1 || port > 65535)
      return "must name a port from 1 to 65535 after the colon";
  }
  return { host, port };
}

export function formatServer(server: ServerAddress): string {
  const host = isIP(server.host) === 6 ? `[${server.host}]` : server.host;
  return server.port === DNS_PORT ? host : `${host}:${server.port}`;
}

type Sent = { ok: true; bytes: Uint8Array } | { ok: false; reason: string };

/** One message over TCP (RFC 1035 §4.2.2: each message after its two-byte length), its answer read whole. */
export function exchangeTcp(server: ServerAddress, request: Uint8Array, timeoutMs: number): Promise<Sent> {
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    let settled = false;
    const socket = createConnection({ host: server.host, port: server.port });
    const finish = (result: Sent) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ ok: false, reason: `no answer within ${timeoutMs / 1000}s` }), timeoutMs);
    socket.on("connect", () => {
      const framed = Buffer.alloc(2 + request.length);
      framed.writeUInt16BE(request.length, 0);
      framed.set(request, 2);
      socket.write(framed);
    });
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= 2 && received.length >= 2 + received.readUInt16BE(0)) {
        finish({ ok: true, bytes: new Uint8Array(received.subarray(2, 2 + received.readUInt16BE(0))) });
      }
    });
    socket.on("error", (error: Error & { code?: string }) => {
      const why = connectionProblem(error);
      finish({ ok: false, reason: why });
    });
    socket.on("close", () => finish({ ok: false, reason: "the server closed the connection without answering" }));
  });
}

/** `signed` false: an unsigned refusal (REFUSED, SERVFAIL …), which only ever stops a write. */
export type Answer = { ok: true; message: Message; signed: boolean } | StepFailure;

/** What one signed conversation needs: where, with which key, and how long to wait. */
export interface SignedServer {
  server: ServerAddress;
  key: TsigKey;
  timeoutMs: number;
  /** Names the service in messages, e.g. "DNS server ns1.example.com". */
  label: string;
}

export function fail(message: string, cause: FailureCause, stopRetrying = false): StepFailure {
  return failed(message, { cause, stopRetrying });
}

/** Why the server refused our signature, in plain words. A key or signature it refuses stays refused until the provider is edited. */
function tsigErrorWords(error: number, key: TsigKey): { words: string; cause: FailureCause; stop: boolean } {
  if (error === RCODE.BADKEY) {
    return {
      words: `the server does not accept key "${key.name}" with ${key.algorithm} here (BADKEY): check the key's name and algorithm, and that the zone's update policy (BIND) or ACL (Knot) names this key`,
      cause: "credentials",
      stop: true,
    };
  }
  if (error === RCODE.BADSIG) {
    return {
      words: `the server rejected the signature of key "${key.name}" (BADSIG): the secret does not match the server's`,
      cause: "credentials",
      stop: true,
    };
  }
  if (error === RCODE.BADTIME) {
    return {
      words: "the server's clock and ours differ by more than 5 minutes (BADTIME): correct the time on one of them",
      cause: "refused",
      stop: false,
    };
  }
  return { words: `the server refused the signature (${rcodeName(error)})`, cause: "credentials", stop: true };
}

/**
 * Signs `request`, sends it and checks the answer: it must answer this request (same id, opcode and
 * question, and an answer, not a query: checked before its records are read) and carry a valid
 * signature of our key over our request's MAC. The answer's rcode is the caller's to read; TSIG
 * errors are failures here.
 */
export async function ask(target: SignedServer, request: Message): Promise<Answer> {
  const signed = sign(encodeMessage(request), target.key);
  const sent = await exchangeTcp(target.server, signed.bytes, target.timeoutMs);
  if (!sent.ok) return fail(`${target.label}: ${sent.reason}`, "unreachable");
  let check: ReturnType<typeof verify>;
  try {
    check = verify(sent.bytes, target.key, { requestMac: signed.mac, answering: request });
  } catch (error) {
    if (error instanceof ForeignAnswer)
      return fail(`${target.label}: the answer does not belong to our request`, "unreachable");
    const why = error instanceof WireError ? error.message : String(error);
    return fail(`${target.label}: unreadable answer (${why})`, "unreachable");
  }
  const answer = check.message;
  switch (check.status) {
    case "valid":
      return { ok: true, message: answer, signed: true };
    case "server-error": {
      const { words, cause, stop } = tsigErrorWords(check.error, target.key);
      return fail(`${target.label}: ${words}`, cause, stop);
    }
    case "unsigned": {
      // An unsigned answer is never taken as a success. Its failure is: a server outside its zones
      // (Knot) cannot sign, and a refusal it forged would only stop a write.
      if (answer.rcode === RCODE.NOTAUTH)
        return fail(`${target.label}: ${tsigErrorWords(RCODE.BADKEY, target.key).words}`, "credentials", true);
      if (answer.rcode !== RCODE.NOERROR && answer.rcode !== RCODE.NXDOMAIN)
        return { ok: true, message: answer, signed: false };
      return fail(
        `${target.label}: the answer (${rcodeName(answer.rcode)}) was not signed, so it cannot be trusted; does this server know TSIG key "${target.key.name}"?`,
        "unreachable",
      );
    }
    case "badtime":
      return fail(
        `${target.label}: the answer was signed more than ${check.tsig.fudge} seconds from our clock (BADTIME): correct the time on one of them`,
        "refused",
      );
    default:
      return fail(
        `${target.label}: the answer's signature does not verify with key "${target.key.name}" (${check.status.toUpperCase()})`,
        "unreachable",
      );
  }
}

/** A random message id (RFC 5452: unpredictable, though TSIG and TCP already bind the answer). */
export function newId(): number {
  return crypto.getRandomValues(new Uint16Array(1))[0] as number;
}
