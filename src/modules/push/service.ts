// The router push (docs/router-push.md): the dyndns2 protocol as a FRITZ!Box, UniFi (inadyn), OpenWrt
// (ddns-scripts) or pfSense sends it, answered one line per hostname. A pushed address goes through
// the one update path (src/updater/update.ts) as a detection would, so backoff, provider pauses and
// the history work as for any update, and a record that already holds the address is not written.
// Protocol: https://help.dyn.com/remote-access-api/perform-update/ and …/return-codes/ (the
// dyndns2 API that these clients speak), as docs/services/dyndns2.md describes for the dyndns2 service.

import type { Detection } from "../../ip/detect";
import { addressForRecord } from "../../ip/suffix";
import { type IpFamily, isGlobalAddress, parseIpAddress } from "../../net/address";
import type { SignInThrottle } from "../../security/throttle";
import type { Store } from "../../store";
import type { UpdateKeyRow } from "../../store/rows";
import { familyOf } from "../../updater/detect";
import type { UpdateOutcome } from "../../updater/outcome";
import { connectionAddress } from "../../updater/pushed";
import type { UpdateOptions } from "../../updater/update";
import { normaliseHostname } from "../domains/service";
import { type UpdateKeyDeps, useUpdateKey } from "../update-keys/service";

/** What a push uses besides the keys and domains: the setting, the shown address, the update path. */
export interface PushDeps extends UpdateKeyDeps {
  store: UpdateKeyDeps["store"] & Pick<Store, "history">;
  settings: { readonly allowPrivateIps: boolean };
  /** The public address the dashboard shows: a pushed one replaces it. */
  publicIp: { ipv4: string | null; ipv6: string | null; checkedAt: number | null };
  /** Wrong keys are throttled per client address, as sign-ins are. */
  signIns: Pick<SignInThrottle, "attempt" | "clientAddress">;
  /** The one update path (updater/update.ts) for one domain. */
  update(domainId: number, options: UpdateOptions): Promise<UpdateOutcome | null>;
  /** Detects the public address of a family, as a scheduled check does (the router sent none). */
  detect(family: IpFamily): Promise<Detection>;
}

export interface PushRequest {
  /** The Basic auth password, or the `password` query parameter. */
  key: string | null;
  hostnames: string[];
  /** `myip` split at commas, and `myipv6`; empty when the router sent none. */
  addresses: string[];
  /** The client's address (behind a trusted proxy, the one it names): for the throttle of wrong keys, and a push-only domain's address when the push names none. */
  client: string;
}

/** What to write for each family: a pushed address (or why it is refused), or detect it when the router sent none. */
type FamilyPlan = Map<IpFamily, Detection>;

/**
 * Reads the addresses: each part is an IPv4 or IPv6 literal; one that is neither, or not globally
 * routable (unless DDNS_ALLOW_PRIVATE_IPS), refuses its family — both, when its family is unknown.
 * Null when the router sent no address (see `detectionOf` in `push`).
 */
function planAddresses(addresses: string[], allowPrivate: boolean): FamilyPlan | null {
  if (addresses.length === 0) return null;
  const plan: FamilyPlan = new Map();
  const refuse = (family: IpFamily, error: string) => {
    if (!plan.get(family)?.ok) plan.set(family, { ok: false, error });
  };
  for (const text of addresses) {
    const shown = JSON.stringify(text.slice(0, 60));
    const family = parseIpAddress(text, 4) !== null ? 4 : parseIpAddress(text, 6) !== null ? 6 : null;
    if (family === null) {
      for (const each of [4, 6] as const) refuse(each, `The router pushed ${shown}, which is not an IP address`);
      continue;
    }
    const ip = parseIpAddress(text, family)!;
    if (!allowPrivate && !isGlobalAddress(ip))
      refuse(family, `The router pushed ${ip}, which is not a globally routable address`);
    else plan.set(family, { ok: true, ip, source: "push" });
  }
  return plan;
}

type CoveredDomain = ReturnType<Store["domains"]["enabledNamed"]>[number];

/** The enabled domains of enabled providers named `hostname` that the key covers. */
function coveredDomains(ctx: Pick<PushDeps, "store">, key: UpdateKeyRow, hostname: string): CoveredDomain[] {
  return ctx.store.domains
    .enabledNamed(hostname)
    .filter((domain) => key.domainIds === null || key.domainIds.includes(domain.id));
}

/**
 * Whether a push repeats the domain's last push, which failed: the same address again (pushed, or
 * detected for a push that named none), or the same refused one, or the same failed detection. It
 * is answered 911 as before, with no call to the provider and no history row, so a key holder
 * cannot flood a domain's history out; the scheduled checks still retry it.
 */
function repeatsFailedPush(ctx: Pick<PushDeps, "store">, domainId: number, detection: Detection): boolean {
  const [last] = ctx.store.history.list(domainId, 1);
  if (last === undefined || last.trigger !== "push" || last.status !== "FAILED") return false;
  if (!detection.ok) return last.message === detection.error;
  const domain = ctx.store.domains.withProvider(domainId)?.domain;
  return domain !== undefined && last.ipAddress === addressForRecord(detection.ip, domain.config);
}

