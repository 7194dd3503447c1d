/// <reference types="@kitajs/html/htmx.d.ts" />
// Small pieces every page uses: badges, labelled form fields with their errors, times, notices.
// Every string that came from a user or a provider goes through `safe` (or escapeHtml); constant
// text and numbers don't need to.

import { Html, type PropsWithChildren } from "@elysiajs/html";
import type { DetectionFailure } from "../src/ip/detect";
import type { DomainView } from "../src/modules/domains/service";
import type { HistoryFailureCause, HistoryTrigger } from "../src/store/rows";
import { relative, toMs, utcTime } from "./format";
import { msg } from "./i18n";
import { pageFacts } from "./page-facts";

/** What a form submission got wrong: messages per input name, and one for the whole form (404, 409). */
export interface FormErrors {
  fields: Record<string, string>;
  form?: string;
}

export const NO_ERRORS: FormErrors = { fields: {} };

export type Tone = "ok" | "fail" | "idle" | "info" | "warn";

/** A one-time notice after a redirect: what happened, and whether it went well. */
export interface Flash {
  tone: Tone;
  text: string;
}

export function Badge({ tone, children }: PropsWithChildren<{ tone: Tone }>) {
  return <span class={`badge badge-${tone}`}>{children}</span>;
}

export type DomainStatusKey = "ok" | "failed" | "unchecked" | "pending" | "disabled";

/**
 * What a domain's updates depend on besides the domain itself: its provider being enabled, and the
 * public address of its family being detectable (null: it is).
 */
export interface UpdateConditions {
  providerEnabled: boolean;
  detectionFailure: DetectionFailure | null;
  /** Why its newest attempt failed (its history row's cause), for a failed domain's row. */
  lastFailureCause?: HistoryFailureCause | null;
  /** Its provider's service type, whose name a failure's message starts with. */
  providerType?: string;
  /** Its newest attempt, as its history row keeps it (null: never tried). */
  latest?: LatestAttempt | null;
}

/** A domain's newest attempt as its history row keeps it: how it went, in whose words, how often. */
export interface LatestAttempt {
  ok: boolean;
  cause: HistoryFailureCause | null;
  message: string;
  ip: string | null;
  previousIp: string | null;
  trigger: HistoryTrigger;
  /** When it happened (ms); the last of them when it repeated. */
  at: number;
  durationMs: number;
  /** How many attempts in a row came to this, and since when (null: one). */
  count: number;
  firstAt: number | null;
}

export const UPDATABLE: UpdateConditions = { providerEnabled: true, detectionFailure: null };

/**
 * A domain's state in one word: disabled (itself or its provider), or how its last update went —
 * except that a record is not called OK while its checks cannot run (the address is not detected).
 * Also the list's filter.
 */
export function domainStatus(
  domain: Pick<DomainView, "is_enabled" | "last_update_status">,
  conditions: UpdateConditions = UPDATABLE,
): { key: DomainStatusKey; tone: Tone; label: string } {
  const words = msg().states;
  if (!domain.is_enabled) return { key: "disabled", tone: "idle", label: words.disabled };
  if (!conditions.providerEnabled) return { key: "disabled", tone: "idle", label: words.providerDisabled };
  if (domain.last_update_status === "FAILED") return { key: "failed", tone: "fail", label: words.failed };
  if (conditions.detectionFailure !== null) return { key: "unchecked", tone: "warn", label: words.notChecked };
  if (domain.last_update_status === "SUCCESS") return { key: "ok", tone: "ok", label: words.ok };
  return { key: "pending", tone: "info", label: words.pending };
}

/** The domain list's status filter, in this request's language. */
export function domainStatusFilters(): { value: DomainStatusKey; label: string }[] {
  const words = msg().states;
  return [
    { value: "ok", label: words.filterOk },
    { value: "failed", label: words.filterFailed },
    { value: "unchecked", label: words.filterUnchecked },
    { value: "pending", label: words.filterPending },
    { value: "disabled", label: words.filterDisabled },
  ];
}

/** The orders the domain list offers; the dashboard always puts failing domains first. */
export type DomainSort = "name" | "status" | "next";

