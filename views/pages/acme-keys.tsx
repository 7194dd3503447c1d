// Certificate keys (docs/certificates.md): the keys a certificate client on the LAN sets the ACME
// challenge of chosen domains with. The list shows each key's username and names; the form creates
// one, whose password and acme-dns account are shown once, in the answer to that very post.

import { Html } from "@elysiajs/html";
import type { AcmeKeyView } from "../../src/modules/acme/service";
import type { DomainView } from "../../src/modules/domains/service";
import {
  controlAttrs,
  Field,
  FieldError,
  type Flash,
  type FormErrors,
  FormProblem,
  fieldId,
  TimeAgo,
} from "../components";
import { Layout, PageHeader } from "../layout";

export interface AcmeKeyFormValues {
  name: string;
  domain_ids: string[];
}

export const NO_ACME_KEY_VALUES: AcmeKeyFormValues = { name: "", domain_ids: [] };

export interface AcmeKeysPageProps {
  user: string;
  flash?: Flash | null;
  now: number;
  keys: AcmeKeyView[];
  domains: Pick<DomainView, "id" | "domain_name" | "record_type" | "provider_name">[];
  values: AcmeKeyFormValues;
  errors: FormErrors;
  /** The key just created, shown this once with its password and acme-dns account. */
  created?: AcmeKeyView;
}

function CreatedKey({ created }: { created: AcmeKeyView }) {
  return (
    <section class="card key-created" aria-labelledby="created-title">
      <h2 id="created-title" class="card-title" safe>
        {`Certificate key “${created.name}” created`}
      </h2>
      <p>
        <strong>Copy it now: the password is shown only this once.</strong> ddnsd keeps only a hash of it.
      </p>
      <div class="field">
        <label for="new-acme-username">Username (acme-dns X-Api-User, httpreq username)</label>
        <input type="text" id="new-acme-username" class="mono" value={created.username} readonly />
      </div>
      <div class="field">
        <label for="new-acme-password">Password (acme-dns X-Api-Key, httpreq password)</label>
        <input
          type="text"
          id="new-acme-password"
          class="mono"
          value={created.password ?? ""}
          readonly
          autocomplete="off"
        />
      </div>
      <div class="field">
        <label for="new-acme-account">
          acme-dns accounts (the file lego, Traefik, certbot and Home Assistant keep)
        </label>
        <textarea id="new-acme-account" class="mono" rows="8" readonly safe>
          {JSON.stringify(created.acme_dns_accounts ?? {}, null, 2)}
        </textarea>
      </div>
      <p>
        Setup for each client: <a href="/help/certificates">Certificates for the home</a>.
      </p>
    </section>
  );
}

export function AcmeKeysPage({ user, flash, now, keys, domains, values, errors, created }: AcmeKeysPageProps) {
  const chosen = new Set(values.domain_ids);
  return (
    <Layout title="Certificate keys" user={user} section="acme-keys" flash={flash}>
      <PageHeader title="Certificate keys" />
      <p class="lead muted">
        Keys a certificate client (Traefik, certbot, acme.sh, Caddy, Home Assistant) uses to prove your names to Let's
        Encrypt through ddnsd, without your DNS account's credentials.
      </p>
      {created ? <CreatedKey created={created} /> : ""}
      <section class="card" aria-labelledby="acme-key-list-title">
        <h2 id="acme-key-list-title" class="card-title">
          Your certificate keys
        </h2>
        {keys.length === 0 ? (
          <p class="empty">No certificate keys yet.</p>
        ) : (
          <div class="table-wrap">
            <table class="table responsive">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Names</th>
                  <th scope="col">Username</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.map((key) => (
                  <tr id={`acme-key-${key.id}`}>
                    <td data-label="Name" class="cell-name" safe>
                      {key.name}
                    </td>
                    <td data-label="Names" safe>
                      {key.hostnames.join(", ")}
                    </td>
                    <td data-label="Username">
                      <code safe>{key.username}</code>
                    </td>
                    <td data-label="Last used">
                      {key.last_used_at === null ? (
                        <span class="muted">never</span>
                      ) : (
                        <TimeAgo at={key.last_used_at} now={now} />
                      )}
                    </td>
                    <td class="cell-actions">
                      <form method="post" action={`/acme-keys/${key.id}/delete`}>
                        <input type="hidden" name="confirm" value="yes" />
                        <button
                          type="submit"
                          class="button button-danger"
                          aria-label={`Delete certificate key ${key.name}`}
                        >
                          Delete
                        </button>
                      </form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section class="card" aria-labelledby="acme-key-create-title">
        <h2 id="acme-key-create-title" class="card-title">
          Create a certificate key
        </h2>
        <form method="post" action="/acme-keys" novalidate>
          <FormProblem errors={errors} />
          <Field name="name" label="Name" errors={errors}>
            <input type="text" {...controlAttrs("name", errors)} value={values.name} maxlength="100" required />
          </Field>
          <fieldset class={["field", errors.fields.domain_ids !== undefined && "has-error"]} id={fieldId("domain_ids")}>
            <legend>The names it may prove (their wildcard certificates too)</legend>
            <ul class="plain-list">
              {domains.map((domain) => (
                <li>
                  <input
                    type="checkbox"
                    id={`acme-domain-${domain.id}`}
                    name="domain_ids"
                    value={String(domain.id)}
                    checked={chosen.has(String(domain.id))}
                  />
                  <label for={`acme-domain-${domain.id}`} safe>
                    {`${domain.domain_name} (${domain.record_type}) at ${domain.provider_name}`}
                  </label>
                </li>
              ))}
            </ul>
            <FieldError name="domain_ids" errors={errors} />
          </fieldset>
          <div class="form-actions">
            <button type="submit" class="button button-primary">
              Create key
            </button>
          </div>
        </form>
      </section>
    </Layout>
  );
}
