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
import { ServiceFields, type ServiceFieldValues, serviceFor } from "../fragments/credential-field";
import { type DomainProblem, deleteProviderQuestion, FailingDomains } from "../fragments/provider-row";
import { msg } from "../i18n";
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
  const words = msg().providers;
  const title = provider ? words.editTitle : words.add;
  // The service API refuses another type while domains use the provider; the form doesn't offer it.
  const typeLocked = provider !== undefined && provider.domain_count > 0;
  return (
    <Layout title={title} user={user} section="providers" flash={flash}>
      <PageHeader title={title}>
        <a class="button button-quiet" href="/providers">
          {words.back}
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
          <DefaultSubmit label={provider ? words.save : words.add} />
          <Field name="name" label={msg().common.name} errors={errors} help={words.nameHelp}>
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
                <span class="field-label">{words.service}</span>{" "}
                <strong safe>{services.find((service) => service.type === values.type)?.label ?? values.type}</strong>
                {typeLocked ? <span class="muted small">{` ${words.typeLocked(provider.domain_count)}`}</span> : ""}
              </p>
              {typeLocked ? (
                <input type="hidden" name="type" value={values.type} />
              ) : (
                <details class="change-service" open={errors.fields.type !== undefined}>
                  <summary>{words.changeService}</summary>
                  <Field name="type" label={words.type} errors={errors} help={words.typeHelp}>
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
                <span class="field-label">{words.service}</span>{" "}
                <strong safe>{services.find((service) => service.type === values.type)?.label ?? values.type}</strong>{" "}
                <a href="/providers/new">{words.chooseAnother}</a>
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
            label={words.enabled}
            checked={values.is_enabled}
            errors={errors}
            help={words.enabledHelp}
          />
          <div class="form-actions">
            <button type="submit" class="button button-primary">
              {provider ? words.save : words.add}
            </button>
            <a class="button button-quiet" href="/providers">
              {msg().common.cancel}
            </a>
          </div>
        </form>
      </section>
      {provider ? (
        <section class="card form-card">
          <h2 class="card-title">{words.checkOrRemove}</h2>
          <div class="actions">
            {/* Without JavaScript: back to this page with the outcome as a notice. */}
            <ActionForm url={`/providers/${provider.id}/verify`} target="#verify-result" swap="innerHTML">
              <button type="submit" id="verify-saved" class="button">
                {words.verifySaved}
              </button>
            </ActionForm>
            <form
              method="post"
              action={`/providers/${provider.id}/delete`}
              hx-confirm={deleteProviderQuestion(provider)}
            >
              <button type="submit" class="button button-danger">
                {words.deleteProvider}
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