export const DOMAIN_SORTS: readonly DomainSort[] = ["name", "status", "next"];

/** The domain list's orders with their names, in this request's language. */
export function domainSortOptions(): { value: DomainSort; label: string }[] {
  const words = msg().states;
  const labels: Record<DomainSort, string> = { name: words.sortName, status: words.sortStatus, next: words.sortNext };
  return DOMAIN_SORTS.map((value) => ({ value, label: labels[value] }));
}

/** What needs a person first: failures, then records not checked, never tried, fine, and switched off. */
const STATUS_ORDER: Record<DomainStatusKey, number> = { failed: 0, unchecked: 1, pending: 2, ok: 3, disabled: 4 };

/** The domains in the order asked for; ties (and the name order itself) by hostname, then record type. */
export function sortDomains<
  T extends Pick<DomainView, "domain_name" | "record_type" | "is_enabled" | "last_update_status" | "next_run_at">,
>(domains: readonly T[], sort: DomainSort, conditions: (domain: T) => UpdateConditions = () => UPDATABLE): T[] {
  const byName = (a: T, b: T) =>
    a.domain_name.localeCompare(b.domain_name) || a.record_type.localeCompare(b.record_type);
  const key = (domain: T): number => {
    if (sort === "status") return STATUS_ORDER[domainStatus(domain, conditions(domain)).key];
    if (sort === "next") {
      const next = domainStatus(domain, conditions(domain)).key === "disabled" ? null : toMs(domain.next_run_at);
      return next ?? Number.MAX_SAFE_INTEGER;
    }
    return 0;
  };
  return [...domains].sort((a, b) => key(a) - key(b) || byName(a, b));
}

/**
 * What went wrong, by cause, in a person's words: the network, the credentials, the request (the
 * service's own words follow), or the pace. Null for a cause not known (rows from before causes).
 */
export function causeWords(cause: HistoryFailureCause | null | undefined, providerName: string): string | null {
  const words = msg().states;
  switch (cause) {
    case "detection":
      return words.causeDetection;
    case "disabled":
      return words.causeDisabled;
    case "unreachable":
      return words.causeUnreachable(providerName);
    case "credentials":
      return words.causeCredentials(providerName);
    case "refused":
      return words.causeRefused(providerName);
    case "throttled":
      return words.causeThrottled(providerName);
    default:
      return null;
  }
}

/**
 * Marks words quoted as whatever said them wrote them (a detection's or a live check's cause, in
 * English) on a page in another language; an English page needs no mark.
 */
export function quotedEnglish(): { lang?: "en" } {
  return pageFacts().locale === "en" ? {} : { lang: "en" };
}

/** A failure's message in the service's own words: without the service's name it starts with, nor a final stop. */
export function serviceWords(message: string, serviceLabel?: string): string {
  let words = message.trim().replace(/^IPv[46] detection failed: /, "");
  if (serviceLabel !== undefined && words.startsWith(`${serviceLabel}: `)) words = words.slice(serviceLabel.length + 2);
  return words.replace(/[.!?]+$/, "");
}

/** The end of a history message after which the updater stops retrying (updater/update.ts). */
const NOT_RETRIED = /\s*— not retried until the provider or domain is edited$/;

/**
 * What to do when a detection failed, by the source that failed (named in its words, e.g.
 * "IPv4 detection failed: interface:eth0: no global IPv4 address"): an interface without its
 * address is no matter of the internet connection, nor a fixed address that cannot be used.
 */
export function detectionAdvice(message: string): string {
  const words = msg().states;
  const iface = /\binterface:([^\s:]+)/.exec(message);
  if (iface) return words.adviceInterface(iface[1]!);
  if (/\bfixed:/.test(message)) return words.adviceFixed;
  if (/\bdns:/.test(message)) return words.adviceDns;
  if (/echo services disagree/.test(message)) return words.adviceEcho;
  return words.adviceConnection;
}

/**
 * A failure said plainly, by cause — could not reach the service, it refused the credentials, it
 * refused the request (each in the service's own words) — and what to do next. `said` starts in
 * lower case unless it starts with the provider's name (capitalise it for a sentence of its own).
 */
