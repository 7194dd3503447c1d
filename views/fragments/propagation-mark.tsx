// Whether the record is live, at a glance: served by every name server of its zone, pending (which
// name server lags and what it answers), or unreachable (which one does not answer). Nothing while it
// was not asked yet. Used in the domain rows (dashboard and list) and on the domain's page.

import { Html } from "@elysiajs/html";
import type { DomainView } from "../../src/modules/domains/service";
import { Badge } from "../components";

type Propagation = DomainView["propagation"];

const MARKS = {
  served: { tone: "ok", label: "Served" },
  // Not "Pending": that is a domain never written yet.
  pending: { tone: "warn", label: "Not yet served" },
  unreachable: { tone: "fail", label: "Unreachable" },
} as const;

/** What each name server that does not serve the address answers, in a few words. */
export function laggingWords(propagation: Propagation): string {
  const lagging = propagation.servers.filter((server) => !server.ok);
  if (lagging.length === 0) return propagation.detail ?? "";
  return lagging
    .map((server) => {
      if (server.error !== null) return `${server.name} does not answer (${server.error})`;
      return server.answer.length === 0
        ? `${server.name} has no address yet`
        : `${server.name} still answers ${server.answer.join(", ")}`;
    })
    .join("; ");
}

/** The mark, with the servers that lag under it; "full" also says how many serve it and since when. */
export function PropagationMark({ propagation, full = false }: { propagation: Propagation; full?: boolean }) {
  if (propagation.state === "unknown") return full ? <span class="muted">not asked yet</span> : "";
  const { tone, label } = MARKS[propagation.state];
  const served = propagation.servers.filter((server) => server.ok).length;
  const title = `${label}: ${served} of ${propagation.servers.length} name servers answer the record's address`;
  const after =
    propagation.served_after_ms === null ? "" : `, ${Math.round(propagation.served_after_ms / 1000)} s after the write`;
  const count =
    propagation.state === "served"
      ? `by ${served} of ${propagation.servers.length} name servers${after}`
      : `(served by ${served} of ${propagation.servers.length} name servers)`;
  return (
    <div class="propagation" data-propagation={propagation.state}>
      <span title={title}>
        <Badge tone={tone}>{label}</Badge>
      </span>
      {full ? (
        <span class="muted small" safe>
          {" "}
          {count}
        </span>
      ) : (
        ""
      )}
      {propagation.state === "served" ? (
        ""
      ) : (
        <p class="muted small status-why" safe>
          {laggingWords(propagation)}
        </p>
      )}
    </div>
  );
}
