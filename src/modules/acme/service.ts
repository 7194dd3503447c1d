// Certificate keys (docs/certificates.md): a certificate client on the LAN sets the ACME DNS-01
// challenge of chosen domains, and nothing else, through ddnsd, which writes the TXT value through
// the domain's own provider. A key is a random username and a password of 256 random bits, shown
// once and stored as a SHA-256 hash, as update keys are (update-keys/service.ts says why not a
// slow hash). Two protocols the clients already speak reach it (index.ts): acme-dns's `/update`
// and lego's `httpreq`.

import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { DnsProvider, TxtChange } from "../../dns/provider";
import type { ServiceRegistry } from "../../dns/registry";
import { conflict, invalidField, notFound, ProviderFailed } from "../../errors";
import type { Logger } from "../../log";
import type { SignInThrottle } from "../../security/throttle";
import type { Store } from "../../store";
import type { AcmeKeyRow, DomainRow, ProviderRow } from "../../store/rows";
import { iso } from "../../util/time";
import { checkDisplayName } from "../shared";
import { type Served, type ServedParts, waitUntilServed } from "./served";

/** The label of the name whose TXT set holds a domain's challenge (RFC 8555 §8.4). */
export const CHALLENGE_LABEL = "_acme-challenge";
/** acme-dns keeps the latest two values of a name, so a name and its wildcard validate together. */
export const VALUES_KEPT = 2;
/** An ACME DNS-01 value: the SHA-256 of the key authorization in base64url without padding. */
const CHALLENGE_VALUE = /^[A-Za-z0-9_-]{43}$/;

export interface AcmeDeps {
  store: Pick<Store, "acme" | "domains" | "providers" | "history" | "transaction">;
  services: Pick<ServiceRegistry, "find">;
  log: Logger;
  settings: ServedParts["settings"] & { readonly historyRetention: number };
  signIns: Pick<SignInThrottle, "attempt">;
  /** The DNS service client of a provider (updater/provider-client.ts). */
  clientOf(provider: ProviderRow): DnsProvider;
  /** The name servers' lookups (dns/lookup.ts); a test's own in the unit tests. */
  served: Pick<ServedParts, "lookups"> & Partial<ServedParts>;
}

/** What making, listing and deleting keys uses (the API and the admin page alike). */
export type AcmeKeyDeps = Pick<AcmeDeps, "store" | "services" | "log">;

/** What a certificate client stores to speak acme-dns to ddnsd: one account per name, as acme-dns gives one. */
/** `server_url` is the base an acme-dns client appends `/update` to (goacmedns, acme.sh's dns_acmedns). */
export interface AcmeDnsAccount {
  fulldomain: string;
  subdomain: string;
  username: string;
  password: string;
  server_url: string;
}

export interface AcmeKeyView {
  id: number;
  name: string;
  username: string;
  /** Only in the answer that created the key; `••••<last 4>` nowhere else: it is not kept. */
  password?: string;
  domain_ids: number[];
  hostnames: string[];
  created_at: string;
  last_used_at: string | null;
  /** Only at creation: the account of the key's first name, as an acme-dns client stores it. */
  acme_dns_account?: AcmeDnsAccount;
  /** Only at creation: every name's account, keyed by name (the file lego and Traefik keep, ACME_DNS_STORAGE_PATH). */
  acme_dns_accounts?: Record<string, AcmeDnsAccount>;
}

function hash(password: string): string {
  return createHash("sha256").update(password, "utf8").digest("hex");
}

function hostnamesOf(ctx: AcmeKeyDeps, ids: readonly number[]): string[] {
  return [...new Set(ids.flatMap((id) => ctx.store.domains.find(id)?.domainName ?? []))];
}

function toView(ctx: AcmeKeyDeps, row: AcmeKeyRow): AcmeKeyView {
  return {
    id: row.id,
    name: row.name,
    username: row.username,
    domain_ids: row.domainIds,
    hostnames: hostnamesOf(ctx, row.domainIds),
    created_at: iso(row.createdAt),
    last_used_at: iso(row.lastUsedAt),
  };
}

/** The domains named, each at a provider whose service can hold TXT; a 422 naming the service otherwise. */
function checkDomains(ctx: AcmeKeyDeps, ids: readonly number[] | undefined): number[] {
  if (ids === undefined || ids.length === 0) throw invalidField("domain_ids", "must name at least one domain");
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  for (const id of unique) {
    const domain = ctx.store.domains.find(id);
    if (!domain) throw invalidField("domain_ids", `domain ${id} does not exist`);
    const provider = ctx.store.providers.find(domain.providerId);
    const service = provider ? ctx.services.find(provider.type) : undefined;
    if (!service?.holdsTxt)
      throw invalidField(
        "domain_ids",
        `${domain.domainName} is at ${service?.label ?? "a service"}, which cannot hold TXT records, so no certificate client can prove it through ddnsd`,
      );
  }
  return unique;
}