export function failureExplained(
  cause: HistoryFailureCause | null | undefined,
  providerName: string,
  message: string,
  serviceLabel?: string,
): { said: string; next: string } {
  // The history's message ends so for a failure the service says will not succeed; `next` says it
  // here, so it is left out of the service's words (said once, not twice).
  const notRetried = NOT_RETRIED.test(message);
  const words = serviceWords(message.replace(NOT_RETRIED, ""), serviceLabel);
  const says = msg().states;
  switch (cause) {
    case "unreachable":
      return { said: says.saidUnreachable(providerName, words), next: says.nextUnreachable };
    case "credentials":
      return { said: says.saidCredentials(providerName, words), next: says.nextCredentials };
    case "refused":
      return {
        said: says.saidRefused(providerName, words),
        next: notRetried ? says.nextRefusedNotRetried : says.nextRefused,
      };
    case "throttled":
      return { said: says.saidThrottled(providerName, words), next: says.nextThrottled };
    case "detection":
      return { said: says.saidDetection(words), next: detectionAdvice(message) };
    case "disabled":
      return { said: words, next: "" };
    default:
      return { said: says.saidOther(providerName, words), next: says.nextOther };
  }
}

/** `said` as a sentence of its own: the first letter in capitals, unless it is the provider's name (left as it is written). */
export function sentence(said: string, providerName: string): string {
  return said.startsWith(providerName) ? said : said.charAt(0).toUpperCase() + said.slice(1);
}

export function DomainStatus({
  domain,
  conditions = UPDATABLE,
  explained = false,
}: {
  domain: Pick<DomainView, "is_enabled" | "last_update_status" | "provider_name">;
  conditions?: UpdateConditions;
  /** The failure is said in full beside the badge (the row's outcome): no short cause under it. */
  explained?: boolean;
}) {
  const { key, tone, label } = domainStatus(domain, conditions);
  const why = explained
    ? null
    : key === "unchecked"
      ? msg().states.notDetected
      : key === "failed"
        ? causeWords(conditions.lastFailureCause, domain.provider_name)
        : null;
  return (
    <>
      <Badge tone={tone}>{label}</Badge>
      {why ? (
        <p class="muted small status-why" safe>
          {why}
        </p>
      ) : (
        ""
      )}
    </>
  );
}

/**
 * A service's help text, whose `backticked` parts are things to type or find as written (a command,
 * a file's line): shown as code, never with the backticks. Everything is escaped.
 */