/**
 * One hostname's answer line from its records' outcomes: `good` when something was written at the
 * service, `nochg` when the service already held every address (it was asked, as a forced update asks).
 */
function answerLine(outcomes: UpdateOutcome[], addresses: string[]): string {
  if (outcomes.some((outcome) => outcome.result === "failed")) return "911";
  const shown = addresses.join(",");
  return `${outcomes.some((outcome) => outcome.written) ? "good" : "nochg"} ${shown}`;
}

/**
 * The key's row, or null for a wrong or missing one, or how long the client must wait: after 5
 * wrong keys in a row it is refused as a sign-in would be. The first wrong key of a streak is
 * logged, not each one.
 */
async function checkKey(
  ctx: PushDeps,
  request: PushRequest,
): Promise<UpdateKeyRow | null | { retryAfterSeconds: number }> {
  const given = request.key;
  if (given === null || given === "") return null;
  let key: UpdateKeyRow | null = null;
  const result = await ctx.signIns.attempt(
    request.client,
    async () => (key = useUpdateKey(ctx, given)) !== null,
    "update key",
  );
  if (result.refused !== null) return { retryAfterSeconds: result.refused };
  if (!result.ok && result.failures === 1)
    ctx.log.warn("a push with a wrong update key was refused", { client: request.client });
  return key;
}

/**
 * The push's answer: null for a wrong or missing key (the 401 `badauth`), the wait of a client
 * refused for its wrong keys (429 `abuse`), else one line per hostname.
 */
export async function push(
  ctx: PushDeps,
  request: PushRequest,
): Promise<string[] | null | { retryAfterSeconds: number }> {
  const key = await checkKey(ctx, request);
  if (key === null || "retryAfterSeconds" in key) return key;
  if (request.hostnames.length === 0) return ["notfqdn"];
  const pushed = planAddresses(request.addresses, ctx.settings.allowPrivateIps);
  const validPushed: string[] = [];
  // Only a key that covers one of the hostnames may tell the dashboard the public address.
  const coversOne = request.hostnames.some((name) => {
    try {
      return coveredDomains(ctx, key, normaliseHostname(name)).length > 0;
    } catch {
      return false;
    }
  });
  for (const family of [4, 6] as const) {
    const detection = pushed?.get(family);
    if (!detection?.ok) continue;
    validPushed.push(detection.ip);
    if (!coversOne) continue;
    // The router knows its address best: the dashboard shows it as the public address.
    ctx.publicIp[family === 4 ? "ipv4" : "ipv6"] = detection.ip;
    ctx.publicIp.checkedAt = Date.now();
  }
  const detections = new Map<IpFamily, Promise<Detection>>();
  /**
   * What to write for one domain: the router's address of its family (none: left alone); without
   * `myip`, a push-only domain takes the push's own address (never ddnsd's), any other domain what
   * ddnsd detects, as a scheduled check would.
   */
  const detectionOf = (domain: CoveredDomain): Promise<Detection> | null => {
    const family = familyOf(domain.recordType);
    if (pushed !== null) {
      const given = pushed.get(family);
      return given === undefined ? null : Promise.resolve(given);
    }
    if (domain.addressSource === "push")
      return Promise.resolve(connectionAddress(request.client, family, ctx.settings.allowPrivateIps));
    let shared = detections.get(family);
    if (!shared) detections.set(family, (shared = ctx.detect(family)));
    return shared;
  };

  return Promise.all(
    request.hostnames.map(async (name) => {
      let hostname: string;
      try {
        hostname = normaliseHostname(name);
      } catch {
        return "notfqdn";
      }
      const covered = coveredDomains(ctx, key, hostname);
      if (covered.length === 0) return "nohost";
      // A family the router sent no address for is left alone.
      const planned = covered.flatMap((domain) => {
        const detection = detectionOf(domain);
        return detection === null ? [] : [{ domain, detection }];
      });
      if (planned.length === 0) return `nochg ${validPushed.join(",")}`;
      // The router's own address is kept on each record it was pushed for: a push-only domain's
      // forced update re-sends it, and its age tells a stale push.
      for (const { domain, detection } of planned) {
        const given = await detection;
        if (given.ok && given.source === "push") ctx.store.domains.notePush([domain.id], given.ip, Date.now());
      }
      // The service is asked (it reads the record), so `nochg` says what it holds, not what ddnsd remembers.
      const results = await Promise.all(
        planned.map(async ({ domain, detection }) =>
          repeatsFailedPush(ctx, domain.id, await detection)
            ? "repeated"
            : ctx.update(domain.id, { trigger: "push", force: true, detection }),
        ),
      );
      if (results.includes("repeated")) return "911";
      const outcomes = results.filter(
        (outcome): outcome is UpdateOutcome => outcome !== null && outcome !== "repeated",
      );
      const byFamily = new Map<IpFamily, Promise<Detection>>();
      for (const { domain, detection } of planned) byFamily.set(familyOf(domain.recordType), detection);
      const families = [...byFamily.keys()].sort();
      const addresses = (await Promise.all(families.map((family) => byFamily.get(family)!))).flatMap((detection) =>
        detection.ok ? [detection.ip] : [],
      );
      return answerLine(outcomes, addresses);
    }),
  );
}
