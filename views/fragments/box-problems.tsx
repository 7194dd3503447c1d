// What concerns the whole appliance rather than one record, said once at the top of the dashboard
// and the Domains page: the name servers the live check asks cannot be reached (every such check
// fails for one reason), an address source that fails (the echo services, DNS, an interface without
// its address), each with its cause and the next step. The rows it covers then say a short neutral
// state ("see above") instead of repeating the same lines for every record. A provider's own
// failures (credentials, its service unreachable) are no box problem: its card and rows keep them.

import { Html } from "@elysiajs/html";
import type { DetectionFailure } from "../../src/ip/detect";
import type { DomainView } from "../../src/modules/domains/service";
import { detectionAdvice, quotedEnglish, TimeAgo, type UpdateConditions } from "../components";
import { msg } from "../i18n";

export interface BoxProblem {
  /** The banner's element id, which the rows it covers link to. */
  id: string;
  /** What the records it covers share: a detection's error as its source words it, or the live check's words. */
  key: string;
  title: string;
  /** The shared cause, in the words of whatever failed. */
  cause: string;
  next: string;
  /** How many switched-on records it holds up. */
  records: number;
  /** Since when it fails (ms), where known. */
  since: number | null;
}

export interface BoxProblems {
  problems: BoxProblem[];
  /** By domain id: the problem that explains its live check's state. */
  liveCheck: ReadonlyMap<number, BoxProblem>;
  /** By domain id: the problem that explains why its address is not detected. */
  detection: ReadonlyMap<number, BoxProblem>;
}

export const NO_BOX_PROBLEMS: BoxProblems = { problems: [], liveCheck: new Map(), detection: new Map() };

type Propagation = DomainView["propagation"];

/** The words a failed search for the zone's name servers ends with, by which the resolvers' own failure is told. */
const NOT_FOUND = /^(?:the zone's name servers were not found|only the service's server was asked): (.*)$/;

/**
 * Why a record's live check reached no name server, in words shared by every record that fails the
 * same way (no hostname in them), and whether it is the resolvers' (the machine's) failure; null
 * when it is not unreachable or its name servers fail differently.
 */
export function liveCheckCause(propagation: Propagation): { words: string; resolvers: boolean } | null {
  if (propagation.state !== "unreachable") return null;
  const notFound = NOT_FOUND.exec(propagation.detail ?? "");
  if (notFound) {
    const words = notFound[1]!.replace(/^the NS query for \S+ failed: /, "");
    // "resolver 127.0.0.1:9: connection refused", "no resolver is configured …": the machine's resolvers.
    // Anything else (no zone holding the name, a resolver's SERVFAIL for one zone) is the record's own.
    const resolvers = /^(?:resolver \S+: |no resolver is configured)/.test(words);
    return resolvers ? { words, resolvers } : null;
  }
  const failing = propagation.servers.filter((server) => !server.ok);
  const errors = new Set(failing.map((server) => server.error));
  if (failing.length === 0 || failing.length !== propagation.servers.length || errors.size !== 1) return null;
  const [error] = [...errors];
  return error ? { words: error, resolvers: false } : null;
}

/** "IPv4 detection failed: interface:eth0: no global IPv4 address" → the source and its words. */
function detectionParts(error: string): { family: "IPv4" | "IPv6"; words: string; iface: string | null } {
  const family = /^IPv6\b/.test(error) ? "IPv6" : "IPv4";
  const words = error.replace(/^IPv[46] detection failed: /, "");
  const iface = /^interface:([^\s:]+)/.exec(words);
  return { family, words, iface: iface ? iface[1]! : null };
}

function detectionTitle(error: string): string {
  const { family, words, iface } = detectionParts(error);
  const titles = msg().boxProblems;
  if (iface !== null) return titles.interfaceTitle(iface, family);
  if (/^dns:/.test(words)) return titles.dnsTitle(family);
  return titles.publicTitle(family);
}