export function HelpText({ text }: { text: string }) {
  const parts = text.split(/`([^`]+)`/);
  return (
    <span>
      {parts.map((part, i) => (i % 2 === 1 ? `<code>${Html.escapeHtml(part)}</code>` : Html.escapeHtml(part))).join("")}
    </span>
  );
}

/**
 * "3 min ago" with the exact time on hover; a dash when it never happened. The hover says UTC until
 * local-time.js puts it in the browser's zone; the words are kept true as the clock moves by
 * client.js in English and by local-time.js (Intl) in the other languages.
 */
export function TimeAgo({ at, now }: { at: string | number | null; now: number }) {
  const ms = toMs(at);
  if (ms === null) return <span class="muted">—</span>;
  const refresh = pageFacts().locale === "en" ? { "data-relative": true } : { "data-relative-local": true };
  return (
    <time datetime={new Date(ms).toISOString()} title={utcTime(ms, true)} {...refresh}>
      {relative(ms, now)}
    </time>
  );
}

/**
 * A moment as date and time: in UTC (and saying so) as the server sends it, in the browser's own
 * zone and language once local-time.js formats it with Intl. `seconds` for a time to the second.
 */
export function LocalTime({ at, seconds = false }: { at: number; seconds?: boolean }) {
  return (
    <time datetime={new Date(at).toISOString()} data-local={seconds ? "seconds" : "minutes"}>
      {utcTime(at, seconds)}
    </time>
  );
}

export function Notice({ tone, children }: PropsWithChildren<{ tone: Tone }>) {
  return (
    <div class={`notice notice-${tone}`} role={tone === "fail" ? "alert" : "status"}>
      {children}
    </div>
  );
}

/** The id of a form control, from its name (`cron_schedule` → `f-cron_schedule`). */
export function fieldId(name: string): string {
  return `f-${name.replace(/[^\w-]/g, "-")}`;
}

/**
 * The attributes that tie a control to its label, help and error: `aria-invalid` and
 * `aria-describedby` when the field has an error, and focus on the first field at fault.
 */
export function controlAttrs(name: string, errors: FormErrors, hasHelp = false) {
  const id = fieldId(name);
  const error = errors.fields[name];
  const describedBy = [hasHelp ? `${id}-help` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return {
    id,
    name,
    "aria-invalid": error ? "true" : undefined,
    "aria-describedby": describedBy || undefined,
    autofocus: error !== undefined && Object.keys(errors.fields)[0] === name,
  };
}

export function FieldError({ name, errors }: { name: string; errors: FormErrors }) {
  const error = errors.fields[name];
  if (error === undefined) return "";
  return (
    <p class="field-error" id={`${fieldId(name)}-error`} safe>
      {error}
    </p>
  );
}

/** A label, the control (children, spread with `controlAttrs`), its help text and its error. */
export function Field({
  name,
  label,
  errors,
  help,
  children,
}: PropsWithChildren<{ name: string; label: string; errors: FormErrors; help?: JSX.Element }>) {
  return (
    <div class={["field", errors.fields[name] !== undefined && "has-error"]}>
      <label for={fieldId(name)}>{label}</label>
      {children}
      {help ? (
        <p class="help" id={`${fieldId(name)}-help`}>
          {help}
        </p>
      ) : (
        ""
      )}
      <FieldError name={name} errors={errors} />
    </div>
  );
}

/** A checkbox with its label beside it. */
export function CheckField({
  name,
  label,
  checked,
  errors,
  help,
}: {
  name: string;
  label: string;
  checked: boolean;
  errors: FormErrors;
  help?: JSX.Element;
}) {
  return (
    <div class={["field field-check", errors.fields[name] !== undefined && "has-error"]}>
      <input type="checkbox" value="on" checked={checked} {...controlAttrs(name, errors, help !== undefined)} />
      <label for={fieldId(name)}>{label}</label>
      {help ? (
        <p class="help" id={`${fieldId(name)}-help`}>
          {help}
        </p>
      ) : (
        ""
      )}
      <FieldError name={name} errors={errors} />
    </div>
  );
}

/** The error that belongs to no single field (a conflict, a vanished provider), above the form. */
export function FormProblem({ errors }: { errors: FormErrors }) {
  if (errors.form === undefined) return "";
  return (
    <div class="notice notice-fail" role="alert">
      <span safe>{errors.form}</span>
    </div>
  );
}

/** `<option>`s with one selected; labels are escaped (provider names are user data). */
export function Options({ options, selected }: { options: { value: string; label: string }[]; selected: string }) {
  return (
    <>
      {options.map((option) => (
        <option value={option.value} selected={option.value === selected} safe>
          {option.label}
        </option>
      ))}
    </>
  );
}

/**
 * The submit button Enter presses. A browser's implicit submission clicks a form's first submit
 * button, which in a form with a TypeSelect would be its "Continue" (the form back, nothing saved):
 * this one, first in the form, saves. Hidden (so neither seen, focused nor announced): implicit
 * submission clicks the default button whether it is rendered or not; the visible primary button
 * is the one people use.
 */
export function DefaultSubmit({ label }: { label: string }) {
  return (
    <button type="submit" hidden>
      {label}
    </button>
  );
}

/**
 * A form's type select whose chosen type decides the fields below it (a provider's service, a
 * notification's type, a domain's provider): htmx swaps in the fields of the type picked; without
 * JavaScript the "Continue" button sends the form back to show them, saving nothing.
 */
export function TypeSelect({
  name = "type",
  include,
  fieldsUrl,
  fieldsTarget,
  vals,
  options,
  selected,
  errors,
  locked = false,
}: {
  /** The select's input name. */
  name?: string;
  /** What else the fields route is sent (hx-include), e.g. "closest form" to keep what was typed. */
  include?: string;
  fieldsUrl: string;
  fieldsTarget: string;
  /** What the fields route needs besides the type, e.g. the stored object's id (for masked secrets). */
  vals?: Record<string, string | number>;
  options: { value: string; label: string }[];
  selected: string;
  errors: FormErrors;
  /** The type cannot change (a provider with domains): shown, not operable, and sent as it is. */
  locked?: boolean;
}) {
  if (locked) {
    return (
      <div class="inline-control">
        <select disabled {...controlAttrs(name, errors, true)} name={undefined}>
          <Options options={options} selected={selected} />
        </select>
        <input type="hidden" name={name} value={selected} />
      </div>
    );
  }
  return (
    <div class="inline-control">
      <select
        hx-get={fieldsUrl}
        hx-trigger="change"
        hx-target={fieldsTarget}
        hx-swap="outerHTML"
        hx-vals={vals ? JSON.stringify(vals) : undefined}
        hx-include={include}
        {...controlAttrs(name, errors, true)}
      >
        <Options options={options} selected={selected} />
      </select>
      <button type="submit" name="continue" value="type" class="button button-quiet no-js-only" formnovalidate>
        {msg().common.continue}
      </button>
    </div>
  );
}

/**
 * An on/off switch: a real form that posts the state it would set (so a repeated click can't flip
 * it back), enhanced by htmx to swap `target` in place. Without JavaScript it posts and comes back
 * with a notice. `id` keeps focus on it after the swap.
 */
export function EnabledSwitch({
  url,
  enabled,
  label,
  target,
  id,
}: {
  url: string;
  enabled: boolean;
  label: string;
  target: string;
  id: string;
}) {
  return (
    <form
      method="post"
      action={url}
      class="switch-form"
      hx-post={url}
      hx-target={target}
      hx-swap="outerHTML"
      hx-disabled-elt="find button"
    >
      <input type="hidden" name="is_enabled" value={enabled ? "false" : "true"} />
      <button
        type="submit"
        id={id}
        class="switch"
        role="switch"
        aria-checked={enabled ? "true" : "false"}
        aria-label={label}
      >
        <span class="switch-track" aria-hidden="true">
          <span class="switch-thumb" />
        </span>
        <span class="switch-text">{enabled ? msg().common.on : msg().common.off}</span>
      </button>
    </form>
  );
}

/**
 * An action button as a real form (`<form method="post">`), enhanced by htmx to swap `target`
 * with the answer. Without JavaScript the route answers with a redirect back and a notice.
 */
export function ActionForm({
  url,
  target,
  swap = "outerHTML",
  fields = {},
  children,
}: PropsWithChildren<{ url: string; target: string; swap?: string; fields?: Record<string, string> }>) {
  return (
    <form
      method="post"
      action={url}
      class="action-form"
      hx-post={url}
      hx-target={target}
      hx-swap={swap}
      hx-disabled-elt="find button"
    >
      {Object.entries(fields).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      {children}
    </form>
  );
}

/** A list deleted from in place: what it says, and the row whose Delete takes focus (null: the list's heading). */
export interface ListDeletion {
  text: string;
  focusId: number | null;
}

/** The row that takes a deleted row's place in `rows` (listed before the delete): the next one, null after the last. */
export function rowAfter(rows: { id: number }[], id: number): number | null {
  const at = rows.findIndex((row) => row.id === id);
  return at === -1 ? null : (rows[at + 1]?.id ?? null);
}

/**
 * A row's Delete. With JavaScript it asks first (a dialog) and the answer is the list again (`list`,
 * an element id; a whole page's answer is cut to it), saying what was deleted, with focus on the next
 * row's Delete or the list's heading, so a person keeps their place; without, the post leads to a
 * confirmation page.
 */
export function DeleteForm({
  url,
  list,
  question,
  label,
  id,
  autofocus = false,
  include,
}: {
  url: string;
  list: string;
  question: string;
  label: string;
  /** The button's id, so focus given to it survives the list's own refresh. */
  id: string;
  autofocus?: boolean;
  /** The ids of a form or fields that go along (the list's filters, order and page, so the list comes back as it was). */
  include?: string[];
}) {
  return (
    <form
      method="post"
      action={url}
      hx-post={url}
      hx-target={`#${list}`}
      hx-select={`#${list}`}
      hx-swap="outerHTML"
      hx-include={include?.map((id) => `#${id}`).join(", ")}
      hx-confirm={question}
    >
      <input type="hidden" name="in_place" value="list" />
      <button type="submit" id={id} class="button button-small button-danger" aria-label={label} autofocus={autofocus}>
        {msg().common.delete}
      </button>
    </form>
  );
}

