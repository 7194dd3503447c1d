// One provider as a card, which reads the same for any service however many credentials it has:
// name, type and on/off switch; its domains, masked credentials (one per line, each with its label)
// and health (the last credential check and the last day's failed updates); then its actions, with
// Verify's answer under them at the card's full width. "Verify" and the
// switch are real forms that htmx enhances; delete asks first and says how many domains go with
// it (a dialog with JavaScript, a confirmation page without).

import { Html } from "@elysiajs/html";
import type { ProviderStats } from "../../src/modules/metrics/service";
import type { LastVerification, ProviderView } from "../../src/modules/providers/service";
import { ActionForm, Badge, EnabledSwitch, TimeAgo, type Tone } from "../components";
import { plural } from "../format";
import { credentialLabel, serviceLabel } from "./credential-field";

export interface ProviderRowProps {
  provider: ProviderView;
  stats?: ProviderStats;
  verification?: LastVerification;
  now: number;
}

function providerRowId(id: number): string {
  return `provider-${id}`;
}

/** What deleting a provider takes with it, in the words of the confirmation. */
export function deleteProviderQuestion(provider: Pick<ProviderView, "name" | "domain_count">): string {
  const count = provider.domain_count;
  const goes =
    count === 0
      ? "It has no domains."
      : `${count === 1 ? "Its 1 domain and its" : `Its ${count} domains and their`} history will be deleted too (the DNS records at the provider stay).`;
  return `Delete the provider "${provider.name}"? ${goes}`;
}

/** `ok: null`: the service cannot check credentials without writing a record; `detail` says why. */
function verifyBadge(ok: boolean | null): { tone: Tone; label: string } {
  if (ok === true) return { tone: "ok", label: "Verified" };
  if (ok === false) return { tone: "fail", label: "Refused" };
  return { tone: "info", label: "Not checkable" };
}

export function VerifyResult({ ok, detail }: { ok: boolean | null; detail: string }) {
  const badge = verifyBadge(ok);
  return (
    <span class={["verify-result", ok === null ? "verify-unknown" : ok ? "verify-ok" : "verify-fail"]} role="status">
      <Badge tone={badge.tone}>{badge.label}</Badge> <span safe>{detail}</span>
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

/** The provider's health: the last credential check, and how its domains' updates went today. */
function Health({ stats, verification, now }: { stats?: ProviderStats; verification?: LastVerification; now: number }) {
  const failed = stats?.failed_updates_24h ?? 0;
  return (
    <div class="health">
      {stats && stats.updates_24h > 0 ? (
        <div>
          {failed > 0 ? (
            <Badge tone="fail">
              {failed} of {plural(stats.updates_24h, "update")} failed
            </Badge>
          ) : (
            <Badge tone="ok">{plural(stats.updates_24h, "update")}, all OK</Badge>
          )}
        </div>
      ) : (
        <div class="muted">no updates in 24 h</div>
      )}
      <div class="muted small">
        {verification ? (
          <>
            <span title={verification.detail} safe>
              {`${verifyBadge(verification.ok).label}`}
            </span>{" "}
            <TimeAgo at={verification.at} now={now} />
          </>
        ) : (
          "never verified"
        )}
      </div>
    </div>
  );
}

export function ProviderRow({ provider, stats, verification, now }: ProviderRowProps) {
  const failing = (stats?.failed_updates_24h ?? 0) > 0 || verification?.ok === false;
  const titleId = `${providerRowId(provider.id)}-name`;
  return (
    <li id={providerRowId(provider.id)} class={["card provider-card", failing && "card-failing"]} aria-labelledby={titleId}>
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
          label={`Provider ${provider.name}`}
          target={`#${providerRowId(provider.id)}`}
          id={`provider-enabled-${provider.id}`}
        />
      </div>
      <dl class="facts provider-facts">
        <div>
          <dt>Domains</dt>
          <dd>
            <a href={`/domains?provider=${provider.id}`}>{plural(provider.domain_count, "domain")}</a>
          </dd>
        </div>
        <div>
          <dt>Credentials</dt>
          <dd>
            <MaskedCredentials provider={provider} />
          </dd>
        </div>
        <div>
          <dt>Health</dt>
          <dd>
            <Health stats={stats} verification={verification} now={now} />
          </dd>
        </div>
      </dl>
      <div class="provider-card-actions" data-error-slot>
        <div class="actions">
          <ActionForm url={`/providers/${provider.id}/verify`} target={`#verify-${provider.id}`} swap="innerHTML">
            <button type="submit" id={`verify-button-${provider.id}`} class="button button-small" aria-label={`Verify ${provider.name}`}>
              Verify
            </button>
          </ActionForm>
          <a class="button button-small button-quiet" href={`/providers/${provider.id}/edit`} aria-label={`Edit ${provider.name}`}>
            Edit
          </a>
          <form method="post" action={`/providers/${provider.id}/delete`} hx-confirm={deleteProviderQuestion(provider)}>
            <button type="submit" class="button button-small button-danger" aria-label={`Delete ${provider.name}`}>
              Delete
            </button>
          </form>
        </div>
        <div id={`verify-${provider.id}`} class="verify-slot" aria-live="polite"></div>
      </div>
    </li>
  );
}
