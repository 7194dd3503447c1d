// Domain rules (docs/api.md, domains): hostname normalisation, record types, schedules, config keys,
// duplicates, and reading a domain's history. Writing DNS records is the updater's job.

import { domainToASCII } from "node:url";
import type { DomainChanges } from "../../db/disk";
import type { RecordType } from "../../dns/provider";
import type { ServiceRegistry } from "../../dns/registry";
import { checkHostnameRule, checkRecordType as checkServiceRecordType, checkTtl } from "../../dns/rules";
import type { ServiceDescription } from "../../dns/service";
import { conflict, invalidField, notFound } from "../../errors";
import {
  ADDRESS_MODES,
  addressMode,
  MAX_DOMAIN_SOURCES,
  parseDomainSource,
  shownSources,
  sourceText,
  storedSources,
  storeSources,
} from "../../ip/source";
import { ipv6SuffixProblem } from "../../ip/suffix";
import { MAX_EXTERNAL_ID_CHARS } from "../../limits";
import type { Logger } from "../../log";
import type { Store } from "../../store";
import type { ListPage } from "../../store/domains";
import type { DomainRow, HistoryRow } from "../../store/rows";
import { writtenAddresses } from "../../updater/address-set";
import type { Propagation, PropagationTracker } from "../../updater/propagation";
import { cronScheduleProblem, nextScheduledRun } from "../../updater/schedule";
import { runForcedUpdate, type UpdateParts } from "../../updater/update";
import { iso, parseDuration } from "../../util/time";
import { checkConfigSize } from "../limits";
import { findProviderRow } from "../providers/service";
import { refuseUnusableInterface } from "../system/address-sources";
import type { Domain, DomainUpdate, HistoryRecord, UpdateResult } from "./model";

/**
 * What the domains' rules use: the rows (a domain deleted with its history), the registered
 * services a provider's type names, the interval a schedule falls back to, the log.
 */
export interface DomainDeps {
  store: Store;
  /** What the zone's name servers answer for each record (updater/propagation.ts). */
  propagation: PropagationReader;
  services: ServiceRegistry;
  settings: { readonly updateIntervalSeconds: number; readonly allowPrivateIps: boolean; readonly maxDomains: number };
  log: Logger;
}

/** Reading domains and their history: all a page that lists them needs. */
export interface DomainReader {
  store: Pick<Store, "domains" | "history">;
  propagation: PropagationReader;
}

/** What is known of whether a domain's record is served by its zone's name servers. */
export type PropagationReader = Pick<PropagationTracker, "propagationOf" | "changes">;

export type DomainInput = typeof DomainUpdate.static;
export type DomainView = typeof Domain.static;
export type HistoryView = typeof HistoryRecord.static;
export type UpdateResultView = typeof UpdateResult.static;

