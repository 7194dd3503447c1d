// Adding or editing a domain: provider, hostname, record type, schedule (with a live preview of
// its next runs), the provider's options, and the rarely needed ids under "Advanced".

import { Html } from "@elysiajs/html";
import type { DomainView } from "../../src/modules/domains/service";
import type { ProviderView, ProviderZones } from "../../src/modules/providers/service";
import {
  CheckField,
  controlAttrs,
  DefaultSubmit,
  Field,
  type FormErrors,
  FormProblem,
  fieldId,
  Options,
  TypeSelect,
} from "../components";
import {
  type AddressSourceChoices,
  AddressSourceField,
  type AddressSourceValues,
} from "../fragments/address-source-field";
import { serviceFor, serviceLabel } from "../fragments/credential-field";
import { ProviderOptions, type ProviderOptionValues } from "../fragments/provider-options";
import {
  SCHEDULE_ERROR_ID,
  SCHEDULE_HELP_ID,
  SchedulePreview,
  type SchedulePreviewData,
} from "../fragments/schedule-preview";
import { msg } from "../i18n";
import { Layout, PageHeader } from "../layout";

export interface DomainFormValues extends ProviderOptionValues, AddressSourceValues {
  provider_id: string;
  domain_name: string;
  record_type: string;
  cron_schedule: string;
  create_if_missing: boolean;
  is_enabled: boolean;
  zone_id: string;
  external_id: string;
  ipv6_suffix: string;
  ipv6_prefix_length: string;
}

export interface DomainFormPageProps {
  user: string;
  /** The domain being edited; absent when adding one. */
  domain?: DomainView;
  providers: Pick<ProviderView, "id" | "name" | "type" | "is_enabled">[];
  values: DomainFormValues;
  errors: FormErrors;
  schedule: SchedulePreviewData;
  /** The address sources to choose from, with what each gives now. */
  sources: AddressSourceChoices;
  /** The chosen provider's zones, offered for the hostname (absent or not listed: a free text field). */
  zones?: ProviderZones;
}

/** The schedules a person most often wants, beside the raw cron field (each named in `msg().domainForm`). */
export const SCHEDULE_PRESETS = [
  { cron: "*/5 * * * *", label: "every5" },
  { cron: "*/15 * * * *", label: "every15" },
  { cron: "0 * * * *", label: "hourly" },
  { cron: "0 4 * * *", label: "daily" },
] as const;

const ZONE_LIST_ID = "provider-zones";

/** The zones under the hostname: as choices of the field (a datalist) and as words, so a phone without datalists sees them too. */
function ZoneHelp({ zones }: { zones?: ProviderZones }) {
  const words = msg().domainForm;
  if (!zones?.listed || zones.zones.length === 0) return <>{Html.escapeHtml(words.hostnameHelp)}</>;
  const shown = zones.zones.slice(0, 8);
  return (
    <>
      {Html.escapeHtml(words.hostnameInZones)}{" "}
      {shown.map((zone, i) => (
        <>
          {i > 0 ? ", " : ""}
          <code safe>{zone}</code>
        </>
      ))}
      {zones.zones.length > shown.length ? Html.escapeHtml(words.moreZones(zones.zones.length - shown.length)) : ""}.
    </>
  );
}

/**
 * The address of a host behind the router (AAAA only): the stylesheet hides the group while the
 * record type is A (no script needed), and the form ignores it then.
 */
function Ipv6SuffixFields({ values, errors }: { values: DomainFormValues; errors: FormErrors }) {
  const words = msg().domainForm;
  return (
    <fieldset class="field ipv6-suffix" aria-describedby="ipv6-suffix-help">
      <legend safe>{words.suffixLegend}</legend>
      <p class="help" id="ipv6-suffix-help" safe>
        {words.suffixIntro}
      </p>
      <div class="form-grid">
        <Field
          name="ipv6_suffix"
          label={words.suffix}
          errors={errors}
          help={words.suffixHelp("<code>::1234:5678:9abc:def0</code>")}
        >
          <input
            type="text"
            value={values.ipv6_suffix}
            autocomplete="off"
            autocapitalize="none"
            spellcheck="false"
            class="mono"
            placeholder="::1234:5678:9abc:def0"
            {...controlAttrs("ipv6_suffix", errors, true)}
          />
        </Field>
        <Field
          name="ipv6_prefix_length"
          label={words.prefixLength}
          errors={errors}
          help={Html.escapeHtml(words.prefixLengthHelp)}
        >
          <input
            type="text"
            inputmode="numeric"
            value={values.ipv6_prefix_length}
            autocomplete="off"
            placeholder="64"
            {...controlAttrs("ipv6_prefix_length", errors, true)}
          />
        </Field>
      </div>
    </fieldset>
  );
}

