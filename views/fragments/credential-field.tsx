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
import { msg } from "../i18n";

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

/**
 * A service's own word (a field's label from its description), marked English on the page: the
 * services' vocabulary is not translated. Returned as HTML for a `Field`'s label.
 */
export function serviceWord(text: string): string {
  return `<span lang="en">${Html.escapeHtml(text)}</span>`;
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
  const words = msg().serviceFields;
  const name = credentialInput(field.key);
  const keep = field.secret && stored !== undefined;
  return (
    <Field
      name={name}
      label={field.optional ? words.optional(serviceWord(field.label)) : serviceWord(field.label)}
      errors={errors}
      help={
        <>
          {keep ? (
            <>
              {Html.escapeHtml(words.stored)} <code safe>{stored}</code>. {Html.escapeHtml(words.keep)}{" "}
            </>
          ) : (
            ""
          )}
          <span lang="en">
            <HelpText text={field.help} />
          </span>
          {field.url ? (
            <>
              {" "}
              <a href={field.url} target="_blank" rel="noopener noreferrer">
                {Html.escapeHtml(words.openPage(serviceName))}
                <span class="visually-hidden" safe>
                  {words.newTab}
                </span>
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
          placeholder={keep ? words.unchanged : undefined}
          {...controlAttrs(name, errors, true)}
        ></textarea>
      ) : field.secret ? (
        // The secret is never sent back to the browser, not even what was just typed into a rejected form.
        <input
          type="password"
          autocomplete="off"
          spellcheck="false"
          required={!keep && !field.optional}
          placeholder={keep ? words.unchanged : undefined}
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
  const words = msg().serviceFields;
  const name = optionInput(option.key);
  const label = option.required ? serviceWord(option.label) : words.optional(serviceWord(option.label));
  const help = (
    <>
      <span lang="en">
        <HelpText text={option.help} />
      </span>
      {option.default === undefined ? "" : <> {Html.escapeHtml(words.defaultIs(option.default))}</>}
    </>
  );
  if (option.kind === "choice") {
    const choices = (option.choices ?? []).map((choice) => ({ value: choice, label: choice }));
    return (
      <Field name={name} label={label} errors={errors} help={help}>
        <select {...controlAttrs(name, errors, true)}>
          <Options
            options={option.required ? choices : [{ value: "", label: words.byDefault }, ...choices]}
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
        <span lang="en" safe>
          {service.summary}
        </span>{" "}
        <a href={`/help/services/${service.type}`} target="_blank" rel="noopener" safe>
          {msg().serviceFields.howTo(service.label)}
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
