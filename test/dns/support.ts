// What the client tests share: the fake a file's tests use afresh (`useFake`), the client a provider
// row of a service gets (`serviceClient`), the record a test writes (`target`), the context a client
// is built with against a fake (`context`), a fake's address once it has stopped (`stoppedUrl`), and
// the table of a service's failures (`failureTests`, one row each from `fails`). Each service's fake is built on test/fakes/server.ts
// (the mock-server builder: request log, faults, the service's published description checked on
// every request).

import { afterEach, beforeEach, expect, test } from "bun:test";
import type { DnsProvider, FailureCause, RecordConfig, RecordTarget, WriteOutcome } from "../../src/dns/provider";
import { SERVICES } from "../../src/dns/registry";
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

/**
 * The fake every test of a file uses: started (and `seed`ed) afresh before each test and stopped after
 * it. The object returned stands for the fake of the test running, so a file reads `fake.url` and
 * sets `fake.style` as it would with a variable of its own.
 */
export function useFake<Fake extends object & { stop(): unknown }>(
  start: () => Fake,
  seed?: (fake: Fake) => void,
): Fake {
  let current: Fake | undefined;
  beforeEach(() => {
    current = start();
    seed?.(current);
  });
  afterEach(async () => {
    await current?.stop();
    current = undefined;
  });
  return new Proxy({} as Fake, {
    get(_, key) {
      if (!current) throw new Error("the fake is used outside a test");
      const value = Reflect.get(current, key);
      return typeof value === "function" ? value.bind(current) : value;
    },
    // A field a test sets (a fake's dialect, a count) is set on the fake itself.
    set(_, key, value) {
      if (!current) throw new Error("the fake is used outside a test");
      return Reflect.set(current, key, value);
    },
  });
}

/**
 * The client a provider row of service `type` gets (its description's createClient) from
 * `credentials` and `options`, talking to `baseUrl`: what the appliance builds, so a test needs no
 * client factory of its own.
 */
export function serviceClient(
  type: string,
  baseUrl: string,
  credentials: Record<string, string>,
  options: Record<string, unknown> = {},
  fields: Partial<ClientContext> = {},
): DnsProvider {
  const description = SERVICES.find((service) => service.type === type);
  if (!description) throw new Error(`no service of type ${type}`);
  return description.createClient(credentials, options, context(baseUrl, fields));
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
  /** The test's name; a row made by `fails` is named by its cause and words. */
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

/** The pause a failure row names: the wait the service asked for, or that retrying stops. */
export interface Pause {
  retryAfterSeconds?: number;
  stopRetrying?: boolean;
}

/** A failure row whose retrying stops until the provider is edited. */
export const STOP: Pause = { stopRetrying: true };

/** A failure row that names the wait the service asked for. */
export const waits = (retryAfterSeconds: number): Pause => ({ retryAfterSeconds });

/**
 * One row of a failure table on one line: what the test arranges (a fault, credentials, …, as the
 * file's `attempt` reads it), the words and cause the outcome must carry, and its pause. The row's
 * test is named by its cause and words.
 */
export function fails<Arrange>(
  arrange: Arrange,
  message: string | RegExp,
  cause: FailureCause,
  pause: Pause = {},
): FailureCase & { arrange: Arrange } {
  return { name: `${cause}: ${String(message)}`, arrange, message, cause, ...pause };
}

/**
 * The outcome of a write that succeeded: what was done to the record `externalId` of zone `zoneId`,
 * and the message naming the record as the service now holds it.
 */
export function wrote(
  action: "updated" | "created" | "unchanged",
  externalId: string,
  zoneId: string,
  message: string,
): WriteOutcome {
  return { ok: true, action, externalId, zoneId, message };
}

/**
 * A write's outcome without `held`, the addresses the record held before the write: the client
 * tests are about each service's requests and words, and what a record held is the reconciler's
 * to report, checked by its table tests and the drift tests.
 */
export function withoutHeld(outcome: WriteOutcome): WriteOutcome {
  if (!outcome.ok) return outcome;
  const { held: _held, ...rest } = outcome;
  return rest;
}

/** The outcome of a write that failed: the service's words, their cause and the pause they name. */
export function failed(cause: FailureCause, message: string, pause: Pause = {}): WriteOutcome {
  return { ok: false, cause, message, ...pause };
}
