// The provider form's credential input, which follows the chosen type: its label, and help that
// says where in the provider's own control panel the secret is found. Swapped in by htmx when
// the type changes. The stored secret is never rendered: on edit only its masked form is shown.

import { Html } from "@elysiajs/html";
import type { ProviderType } from "../../src/dns/provider";
import { PROVIDER_TYPES } from "../../src/modules/providers/model";
import type { ProviderView } from "../../src/modules/providers/service";
import { controlAttrs, Field, type FormErrors } from "../components";

export const PROVIDER_LABEL: Record<ProviderType, string> = { cloudflare: "Cloudflare", dynu: "Dynu" };

export const CREDENTIAL_LABEL: Record<ProviderType, string> = { cloudflare: "API token", dynu: "API key" };

/** A type the field can follow; an unknown one (a tampered form) shows Cloudflare's. */
export function knownType(type: string): ProviderType {
  return (PROVIDER_TYPES as readonly string[]).includes(type) ? (type as ProviderType) : "cloudflare";
}

/** The stored credential, masked, when the provider keeps its type; otherwise a new one is needed. */
export function storedMask(provider: Pick<ProviderView, "type" | "credentials"> | undefined, type: ProviderType): string | null {
  return provider && provider.type === type ? (Object.values(provider.credentials)[0] ?? null) : null;
}

function CredentialHelp({ type }: { type: ProviderType }) {
  if (type === "cloudflare") {
    return (
      <>
        In the Cloudflare dashboard: <strong>My Profile → API Tokens → Create Token</strong>. Give the token{" "}
        <strong>Zone : DNS : Edit</strong> (and <strong>Zone : Zone : Read</strong>) for the zones of your domains.
      </>
    );
  }
  return (
    <>
      In the Dynu control panel: <strong>Control Panel → API Credentials</strong>, then the <strong>API Key</strong>{" "}
      (the eye icon shows it).
    </>
  );
}

export interface CredentialFieldProps {
  type: ProviderType;
  errors: FormErrors;
  /** On edit: the stored secret, masked ("••••3f9a"); empty input keeps it. */
  masked?: string | null;
}

/** The secret is never sent back to the browser, not even what was just typed into a rejected form. */
export function CredentialField({ type, errors, masked }: CredentialFieldProps) {
  const keep = masked !== undefined && masked !== null;
  return (
    <div id="credential-field">
      <Field
        name="credential"
        label={CREDENTIAL_LABEL[type]}
        errors={errors}
        help={
          <>
            {keep ? (
              <>
                Stored: <code safe>{masked}</code>. Leave empty to keep it.{" "}
              </>
            ) : (
              ""
            )}
            <CredentialHelp type={type} />
          </>
        }
      >
        <input
          type="password"
          autocomplete="off"
          spellcheck="false"
          required={!keep}
          placeholder={keep ? "unchanged" : undefined}
          {...controlAttrs("credential", errors, true)}
        />
      </Field>
    </div>
  );
}
