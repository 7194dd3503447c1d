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
import { msg } from "../i18n";
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
  const words = msg().acmeKeys;
  return (
    <section class="card key-created" aria-labelledby="created-title">
      <h2 id="created-title" class="card-title" safe>
        {words.created(created.name)}
      </h2>
      <p>
        <strong>{words.copyNow}</strong> {words.keptHashed}
      </p>
      <div class="field">
        <label for="new-acme-username">{words.username}</label>
        <input type="text" id="new-acme-username" class="mono" value={created.username} readonly />
      </div>
      <div class="field">
        <label for="new-acme-password">{words.password}</label>
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
        <label for="new-acme-account">{words.accounts}</label>
        <textarea id="new-acme-account" class="mono" rows="8" readonly safe>
          {JSON.stringify(created.acme_dns_accounts ?? {}, null, 2)}
        </textarea>
      </div>
      <p>{words.setup((text) => `<a href="/help/certificates">${text}</a>`)}</p>
    </section>
  );
}

export function AcmeKeysPage({ user, flash, now, keys, domains, values, errors, created }: AcmeKeysPageProps) {
  const chosen = new Set(values.domain_ids);
  const words = msg().acmeKeys;
  const common = msg().common;
  return (
    <Layout title={words.title} user={user} section="acme-keys" flash={flash}>
      <PageHeader title={words.title} />
      <p class="lead muted">{words.lead}</p>
      {created ? <CreatedKey created={created} /> : ""}
      <section class="card" aria-labelledby="acme-key-list-title">
        <h2 id="acme-key-list-title" class="card-title">
          {words.yours}
        </h2>
        {keys.length === 0 ? (
          <p class="empty">{words.empty}</p>
        ) : (
          <div class="table-wrap">
            <table class="table responsive">
              <thead>
                <tr>
                  <th scope="col">{common.name}</th>
                  <th scope="col">{words.names}</th>
                  <th scope="col">{words.usernameColumn}</th>
                  <th scope="col">{words.lastUsed}</th>
                  <th scope="col">
                    <span class="visually-hidden">{common.actions}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.map((key) => (
                  <tr id={`acme-key-${key.id}`}>
                    <td data-label={common.name} class="cell-name" safe>
                      {key.name}
                    </td>
                    <td data-label={words.names} safe>
                      {key.hostnames.join(", ")}
                    </td>
                    <td data-label={words.usernameColumn}>
                      <code safe>{key.username}</code>
                    </td>
                    <td data-label={words.lastUsed}>
                      {key.last_used_at === null ? (
                        <span class="muted">{common.never}</span>
                      ) : (
                        <TimeAgo at={key.last_used_at} now={now} />
                      )}
                    </td>
                    <td class="cell-actions">
                      <form method="post" action={`/acme-keys/${key.id}/delete`}>
                        <input type="hidden" name="confirm" value="yes" />
                        <button type="submit" class="button button-danger" aria-label={words.deleteName(key.name)}>
                          {common.delete}
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
          {words.create}
        </h2>
        <form method="post" action="/acme-keys" novalidate>
          <FormProblem errors={errors} />
          <Field name="name" label={common.name} errors={errors}>
            <input type="text" {...controlAttrs("name", errors)} value={values.name} maxlength="100" required />
          </Field>
          <fieldset class={["field", errors.fields.domain_ids !== undefined && "has-error"]} id={fieldId("domain_ids")}>
            <legend>{words.mayProve}</legend>
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
                    {common.domainAt(domain.domain_name, domain.record_type, domain.provider_name)}
                  </label>
                </li>
              ))}
            </ul>
            <FieldError name="domain_ids" errors={errors} />
          </fieldset>
          <div class="form-actions">
            <button type="submit" class="button button-primary">
              {words.createKey}
            </button>
          </div>
        </form>
      </section>
    </Layout>
  );
}
