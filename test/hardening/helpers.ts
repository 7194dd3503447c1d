// What the hardening suites share: the real app served on 127.0.0.1 port 0 (startServer, so requests
// go through the socket-level screening), and raw HTTP/1.x over a socket for requests fetch will not
// send (a malformed Host, none at all).

import { connect } from "node:net";
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
