// About: what is running, where its data lives, and the settings in effect. The list of settings
// comes already filtered: secrets appear only as "set" or where their file is, never as values.

import { Html } from "@elysiajs/html";
import { controlAttrs, Field, type Flash, type FormErrors, LiveRegion, Options } from "../components";
import { bytes, duration } from "../format";
import { msg } from "../i18n";
import { Layout, PageHeader } from "../layout";

export interface SettingLine {
  /** The environment variable. */
  name: string;
  value: string;
}

export interface AboutPageProps {
  user: string;
  version: string;
  uptimeSeconds: number;
  dataDir: string;
  /** The database file, or null for an in-memory database. */
  databasePath: string | null;
  databaseBytes: number;
  timeZone: string;
  /** Where each family's public address comes from (`web` or `interface:<name>`), and who chose it. */
  addressSources: { ipv4: SourceInEffect; ipv6: SourceInEffect };
  /** The form choosing them: each family's fields, the host's interfaces, what was wrong. */
  sourceForm: AddressSourceForm;
  flash?: Flash | null;
  settings: SettingLine[];
  /** When the page is drawn (the log says what time its lines are from, and refreshes itself). */
  now: number;
  /** The newest log lines, newest first (secrets are never logged). */
  logLines: readonly string[];
}

export interface SourceInEffect {
  source: string;
  /** Chosen in this page (stored), or the environment's setting. */
  from: "database" | "environment";
}

export interface AddressSourceValues {
  /** `environment`, `web` or `interface:<name>`. */
  source: string;
  /** The echo services, one a line. */
  urls: string;
}

export interface AddressSourceForm {
  values: { ipv4: AddressSourceValues; ipv6: AddressSourceValues };
  /** What the environment sets, `web` or `interface:<name>`, for the "use the environment's setting" choice. */
  environment: { ipv4: string; ipv6: string };
  interfaces: { name: string; ipv4: string[]; ipv6: string[] }[];
  errors: FormErrors;
}

/** `web`: the echo services (DDNS_IPV4_URLS / DDNS_IPV6_URLS); `interface:eth0`: that interface's global address. */
function AddressSourceWords({ family, source }: { family: string; source: SourceInEffect }) {
  const about = msg().about;
  const words =
    source.source === "web"
      ? about.fromWeb
      : source.source === "dns"
        ? about.fromDns
        : about.fromInterface(source.source.slice("interface:".length));
  const who = source.from === "database" ? about.chosenBelow : about.fromEnvironment;
  return (
    <>
      {family}: <code safe>{source.source}</code>{" "}
      <span class="muted" safe>
        ({words}; {who})
      </span>
    </>
  );
}

/** One family's choice: the environment's setting, the echo services (their URLs), or an interface with its addresses. */
function FamilySourceFields({ family, form }: { family: "ipv4" | "ipv6"; form: AddressSourceForm }) {
  const words = msg().about;
  const label = family === "ipv4" ? "IPv4" : "IPv6";
  const values = form.values[family];
  const listed = form.interfaces.map((item) => {
    const addresses = item[family];
    return {
      value: `interface:${item.name}`,
      label: words.interface(item.name, addresses.length > 0 ? addresses.join(", ") : words.noUsable(label)),
    };
  });
  // A stored interface that is gone (unplugged, renamed) stays selectable, saying so.
  if (values.source.startsWith("interface:") && !listed.some((option) => option.value === values.source)) {
    listed.push({
      value: values.source,
      label: words.interfaceGone(values.source.slice("interface:".length)),
    });
  }
  const sourceName = `${family}_source`;
  const urlsName = `${family}_urls`;
  return (
    <fieldset class="field">
      <legend>{label}</legend>
      <Field name={sourceName} label={words.familyFrom(label)} errors={form.errors}>
        <select {...controlAttrs(sourceName, form.errors)}>
          <Options
            options={[
              { value: "environment", label: words.environmentChoice(form.environment[family]) },
              { value: "web", label: words.webChoice },
              { value: "dns", label: words.dnsChoice },
              ...listed,
            ]}
            selected={values.source}
          />
        </select>
      </Field>
      {/* Only "Web services" uses the URLs: shown only while it is chosen (styles.css, no script needed). */}
      <div class="echo-urls">
        <Field
          name={urlsName}
          label={words.echoServices(label)}
          errors={form.errors}
          help={Html.escapeHtml(words.echoHelp)}
        >
          <textarea
            rows="3"
            spellcheck="false"
            autocapitalize="none"
            class="mono"
            {...controlAttrs(urlsName, form.errors, true)}
            safe
          >
            {values.urls}
          </textarea>
        </Field>
      </div>
    </fieldset>
  );
}

