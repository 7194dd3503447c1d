// The ceiling of this stack: a bare Bun.serve in its own process answering each path with JSON
// computed beforehand (the exact bytes ddnsd returned), no routing framework, auth or database.
// `bun bench/lib/bare-server.ts <port> <bodies.json>` where bodies.json maps a path to its body.

import { readFileSync } from "node:fs";

const [port, bodiesFile] = process.argv.slice(2);
const bodies = new Map(Object.entries(JSON.parse(readFileSync(bodiesFile!, "utf8")) as Record<string, string>));
const headers = { "content-type": "application/json" };

Bun.serve({
  hostname: "127.0.0.1",
  port: Number(port),
  fetch(request) {
    const body = bodies.get(new URL(request.url).pathname);
    return body === undefined ? new Response("Not Found", { status: 404 }) : new Response(body, { headers });
  },
});
console.log("ready");
