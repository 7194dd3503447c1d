// What the client tests share: the record a test writes (`target`), the context a client is built
// with against a fake (`context`), and a fake's address once it has stopped (`stoppedUrl`). Each
// service's fake is built on test/fakes/server.ts (the mock-server builder: request log, faults,
// the service's published description checked on every request).

import type { RecordConfig, RecordTarget } from "../../src/dns/provider";
import type { ClientContext } from "../../src/dns/service";
import type { FakeServer } from "../fakes/server";

/** The User-Agent every test client sends. */
export const USER_AGENT = "ddnsd/test";

/** A record to write: `hostname`'s A record by default, with the domain's config and any other field. */
export function target(hostname: string, config: RecordConfig = {}, fields: Partial<RecordTarget> = {}): RecordTarget {
  return { hostname, recordType: "A", externalId: null, config, ...fields };
}

/** A client's context against `baseUrl` (a fake's url): the real fetch, a 2 s timeout unless given. */
export function context(baseUrl: string, fields: Partial<ClientContext> = {}): ClientContext {
  return { baseUrl, fetch, timeoutMs: 2000, userAgent: USER_AGENT, ...fields };
}

/** The url of a fake started and stopped again: nothing answers there. */
export async function stoppedUrl(start: () => FakeServer<unknown>): Promise<string> {
  const gone = start();
  const url = gone.url;
  await gone.stop();
  return url;
}
