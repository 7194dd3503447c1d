// The running server's control socket: `<data dir>/ddnsd.sock`, a Unix socket of mode 0600 in the
// data dir (itself 0700). The CLI's write commands (./commands.ts) reach the server through it.
// A Unix socket rather than HTTP on loopback with a one-time token: the file's owner and mode
// decide who may use it — the same account that may read the database anyway — so there is no
// token to create, keep secret or clean up, no port to pick or to collide with DDNS_HOST/DDNS_PORT,
// no TLS, and nothing reachable from the network whatever the listening address.

import { chmodSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Appliance } from "../context";
import { MAX_CONFIG_FILE_BYTES } from "../modules/config-file/document";
import { type CommandResult, WRITE_COMMANDS } from "./commands";

export function controlSocketPath(dataDir: string): string {
  return join(dataDir, "ddnsd.sock");
}

/**
 * Listens on the data dir's control socket until `stop()`. Only the holder of the data dir's lock
 * calls this, so a socket file left by a server that was killed is stale and replaced.
 */
export function listenForCommands(ctx: Appliance): { stop(): void } {
  const path = controlSocketPath(ctx.settings.dataDir);
  rmSync(path, { force: true });
  // Created 0600 from the start (no moment where another account could connect), then made sure of.
  const umask = process.umask(0o177);
  let server: ReturnType<typeof Bun.serve>;
  try {
    // A command's input is small (an import file is at most MAX_CONFIG_FILE_BYTES, JSON-escaped).
    server = Bun.serve({
      unix: path,
      maxRequestBodySize: 8 * MAX_CONFIG_FILE_BYTES,
      fetch: (request) => answer(ctx, request),
    });
  } finally {
    process.umask(umask);
  }
  chmodSync(path, 0o600);
  return {
    stop() {
      void server.stop(true);
      rmSync(path, { force: true });
    },
  };
}

async function answer(ctx: Appliance, request: Request): Promise<Response> {
  const name = new URL(request.url).pathname.replace(/^\/commands\//, "");
  const command = Object.hasOwn(WRITE_COMMANDS, name) ? WRITE_COMMANDS[name] : undefined;
  if (request.method !== "POST" || command === undefined)
    return Response.json({ code: 2, stdout: "", stderr: `Unknown command ${name}` }, { status: 404 });
  let input: unknown;
  try {
    input = await request.json();
  } catch {
    input = null;
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return Response.json({ code: 2, stdout: "", stderr: "The command's input must be a JSON object" }, { status: 422 });
  }
  try {
    return Response.json(await command(ctx, input as Record<string, unknown>));
  } catch (error) {
    ctx.log.error("command failed", { command: name, error: error instanceof Error ? error.message : String(error) });
    return Response.json({
      code: 1,
      stdout: "",
      stderr: `ddnsd: ${name} failed: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
}

/** Runs a write command in the server that holds `dataDir`, through its control socket. */
export async function sendCommand(
  dataDir: string,
  name: string,
  input: Record<string, unknown>,
): Promise<CommandResult> {
  const path = controlSocketPath(dataDir);
  let response: Response;
  try {
    response = await fetch(`http://localhost/commands/${name}`, {
      unix: path,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(input),
    });
  } catch (error) {
    throw new Error(`a ddnsd is running on ${dataDir} but does not answer on ${path}: ${(error as Error).message}`);
  }
  return (await response.json()) as CommandResult;
}
