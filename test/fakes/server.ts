// The common body of the HTTP fakes: a Bun server on 127.0.0.1 with a request log, fault injection
// and a stop() that never hangs, so each fake only describes its own service's answers.
//
// A fake built with the service's own published description (test/conformance/descriptions/) checks
// every request against it before anything else: one the description forbids gets the service's own
// refusal AND is kept in `violations`. The suite's shared afterEach (test/setup.ts) fails the test
// during which any fake recorded a violation nobody claimed, and `stop()` fails on one left over, so a
// client that sends what the service forbids cannot pass any test, whichever file starts the fake.
// A test that provokes a violation on purpose claims it with `takeViolations()`.

export interface LoggedRequest {
  method: string;
  /** Path below the fake's `url`, e.g. `/zones/abc/dns_records`. */
  path: string;
  query: Record<string, string>;
  /** Header names lowercase. */
  headers: Record<string, string>;
  /** Parsed JSON; the raw text when it is not JSON; undefined when empty. */
  body: unknown;
  /** `performance.now()` when the request arrived. */
  receivedAt: number;
  /** `performance.now()` when the answer was ready; undefined while it is still in flight. */
  answeredAt?: number;
}

/** Answers with the service's own answer (so its state changes), but only after `delayMs`. */
export interface DelayFault {
  delayMs: number;
}

/** Which requests a fault hits: every request, those with this exact path, or those a predicate picks. */
export type FaultMatch = string | ((request: LoggedRequest) => boolean);

/** A request the service's description forbids, and why. */
export interface Violation {
  /** The description it breaks, e.g. "Cloudflare OpenAPI". */
  description: string;
  method: string;
  /** Path and query as the fake received them, below its `url`. */
  target: string;
  problems: string[];
}

/** A service's published description, as a fake checks requests against it. */
export interface RequestDescription {
  /** Named in violations, e.g. "Cloudflare OpenAPI". */
  name: string;
  /** What in the request the description forbids; empty when it keeps to it. */
  check(request: LoggedRequest, raw: { pathname: string; search: string }): string[];
  /** The service's own answer to a request its description forbids. */
  refuse(request: LoggedRequest, problems: string[]): Response;
}

export interface FakeServer<Fault> {
  /** Base URL to hand to a client, e.g. `http://127.0.0.1:40123/client/v4`. */
  url: string;
  /** Every request received, faulted ones included, oldest first. */
  requests: LoggedRequest[];
  /** How many logged requests were POST, PATCH, PUT or DELETE. */
  writes(): number;
  /** Requests being answered right now. */
  inFlight(): number;
  /**
   * The most requests (those `match` picks, every one when omitted) that were in flight at the same
   * moment, over the logged requests.
   */
  maxInFlight(match?: FaultMatch): number;
  /**
   * Answers the next `times` matching requests (every matching request when omitted, until
   * `clearFaults()`) with `mode` instead of the service's answer; the service state stays untouched.
   * `"timeout"` never answers (until the client gives up or the fake stops); `{delayMs}` gives the
   * service's real answer (its state changes) after that wait.
   */
  fault(mode: Fault | "timeout" | DelayFault, times?: number, match?: FaultMatch): void;
  clearFaults(): void;
  clearRequests(): void;
  /** Requests the service's description forbids, not yet claimed (always empty for a fake without one). */
  violations: Violation[];
  /** Returns the unclaimed violations and forgets them: for a test that sends a forbidden request on purpose. */
  takeViolations(): Violation[];
  /** Fails (after stopping) when a violation was left unclaimed. */
  stop(): Promise<void>;
}

interface FakeServerOptions<Fault> {
  /** Path prefix of the service's API, e.g. `/client/v4`; requests outside it get the router's 404. */
  prefix: string;
  route(request: LoggedRequest): Response;
  renderFault(mode: Fault, request: LoggedRequest): Response;
  /** The service's published description: every request is checked against it. */
  description?: RequestDescription;
}

/** The fakes alive in this process, on globalThis so the shared afterEach sees the same set whatever loaded this module. */
const LIVE: Set<FakeServer<unknown>> = ((globalThis as Record<symbol, unknown>)[Symbol.for("ddnsd.fakes")] ??=
  new Set()) as Set<FakeServer<unknown>>;

/** Every unclaimed violation of every live fake, claimed now (the shared afterEach fails the test on any). */
export function takeAllViolations(): Violation[] {
  return [...LIVE].flatMap((fake) => fake.takeViolations());
}

export function describeViolations(violations: Violation[]): string {
  return violations
    .map((v) => `${v.method} ${v.target} breaks the ${v.description}: ${v.problems.join("; ")}`)
    .join("\n");
}

const WRITE_METHODS = new Set(["POST", "PATCH", "PUT", "DELETE"]);

