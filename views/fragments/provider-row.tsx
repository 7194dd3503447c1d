// One provider as a card, which reads the same for any service however many credentials it has:
// name, type and on/off switch; its domains, masked credentials (one per line, each with its label)
// and health (the last credential check and the last day's failed updates); then its actions, with
// Verify's answer under them at the card's full width. "Verify" and the
// switch are real forms that htmx enhances; delete asks first and says how many domains go with
// it (a dialog with JavaScript, a confirmation page without).

import { Html } from "@elysiajs/html";
import type { ProviderStats } from "../../src/modules/metrics/service";
import type { LastVerification, ProviderView } from "../../src/modules/providers/service";
import type { HistoryFailureCause } from "../../src/store/rows";
import { ActionForm, Badge, EnabledSwitch, failureExplained, sentence, TimeAgo, type Tone } from "../components";
import { msg } from "../i18n";
import { credentialLabel, serviceLabel } from "./credential-field";

/** One of the provider's domains whose newest update failed, and why (detection failures are not the provider's: left out). */
export interface DomainProblem {
  id: number;
  name: string;
  recordType: string;
  cause: HistoryFailureCause | null;
  message: string;
}

export interface ProviderRowProps {
  provider: ProviderView;
  stats?: ProviderStats;
  verification?: LastVerification;
  now: number;
  /** Its domains whose newest update failed at the service. */
  problems?: DomainProblem[];
  /** Verify's answer, just given (shown under the actions). */
  result?: VerifyAnswer;
}

/** What a check of the credentials answered. */
export interface VerifyAnswer {
  ok: boolean | null;
  detail: string;
  cause?: HistoryFailureCause | null;
}

/**
 * Causes that are the provider's own (its service unreachable, its credentials refused, a pause
 * it asked for): every domain of the provider shares them. A refused request is one domain's
 * (a wrong zone, a name the service does not hold), and a detection failure nobody's at the service.
 */
const PROVIDER_WIDE: readonly (HistoryFailureCause | null)[] = ["unreachable", "credentials", "throttled"];

/** A check's or a failure's answer said plainly, with what to do: for Verify's notice and its answer in place. */
export function verifyWords(
  outcome: VerifyAnswer,
  providerName: string,
  label?: string,
): { tone: Tone; words: string } {
  if (outcome.ok === true) return { tone: "ok", words: `the service accepted its credentials (${outcome.detail})` };
  if (outcome.ok === null) return { tone: "info", words: outcome.detail.replace(/\.$/, "") };
  const said = failureExplained(outcome.cause ?? "credentials", providerName, outcome.detail, label).said;
  const next =
    outcome.cause === "unreachable"
      ? "its credentials were not checked: check the service's address and this machine's connection, then Verify again"
      : outcome.cause === "throttled"
        ? "Verify again later"
        : outcome.cause === "refused"
          ? "check the provider's settings with Edit, then Verify again"
          : "correct them with Edit, then Verify again";
  return { tone: "fail", words: `${said}; ${next}` };
}

function providerRowId(id: number): string {
  return `provider-${id}`;
}

/** What deleting a provider takes with it, in the words of the confirmation. */
export function deleteProviderQuestion(provider: Pick<ProviderView, "name" | "domain_count">): string {
  return msg().providers.deleteQuestion(provider.name, provider.domain_count);
}

/** `ok: null`: the service cannot check credentials without writing a record; `detail` says why. */
function verifyBadge(ok: boolean | null, cause?: HistoryFailureCause | null): { tone: Tone; label: string } {
  const words = msg().providers;
  if (ok === true) return { tone: "ok", label: words.verified };
  if (ok === false) {
    if (cause === "unreachable") return { tone: "fail", label: words.couldNotReach };
    if (cause === "refused") return { tone: "fail", label: words.requestRefused };
    if (cause === "throttled") return { tone: "warn", label: words.slowedDown };
    return { tone: "fail", label: words.credentialsRefused };
  }
  return { tone: "info", label: words.notCheckable };
}

/** Verify's answer in place: a badge for its outcome, and the outcome said plainly with what to do. */
export function VerifyResult({
  outcome,
  providerName,
  type,
}: {
  outcome: VerifyAnswer;
  providerName: string;
  type: string;
}) {
  const badge = verifyBadge(outcome.ok, outcome.cause);
  const words = verifyWords(outcome, providerName, serviceLabel(type)).words;
  return (
    <span
      class={["verify-result", outcome.ok === null ? "verify-unknown" : outcome.ok ? "verify-ok" : "verify-fail"]}
      role="status"
    >
      <Badge tone={badge.tone}>{badge.label}</Badge> <span safe>{`${sentence(words, providerName)}.`}</span>
    </span>
  );
}

export function MaskedCredentials({ provider }: { provider: Pick<ProviderView, "type" | "credentials"> }) {
  return (
    <ul class="credentials">
      {Object.entries(provider.credentials).map(([key, masked]) => (
        <li class="credential">
          <span class="muted" safe>{`${credentialLabel(provider.type, key)}:`}</span> <code safe>{masked}</code>
        </li>
      ))}
    </ul>
  );
}

/**
 * The provider's own health: the last credential check, a failure every domain of it shares (its
 * service unreachable, its credentials refused), the day's updates; and, apart, the domains a
 * service refused one by one (a wrong zone is that domain's, not the provider's).
 */
