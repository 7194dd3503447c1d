// About: what is running, where its data lives, and the settings in effect. The list of settings
// comes already filtered: secrets appear only as "set" or where their file is, never as values.

import { Html } from "@elysiajs/html";
import { controlAttrs, Field, type Flash, type FormErrors, LiveRegion, Options } from "../components";
import { bytes, duration } from "../format";
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
  const words =
    source.source === "web"
      ? "asked of the echo services on the web"
      : source.source === "dns"
        ? "asked of resolvers over DNS (DDNS_IPV4_DNS / DDNS_IPV6_DNS)"
        : `read from the network interface ${source.source.slice("interface:".length)}`;
  const who = source.from === "database" ? "chosen below" : "the environment's setting";
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
  const label = family === "ipv4" ? "IPv4" : "IPv6";
  const values = form.values[family];
  const listed = form.interfaces.map((item) => {
    const addresses = item[family];
    return {
      value: `interface:${item.name}`,
      label: `Interface ${item.name} — ${addresses.length > 0 ? addresses.join(", ") : `no usable ${label} address now`}`,
    };
  });
  // A stored interface that is gone (unplugged, renamed) stays selectable, saying so.
  if (values.source.startsWith("interface:") && !listed.some((option) => option.value === values.source)) {
    listed.push({
      value: values.source,
      label: `Interface ${values.source.slice("interface:".length)} — not found on this machine now`,
    });
  }
  const sourceName = `${family}_source`;
  const urlsName = `${family}_urls`;
  return (
    <fieldset class="field">
      <legend>{label}</legend>
      <Field name={sourceName} label={`${label} address from`} errors={form.errors}>
        <select {...controlAttrs(sourceName, form.errors)}>
          <Options
            options={[
              { value: "environment", label: `The environment's setting (${form.environment[family]})` },
              { value: "web", label: "Web services (the echo URLs below)" },
              { value: "dns", label: "DNS resolvers (DDNS_IPV4_DNS / DDNS_IPV6_DNS)" },
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
          label={`${label} echo services`}
          errors={form.errors}
          help={
            <>
              Used with “Web services”: http(s) URLs answering the address, one a line, asked in order until one
              answers.
            </>
          }
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

export function AboutPage(props: AboutPageProps) {
  return (
    <Layout title="About" user={props.user} section="about" flash={props.flash}>
      <PageHeader title="About ddnsd">
        {/* The Swagger page is a different app: a normal navigation, not a boosted swap. */}
        <a class="button" href="/docs" hx-boost="false">
          API reference
        </a>
      </PageHeader>
      <section class="card">
        <dl class="facts">
          <div>
            <dt>Version</dt>
            <dd>
              <code>{props.version}</code>
            </dd>
          </div>
          <div>
            <dt>Uptime</dt>
            <dd>{duration(props.uptimeSeconds)}</dd>
          </div>
          <div>
            <dt>Data directory</dt>
            <dd>
              <code safe>{props.dataDir}</code>
            </dd>
          </div>
          <div>
            <dt>Database</dt>
            <dd>
              {bytes(props.databaseBytes)}{" "}
              {props.databasePath === null ? (
                <span class="muted">(in memory)</span>
              ) : (
                <code safe>{props.databasePath}</code>
              )}
            </dd>
          </div>
          <div>
            <dt>Public address from</dt>
            <dd>
              <AddressSourceWords family="IPv4" source={props.addressSources.ipv4} />
              <br />
              <AddressSourceWords family="IPv6" source={props.addressSources.ipv6} />
            </dd>
          </div>
          <div>
            <dt>Time zone</dt>
            <dd safe>{props.timeZone}</dd>
          </div>
        </dl>
      </section>
      <section class="card" aria-labelledby="backup-title">
        <h2 id="backup-title" class="card-title">
          Backup and export
        </h2>
        <div class="actions">
          {props.databasePath === null ? (
            ""
          ) : (
            // A download, not a page: htmx must not swap it in.
            <form method="post" action="/about/backup" hx-boost="false">
              <button type="submit" class="button">
                Download a backup
              </button>
            </form>
          )}
          <a class="button" href="/about/export" hx-boost="false" download="ddnsd.yaml">
            Export the configuration
          </a>
        </div>
        <p class="help">
          The backup is a copy of the whole database (history included), also kept in the data directory's{" "}
          <code>backups/</code>; <code>ddnsd restore FILE</code> puts it back. The export is a file of the providers,
          domains, update keys and notifications, their secrets sealed with this ddnsd's encryption key, which{" "}
          <code>ddnsd import</code> applies. <a href="/help/operations#back-up-and-restore">Back up and restore</a>
        </p>
      </section>
      <section class="card" aria-labelledby="sources-title">
        <h2 id="sources-title" class="card-title">
          Public address sources
        </h2>
        <p class="muted small">
          Where each family's address is detected: the environment's setting (DDNS_IPV4_SOURCE, DDNS_IPV4_URLS and their
          IPv6 twins), or a choice kept here that wins over it until you choose the environment's setting again. A
          change is detected at once.
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
            <button type="submit" class="button button-primary">
              Save address sources
            </button>
          </div>
        </form>
      </section>
      <section class="card" aria-labelledby="settings-title">
        <h2 id="settings-title" class="card-title">
          Settings in effect
        </h2>
        <p class="muted small">
          From the environment or their defaults. Secrets are never shown. The API's OpenAPI document is at{" "}
          <a href="/docs/json" hx-boost="false">
            /docs/json
          </a>
          .
        </p>
        <div class="table-wrap">
          <table class="table settings-table">
            <tbody>
              {props.settings.map((setting) => (
                <tr>
                  <th scope="row">
                    <code>{setting.name}</code>
                  </th>
                  <td class="cell-setting" safe>
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
          <h2 id="log-title" class="card-title">
            Recent log
          </h2>
          <p class="muted small">
            The newest lines of ddnsd's log since it started, newest first; the full log goes to its standard error
            (journalctl -u ddnsd).
          </p>
          {props.logLines.length === 0 ? (
            <p class="empty">Nothing logged yet.</p>
          ) : (
            <pre class="log-lines" tabindex="0" role="region" aria-label="Recent log lines">
              {props.logLines.map((line) => Html.escapeHtml(line)).join("\n")}
            </pre>
          )}
        </section>
      </LiveRegion>
    </Layout>
  );
}
