// Where a domain's address comes from, in a few words under its address: the system's source (named,
// where the page knows it), the echo services, DNS, an interface, the router's pushes (marked stale
// when no push came for DDNS_PUSH_STALE_AFTER) or a fixed address.

import { Html } from "@elysiajs/html";
import type { SourceAnswer } from "../../src/ip/public-ip";
import type { DomainView } from "../../src/modules/domains/service";
import { isPushStale } from "../../src/updater/push-stale";
import { Badge } from "../components";
import { msg } from "../i18n";
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
  const names = msg().sourceMark;
  if (source === "web") return names.web;
  if (source === "dns") return names.dns;
  if (source === "push") return names.push;
  if (source.startsWith("interface:")) return names.iface(source.slice("interface:".length));
  if (source.startsWith("fixed:")) return names.fixed;
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
  const said = msg().sourceMark;
  const text =
    domain.address_source === null
      ? said.fromSystem(words(system))
      : typeof domain.address_source === "string"
        ? said.from([words(domain.address_source)], false)
        : said.from(domain.address_source.map(words), domain.config?.addresses === "first");
  return (
    <div class="source-mark muted small" data-source={String(domain.address_source ?? "system")}>
      <span safe>{text}</span>
      {pushIsStale(domain, context) ? (
        <>
          {" "}
          <Badge tone="warn">{said.stale(domain.pushed_at === null ? said.neverPushed : said.noRecentPush)}</Badge>
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
