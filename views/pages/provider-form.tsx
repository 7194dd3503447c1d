// Adding or editing a provider. The credential and option fields follow the type select (htmx
// swaps them; without JavaScript "Continue" reloads the form for the chosen type); on edit an empty
// secret keeps the stored one, which is only ever shown masked.

import { Html } from "@elysiajs/html";
import type { ServiceDescription } from "../../src/dns/service";
import type { ProviderView } from "../../src/modules/providers/service";
import {
  ActionForm,
  CheckField,
  controlAttrs,
  DefaultSubmit,
  Field,
  FieldError,
  type Flash,
  type FormErrors,
  FormProblem,
  TypeSelect,
} from "../components";
import { plural } from "../format";
import { ServiceFields, type ServiceFieldValues, serviceFor } from "../fragments/credential-field";
import { type DomainProblem, deleteProviderQuestion, FailingDomains } from "../fragments/provider-row";
import { Layout, PageHeader } from "../layout";

export interface ProviderFormValues extends ServiceFieldValues {
  name: string;
  type: string;
  is_enabled: boolean;
}

export interface ProviderFormPageProps {
  user: string;
  /** The provider being edited; absent when adding one. */
  provider?: ProviderView;
  values: ProviderFormValues;
  errors: FormErrors;
  /** The services the type select offers (the app's registry). */
  services: readonly ServiceDescription[];
  /** The outcome of "Verify saved credentials" sent without JavaScript. */
  flash?: Flash | null;
  /** The provider's domains whose newest update failed at the service. */
  problems?: DomainProblem[];
}

export function ProviderFormPage({
  user,
  provider,
  values,
  errors,
  services,
  flash,
  problems = [],
}: ProviderFormPageProps) {
  const title = provider ? "Edit provider" : "Add provider";
  // The service API refuses another type while domains use the provider; the form doesn't offer it.
  const typeLocked = provider !== undefined && provider.domain_count > 0;
  return (
    <Layout title={title} user={user} section="providers" flash={flash}>
      <PageHeader title={title}>
        <a class="button button-quiet" href="/providers">
          Back to providers
        </a>
      </PageHeader>
      {provider ? <FailingDomains provider={provider} problems={problems} /> : ""}
      <section class="card form-card">
        <FormProblem errors={errors} />
        <form
          method="post"
          action={provider ? `/providers/${provider.id}/edit` : "/providers/new"}
          class="stack"
          id="provider-form"
        >
          <DefaultSubmit label={provider ? "Save changes" : "Add provider"} />
          <Field name="name" label="Name" errors={errors} help="A name you'll recognise, e.g. “Cloudflare (personal)”.">
            <input
              type="text"
              value={values.name}
              required
              maxlength="100"
              autocomplete="off"
              {...controlAttrs("name", errors, true)}
            />
          </Field>
          {provider ? (
            // The service as text, not a select of every service: changing it is rare (and refused
            // while domains use the provider), so the choice waits behind "Change the service".
            <div class={["field", errors.fields.type !== undefined && "has-error"]}>
              <p class="chosen-service">
                <span class="field-label">Service</span>{" "}
                <strong safe>{services.find((service) => service.type === values.type)?.label ?? values.type}</strong>
                {typeLocked ? (
                  <span class="muted small">{` Can't change while it has ${plural(provider.domain_count, "domain")}.`}</span>
                ) : (
                  ""
                )}
              </p>
              {typeLocked ? (
                <input type="hidden" name="type" value={values.type} />
              ) : (
                <details class="change-service" open={errors.fields.type !== undefined}>
                  <summary>Change the service</summary>
                  <Field name="type" label="Type" errors={errors} help="The DNS service your domains are hosted at.">
                    <TypeSelect
                      fieldsUrl="/providers/credential-field"
                      fieldsTarget="#service-fields"
                      vals={{ provider: provider.id }}
                      options={[...services]
                        .sort((a, b) => a.label.localeCompare(b.label, "en", { sensitivity: "base" }))
                        .map((service) => ({ value: service.type, label: service.label }))}
                      selected={values.type}
                      errors={errors}
                    />
                  </Field>
                </details>
              )}
              {typeLocked ? <FieldError name="type" errors={errors} /> : ""}
            </div>
          ) : (
            // A new provider's service was chosen in the picker (/providers/new); going back there changes it.
            <div class={["field", errors.fields.type !== undefined && "has-error"]}>
              <p class="chosen-service">
                <span class="field-label">Service</span>{" "}
                <strong safe>{services.find((service) => service.type === values.type)?.label ?? values.type}</strong>{" "}
                <a href="/providers/new">Choose another service</a>
              </p>
              <input type="hidden" name="type" value={values.type} />
              <FieldError name="type" errors={errors} />
            </div>
          )}
          <ServiceFields
            service={serviceFor(values.type, services)}
            values={values}
            errors={errors}
            stored={provider}
          />
          <CheckField
            name="is_enabled"
            label="Enabled"
            checked={values.is_enabled}
            errors={errors}
            help="A disabled provider's domains are not updated."
          />
          <div class="form-actions">
            <button type="submit" class="button button-primary">
              {provider ? "Save changes" : "Add provider"}
            </button>
            <a class="button button-quiet" href="/providers">
              Cancel
            </a>
          </div>
        </form>
      </section>
      {provider ? (
        <section class="card form-card">
          <h2 class="card-title">Check or remove</h2>
          <div class="actions">
            {/* Without JavaScript: back to this page with the outcome as a notice. */}
            <ActionForm url={`/providers/${provider.id}/verify`} target="#verify-result" swap="innerHTML">
              <button type="submit" id="verify-saved" class="button">
                Verify saved credentials
              </button>
            </ActionForm>
            <form
              method="post"
              action={`/providers/${provider.id}/delete`}
              hx-confirm={deleteProviderQuestion(provider)}
            >
              <button type="submit" class="button button-danger">
                Delete provider
              </button>
            </form>
          </div>
          <div id="verify-result" class="verify-slot" aria-live="polite"></div>
        </section>
      ) : (
        ""
      )}
    </Layout>
  );
}
