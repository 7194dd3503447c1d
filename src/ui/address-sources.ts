// What the pages show of the address sources: the choices of the domain form (with what each gives
// now) and the dashboard's address card (each source's own newest answer, and since when).

import type { AddressSourceChoices, AskedAnswer } from "../../views/fragments/address-source-field";
import type { SourceAnswer } from "../ip/public-ip";
import { sourceText } from "../ip/source";
import { hostInterfaces } from "../modules/system/address-sources";
import type { IpFamily } from "../net/address";
import { effectiveSource, type SourceParts } from "../updater/address-source";

/** What the pages read: the sources in effect, each source's newest answer, whether private addresses count. */
export interface AddressSourceView extends SourceParts {
  settings: SourceParts["settings"] & { readonly allowPrivateIps: boolean };
  publicIp: { readonly answers: ReadonlyMap<string, SourceAnswer> };
}

function systemText(ctx: AddressSourceView, family: IpFamily): string {
  return sourceText(effectiveSource(ctx, family).source);
}

/**
 * The domain form's choices: the system's source per family, each source's newest answer, the
 * interfaces, the domain's last push, and what an "Ask now" just asked.
 */
export function addressSourceChoices(
  ctx: AddressSourceView,
  pushedIp: string | null,
  asked: AskedAnswer | null = null,
): AddressSourceChoices {
  const answers: AddressSourceChoices["answers"] = {};
  for (const [key, answer] of ctx.publicIp.answers) answers[key] = { ip: answer.ip, error: answer.error };
  return {
    system: { ipv4: systemText(ctx, 4), ipv6: systemText(ctx, 6) },
    answers,
    interfaces: hostInterfaces(ctx),
    pushedIp,
    asked,
    now: Date.now(),
  };
}

/** Each source asked so far with its newest answer, the system's sources first, then by family and name. */
export function sourceAnswers(ctx: AddressSourceView): (SourceAnswer & { system: boolean })[] {
  const system = new Set([`4 ${systemText(ctx, 4)}`, `6 ${systemText(ctx, 6)}`]);
  return [...ctx.publicIp.answers.entries()]
    .map(([key, answer]) => ({ ...answer, system: system.has(key) }))
    .sort((a, b) => Number(b.system) - Number(a.system) || a.family - b.family || a.source.localeCompare(b.source));
}
