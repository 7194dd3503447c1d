// The provider form's fields that follow the chosen type: one input per credential and per option
// of that service's description, with its label and help (where in the service's own control panel
// it is found). Swapped in by htmx when the type changes; without JavaScript the form's "Continue"
// button reloads it for the chosen type. A stored secret is never rendered: on edit only its masked
// form is shown, and an empty input keeps it.

import { Html } from "@elysiajs/html";
import { SERVICES } from "../../src/dns/registry";
import type { CredentialField, OptionField, ServiceDescription } from "../../src/dns/service";
import type { ProviderView } from "../../src/modules/providers/service";
import { controlAttrs, Field, type FormErrors, fieldId, HelpText, Options } from "../components";

/** The service of a type among `services`; an unknown one (a tampered form) shows the first one's fields. */
export function serviceFor(type: string, services: readonly ServiceDescription[] = SERVICES): ServiceDescription {
  return services.find((service) => service.type === type) ?? services[0] ?? SERVICES[0];
}

function registered(type: string): ServiceDescription | undefined {
  return SERVICES.find((service) => service.type === type);
}

/** The service's name for people; a type no longer registered is shown as it is stored. */
export function serviceLabel(type: string): string {
  return registered(type)?.label ?? type;
}

/** The label of a credential key, e.g. "API token" for Cloudflare's `api_token`. */
export function credentialLabel(type: string, key: string): string {
  return registered(type)?.credentials.find((field) => field.key === key)?.label ?? key;
}

/** The form's input names: `credential_<key>` and `option_<key>` (ui/forms.ts reads them back). */
export const credentialInput = (key: string) => `credential_${key}`;
export const optionInput = (key: string) => `option_${key}`;

/** What was typed (or is stored, for options) in the fields that follow the type. */
export interface ServiceFieldValues {
  credentials: Record<string, string>;
  /** Header options as "Name: value" lines. */
  options: Record<string, string>;
}

export interface ServiceFieldsProps {
  /** The chosen type's service (`serviceFor`). */
  service: ServiceDescription;
  values: ServiceFieldValues;
  errors: FormErrors;
  /** On edit: the provider as stored, whose masked secrets are shown while the type stays. */
  stored?: Pick<ProviderView, "type" | "credentials">;
}

function CredentialInput({
  field,
  serviceName,
  value,
  stored,
  errors,
}: {
  field: CredentialField;
  serviceName: string;
  value: string;
  stored: string | undefined;
  errors: FormErrors;
}) {
  const name = credentialInput(field.key);
  const keep = field.secret && stored !== undefined;
  return (
    <Field
      name={name}
      label={field.optional ? `${field.label} (optional)` : field.label}
      errors={errors}
      help={
        <>
          {keep ? (
            <>
              Stored: <code safe>{stored}</code>. Leave empty to keep it.{" "}
            </>
          ) : (
            ""
          )}
          <HelpText text={field.help} />
          {field.url ? (
            <>
              {" "}
              <a href={field.url} target="_blank" rel="noopener noreferrer">
                Open the {Html.escapeHtml(serviceName)} page where it is made
                <span class="visually-hidden"> (opens in a new tab)</span>
              </a>
            </>
          ) : (
            ""
          )}
        </>
      }
    >
      {field.secret && (field.maxChars ?? 0) > 1024 ? (
        // A secret of many lines (a JSON key file's contents) is pasted into a box that holds it;
        // like any secret it is never sent back to the browser.
        <textarea
          rows="6"
          spellcheck="false"
          autocapitalize="none"
          class="mono"
          required={!keep && !field.optional}
          placeholder={keep ? "unchanged" : undefined}
          {...controlAttrs(name, errors, true)}
        ></textarea>
      ) : field.secret ? (
        // The secret is never sent back to the browser, not even what was just typed into a rejected form.
        <input
          type="password"
          autocomplete="off"
          spellcheck="false"
          required={!keep && !field.optional}
          placeholder={keep ? "unchanged" : undefined}
          {...controlAttrs(name, errors, true)}
        />
      ) : (
        <input
          type="text"
          autocomplete="off"
          spellcheck="false"
          value={value || stored || ""}
          required={!field.optional}
          {...controlAttrs(name, errors, true)}
        />
      )}
    </Field>
  );
}

function OptionInput({ option, value, errors }: { option: OptionField; value: string; errors: FormErrors }) {
  const name = optionInput(option.key);
  const label = option.required ? option.label : `${option.label} (optional)`;
  const help = (
    <HelpText text={option.default === undefined ? option.help : `${option.help} Default: ${option.default}.`} />
  );
  if (option.kind === "choice") {
    const choices = (option.choices ?? []).map((choice) => ({ value: choice, label: choice }));
    return (
      <Field name={name} label={label} errors={errors} help={help}>
        <select {...controlAttrs(name, errors, true)}>
          <Options
            options={option.required ? choices : [{ value: "", label: "Default" }, ...choices]}
            selected={value}
          />
        </select>
      </Field>
    );
  }
  if (option.kind === "template" || option.kind === "headers") {
    return (
      <Field name={name} label={label} errors={errors} help={help}>
        <textarea rows="3" spellcheck="false" required={option.required} {...controlAttrs(name, errors, true)} safe>
          {value}
        </textarea>
      </Field>
    );
  }
  const list = option.presets ? `${fieldId(name)}-presets` : undefined;
  return (
    <Field name={name} label={label} errors={errors} help={help}>
      <input
        type={option.kind === "url" ? "url" : "text"}
        autocomplete="off"
        spellcheck="false"
        value={value}
        list={list}
        required={option.required}
        {...controlAttrs(name, errors, true)}
      />
      {option.presets ? (
        <datalist id={list}>
          {option.presets.map((preset) => (
            <option value={preset.value} safe>
              {preset.label}
            </option>
          ))}
        </datalist>
      ) : (
        ""
      )}
    </Field>
  );
}

export function ServiceFields({ service, values, errors, stored }: ServiceFieldsProps) {
  const same = stored !== undefined && stored.type === service.type;
  return (
    <div id="service-fields" class="stack">
      <p class="help">
        <span safe>{service.summary}</span>{" "}
        <a href={`/help/services/${service.type}`} target="_blank" rel="noopener">
          How to set up <span safe>{service.label}</span>
        </a>
      </p>
      {service.credentials.map((field) => (
        <CredentialInput
          field={field}
          serviceName={service.label}
          value={values.credentials[field.key] ?? ""}
          stored={same ? stored.credentials[field.key] : undefined}
          errors={errors}
        />
      ))}
      {service.options.map((option) => (
        <OptionInput option={option} value={values.options[option.key] ?? ""} errors={errors} />
      ))}
    </div>
  );
}
