// What the hardening suites share: the real app served on 127.0.0.1 port 0 (startServer, so requests
// go through the socket-level screening), raw HTTP/1.x over a socket for requests fetch will not
// send (a malformed Host, none at all), a raw server for answers fetch-based fakes cannot give (broken
// HTTP), and the check that a secret shows nowhere.

import { expect } from "bun:test";
import { connect } from "node:net";
import type { TCPSocketListener } from "bun";
import { type RunningServer, startServer } from "../../src/server";
import { makeTestApp, type TestApp } from "../support";

export interface Served {
  t: TestApp;
  running: RunningServer;
  base: string;
  port: number;
}

export async function serve(env: Record<string, string> = {}): Promise<Served> {
  const t = await makeTestApp({ DDNS_HOST: "127.0.0.1", DDNS_PORT: "0", ...env });
  const running = startServer(t.ctx, t.app);
  return { t, running, base: running.url.href.replace(/\/$/, ""), port: Number(running.url.port) };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `head` (request line and headers, CRLF-separated, without the blank line) and `body` as they are. */
export function rawRequest(port: number, head: string, body = ""): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(`${head}\r\nConnection: close\r\n\r\n${body}`));
    let data = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => (data += chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const [top = "", ...rest] = data.split("\r\n\r\n");
      const [statusLine = "", ...headerLines] = top.split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n") });
    });
    socket.setTimeout(5_000, () => socket.destroy(new Error("no answer within 5 s")));
  });
}

/** `[[[…]]]` nested `depth` levels deep. */
export function nested(depth: number): string {
  return "[".repeat(depth) + "]".repeat(depth);
}

export function providerCount(t: TestApp): number {
  return t.ctx.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM providers").get()!.n;
}

/**
 * A server on 127.0.0.1 that collects what each connection sends and, once `reply` makes an answer of
 * it (null: not yet), writes that answer as it is and closes: broken HTTP, which no fetch-based fake sends.
 */
export function rawServer(reply: (raw: string) => string | Uint8Array | null): TCPSocketListener<{ raw: string }> {
  return Bun.listen<{ raw: string }>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(socket) {
        socket.data = { raw: "" };
      },
      data(socket, chunk) {
        socket.data.raw += chunk.toString("latin1");
        const answer = reply(socket.data.raw);
        if (answer === null) return;
        socket.write(answer);
        socket.end();
      },
    },
  });
}

/**
 * Each secret, as it is or as a URL, JSON or HTML would write it, appears nowhere in `text`: neither
 * whole nor cut short where an answer's excerpt ends (its first 6 characters or more, then "…": fewer may be
 * another service's words, cut there).
 */
export function expectNowhere(text: string, secrets: readonly string[]): void {
  for (const secret of secrets) {
    for (const form of new Set([
      secret,
      encodeURIComponent(secret),
      JSON.stringify(secret).slice(1, -1),
      Bun.escapeHTML(secret),
      Buffer.from(secret).toString("base64").replace(/=+$/, ""),
    ])) {
      expect(text).not.toContain(form);
      for (let length = 6; length < form.length; length++) expect(text).not.toContain(`${form.slice(0, length)}…`);
    }
  }
}

/**
 * No `Basic` credential quoted in `text` holds a password: an `Authorization: Basic …` a service
 * echoes is a user name and password in base64, the password readable by anyone who decodes it (a
 * user name alone, cut short before the colon, is checked as a secret by `expectNowhere` where it is one).
 */
export function expectNoBasicCredential(text: string): void {
  for (const [, token] of text.matchAll(/\bBasic(?:\s+|%20|\+)([A-Za-z0-9+/=%]{4,})/gi)) {
    const base64 = decodeURIComponent(token!).replace(/=+$/, "");
    const decoded = Buffer.from(base64.slice(0, base64.length - (base64.length % 4)), "base64").toString("latin1");
    expect([token, decoded.includes(":")]).toEqual([token, false]);
  }
}
