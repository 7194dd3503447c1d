// The domain form's options that depend on the provider's type: TTL (both), proxying
// (Cloudflare only). Swapped by htmx when another provider is chosen, keeping what was typed.

import { Html } from "@elysiajs/html";
import type { ProviderType } from "../../src/dns/provider";
import { controlAttrs, Field, Options, type FormErrors } from "../components";

export interface ProviderOptionValues {
  ttl: string;
  /** "" keeps the record's current setting; "true" or "false" sets it. */
  proxied: string;
}

const TTL_HELP: Record<ProviderType, string> = {
  cloudflare: "Seconds (30–86400), or 1 for automatic. Empty keeps the record's TTL (automatic for a new record).",
  dynu: "Seconds (30–86400). Empty keeps the record's TTL (Dynu's default for a new record).",
};

export function ProviderOptions({ type, values, errors }: { type: ProviderType | null; values: ProviderOptionValues; errors: FormErrors }) {
  return (
    <div id="provider-options" class="form-grid">
      <Field name="ttl" label="TTL" errors={errors} help={TTL_HELP[type ?? "cloudflare"]}>
        <input type="text" inputmode="numeric" value={values.ttl} placeholder="keep" {...controlAttrs("ttl", errors, true)} />
      </Field>
      {type === "cloudflare" ? (
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
