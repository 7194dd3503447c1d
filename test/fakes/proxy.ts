// A forward proxy on 127.0.0.1, as Squid or tinyproxy answer a client: `CONNECT host:port` opens a
// tunnel (what a client does for an https:// URL, RFC 9110 §9.3.6), and a request in absolute form
// (`GET http://host:port/path HTTP/1.1`, RFC 9112 §3.2.2) is passed on for an http:// URL. It keeps
// the target of each, so a test sees which requests went through it.

import { connect, createServer, type Socket } from "node:net";

export interface ProxyFake {
  /** `http://127.0.0.1:<port>`, as HTTPS_PROXY / HTTP_PROXY name it. */
  url: string;
  /** `host:port` of each CONNECT, oldest first. */
  connects: string[];
  /** The absolute URL of each plain request, oldest first. */
  requests: string[];
  stop(): Promise<void>;
}

export async function startProxyFake(): Promise<ProxyFake> {
  const connects: string[] = [];
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const pipe = (client: Socket, host: string, port: number, first: Buffer | null) => {
    const upstream = connect(port, host, () => {
      if (first === null) client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      else upstream.write(first);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  };
  const server = createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.once("data", (head) => {
      const [method = "", target = ""] = head.toString("latin1").split("\r\n")[0]!.split(" ");
      if (method === "CONNECT") {
        connects.push(target);
        const colon = target.lastIndexOf(":");
        pipe(client, target.slice(0, colon).replace(/^\[|\]$/g, ""), Number(target.slice(colon + 1)), null);
        return;
      }
      let url: URL;
      try {
        url = new URL(target);
      } catch {
        client.end("HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n");
        return;
      }
      requests.push(url.href);
      // One request per connection keeps the log exact: the client's next request on a kept-alive
      // connection would otherwise go to this target unseen. The origin closes after answering.
      const text = head.toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      const headers = text
        .slice(0, end)
        .split("\r\n")
        .filter((line) => !/^(proxy-)?connection:/i.test(line));
      const forwarded = Buffer.from(`${[...headers, "Connection: close"].join("\r\n")}${text.slice(end)}`, "latin1");
      pipe(client, url.hostname.replace(/^\[|\]$/g, ""), Number(url.port || 80), forwarded);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    connects,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
