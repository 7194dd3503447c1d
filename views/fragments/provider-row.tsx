// One provider as a table row: type, on/off switch, domains, masked credentials, the last day's
// success rate, and its actions. "Verify" fills the result cell in place; delete asks first and
// says how many domains go with it.

import { Html } from "@elysiajs/html";
import type { ProviderStats } from "../../src/modules/metrics/service";
import type { ProviderView } from "../../src/modules/providers/service";
import { Badge, EnabledSwitch } from "../components";
import { plural } from "../format";
import { credentialLabel, serviceLabel } from "./credential-field";

export interface ProviderRowProps {
  provider: ProviderView;
  stats?: ProviderStats;
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
export function VerifyResult({ ok, detail }: { ok: boolean | null; detail: string }) {
  const [tone, label] = ok === null ? (["info", "Not checkable"] as const) : ok ? (["ok", "Verified"] as const) : (["fail", "Refused"] as const);
  return (
    <span class={["verify-result", ok === null ? "verify-unknown" : ok ? "verify-ok" : "verify-fail"]}>
      <Badge tone={tone}>{label}</Badge> <span safe>{detail}</span>
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

export function ProviderRow({ provider, stats }: ProviderRowProps) {
  const rate = stats?.success_rate_24h ?? null;
  return (
    <tr id={providerRowId(provider.id)}>
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
        />
      </td>
      <td data-label="Domains">
        <a href={`/domains?provider=${provider.id}`}>{plural(provider.domain_count, "domain")}</a>
      </td>
      <td data-label="Credentials">
        <MaskedCredentials provider={provider} />
      </td>
      <td data-label="Last 24 h">
        {stats && stats.updates_24h > 0 ? (
          <>
            {rate}% of {plural(stats.updates_24h, "update")}
          </>
        ) : (
          <span class="muted">no updates</span>
        )}
      </td>
      <td class="cell-actions">
        <div class="actions">
          <button
            type="button"
            class="button button-small"
            hx-post={`/providers/${provider.id}/verify`}
            hx-target={`#verify-${provider.id}`}
            hx-disabled-elt="this"
          >
            Verify
          </button>
          <a class="button button-small button-quiet" href={`/providers/${provider.id}/edit`}>
            Edit
          </a>
          <form method="post" action={`/providers/${provider.id}/delete`} hx-confirm={deleteProviderQuestion(provider)}>
            <button type="submit" class="button button-small button-danger">
              Delete
            </button>
          </form>
        </div>
        <div id={`verify-${provider.id}`} class="verify-slot" aria-live="polite"></div>
      </td>
    </tr>
  );
}
