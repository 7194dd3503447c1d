// Where each family's public address comes from: the echo services on the web (with their list of
// URLs) or an interface of this host. The environment (DDNS_IPV4_SOURCE, DDNS_IPV4_URLS and their
// IPv6 twins) gives the default; a choice made in the admin pages or through the API is stored in
// the database and wins over it until it is reset. See docs/operations.md.

import { invalidField } from "../../errors";
import { type HostInterface, listInterfaces } from "../../ip/interface";
import { type AddressSource, parseAddressSource, parseUrlList, sourceText } from "../../ip/source";
import type { IpFamily } from "../../net/address";
import { effectiveSource } from "../../updater/address-source";
import { type DetectParts, detectFamily } from "../../updater/detect";

/** What is asked to be stored for a family; null goes back to the environment's setting. */
export type SourceChoice = { source: string; urls?: string | readonly string[] | null } | null;

export const FAMILIES: readonly IpFamily[] = [4, 6];

/**
 * What choosing a source uses: the stored choices and the environment's (a detection's own parts),
 * the domains a changed source makes due, and detecting at once when none is.
 */
export type AddressSourceDeps = DetectParts;

/** The host's interfaces with the addresses each could give, to choose from. */
export function hostInterfaces(ctx: { settings: { readonly allowPrivateIps: boolean } }): HostInterface[] {
  return listInterfaces({ allowPrivate: ctx.settings.allowPrivateIps });
}

/** `ipv4` / `ipv6`: the field names of the API and the forms. */
export function familyKey(family: IpFamily): "ipv4" | "ipv6" {
  return family === 4 ? "ipv4" : "ipv6";
}

/** Checks a choice the way the environment's values are checked; throws Invalid naming `<ipvN>.source` or `<ipvN>.urls`. */
function validated(
  family: IpFamily,
  choice: NonNullable<SourceChoice>,
): { source: AddressSource; urls: string[] | null } {
  const key = familyKey(family);
  const source = parseAddressSource(choice.source);
  if (source === null)
    throw invalidField(
      `${key}.source`,
      `expected web, dns or interface:<name> (e.g. interface:eth0), got "${choice.source}"`,
    );
  if (source.kind !== "web") return { source, urls: null };
  const text = typeof choice.urls === "string" ? choice.urls : (choice.urls ?? []).join("\n");
  if (text.trim() === "") throw invalidField(`${key}.urls`, "name at least one http(s) URL of an echo service");
  const urls = parseUrlList(text);
  if (typeof urls === "string") throw invalidField(`${key}.urls`, `expected http(s) URLs, one a line, got "${urls}"`);
  return { source, urls };
}

/**
 * Stores the choices given (a family left out stays as it is, null resets it to the environment's),
 * all checked before any is stored; a family whose source changed is detected again at once.
 */
export function setAddressSources(ctx: AddressSourceDeps, choices: Partial<Record<IpFamily, SourceChoice>>): void {
  const checked = FAMILIES.filter((family) => choices[family] !== undefined).map((family) => {
    const choice = choices[family]!;
    return { family, value: choice === null ? null : validated(family, choice) };
  });
  // Written well first, then usable: a chosen interface must have an address of its family now.
  for (const { family, value } of checked)
    if (value?.source.kind === "interface") refuseUnusableInterface(ctx, family, value.source.name);
  const now = Date.now();
  for (const { family, value } of checked) {
    const before = effectiveSource(ctx, family);
    if (value === null) {
      ctx.store.addressSources.reset(family);
    } else {
      ctx.store.addressSources.choose(family, {
        kind: value.source.kind,
        interfaceName: value.source.kind === "interface" ? value.source.name : null,
        urls: value.urls,
        updatedAt: now,
      });
    }
    const after = effectiveSource(ctx, family);
    if (JSON.stringify([before.source, before.urls]) === JSON.stringify([after.source, after.urls])) continue;
    ctx.log.info("address source changed", {
      family: `IPv${family}`,
      source: sourceText(after.source),
      from: after.from,
    });
    detectSoon(ctx, family);
  }
}

/**
 * An interface with no usable address of the family (what the updater would publish: global unless
 * DDNS_ALLOW_PRIVATE_IPS) is refused, for the system's source and a domain's own alike: chosen, it
 * would stop every record that follows it. The refusal names `field` (`ipv4.source` by default,
 * `address_source` for a domain) and says what the interface has (or that it is not there).
 */
export function refuseUnusableInterface(
  ctx: { settings: { readonly allowPrivateIps: boolean } },
  family: IpFamily,
  name: string,
  field = `${familyKey(family)}.source`,
): void {
  const key = familyKey(family);
  const found = hostInterfaces(ctx).find((item) => item.name === name);
  if (found === undefined) throw invalidField(field, `this machine has no interface named ${name} now`);
  if (found[key].length > 0) return;
  const other = found[familyKey(family === 4 ? 6 : 4)];
  const has =
    other.length > 0
      ? `it has only IPv${family === 4 ? 6 : 4} (${other.join(", ")})`
      : "it has no usable address at all";
  const usable = ctx.settings.allowPrivateIps ? "usable" : "public (global)";
  throw invalidField(
    field,
    `interface ${name} has no ${usable} IPv${family} address now: ${has}; choose another source`,
  );
}

/**
 * The new source is asked at once: the family's scheduled domains become due (their next pass
 * detects with it, and writes a changed address); with none, one detection refreshes what the
 * dashboard shows.
 */
function detectSoon(ctx: AddressSourceDeps, family: IpFamily): void {
  const due = ctx.store.domains.makeDueOfType(family === 4 ? "A" : "AAAA", Date.now());
  if (due.length > 0) return;
  void detectFamily(ctx, family);
}

/** The families some enabled domain's record type needs: the only ones detected once a domain exists. */
export function neededFamilies(ctx: Pick<AddressSourceDeps, "store">): IpFamily[] {
  return FAMILIES.filter((family) => ctx.store.domains.enabledOfType(family === 4 ? "A" : "AAAA") > 0);
}

/** Families whose idle detection (detectWhileIdle) is under way, per context. */
const idleDetections = new WeakMap<object, Set<IpFamily>>();

/**
 * With no enabled domain at all (a first start), no pass asks for an address, and the dashboard
 * would show nothing (not even why a first start without internet finds none): the system's
 * sources are asked in the background when their newest answer is older than the update interval.
 * Once a domain exists only what is needed is detected: a family with no domain of its record type
 * is never asked (no request, no `detection_failed` for it).
 */
export function detectWhileIdle(
  ctx: AddressSourceDeps & { settings: { readonly updateIntervalSeconds: number } },
  now: number,
): void {
  const running = idleDetections.get(ctx) ?? new Set<IpFamily>();
  idleDetections.set(ctx, running);
  if (neededFamilies(ctx).length > 0) return;
  for (const family of FAMILIES) {
    if (running.has(family)) continue;
    const answer = ctx.publicIp.answers.get(`${family} ${sourceText(effectiveSource(ctx, family).source)}`);
    if (answer !== undefined && now - answer.checkedAt < ctx.settings.updateIntervalSeconds * 1000) continue;
    running.add(family);
    void detectFamily(ctx, family).finally(() => running.delete(family));
  }
}
