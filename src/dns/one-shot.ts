// What the services that update a record with one request and cannot read it (DuckDNS, dyndns2,
// Namecheap, DD24, DonDominio, GoIP.de, myaddr.tools, YDNS, custom) share besides their policy
// (one-shot-policy.ts): the request itself and the failure to get any answer, the failure for an
// answer they cannot read, and keeping the secret that travels in their URLs (DuckDNS's token,
// Namecheap's password, custom's `{secret}`) out of every message, since a service may echo the
// request back in an error page.

import { exchange, unreadableAnswer } from "../net/http";
import { causeOfAnswer, failed, throttleWait } from "./answers";
import type { DnsProvider, Step, StepFailure } from "./provider";
import type { ClientContext } from "./service";

/** A one-shot service's answer, whatever its status: the service's own words decide what it means. */
export interface OneShotAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * One request of a one-shot service, sent through the client's `fetch` within its deadline: the
 * answer, or the failure to get one in the service's name, masked (a refused request's reason may
 * quote the URL that carries the secret).
 */
export async function oneShotRequest(
  context: ClientContext,
  service: string,
  mask: (text: string) => string,
  url: string,
  init: RequestInit,
): Promise<Step<OneShotAnswer>> {
  const answer = await exchange(context.fetch, url, init, context.timeoutMs);
  if (!answer.ok) return failed(`${service}: ${mask(answer.reason)}`, { cause: answer.cause });
  return { ok: true, value: { status: answer.status, headers: answer.headers, text: answer.text } };
}

/**
 * The failure for an answer that is no success and none of the service's own codes: its status and
 * the start of its (already masked) body, with the cause the status means. A 429 is a "slow down",
 * and so is a 503 that names a wait (`Retry-After`); the wait named goes with it, none is invented.
 */
export function failedAnswerText(service: string, status: number, headers: Headers, maskedText: string): StepFailure {
  const cause = causeOfAnswer(status, headers);
  return failed(`${service}: ${unreadableAnswer(status, maskedText)}`, {
    cause,
    ...(cause === "throttled" ? throttleWait(headers) : {}),
  });
}

// The scrubber every message passes (security/scrub.ts), for the services that mask before they cut an answer short.
export { maskSecrets } from "../security/scrub";

/**
 * `verify` for a service that cannot check credentials without writing a record. The registry
 * answers `{ok: null}` for such services without calling it; this keeps a direct call honest too.
 */
export function cannotVerify(detail: string): DnsProvider["verify"] {
  return async () => ({ ok: false, detail });
}