/**
 * The appliance's problems among these domains (all of them, not only a page's): every detection
 * failure, grouped by its source's words, and a live check unreachable for one reason — the
 * resolvers' (one record is enough: they are the machine's) or the same error from every name
 * server of at least two names. `system` adds the system sources' failures a family needs though
 * no domain is waiting on them (the dashboard's address card).
 */
export function boxProblems(
  domains: readonly DomainView[],
  conditions: (domain: DomainView) => UpdateConditions,
  system: readonly DetectionFailure[] = [],
): BoxProblems {
  const detectionGroups = new Map<string, { since: number | null; ids: number[] }>();
  for (const failure of system) detectionGroups.set(failure.error, { since: failure.since, ids: [] });
  const liveGroups = new Map<string, { resolvers: boolean; ids: number[]; names: Set<string> }>();
  for (const domain of domains) {
    const shown = conditions(domain);
    if (!domain.is_enabled || !shown.providerEnabled) continue;
    const failure = shown.detectionFailure;
    if (failure !== null) {
      const group = detectionGroups.get(failure.error) ?? { since: failure.since, ids: [] };
      group.since = Math.min(group.since ?? failure.since, failure.since);
      group.ids.push(domain.id);
      detectionGroups.set(failure.error, group);
    }
    const live = liveCheckCause(domain.propagation);
    if (live !== null) {
      const group = liveGroups.get(live.words) ?? { resolvers: live.resolvers, ids: [], names: new Set() };
      group.ids.push(domain.id);
      group.names.add(domain.domain_name);
      liveGroups.set(live.words, group);
    }
  }
  const problems: BoxProblem[] = [];
  const detection = new Map<number, BoxProblem>();
  const liveCheck = new Map<number, BoxProblem>();
  const words = msg().boxProblems;
  for (const [error, group] of detectionGroups) {
    const problem: BoxProblem = {
      id: `box-detection-${problems.length}`,
      key: error,
      title: detectionTitle(error),
      cause: detectionParts(error).words,
      next: detectionAdvice(error),
      records: group.ids.length,
      since: group.since,
    };
    problems.push(problem);
    for (const id of group.ids) detection.set(id, problem);
  }
  for (const [said, group] of liveGroups) {
    if (!group.resolvers && group.names.size < 2) continue;
    const problem: BoxProblem = {
      id: `box-live-check-${problems.length}`,
      key: said,
      title: group.resolvers ? words.resolversTitle : words.unreachableTitle,
      cause: said,
      next: group.resolvers ? words.resolversNext : words.unreachableNext,
      records: group.ids.length,
      since: null,
    };
    problems.push(problem);
    for (const id of group.ids) liveCheck.set(id, problem);
  }
  return { problems, liveCheck, detection };
}

/** The banner: each problem once, with its cause and its next step. Nothing when there is none. */
export function BoxProblemsBanner({ box, now }: { box: BoxProblems; now: number }) {
  if (box.problems.length === 0) return "";
  const words = msg().boxProblems;
  return (
    <section class="box-problems" aria-label={words.label}>
      {box.problems.map((problem) => (
        <div class="notice notice-warn box-problem" id={problem.id} role="status">
          <p>
            <strong safe>{problem.title}</strong>
            {problem.since !== null ? <> {words.since(String(<TimeAgo at={problem.since} now={now} />))}</> : ""}
            {problem.records > 0 ? ` · ${words.affected(problem.records)}` : ""}
          </p>
          <p class="small box-problem-cause">
            {words.cause}{" "}
            <span {...quotedEnglish()} safe>
              {problem.cause}
            </span>
          </p>
          <p class="box-problem-next" safe>
            {problem.next}
          </p>
        </div>
      ))}
    </section>
  );
}

/** A row's short state for what the banner says: a link to it instead of its words again. */
export function SeeAbove({ problem, what }: { problem: BoxProblem; what: string }) {
  return (
    <p class="muted small status-why see-above">
      {what}: <a href={`#${problem.id}`}>{msg().boxProblems.seeAbove}</a>
    </p>
  );
}