export function startFakeServer<Fault>(options: FakeServerOptions<Fault>): FakeServer<Fault> {
  const requests: LoggedRequest[] = [];
  let faults: { mode: Fault | "timeout" | DelayFault; remaining: number; match?: FaultMatch }[] = [];
  let inFlight = 0;
  const hanging = new Set<() => void>();

  function hang(raw: Request): Promise<Response> {
    return new Promise((resolve) => {
      const release = () => {
        hanging.delete(release);
        resolve(new Response(null, { status: 504 }));
      };
      hanging.add(release);
      raw.signal.addEventListener("abort", release, { once: true });
    });
  }

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    // A "timeout" fault must outlast the client's deadline, however long that is.
    idleTimeout: 0,
    async fetch(raw) {
      inFlight++;
      const request = await logged(raw, options.prefix);
      requests.push(request);
      const refusal = checked(raw, request);
      if (refusal) {
        request.answeredAt = performance.now();
        inFlight--;
        return refusal;
      }
      try {
        return await answer(raw, request);
      } finally {
        request.answeredAt = performance.now();
        inFlight--;
      }
    },
  });

  const violations: Violation[] = [];

  function checked(raw: Request, request: LoggedRequest): Response | null {
    const description = options.description;
    if (!description) return null;
    const url = new URL(raw.url);
    const problems = description.check(request, { pathname: url.pathname, search: url.search });
    if (problems.length === 0) return null;
    violations.push({
      description: description.name,
      method: request.method,
      target: `${request.path}${url.search}`,
      problems,
    });
    return description.refuse(request, problems);
  }

  async function answer(raw: Request, request: LoggedRequest): Promise<Response> {
    const fault = faults.find((f) => f.remaining > 0 && matches(f.match, request));
    if (!fault) return options.route(request);
    fault.remaining--;
    faults = faults.filter((f) => f.remaining > 0);
    if (fault.mode === "timeout") return hang(raw);
    if (isDelay(fault.mode)) {
      await Bun.sleep(fault.mode.delayMs);
      return options.route(request);
    }
    return options.renderFault(fault.mode, request);
  }

  const fake: FakeServer<Fault> = {
    url: `http://127.0.0.1:${server.port}${options.prefix}`,
    requests,
    violations,
    takeViolations: () => violations.splice(0),
    writes: () => requests.filter((r) => WRITE_METHODS.has(r.method)).length,
    inFlight: () => inFlight,
    maxInFlight(match) {
      // Sweep over arrival (+1) and answer (-1) moments; an answer at the same instant as an arrival comes first.
      const events = requests
        .filter((r) => matches(match, r))
        .flatMap((r) => [
          { at: r.receivedAt, step: 1 },
          { at: r.answeredAt ?? Infinity, step: -1 },
        ])
        .sort((a, b) => a.at - b.at || a.step - b.step);
      let current = 0;
      let most = 0;
      for (const event of events) most = Math.max(most, (current += event.step));
      return most;
    },
    fault(mode, times = Infinity, match) {
      faults.push(match === undefined ? { mode, remaining: times } : { mode, remaining: times, match });
    },
    clearFaults() {
      faults = [];
    },
    clearRequests() {
      requests.length = 0;
    },
    async stop() {
      for (const release of [...hanging]) release();
      await server.stop(true);
      LIVE.delete(fake as FakeServer<unknown>);
      const left = violations.splice(0);
      if (left.length > 0) throw new Error(`requests the service's description forbids:\n${describeViolations(left)}`);
    },
  };
  LIVE.add(fake as FakeServer<unknown>);
  return fake;
}

function isDelay(mode: unknown): mode is DelayFault {
  return typeof mode === "object" && mode !== null && "delayMs" in mode;
}

function matches(match: FaultMatch | undefined, request: LoggedRequest): boolean {
  if (match === undefined) return true;
  return typeof match === "string" ? request.path === match : match(request);
}

async function logged(raw: Request, prefix: string): Promise<LoggedRequest> {
  const receivedAt = performance.now();
  const url = new URL(raw.url);
  const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) || "/" : url.pathname;
  const text = await raw.text();
  let body: unknown = undefined;
  if (text !== "") {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return {
    method: raw.method,
    path,
    query: Object.fromEntries(url.searchParams),
    headers: Object.fromEntries(raw.headers),
    body,
    receivedAt,
  };
}

/** A `Retry-After` header naming `seconds`; none when the fault names no wait. */
export function retryAfterHeader(seconds: number | undefined): Record<string, string> {
  return seconds === undefined ? {} : { "Retry-After": String(seconds) };
}

/** A plain-text answer, as the one-request update services (DuckDNS, dyndns2) give. */
export function plainText(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...headers } });
}

/** A JSON answer. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
}

/** A 200 whose body is cut off mid-JSON, as a broken proxy or a truncated answer would leave it. */
export function malformedJson(): Response {
  return new Response('{"success": true, "result": {"id": ', {
    status: 200,
    headers: { "Content-Type": "application/json" },
  });
}

/** The kind of HTML error page a CDN or load balancer puts in front of an API. */
export function htmlErrorPage(): Response {
  return new Response(
    "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>\n",
    { status: 502, headers: { "Content-Type": "text/html" } },
  );
}

/**
 * Polls `check` every 10 ms until it holds. Every wait in the tests has its own deadline: past
 * `timeoutMs` this throws, naming what was awaited, so a wait for something that never happens fails
 * with a reason rather than hanging until the runner's timeout (or forever).
 */
export async function waitFor(check: () => boolean, timeoutMs: number, what = "the condition"): Promise<void> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > timeoutMs)
      throw new Error(`waited ${timeoutMs} ms for ${what}; it never happened`);
    await Bun.sleep(10);
  }
}