function Health({
  provider,
  stats,
  verification,
  problems,
  now,
}: {
  provider: Pick<ProviderView, "name" | "type">;
  stats?: ProviderStats;
  verification?: LastVerification;
  problems: DomainProblem[];
  now: number;
}) {
  const words = msg().providers;
  const failed = stats?.failed_updates_24h ?? 0;
  const wide = problems.find((problem) => PROVIDER_WIDE.includes(problem.cause));
  const own = problems.filter((problem) => !PROVIDER_WIDE.includes(problem.cause));
  return (
    <div class="health">
      {wide ? (
        <p class="health-problem" safe>
          {`${sentence(failureExplained(wide.cause, provider.name, wide.message, serviceLabel(provider.type)).said, provider.name)}.`}
        </p>
      ) : stats && stats.updates_24h > 0 ? (
        <div>
          {failed > 0 ? (
            <Badge tone="idle">{words.updatesFailed(failed, stats.updates_24h)}</Badge>
          ) : (
            <Badge tone="ok">{words.updatesOk(stats.updates_24h)}</Badge>
          )}
        </div>
      ) : (
        <div class="muted">{words.noUpdates}</div>
      )}
      {own.length > 0 ? (
        <div class="domain-problems">
          <Badge tone="warn">{words.domainsRefused(own.length)}</Badge>{" "}
          {own.map((problem, i) => (
            <>
              {i > 0 ? ", " : ""}
              <a href={`/domains/${problem.id}/history`} safe>
                {msg().providers.failingRecord(problem.name, problem.recordType)}
              </a>
            </>
          ))}
        </div>
      ) : (
        ""
      )}
      <div class="muted small verify-last">
        {verification ? (
          <>
            <span title={verification.detail} safe>
              {`${verifyBadge(verification.ok, verification.cause).label}`}
            </span>{" "}
            <TimeAgo at={verification.at} now={now} />
          </>
        ) : stats && stats.updates_24h > 0 && failed === 0 ? (
          // Its updates are the proof: "never verified" beside "6 updates, all OK" read as a doubt.
          words.inUse
        ) : (
          words.neverVerified
        )}
      </div>
    </div>
  );
}

/**
 * The provider's failing domains on its edit form, each with what failed and the service's words:
 * the form reached from a failure shows that failure beside the fields that fix it.
 */
export function FailingDomains({
  provider,
  problems,
}: {
  provider: Pick<ProviderView, "name" | "type">;
  problems: DomainProblem[];
}) {
  if (problems.length === 0) return "";
  return (
    <section class="notice notice-warn failing-domains" aria-labelledby="failing-domains-title">
      <h2 id="failing-domains-title" class="notice-title">
        {msg().providers.failingHere(problems.length)}
      </h2>
      <ul>
        {problems.map((problem) => (
          <li>
            <a href={`/domains/${problem.id}/history`} safe>
              {msg().providers.failingRecord(problem.name, problem.recordType)}
            </a>
            <span
              safe
            >{`: ${failureExplained(problem.cause, provider.name, problem.message, serviceLabel(provider.type)).said}.`}</span>
          </li>
        ))}
      </ul>
      <p class="small">{msg().providers.failingRetried}</p>
    </section>
  );
}

export function ProviderRow({ provider, stats, verification, now, problems = [], result }: ProviderRowProps) {
  // Red only for what is the provider's own: a failed check of its credentials, or a failure all its domains share.
  const failing = verification?.ok === false || problems.some((problem) => PROVIDER_WIDE.includes(problem.cause));
  const titleId = `${providerRowId(provider.id)}-name`;
  const words = msg().providers;
  return (
    <li
      id={providerRowId(provider.id)}
      class={["card provider-card", failing && "card-failing"]}
      aria-labelledby={titleId}
    >
      <div class="provider-card-header">
        <h2 class="card-title" id={titleId}>
          <a href={`/providers/${provider.id}/edit`} safe>
            {provider.name}
          </a>
        </h2>
        <Badge tone="idle">{serviceLabel(provider.type)}</Badge>
        <EnabledSwitch
          url={`/providers/${provider.id}/enabled`}
          enabled={provider.is_enabled}
          label={words.switchLabel(provider.name)}
          target={`#${providerRowId(provider.id)}`}
          id={`provider-enabled-${provider.id}`}
        />
      </div>
      <dl class="facts provider-facts">
        <div>
          <dt>{words.domains}</dt>
          <dd>
            <a href={`/domains?provider=${provider.id}`}>{msg().common.domainCount(provider.domain_count)}</a>
          </dd>
        </div>
        <div>
          <dt>{words.credentials}</dt>
          <dd>
            <MaskedCredentials provider={provider} />
          </dd>
        </div>
        <div>
          <dt>{words.health}</dt>
          <dd>
            <Health provider={provider} stats={stats} verification={verification} problems={problems} now={now} />
          </dd>
        </div>
      </dl>
      <div class="provider-card-actions" data-error-slot>
        <div class="actions">
          {/* The whole card comes back, so its health shows this check too. */}
          <ActionForm
            url={`/providers/${provider.id}/verify`}
            target={`#${providerRowId(provider.id)}`}
            fields={{ view: "card" }}
          >
            <button
              type="submit"
              id={`verify-button-${provider.id}`}
              class="button button-small"
              aria-label={words.verifyName(provider.name)}
            >
              {words.verify}
            </button>
          </ActionForm>
          <a
            class="button button-small button-quiet"
            href={`/providers/${provider.id}/edit`}
            aria-label={msg().common.editName(provider.name)}
          >
            {msg().common.edit}
          </a>
          <form method="post" action={`/providers/${provider.id}/delete`} hx-confirm={deleteProviderQuestion(provider)}>
            <button
              type="submit"
              class="button button-small button-danger"
              aria-label={msg().common.deleteName(provider.name)}
            >
              {msg().common.delete}
            </button>
          </form>
        </div>
        <div id={`verify-${provider.id}`} class="verify-slot" aria-live="polite">
          {result ? <VerifyResult outcome={result} providerName={provider.name} type={provider.type} /> : ""}
        </div>
      </div>
    </li>
  );
}
