// The domain form's options that depend on the provider's type: the TTL, with the service's own
// rule as help (none when the service sets the TTL itself), and proxying (Cloudflare only).
// Swapped by htmx when another provider is chosen, keeping what was typed.

import { Html } from "@elysiajs/html";
import { controlAttrs, Field, Options, type FormErrors } from "../components";
import { serviceFor } from "./credential-field";

export interface ProviderOptionValues {
  ttl: string;
  /** "" keeps the record's current setting; "true" or "false" sets it. */
  proxied: string;
}

export function ProviderOptions({ type, values, errors }: { type: string | null; values: ProviderOptionValues; errors: FormErrors }) {
  const service = type === null ? null : serviceFor(type);
  const ttl = (service ?? serviceFor("")).ttl;
  return (
    <div id="provider-options" class="form-grid">
      {ttl ? (
        <Field name="ttl" label="TTL" errors={errors} help={ttl.help}>
          <input type="text" inputmode="numeric" value={values.ttl} placeholder="keep" {...controlAttrs("ttl", errors, true)} />
        </Field>
      ) : (
        ""
      )}
      {service?.type === "cloudflare" ? (
        <Field name="proxied" label="Cloudflare proxy" errors={errors} help="Proxied traffic goes through Cloudflare (orange cloud).">
          <select {...controlAttrs("proxied", errors, true)}>
            <Options
              options={[
                { value: "", label: "Keep as it is (off for a new record)" },
                { value: "true", label: "Proxied" },
                { value: "false", label: "DNS only" },
              ]}
              selected={values.proxied}
            />
          </select>
        </Field>
      ) : (
        ""
      )}
    </div>
  );
}