export function DomainFormPage({
  user,
  domain,
  providers,
  values,
  errors,
  schedule,
  sources,
  zones,
}: DomainFormPageProps) {
  const words = msg().domainForm;
  const zoneNames = zones?.listed ? zones.zones : [];
  const title = domain ? words.edit : words.add;
  const submit = domain ? words.save : words.add;
  const action = domain ? `/domains/${domain.id}/edit` : "/domains/new";
  const provider = providers.find((p) => String(p.id) === values.provider_id);
  const scheduleError = errors.fields.cron_schedule !== undefined;
  const hasAdvanced =
    values.zone_id !== "" ||
    values.external_id !== "" ||
    errors.fields.zone_id !== undefined ||
    errors.fields.external_id !== undefined;
  return (
    <Layout title={title} user={user} section="domains">
      <PageHeader title={title}>
        <a class="button button-quiet" href="/domains" safe>
          {words.back}
        </a>
      </PageHeader>
      {providers.length === 0 ? (
        <section class="card form-card">
          <p class="empty">{words.noProviders((text) => `<a href="/providers/new">${text}</a>`)}</p>
        </section>
      ) : (
        <section class="card form-card">
          <FormProblem errors={errors} />
          <form method="post" action={action} class="stack" id="domain-form">
            <DefaultSubmit label={submit} />
            <Field name="provider_id" label={words.provider} errors={errors} help={Html.escapeHtml(words.providerHelp)}>
              <TypeSelect
                name="provider_id"
                include="closest form"
                fieldsUrl="/domains/provider-options"
                fieldsTarget="#provider-options"
                options={providers.map((p) => ({
                  value: String(p.id),
                  label: `${p.name} — ${serviceLabel(p.type)}${p.is_enabled ? "" : words.disabled}`,
                }))}
                selected={values.provider_id}
                errors={errors}
              />
            </Field>
            <div class="form-grid">
              <Field name="domain_name" label={words.hostname} errors={errors} help={<ZoneHelp zones={zones} />}>
                <input
                  type="text"
                  value={values.domain_name}
                  list={zoneNames.length > 0 ? ZONE_LIST_ID : undefined}
                  required
                  autocomplete="off"
                  autocapitalize="none"
                  spellcheck="false"
                  placeholder="home.example.com"
                  {...controlAttrs("domain_name", errors, true)}
                />
                {zoneNames.length > 0 ? (
                  <datalist id={ZONE_LIST_ID}>
                    {zoneNames.map((zone) => (
                      <option value={zone} />
                    ))}
                  </datalist>
                ) : (
                  ""
                )}
              </Field>
              <Field name="record_type" label={words.recordType} errors={errors}>
                <select {...controlAttrs("record_type", errors)}>
                  <Options
                    options={[
                      { value: "A", label: "A (IPv4)" },
                      { value: "AAAA", label: "AAAA (IPv6)" },
                    ]}
                    selected={values.record_type}
                  />
                </select>
              </Field>
            </div>
            <div class={["field", scheduleError && "has-error"]}>
              <label for={fieldId("cron_schedule")} safe>
                {words.schedule}
              </label>
              <input
                type="text"
                id={fieldId("cron_schedule")}
                name="cron_schedule"
                value={values.cron_schedule}
                placeholder={words.schedulePlaceholder}
                autocomplete="off"
                spellcheck="false"
                class="mono"
                aria-invalid={scheduleError ? "true" : undefined}
                aria-describedby={`f-cron_schedule-hint ${SCHEDULE_HELP_ID} ${SCHEDULE_ERROR_ID}`}
                autofocus={scheduleError && Object.keys(errors.fields)[0] === "cron_schedule"}
                hx-get="/domains/schedule-preview"
                hx-trigger="input changed delay:300ms"
                hx-target="#schedule-preview"
                hx-swap="outerHTML"
              />
              <div class="schedule-presets" role="group" aria-label={words.presets}>
                {SCHEDULE_PRESETS.map((preset) => (
                  // Without JavaScript each posts the form back with its schedule filled in (nothing saved);
                  // client.js fills the field in place.
                  <button
                    type="submit"
                    name="cron_preset"
                    value={preset.cron}
                    class="button button-small button-quiet"
                    formnovalidate
                    data-cron-preset={preset.cron}
                    aria-pressed={values.cron_schedule.trim() === preset.cron ? "true" : "false"}
                  >
                    {words[preset.label]}
                  </button>
                ))}
              </div>
              <p class="help" id="f-cron_schedule-hint">
                {words.cronHelp("<code>*/10 * * * *</code>")}
              </p>
              {/* The preview shows the schedule's problem itself, so the field error isn't repeated. */}
              <SchedulePreview preview={schedule} />
            </div>
            <AddressSourceField
              values={values}
              errors={errors}
              recordType={values.record_type}
              choices={sources}
              action={action}
            />
            <Ipv6SuffixFields values={values} errors={errors} />
            <ProviderOptions service={provider ? serviceFor(provider.type) : null} values={values} errors={errors} />
            <CheckField
              name="is_enabled"
              label={words.enabled}
              checked={values.is_enabled}
              errors={errors}
              help={Html.escapeHtml(words.enabledHelp)}
            />
            <details class="advanced" open={hasAdvanced}>
              <summary safe>{words.advanced}</summary>
              <p class="help" safe>
                {words.advancedHelp}
              </p>
              <div class="form-grid">
                <Field name="zone_id" label={words.zoneId} errors={errors}>
                  <input
                    type="text"
                    value={values.zone_id}
                    autocomplete="off"
                    spellcheck="false"
                    class="mono"
                    {...controlAttrs("zone_id", errors)}
                  />
                </Field>
                <Field name="external_id" label={words.externalId} errors={errors}>
                  <input
                    type="text"
                    value={values.external_id}
                    autocomplete="off"
                    spellcheck="false"
                    class="mono"
                    {...controlAttrs("external_id", errors)}
                  />
                </Field>
              </div>
            </details>
            <div class="form-actions">
              <button type="submit" class="button button-primary" safe>
                {submit}
              </button>
              <a class="button button-quiet" href="/domains" safe>
                {msg().common.cancel}
              </a>
            </div>
          </form>
        </section>
      )}
    </Layout>
  );
}
