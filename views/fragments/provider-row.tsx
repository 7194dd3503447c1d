// One provider as a table row: type, on/off switch, domains, masked credentials, its health (the
// last credential check and the last day's failed updates), and its actions. "Verify" and the
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

export function providerRowId(id: number): string {
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
    <>
      {Object.entries(provider.credentials).map(([key, masked]) => (
        <span class="credential">
          <span class="muted" safe>{credentialLabel(provider.type, key)}</span> <code safe>{masked}</code>
        </span>
      ))}
    </>
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
  return (
    <tr id={providerRowId(provider.id)} class={failing ? "row-failing" : undefined}>
      <td data-label="Name" class="cell-name">
        <a href={`/providers/${provider.id}/edit`} safe>
          {provider.name}
        </a>
      </td>
      <td data-label="Type">
        <Badge tone="idle">{serviceLabel(provider.type)}</Badge>
      </td>
      <td data-label="Enabled">
        <EnabledSwitch
          url={`/providers/${provider.id}/enabled`}
          enabled={provider.is_enabled}
          label={`Provider ${provider.name}`}
          target={`#${providerRowId(provider.id)}`}
          id={`provider-enabled-${provider.id}`}
        />
      </td>
      <td data-label="Domains">
        <a href={`/domains?provider=${provider.id}`}>{plural(provider.domain_count, "domain")}</a>
      </td>
      <td data-label="Credentials">
        <MaskedCredentials provider={provider} />
      </td>
      <td data-label="Health">
        <Health stats={stats} verification={verification} now={now} />
      </td>
      <td class="cell-actions" data-error-slot>
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
      </td>
    </tr>
  );
}
