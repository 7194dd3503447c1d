// Whether the record is live, at a glance: served by every name server of its zone, pending (which
// name server lags and what it answers), or unreachable (which one does not answer). Nothing while it
// was not asked yet. Used in the domain rows (dashboard and list) and on the domain's page.

import { Html } from "@elysiajs/html";
import type { DomainView } from "../../src/modules/domains/service";
import { Badge } from "../components";
import { msg } from "../i18n";

type Propagation = DomainView["propagation"];

function mark(state: Exclude<Propagation["state"], "unknown">): { tone: "ok" | "warn" | "fail"; label: string } {
  const words = msg().propagation;
  if (state === "served") return { tone: "ok", label: words.served };
  // Not "Pending": that is a domain never written yet.
  if (state === "pending") return { tone: "warn", label: words.notYetServed };
  return { tone: "fail", label: words.unreachable };
}

/** What each name server that does not serve the address answers, in a few words. */
export function laggingWords(propagation: Propagation): string {
  const lagging = propagation.servers.filter((server) => !server.ok);
  if (lagging.length === 0) return propagation.detail ?? "";
  const words = msg().propagation;
  return lagging
    .map((server) => {
      if (server.error !== null) return words.noAnswer(server.name, server.error);
      return server.answer.length === 0
        ? words.noAddressYet(server.name)
        : words.stillAnswers(server.name, server.answer.join(", "));
    })
    .join("; ");
}

/** The mark, with the servers that lag under it; "full" also says how many serve it and since when. */
export function PropagationMark({ propagation, full = false }: { propagation: Propagation; full?: boolean }) {
  const words = msg().propagation;
  if (propagation.state === "unknown") return full ? <span class="muted">{words.notAsked}</span> : "";
  const { tone, label } = mark(propagation.state);
  const served = propagation.servers.filter((server) => server.ok).length;
  const total = propagation.servers.length;
  const title = words.title(label, served, total);
  const after = propagation.served_after_ms === null ? "" : words.after(Math.round(propagation.served_after_ms / 1000));
  const count = propagation.state === "served" ? words.servedBy(served, total, after) : words.servedByOf(served, total);
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