/** The periods a domain's address timeline shows at most. */
const TIMELINE_PERIODS = 50;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** Lowercase, no trailing dot, IDN as punycode; a 422 naming what is wrong otherwise. */
export function normaliseHostname(input: string): string {
  const trimmed = input.trim().replace(/\.$/, "");
  if (trimmed === "") throw invalidField("domain_name", "is required");
  // An address pasted from the browser's bar: say what to keep.
  const url = /^[a-z][a-z0-9+.-]*:\/\/([^/?#:]+)/i.exec(trimmed);
  if (url)
    throw invalidField(
      "domain_name",
      `"${input}" is an address, not a hostname: drop the "${trimmed.slice(0, trimmed.indexOf("//") + 2)}" and anything after the name, e.g. ${url[1]}`,
    );
  // domainToASCII parses a URL's host: it would drop a "/path", "?query", tabs and %-escapes.
  if (/[^a-z0-9_.\-\u0080-\u{10ffff}]/iu.test(trimmed))
    throw invalidField("domain_name", `"${input}" is not a valid hostname`);
  const ascii = domainToASCII(trimmed.toLowerCase());
  if (ascii === "") throw invalidField("domain_name", `"${input}" is not a valid hostname`);
  if (ascii.length > 253) throw invalidField("domain_name", "must be at most 253 characters");
  const labels = ascii.split(".");
  if (labels.length < 2) throw invalidField("domain_name", "must be a fully qualified name such as home.example.com");
  const bad = labels.find((label) => !LABEL.test(label));
  if (bad !== undefined) {
    throw invalidField(
      "domain_name",
      `label "${bad}" must be 1-63 letters, digits or hyphens, not starting or ending with a hyphen`,
    );
  }
  if (/^\d+$/.test(labels.at(-1)!)) throw invalidField("domain_name", "must be a hostname, not an IP address");
  return ascii;
}

export function checkRecordType(input: string): RecordType {
  const upper = input.trim().toUpperCase();
  if (upper !== "A" && upper !== "AAAA") throw invalidField("record_type", 'must be "A" (IPv4) or "AAAA" (IPv6)');
  return upper;
}

function checkCronSchedule(input: string | null): string | null {
  if (input === null || input.trim() === "") return null;
  const problem = cronScheduleProblem(input);
  if (problem !== null) throw invalidField("cron_schedule", problem);
  return input.trim().replace(/\s+/g, " ");
}

/**
 * The known `config` keys checked, the TTL against what the provider's service accepts; other keys
 * are kept as given.
 */
function checkConfig(config: Record<string, unknown>, service: ServiceDescription): Record<string, unknown> {
  checkConfigSize(config);
  const { zone_id, proxied, ttl, create_if_missing } = config;
  if (zone_id !== undefined && (typeof zone_id !== "string" || zone_id.trim() === "")) {
    throw invalidField("config.zone_id", "must be a non-empty string");
  }
  for (const [key, value] of [
    ["proxied", proxied],
    ["create_if_missing", create_if_missing],
  ] as const) {
    if (value !== undefined && typeof value !== "boolean") throw invalidField(`config.${key}`, "must be true or false");
  }
  if (ttl !== undefined) checkTtl(service, ttl);
  if (config.addresses !== undefined && !ADDRESS_MODES.includes(config.addresses as never))
    throw invalidField("config.addresses", `must be ${ADDRESS_MODES.map((mode) => `"${mode}"`).join(" or ")}`);
  if (proxied !== undefined && service.proxy === undefined)
    throw invalidField("config.proxied", `cannot be set: ${service.label} has no proxy`);
  if (config.refresh_every !== undefined) checkRefreshEvery(config.refresh_every, service);
  return config;
}

/** Sending a record again more often than this is what one-shot services call abuse (Dyn allows a touch every 28 days). */
const MIN_REFRESH_SECONDS = 86400;

/**
 * `config.refresh_every`: a duration written as every duration setting is (`25d`, `600h`), at
 * least a day, or `"0"` for none (a service's default turned off); only at a one-shot service,
 * which is the kind that retires idle hosts (updater/refresh.ts).
 */
function checkRefreshEvery(value: unknown, service: ServiceDescription): void {
  if (service.keepAlive === undefined)
    throw invalidField(
      "config.refresh_every",
      `cannot be set: ${service.label} keeps its records whether they are written or not; only one-shot update services retire idle hosts`,
    );
  const seconds = typeof value === "string" ? parseDuration(value) : null;
  if (seconds === null)
    throw invalidField(
      "config.refresh_every",
      `must be a duration such as "25d" or "600h" ("0" for none), got ${JSON.stringify(value)?.slice(0, 60)}`,
    );
  if (seconds !== 0 && seconds < MIN_REFRESH_SECONDS)
    throw invalidField(
      "config.refresh_every",
      `must be at least 1d ("0" for none): an unchanged address sent more often is what update services count as abuse`,
    );
}

/**
 * The config without the options the service has not (a proxy, a TTL it sets itself, a keep-alive): what a domain
 * moved to another provider keeps when no new config was sent.
 */
function applicableConfig(config: Record<string, unknown>, service: ServiceDescription): Record<string, unknown> {
  const { proxied, ttl, refresh_every, ...rest } = config;
  return {
    ...rest,
    ...(proxied !== undefined && service.proxy ? { proxied } : {}),
    ...(ttl !== undefined && service.ttl ? { ttl } : {}),
    ...(refresh_every !== undefined && service.keepAlive ? { refresh_every } : {}),
  };
}

/** The ipv6_suffix / ipv6_prefix_length keys, which only an AAAA record can use. */
function checkIpv6Suffix(config: Record<string, unknown>, recordType: RecordType): void {
  const problem = ipv6SuffixProblem(config, recordType);
  if (problem !== null) throw invalidField(problem.field, problem.message);
}

/** What the provider's service demands of the record: its record types and its hostname rule. */
function checkForService(service: ServiceDescription, domainName: string, recordType: RecordType): void {
  checkServiceRecordType(service, recordType);
  checkHostnameRule(service, domainName);
}

/**
 * A domain's `address_source` as stored: null (or empty) for the system's source, else one source
 * in its written form, or several (a list) joined as the store keeps them; a fixed address must be
 * of the record's family and global unless DDNS_ALLOW_PRIVATE_IPS. A 422 naming `address_source`
 * otherwise. An interface is checked for a usable address of the family only where
 * `checkInterface` says so for its written form (see checkedAddressSource).
 */
export function checkAddressSource(
  input: string | readonly string[] | null,
  recordType: RecordType,
  settings: DomainDeps["settings"],
  checkInterface: (source: string) => boolean = () => true,
): string | null {
  if (input === null) return null;
  const one = (text: string) => checkOneSource(text, recordType, settings, checkInterface);
  if (typeof input === "string") return input.trim() === "" ? null : one(input);
  if (input.length === 0)
    throw invalidField("address_source", "a list needs at least one source (null follows the system's source)");
  if (input.length > MAX_DOMAIN_SOURCES)
    throw invalidField("address_source", `a list holds at most ${MAX_DOMAIN_SOURCES} sources, got ${input.length}`);
  const sources = input.map((item) => {
    const text = typeof item === "string" && item.trim() !== "" ? one(item) : null;
    if (text === null) throw invalidField("address_source", "each source of a list must be a non-empty string");
    return text;
  });
  if (sources.length > 1 && sources.includes("push"))
    throw invalidField(
      "address_source",
      "push cannot be in a list: a router's push names the one address the record holds; use push alone",
    );
  const twice = sources.find((source, i) => sources.indexOf(source) !== i);
  if (twice !== undefined) throw invalidField("address_source", `${twice} is named twice`);
  return storeSources(sources);
}

function checkOneSource(
  input: string,
  recordType: RecordType,
  settings: DomainDeps["settings"],
  checkInterface: (source: string) => boolean,
): string {
  const source = parseDomainSource(input, settings.allowPrivateIps);
  if (typeof source === "string") throw invalidField("address_source", source);
  const family = recordType === "AAAA" ? 6 : 4;
  if (source.kind === "fixed" && source.ip.includes(":") !== (family === 6)) {
    throw invalidField("address_source", `an ${recordType} record needs an IPv${family} address, got ${source.ip}`);
  }
  if (source.kind === "interface" && checkInterface(sourceText(source)))
    refuseUnusableInterface({ settings }, family, source.name, "address_source");
  return sourceText(source);
}

/**
 * The `address_source` an edit stores. An interface is checked for a usable address only when the
 * domain is to use it anew (a source it did not have, or another record type): an edit of something
 * else that sends the stored sources back, as the form and a re-imported config file do, is not
 * refused while a PPPoE link is down for a moment; the update then says what the interface lacks.
 */
function checkedAddressSource(
  ctx: DomainDeps,
  row: DomainRow,
  input: string | readonly string[] | null | undefined,
  recordType: RecordType,
): string | null {
  if (input === undefined && recordType === row.recordType) return row.addressSource;
  const had = recordType === row.recordType ? new Set(storedSources(row.addressSource)) : new Set<string>();
  const sources = input === undefined ? storedSources(row.addressSource) : input;
  return checkAddressSource(sources, recordType, ctx.settings, (source) => !had.has(source));
}

/**
 * A list of sources in `all` mode puts several addresses in one record: refused (422) at a service
 * that holds one address per name, with why; `first` publishes one address and works everywhere.
 */
function checkAddressSet(service: ServiceDescription, addressSource: string | null, config: Record<string, unknown>) {
  const sources = storedSources(addressSource);
  if (sources === null || sources.length < 2 || addressMode(config) !== "all" || service.holdsAddressSets) return;
  const why =
    service.createsRecords === false
      ? "its update protocol takes one address per name"
      : "ddnsd writes one address per name there";
  throw invalidField(
    "address_source",
    `${service.label} cannot publish several addresses for one name (${why}): set config.addresses to "first" for failover from one source to the next`,
  );
}

function checkExternalId(input: string | null): string | null {
  if (input === null || input.trim() === "") return null;
  if (input.length > MAX_EXTERNAL_ID_CHARS)
    throw invalidField("external_id", `must be at most ${MAX_EXTERNAL_ID_CHARS} characters`);
  return input.trim();
}

/** The record's propagation as the API shows it. */
function propagationView(propagation: Propagation): DomainView["propagation"] {
  return {
    state: propagation.state,
    servers: propagation.servers.map((server) => ({ ...server, answer: [...server.answer] })),
    checked_at: iso(propagation.checkedAt),
    served_after_ms: propagation.servedAfterMs,
    detail: propagation.detail,
  };
}

function toView(ctx: DomainReader, row: DomainRow, providerName: string): DomainView {
  return {
    id: row.id,
    provider_id: row.providerId,
    provider_name: providerName,
    domain_name: row.domainName,
    record_type: row.recordType,
    external_id: row.externalId,
    config: row.config,
    cron_schedule: row.cronSchedule,
    is_enabled: row.isEnabled,
    address_source: shownSources(row.addressSource),
    pushed_ip: row.pushedIp,
    pushed_at: iso(row.pushedAt),
    last_known_ip: row.lastKnownIp,
    addresses: [...(writtenAddresses(row) ?? [])],
    last_update_status: row.lastUpdateStatus,
    last_checked_at: iso(row.lastCheckedAt),
    last_changed_at: iso(row.lastChangedAt),
    // A push-only record is written on a push, never on a schedule: it has no next run to show.
    next_run_at: row.addressSource === "push" ? null : iso(row.nextRunAt),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    propagation: propagationView(ctx.propagation.propagationOf(row)),
  };
}

/** Every domain, oldest first; with `page`, only that part of them (`GET /domains?limit=&offset=`). */
export function listDomains(ctx: DomainReader, page?: ListPage): DomainView[] {
  return ctx.store.domains.listWithProviderName(page).map((row) => toView(ctx, row.domain, row.providerName));
}

function findDomainRow(ctx: DomainReader, id: number): DomainRow {
  const row = ctx.store.domains.find(id);
  if (!row) throw notFound("Domain not found");
  return row;
}

export function getDomain(ctx: DomainReader, id: number): DomainView {
  const row = ctx.store.domains.findWithProviderName(id);
  if (!row) throw notFound("Domain not found");
  return toView(ctx, row.domain, row.providerName);
}

function ensureUnique(
  ctx: DomainDeps,
  providerId: number,
  domainName: string,
  recordType: RecordType,
  exceptId = 0,
): void {
  const clash = ctx.store.domains.sameRecord(providerId, domainName, recordType, exceptId);
  if (clash !== undefined)
    throw conflict(`${domainName} ${recordType} is already configured on this provider: edit that domain instead`);
}

/**
 * A 409 when `wouldBe` domains pass DDNS_MAX_DOMAINS: the lists, the pages and the scheduler's
 * passes are sized for that many.
 */
export function checkDomainLimit(ctx: Pick<DomainDeps, "settings">, wouldBe: number): void {
  const max = ctx.settings.maxDomains;
  if (wouldBe > max)
    throw conflict(
      `At most ${max} domains are kept (DDNS_MAX_DOMAINS), and this would make ${wouldBe}: delete some or raise the setting; nothing was saved`,
    );
}

/**
 * A new domain. Refused past DDNS_MAX_DOMAINS unless `limit` is `"checked by the caller"` (the
 * config file checks the count it ends with, as a pruned file may replace domains).
 */
export function createDomain(
  ctx: DomainDeps,
  input: DomainInput & { provider_id: number; domain_name: string },
  limit: "checked here" | "checked by the caller" = "checked here",
): DomainView {
  const domainName = normaliseHostname(input.domain_name);
  const recordType = checkRecordType(input.record_type ?? "A");
  const cronSchedule = checkCronSchedule(input.cron_schedule ?? null);
  const externalId = checkExternalId(input.external_id ?? null);
  const service = ctx.services.get(findProviderRow(ctx, input.provider_id).type);
  checkForService(service, domainName, recordType);
  const config = checkConfig(input.config ?? {}, service);
  checkIpv6Suffix(config, recordType);
  const addressSource = checkAddressSource(input.address_source ?? null, recordType, ctx.settings);
  checkAddressSet(service, addressSource, config);
  ensureUnique(ctx, input.provider_id, domainName, recordType);
  if (limit === "checked here") checkDomainLimit(ctx, ctx.store.domains.count() + 1);
  const now = Date.now();
  const isEnabled = input.is_enabled ?? true;
  const id = ctx.store.domains.create({
    providerId: input.provider_id,
    domainName,
    recordType,
    externalId,
    config,
    cronSchedule,
    isEnabled,
    addressSource,
    // A new domain is checked right away, then on its schedule.
    nextRunAt: isEnabled ? now : null,
    createdAt: now,
    updatedAt: now,
  });
  ctx.log.info("domain created", { domain_id: id, domain: domainName, type: recordType });
  return getDomain(ctx, id);
}

export function updateDomain(ctx: DomainDeps, id: number, input: DomainInput): DomainView {
  const row = findDomainRow(ctx, id);
  const domainName = input.domain_name === undefined ? row.domainName : normaliseHostname(input.domain_name);
  const recordType = input.record_type === undefined ? row.recordType : checkRecordType(input.record_type);
  const cronSchedule = input.cron_schedule === undefined ? row.cronSchedule : checkCronSchedule(input.cron_schedule);
  const externalId = input.external_id === undefined ? row.externalId : checkExternalId(input.external_id);
  const providerId = input.provider_id ?? row.providerId;
  const service = ctx.services.get(findProviderRow(ctx, providerId).type);
  checkForService(service, domainName, recordType);
  // Checked when it changes, or when a move to another provider may make its TTL unacceptable.
  const config =
    input.config === undefined
      ? providerId === row.providerId
        ? row.config
        : checkConfig(applicableConfig(row.config, service), service)
      : checkConfig(input.config, service);
  checkIpv6Suffix(config, recordType);
  const addressSource = checkedAddressSource(ctx, row, input.address_source, recordType);
  checkAddressSet(service, addressSource, config);
  ensureUnique(ctx, providerId, domainName, recordType, id);
  const isEnabled = input.is_enabled ?? row.isEnabled;
  const now = Date.now();

  const changes: DomainChanges = {
    providerId,
    domainName,
    recordType,
    cronSchedule,
    config,
    externalId,
    isEnabled,
    addressSource,
    updatedAt: now,
  };
  const recordMoved = providerId !== row.providerId || domainName !== row.domainName || recordType !== row.recordType;
  if (recordMoved) {
    // Another record now: what was known about the old one no longer applies, so write it at once.
    // Ids sent back unchanged (omitted, or a client that read the domain, edited it and sent it all
    // back, as the admin form does) are the old record's too.
    if (externalId === row.externalId) changes.externalId = null;
    if (config.zone_id !== undefined && config.zone_id === row.config.zone_id) {
      const { zone_id: _stale, ...rest } = config;
      changes.config = rest;
    }
  }
  if (recordMoved || externalId !== row.externalId) {
    // A record this appliance has not written yet: forgetting the known IP makes the next check
    // write it, and tells the provider client to verify a given record id before trusting it.
    Object.assign(changes, {
      lastKnownIp: null,
      addresses: null,
      lastUpdateStatus: null,
      lastCheckedAt: null,
      lastChangedAt: null,
      failureCount: 0,
      nextRunAt: isEnabled ? now : null,
    });
  } else if (!isEnabled) {
    changes.nextRunAt = null;
  } else if (!row.isEnabled || row.nextRunAt === null) {
    changes.nextRunAt = now; // enabled again, or retrying was stopped (a service's "don't retry"): check at once
  } else if (
    config.ipv6_suffix !== row.config.ipv6_suffix ||
    config.ipv6_prefix_length !== row.config.ipv6_prefix_length ||
    addressSource !== row.addressSource
  ) {
    changes.nextRunAt = now; // the record is to hold another address: written at once, not at the next run
  } else if (cronSchedule !== row.cronSchedule) {
    changes.nextRunAt = nextScheduledRun(cronSchedule, now, ctx.settings.updateIntervalSeconds);
  }
  ctx.store.domains.update(id, changes);
  return getDomain(ctx, id);
}

/** Removes the domain and its history in one transaction; the DNS record at the provider stays. */
export function deleteDomain(ctx: DomainDeps, id: number): void {
  findDomainRow(ctx, id);
  ctx.store.transaction((store) => {
    store.history.deleteForDomain(id);
    store.domains.delete(id);
  });
  ctx.log.info("domain deleted", { domain_id: id });
}

function historyToView(row: HistoryRow): HistoryView {
  return {
    id: row.id,
    domain_id: row.domainId,
    ip_address: row.ipAddress,
    addresses: row.addresses ?? (row.ipAddress === null ? [] : [row.ipAddress]),
    previous_ip: row.previousIp,
    status: row.status,
    message: row.message,
    trigger: row.trigger,
    duration_ms: row.durationMs,
    timestamp: iso(row.timestamp),
    repeat_count: row.repeatCount,
    first_timestamp: row.firstTimestamp === null ? null : iso(row.firstTimestamp),
  };
}

/** Newest first; `offset` serves the admin pages' paging. */
export function domainHistory(ctx: DomainReader, id: number, limit: number, offset = 0): HistoryView[] {
  findDomainRow(ctx, id);
  return ctx.store.history.list(id, limit, offset).map(historyToView);
}

export function historyCount(ctx: DomainReader, id: number): number {
  return ctx.store.history.count(id);
}

/** One address a record has held: when it was first written and, unless current, when it was replaced. */
export interface IpPeriod {
  ip: string;
  from: string;
  until: string | null;
}

/**
 * The addresses the record has held, newest first, from its successful history rows (so as far
 * back as retention keeps them): a new period starts whenever a write changed the address.
 */
export function ipTimeline(ctx: DomainReader, id: number): IpPeriod[] {
  findDomainRow(ctx, id);
  const starts = ctx.store.history.addressStarts(id, TIMELINE_PERIODS);
  return starts.map((start, i) => ({
    ip: start.ip,
    from: iso(start.at),
    until: i === 0 ? null : iso(starts[i - 1]!.at),
  }));
}

/** `POST /domains/{id}/update_ip`: writes now, answering as docs/api.md, domains says (refusals are thrown). */
export async function forceUpdate(ctx: UpdateParts, id: number): Promise<UpdateResultView> {
  const outcome = await runForcedUpdate(ctx, id);
  return {
    domain_id: outcome.domainId,
    success: true,
    ip_address: outcome.ip,
    previous_ip: outcome.previousIp,
    changed: outcome.changed,
    message: outcome.message,
    duration_ms: outcome.durationMs,
    history_id: outcome.historyId,
  };
}