export function createAcmeKey(
  ctx: AcmeKeyDeps,
  input: { name: string; domain_ids?: number[] },
  serverUrl: string,
): AcmeKeyView {
  const name = checkDisplayName(input.name);
  const domainIds = checkDomains(ctx, input.domain_ids);
  const username = randomUUID();
  // 32 random bytes as base64url: 43 characters that survive a header, a JSON file and Basic auth as they are.
  const password = randomBytes(32).toString("base64url");
  const row = ctx.store.acme.createKey({
    name,
    username,
    passwordHash: hash(password),
    domainIds,
    createdAt: Date.now(),
  });
  ctx.log.info("certificate key created", { certificate_key_id: row.id, domains: domainIds.join(",") });
  const view = toView(ctx, row);
  const accounts = Object.fromEntries(
    view.hostnames.map((hostname) => [
      hostname,
      {
        fulldomain: `${CHALLENGE_LABEL}.${hostname}`,
        subdomain: hostname,
        username,
        password,
        server_url: serverUrl,
      },
    ]),
  );
  return {
    ...view,
    password,
    acme_dns_account: accounts[view.hostnames[0]!]!,
    acme_dns_accounts: accounts,
  };
}

export function listAcmeKeys(ctx: AcmeKeyDeps): AcmeKeyView[] {
  return ctx.store.acme.listKeys().map((row) => toView(ctx, row));
}

function findKeyRow(ctx: AcmeKeyDeps, id: number): AcmeKeyRow {
  const row = ctx.store.acme.findKey(id);
  if (!row) throw notFound("Certificate key not found");
  return row;
}

export function getAcmeKey(ctx: AcmeKeyDeps, id: number): AcmeKeyView {
  return toView(ctx, findKeyRow(ctx, id));
}

export function deleteAcmeKey(ctx: AcmeKeyDeps, id: number): void {
  findKeyRow(ctx, id);
  ctx.store.acme.deleteKey(id);
  ctx.log.info("certificate key deleted", { certificate_key_id: id });
}

/** Why a protocol request was not carried out, as the protocol routes answer it. */
export type Refusal =
  | { refused: "credentials" }
  | { refused: "throttled"; retryAfterSeconds: number }
  | { refused: "name"; detail: string };

/** The key a client presented, or why not; wrong keys are throttled per client address, as update keys are. */
export async function authenticate(
  ctx: AcmeDeps,
  username: string | null,
  password: string | null,
  client: string,
): Promise<AcmeKeyRow | Refusal> {
  let found: AcmeKeyRow | undefined;
  const attempt = await ctx.signIns.attempt(
    client,
    async () => {
      const row = username ? ctx.store.acme.findKeyByUsername(username) : undefined;
      const given = Buffer.from(hash(password ?? ""), "hex");
      const ok = row !== undefined && password !== null && timingSafeEqual(given, Buffer.from(row.passwordHash, "hex"));
      if (ok) found = row;
      return ok;
    },
    "certificate key",
  );
  if (attempt.refused !== null) return { refused: "throttled", retryAfterSeconds: attempt.refused };
  if (!found) {
    ctx.log.warn("certificate key refused", { client, failures: attempt.failures });
    return { refused: "credentials" };
  }
  ctx.store.acme.markUsed(found.id, Date.now());
  return found;
}

/** A challenge value as sent: 43 characters of base64url, else a 422. */
export function checkValue(field: string, value: unknown): string {
  if (typeof value !== "string" || !CHALLENGE_VALUE.test(value))
    throw invalidField(field, "must be an ACME DNS-01 value: 43 characters of base64url");
  return value;
}

/**
 * The key's domain that `name` stands for: the hostname itself, its `_acme-challenge` name, or
 * its wildcard's (`*.home.example.com`'s challenge is `home.example.com`'s), with or without the
 * trailing dot; a refusal for any other name.
 */
export function domainFor(ctx: AcmeDeps, key: AcmeKeyRow, name: string): DomainRow | Refusal {
  const hostname = name
    .trim()
    .toLowerCase()
    .replace(/\.$/, "")
    .replace(new RegExp(`^${CHALLENGE_LABEL}\\.`), "")
    .replace(/^\*\./, "");
  for (const id of key.domainIds) {
    const domain = ctx.store.domains.find(id);
    if (domain?.domainName === hostname) return domain;
  }
  return {
    refused: "name",
    detail: `This certificate key may set the ACME challenge of ${hostnamesOf(ctx, key.domainIds).join(", ")} only`,
  };
}