/**
 * A list's heading, and what was just deleted from it in place: the heading is where focus lands
 * when no row came after the deleted one.
 */
export function ListHeading({ id, text, deletion }: { id: string; text: string; deletion?: ListDeletion | null }) {
  // htmx focuses an element marked autofocus once it is swapped in (the types know the attribute on controls only).
  const focus: Record<string, boolean> = { autofocus: deletion != null && deletion.focusId === null };
  return (
    <>
      <h2 id={id} class="card-title" tabindex="-1" {...focus}>
        {text}
      </h2>
      {deletion ? (
        <Notice tone="ok">
          <span safe>{deletion.text}</span>
        </Notice>
      ) : (
        ""
      )}
    </>
  );
}

/**
 * An IP address that wraps only between groups on a narrow screen (after a `:` or a `.`), never
 * in the middle of one.
 */
export function Ip({ ip }: { ip: string | null }) {
  if (ip === null) return <span class="muted">—</span>;
  // An IPv4 address (15 characters at most) fits anywhere and is never broken; an IPv6 one may
  // break after a ":" (never inside a group) where its column is narrow.
  if (!ip.includes(":"))
    return (
      <code class="ip ip4" safe>
        {ip}
      </code>
    );
  return (
    <code class="ip">
      {ip
        .split(/(?<=[:.])/)
        .map((part) => Html.escapeHtml(part))
        .join("<wbr>")}
    </code>
  );
}

