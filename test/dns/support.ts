// What the client tests share: the record a test writes (`target`), the context a client is built
// with against a fake (`context`), a fake's address once it has stopped (`stoppedUrl`), and the table
// of a service's failures (`failureTests`). Each service's fake is built on test/fakes/server.ts
// (the mock-server builder: request log, faults, the service's published description checked on
// every request).

import { expect, test } from "bun:test";
import type { FailureCause, RecordConfig, RecordTarget, WriteOutcome } from "../../src/dns/provider";
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

/** A failure a service gives, and what the client must make of it: its words, its cause, the pause it names. */
export interface FailureCase {
  name: string;
  message: string | RegExp;
  cause: FailureCause;
  retryAfterSeconds?: number;
  stopRetrying?: boolean;
}

/**
 * One test per case: `attempt` arranges the case and writes; the outcome is that failure in the
 * service's words, with its cause, the wait it names and whether retrying stops; `after` checks
 * what the service holds (nothing changed).
 */
export function failureTests<Case extends FailureCase>(
  cases: readonly Case[],
  attempt: (c: Case) => Promise<WriteOutcome>,
  after?: (c: Case) => void,
): void {
  for (const c of cases) {
    test(c.name, async () => {
      const outcome = await attempt(c);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toMatch(c.message);
      expect(outcome.cause).toBe(c.cause);
      expect(outcome.retryAfterSeconds).toBe(c.retryAfterSeconds);
      expect(outcome.stopRetrying).toBe(c.stopRetrying);
      after?.(c);
    });
  }
}