const code = (text: string) => `<code>${text}</code>`;

export function AboutPage(props: AboutPageProps) {
  const words = msg().about;
  return (
    <Layout title={words.title} user={props.user} section="about" flash={props.flash}>
      <PageHeader title={words.heading}>
        {/* The Swagger page is a different app: a normal navigation, not a boosted swap. */}
        <a class="button" href="/docs" hx-boost="false" safe>
          {words.apiReference}
        </a>
      </PageHeader>
      <section class="card">
        <dl class="facts">
          <div>
            <dt safe>{words.version}</dt>
            <dd>
              <code>{props.version}</code>
            </dd>
          </div>
          <div>
            <dt safe>{words.uptime}</dt>
            <dd>{duration(props.uptimeSeconds)}</dd>
          </div>
          <div>
            <dt safe>{words.dataDir}</dt>
            <dd>
              <code safe>{props.dataDir}</code>
            </dd>
          </div>
          <div>
            <dt safe>{words.database}</dt>
            <dd>
              {bytes(props.databaseBytes)}{" "}
              {props.databasePath === null ? (
                <span class="muted" safe>
                  {words.inMemory}
                </span>
              ) : (
                <code safe>{props.databasePath}</code>
              )}
            </dd>
          </div>
          <div>
            <dt safe>{words.addressFrom}</dt>
            <dd>
              <AddressSourceWords family="IPv4" source={props.addressSources.ipv4} />
              <br />
              <AddressSourceWords family="IPv6" source={props.addressSources.ipv6} />
            </dd>
          </div>
          <div>
            <dt safe>{words.timeZone}</dt>
            <dd>
              <code safe>{props.timeZone}</code>
            </dd>
          </div>
        </dl>
      </section>
      <section class="card" aria-labelledby="backup-title">
        <h2 id="backup-title" class="card-title" safe>
          {words.backup}
        </h2>
        <div class="actions">
          {props.databasePath === null ? (
            ""
          ) : (
            // A download, not a page: htmx must not swap it in.
            <form method="post" action="/about/backup" hx-boost="false">
              <button type="submit" class="button" safe>
                {words.downloadBackup}
              </button>
            </form>
          )}
          <a class="button" href="/about/export" hx-boost="false" download="ddnsd.yaml" safe>
            {words.export}
          </a>
        </div>
        <p class="help">
          {words.backupHelp(code, (text) => `<a href="/help/operations#back-up-and-restore">${text}</a>`)}
        </p>
      </section>
      <section class="card" aria-labelledby="sources-title">
        <h2 id="sources-title" class="card-title" safe>
          {words.sources}
        </h2>
        <p class="muted small" safe>
          {words.sourcesHelp}
        </p>
        <form method="post" action="/about/address-sources" class="stack">
          {props.sourceForm.errors.form ? (
            <p class="field-error" role="alert" safe>
              {props.sourceForm.errors.form}
            </p>
          ) : (
            ""
          )}
          <FamilySourceFields family="ipv4" form={props.sourceForm} />
          <FamilySourceFields family="ipv6" form={props.sourceForm} />
          <div class="form-actions">
            <button type="submit" class="button button-primary" safe>
              {words.saveSources}
            </button>
          </div>
        </form>
      </section>
      <section class="card" aria-labelledby="settings-title">
        <h2 id="settings-title" class="card-title" safe>
          {words.settings}
        </h2>
        <p class="muted small">{words.settingsHelp((text) => `<a href="/docs/json" hx-boost="false">${text}</a>`)}</p>
        <div class="table-wrap">
          <table class="table settings-table">
            <tbody>
              {props.settings.map((setting) => (
                <tr>
                  <th scope="row">
                    <code>{setting.name}</code>
                  </th>
                  {/* What a setting holds, as ddnsd reads it: written as the setting is, never translated. */}
                  <td class="cell-setting" lang="en" safe>
                    {setting.value}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <LiveRegion id="recent-log" url="/about" now={props.now}>
        <section class="card" aria-labelledby="log-title">
          <h2 id="log-title" class="card-title" safe>
            {words.log}
          </h2>
          <p class="muted small" safe>
            {words.logHelp}
          </p>
          {props.logLines.length === 0 ? (
            <p class="empty" safe>
              {words.logEmpty}
            </p>
          ) : (
            <pre class="log-lines" tabindex="0" role="region" aria-label={words.logLines}>
              {props.logLines.map((line) => Html.escapeHtml(line)).join("\n")}
            </pre>
          )}
        </section>
      </LiveRegion>
    </Layout>
  );
}
