// About: what is running, where its data lives, and the settings in effect. The list of settings
// comes already filtered: secrets appear only as "set" or where their file is, never as values.

import { Html } from "@elysiajs/html";
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
  /** Where each family's public address comes from: `web` or `interface:<name>`. */
  addressSources: { ipv4: string; ipv6: string };
  settings: SettingLine[];
  /** The newest log lines, newest first (secrets are never logged). */
  logLines: readonly string[];
}

/** `web`: the echo services (DDNS_IPV4_URLS / DDNS_IPV6_URLS); `interface:eth0`: that interface's global address. */
function AddressSourceWords({ family, source }: { family: string; source: string }) {
  const words = source === "web" ? "asked of the echo services on the web" : `read from the network interface ${source.slice("interface:".length)}`;
  return (
    <>
      {family}: <code safe>{source}</code> <span class="muted" safe>({words})</span>
    </>
  );
}

export function AboutPage(props: AboutPageProps) {
  return (
    <Layout title="About" user={props.user} section="about">
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
              {props.databasePath === null ? <span class="muted">(in memory)</span> : <code safe>{props.databasePath}</code>}
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
      <section class="card" aria-labelledby="log-title">
        <h2 id="log-title" class="card-title">
          Recent log
        </h2>
        <p class="muted small">The newest lines of ddnsd's log since it started, newest first; the full log goes to its standard error (journalctl -u ddnsd).</p>
        {props.logLines.length === 0 ? (
          <p class="empty">Nothing logged yet.</p>
        ) : (
          <pre class="log-lines" tabindex="0" role="region" aria-label="Recent log lines">
            {props.logLines.map((line) => Html.escapeHtml(line)).join("\n")}
          </pre>
        )}
      </section>
    </Layout>
  );
}