/** How often a live list asks for a fresh copy of itself. */
const LIVE_REFRESH_SECONDS = 10;

/**
 * A part of a page that refreshes itself: htmx fetches `url` every few seconds and swaps in the
 * element with the same id, so new addresses and states show without a reload. It says when its
 * figures are from (client.js marks it when a refresh fails).
 */
export function LiveRegion({ id, url, now, children }: PropsWithChildren<{ id: string; url: string; now: number }>) {
  return (
    <div
      id={id}
      class="live"
      data-live
      hx-get={url}
      hx-trigger={`every ${LIVE_REFRESH_SECONDS}s`}
      hx-select={`#${id}`}
      hx-swap="outerHTML"
      // Its links and forms must not inherit the refresh's target and selection.
      hx-disinherit="hx-select hx-swap hx-trigger"
    >
      <p class="as-of muted small" data-as-of>
        {msg().common.asOf} <LocalTime at={now} seconds />
        <span class="live-note">{msg().common.refreshesEvery(LIVE_REFRESH_SECONDS)}</span>
        <span class="stale-note">{msg().common.couldNotRefresh}</span>
      </p>
      {children}
    </div>
  );
}

/**
 * Previous and next links between the pages of a list (plain links: they work without JavaScript,
 * and the layout's hx-boost makes them htmx requests), and where the reader is; nothing for one page.
 */
export function Pager(props: {
  label: string;
  page: number;
  pages: number;
  /** The address of page `p`, carrying whatever else the list's address holds (its search, its order). */
  href: (p: number) => string;
  previous: string;
  next: string;
}) {
  const { page, pages } = props;
  if (pages <= 1) return "";
  return (
    <nav class="pager" aria-label={props.label}>
      {page > 1 ? (
        <a class="button button-small button-quiet" href={props.href(page - 1)} rel="prev">
          {props.previous}
        </a>
      ) : (
        <span />
      )}
      <span class="muted">{msg().common.page(page, pages)}</span>
      {page < pages ? (
        <a class="button button-small button-quiet" href={props.href(page + 1)} rel="next">
          {props.next}
        </a>
      ) : (
        <span />
      )}
    </nav>
  );
}