/** Who asked, for the history and the log. */
export interface Writer {
  key: AcmeKeyRow;
  protocol: "acme-dns" | "httpreq";
}

/** One value added or removed through the domain's provider, with its history row and log line. */
async function writeValue(
  ctx: AcmeDeps,
  who: Writer,
  domain: DomainRow,
  action: TxtChange["action"],
  value: string,
): Promise<void> {
  const provider = ctx.store.providers.find(domain.providerId);
  if (!provider) throw notFound("Provider not found");
  if (!provider.isEnabled)
    throw conflict(`Provider ${provider.name} is disabled, so nothing is written for ${domain.domainName}`);
  const name = `${CHALLENGE_LABEL}.${domain.domainName}`;
  const client = ctx.clientOf(provider);
  if (!client.writeTxt) throw conflict(`${provider.name} cannot hold TXT records`);
  const started = performance.now();
  const written = ctx.store.acme.values(name).map((held) => held.value);
  const outcome = await client.writeTxt({
    hostname: domain.domainName,
    name,
    value,
    action,
    config: domain.config,
    written,
  });
  const what = `${action === "add" ? "Added" : "Removed"} ${name} TXT "${value}" for certificate key "${who.key.name}" (${who.protocol})`;
  const message = outcome.ok
    ? `${what}${outcome.action === "unchanged" ? `: it ${action === "add" ? "was there" : "was not there"} already` : ""}; ${outcome.message}`
    : `${what} failed: ${outcome.message}`;
  ctx.store.transaction((store) => {
    store.history.append(
      {
        domainId: domain.id,
        ipAddress: null,
        previousIp: null,
        status: outcome.ok ? "SUCCESS" : "FAILED",
        message,
        trigger: "push",
        durationMs: Math.round(performance.now() - started),
        timestamp: Date.now(),
        failureCause: outcome.ok ? null : outcome.cause,
      },
      ctx.settings.historyRetention,
    );
    // A value sent again is held once, as new: acme-dns counts it among the latest two.
    if (outcome.ok) store.acme.removeValue(name, value);
    if (outcome.ok && action === "add")
      store.acme.addValue({ domainId: domain.id, name, value, createdAt: Date.now() });
  });
  ctx.log[outcome.ok ? "info" : "warn"](outcome.ok ? "acme challenge written" : "acme challenge not written", {
    certificate_key_id: who.key.id,
    domain_id: domain.id,
    name,
    action,
    value,
    protocol: who.protocol,
    reason: outcome.ok ? undefined : outcome.message,
  });
  if (!outcome.ok) throw new ProviderFailed(outcome.message);
}

/** Waits until the zone's name servers serve the value (at most 60 s), and says in the log how that went. */
async function served(ctx: AcmeDeps, domain: DomainRow, value: string): Promise<Served> {
  const provider = ctx.store.providers.find(domain.providerId);
  const nameServer = provider ? (ctx.services.find(provider.type)?.nameServer?.(provider.options) ?? null) : null;
  const name = `${CHALLENGE_LABEL}.${domain.domainName}`;
  const result = await waitUntilServed({ settings: ctx.settings, ...ctx.served }, name, value, nameServer);
  if (result.served) ctx.log.info("acme challenge served", { name, after_ms: Math.round(result.afterMs) });
  else ctx.log.warn("acme challenge not seen served", { name, why: result.why });
  return result;
}

/**
 * lego httpreq's `present`: the value added beside whatever the name holds, answered once served.
 */
export async function present(ctx: AcmeDeps, who: Writer, domain: DomainRow, value: string): Promise<void> {
  await writeValue(ctx, who, domain, "add", value);
  await served(ctx, domain, value);
}

/** lego httpreq's `cleanup`: exactly that value removed, every other value of the name kept. */
export async function cleanup(ctx: AcmeDeps, who: Writer, domain: DomainRow, value: string): Promise<void> {
  await writeValue(ctx, who, domain, "remove", value);
}

/**
 * acme-dns's `update`: the value added, and the oldest removed beyond the latest two (as acme-dns
 * keeps them), so the challenge of a name and of its wildcard are served side by side.
 */
export async function acmeDnsUpdate(ctx: AcmeDeps, who: Writer, domain: DomainRow, value: string): Promise<void> {
  const name = `${CHALLENGE_LABEL}.${domain.domainName}`;
  await writeValue(ctx, who, domain, "add", value);
  const held = ctx.store.acme.values(name);
  for (const old of held.slice(0, Math.max(0, held.length - VALUES_KEPT)))
    if (old.value !== value) await writeValue(ctx, who, domain, "remove", old.value);
  await served(ctx, domain, value);
}
