// Where a domain's address comes from, in a few words under its address: the system's source (named,
// where the page knows it), the echo services, DNS, an interface, the router's pushes (marked stale
// when no push came for DDNS_PUSH_STALE_AFTER) or a fixed address.

import { Html } from "@elysiajs/html";
import type { SourceAnswer } from "../../src/ip/public-ip";
import type { DomainView } from "../../src/modules/domains/service";
import { isPushStale } from "../../src/updater/push-stale";
import { Badge } from "../components";
import { AddressList } from "./address-list";

/** What the mark reads besides the domain: the system's sources in effect, and how long a push may wait. */
export interface SourceMarkContext {
  /** The system's source of each family (`web`, `dns`, `interface:eth0`). */
  system: { ipv4: string; ipv6: string };
  /** DDNS_PUSH_STALE_AFTER, seconds. */
  pushStaleAfterSeconds: number;
  now: number;
  /** Each source's newest answer, by `<family> <source>`: a domain with a list of sources shows each. */
  answers?: ReadonlyMap<string, Pick<SourceAnswer, "ip" | "error">>;
}

function words(source: string): string {
  if (source === "web") return "echo services";
  if (source === "dns") return "DNS resolvers";
  if (source === "push") return "router push";
  if (source.startsWith("interface:")) return `interface ${source.slice("interface:".length)}`;
  if (source.startsWith("fixed:")) return "fixed address";
  return source;
}

/** Whether a push-only domain waits longer for a push than allowed. */
function pushIsStale(
  domain: Pick<DomainView, "address_source" | "pushed_at" | "created_at">,
  context: SourceMarkContext,
): boolean {
  if (domain.address_source !== "push") return false;
  const times = {
    pushedAt: domain.pushed_at === null ? null : Date.parse(domain.pushed_at),
    createdAt: Date.parse(domain.created_at),
  };
  return isPushStale(times, context.now, context.pushStaleAfterSeconds);
}

export function SourceMark({
  domain,
  context,
}: {
  domain: Pick<DomainView, "address_source" | "pushed_at" | "created_at" | "record_type"> &
    Partial<Pick<DomainView, "config" | "addresses">>;
  context: SourceMarkContext;
}) {
  const system = domain.record_type === "AAAA" ? context.system.ipv6 : context.system.ipv4;
  const text =
    domain.address_source === null
      ? `from ${words(system)} (the system's source)`
      : typeof domain.address_source === "string"
        ? `from ${words(domain.address_source)}`
        : `from ${domain.address_source.map(words).join(domain.config?.addresses === "first" ? ", else " : " and ")}`;
  return (
    <div class="source-mark muted small" data-source={String(domain.address_source ?? "system")}>
      <span safe>{text}</span>
      {pushIsStale(domain, context) ? (
        <>
          {" "}
          <Badge tone="warn">stale: {domain.pushed_at === null ? "never pushed" : "no recent push"}</Badge>
        </>
      ) : (
        ""
      )}
      {Array.isArray(domain.address_source) ? (
        <AddressList
          sources={domain.address_source.map((source) => {
            const answer = context.answers?.get(`${domain.record_type === "AAAA" ? 6 : 4} ${source}`) ?? null;
            return {
              source,
              answer,
              published: answer?.ip != null && (domain.addresses ?? []).includes(answer.ip),
            };
          })}
        />
      ) : (
        ""
      )}
    </div>
  );
}
