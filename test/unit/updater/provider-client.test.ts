// The client of a provider row, made by the updater (and used by the providers service to verify):
// the row's credentials opened, its options with the service's defaults, the API URL setting over
// the service's default, and no request sent while the service has the provider paused.

import { describe, expect, test } from "bun:test";
import { Pacer } from "../../../src/dns/pacing";
import type { DnsProvider } from "../../../src/dns/provider";
import { ServiceRegistry } from "../../../src/dns/registry";
import { type ClientContext, defineService } from "../../../src/dns/service";
import { Conflict } from "../../../src/errors";
import { NotSent } from "../../../src/net/http";
import type { FetchLike } from "../../../src/net/outbound";
import { sealCredentials } from "../../../src/security/secrets";
import { providerClient } from "../../../src/updater/provider-client";
import { memoryStore } from "../store/support";

const KEY = "k".repeat(40);

function rig(apiUrls: Record<string, string> = {}) {
  const made: { credentials: Record<string, string>; options: Record<string, unknown>; context: ClientContext }[] = [];
  const service = defineService({
    type: "testdns",
    label: "Test DNS",
    summary: "A service that exists only in this test.",
    credentials: [{ key: "token", label: "Token", help: "The token.", secret: true }],
    options: [
      {
        key: "method",
        label: "Method",
        help: "How to call it.",
        kind: "choice",
        choices: ["GET", "POST"],
        default: "GET",
      },
    ],
    recordTypes: ["A"],
    ttl: null,
    canVerify: true,
    defaultApiUrl: "http://127.0.0.1:9/default",
    createClient(credentials, options, context): DnsProvider {
      made.push({ credentials, options, context });
      return {} as DnsProvider;
    },
  });
  const sent: string[] = [];
  const fetch: FetchLike = async (input) => {
    sent.push(String(input));
    return new Response("ok");
  };
  const memory = memoryStore();
  const id = memory.provider("home");
  memory.database.sqlite.run("UPDATE providers SET type = 'testdns', credentials = ?, options = '{}' WHERE id = ?", [
    sealCredentials({ token: "t0ken" }, KEY),
    id,
  ]);
  const parts = {
    services: new ServiceRegistry([service]),
    keys: { encryptionKey: KEY },
    settings: { apiUrls, httpTimeoutMs: 1000 },
    pacer: new Pacer(),
    fetch,
    store: memory.store,
  };
  return { parts, row: () => memory.store.providers.find(id)!, id, made, sent, memory };
}

describe("the client of a provider row", () => {
  test("opens the credentials, fills the options' defaults and takes the service's default URL", () => {
    const { parts, row, made } = rig();
    providerClient(parts, row());
    expect(made[0]!.credentials).toEqual({ token: "t0ken" });
    expect(made[0]!.options).toEqual({ method: "GET" });
    expect(made[0]!.context).toMatchObject({ baseUrl: "http://127.0.0.1:9/default", timeoutMs: 1000 });
  });

  test("the API URL setting wins over the service's default", () => {
    const { parts, row, made } = rig({ testdns: "http://127.0.0.1:9/set" });
    providerClient(parts, row());
    expect(made[0]!.context.baseUrl).toBe("http://127.0.0.1:9/set");
  });

  test("sends nothing while the provider is paused, and sends again once the pause is over", async () => {
    const { parts, row, made, sent, memory, id } = rig();
    providerClient(parts, row());
    const { fetch } = made[0]!.context;
    memory.store.providers.pause(id, Date.now() + 60_000);
    await expect(fetch("http://127.0.0.1:9/update")).rejects.toBeInstanceOf(NotSent);
    expect(sent).toEqual([]);
    memory.database.sqlite.run("UPDATE providers SET paused_until = NULL");
    expect((await fetch("http://127.0.0.1:9/update")).status).toBe(200);
    expect(sent).toEqual(["http://127.0.0.1:9/update"]);
  });

  test("a type this build has no service for is refused; credentials under another key do not open", () => {
    const { parts, row, memory } = rig();
    expect(() => providerClient({ ...parts, keys: { encryptionKey: "x".repeat(40) } }, row())).toThrow();
    memory.database.sqlite.run("UPDATE providers SET type = 'gone'");
    expect(() => providerClient(parts, row())).toThrow(Conflict);
  });
});
