// The domain form's options that depend on the provider's type: the service's hostname rule, the
// TTL with the service's own rule as help (none when the service sets the TTL itself), proxying
// where the service has a proxy, and creating a missing record where the service can.
// Swapped by htmx when another provider is chosen, keeping what was typed.

import { Html } from "@elysiajs/html";
import type { ServiceDescription } from "../../src/dns/service";
import { CheckField, controlAttrs, Field, type FormErrors, Options } from "../components";
import { msg } from "../i18n";
import { serviceFor, serviceWord } from "./credential-field";

export interface ProviderOptionValues {
  ttl: string;
  /** "" keeps the record's current setting; "true" or "false" sets it. */
  proxied: string;
  create_if_missing: boolean;
}

export interface ProviderOptionsProps {
  /** The chosen provider's service; null before any provider exists (the first service's TTL rule is shown). */
  service: ServiceDescription | null;
  values: ProviderOptionValues;
  errors: FormErrors;
}

export function ProviderOptions({ service, values, errors }: ProviderOptionsProps) {
  const words = msg().providerOptions;
  const ttl = (service ?? serviceFor("")).ttl;
  return (
    <div id="provider-options" class="form-grid">
      {service?.hostname ? (
        <p class="help" lang="en" safe>
          {`${service.label}: the hostname ${service.hostname.message}.`}
        </p>
      ) : (
        ""
      )}
      {service && !ttl ? (
        <p class="help" safe>
          {words.setsTtl(service.label)}
        </p>
      ) : (
        ""
      )}
      {ttl ? (
        <Field
          name="ttl"
          label={words.ttl}
          errors={errors}
          help={
            <span lang="en" safe>
              {ttl.help}
            </span>
          }
        >
          <input
            type="text"
            inputmode="numeric"
            value={values.ttl}
            placeholder={words.keep}
            {...controlAttrs("ttl", errors, true)}
          />
        </Field>
      ) : (
        ""
      )}
      {service?.proxy ? (
        <Field
          name="proxied"
          label={serviceWord(service.proxy.label)}
          errors={errors}
          help={
            <span lang="en" safe>
              {service.proxy.help}
            </span>
          }
        >
          <select {...controlAttrs("proxied", errors, true)}>
            <Options
              options={[
                { value: "", label: words.keepProxy },
                { value: "true", label: words.proxied },
                { value: "false", label: words.dnsOnly },
              ]}
              selected={values.proxied}
            />
          </select>
        </Field>
      ) : (
        ""
      )}
      {service?.createsRecords === false ? (
        ""
      ) : (
        <CheckField
          name="create_if_missing"
          label={words.createIfMissing}
          checked={values.create_if_missing}
          errors={errors}
        />
      )}
    </div>
  );
}
