// API tokens: what scripts, Home Assistant and dashboards call the API with (`Authorization: Bearer
// ddnsd_…`). The list shows each token masked with its scope, the domains an update token reaches,
// its expiry and last use; the form makes one, whose whole token is shown once, in the answer to
// that very post (never stored, never in a cookie).

import { Html } from "@elysiajs/html";
import type { ApiTokenView } from "../../src/modules/api-tokens/service";
import type { DomainView } from "../../src/modules/domains/service";
import {
  controlAttrs,
  DeleteForm,
  Field,
  FieldError,
  type Flash,
  type FormErrors,
  FormProblem,
  fieldId,
  type ListDeletion,
  ListHeading,
  TimeAgo,
} from "../components";
import { Layout, PageHeader } from "../layout";

export interface ApiTokenFormValues {
  name: string;
  scope: "read" | "update" | "admin";
  /** For an update token: "all" domains, or "chosen" with `domain_ids`. */
  domains: "all" | "chosen";
  domain_ids: string[];
  /** A day (YYYY-MM-DD), or "" for never. */
  expires_on: string;
}

type DomainChoice = Pick<DomainView, "id" | "domain_name" | "record_type" | "provider_name">;

export interface ApiTokensPageProps {
  user: string;
  flash?: Flash | null;
  now: number;
  tokens: ApiTokenView[];
  domains: DomainChoice[];
  values: ApiTokenFormValues;
  errors: FormErrors;
  /** The token just made, shown this once with its whole value. */
  created?: ApiTokenView;
}

export const NO_TOKEN_VALUES: ApiTokenFormValues = {
  name: "",
  scope: "read",
  domains: "all",
  domain_ids: [],
  expires_on: "",
};

const SCOPES: { value: ApiTokenFormValues["scope"]; label: string }[] = [
  { value: "read", label: "Read: every GET of the API, and /metrics (dashboards, Prometheus)" },
  { value: "update", label: "Update: read and force an update of the domains below only (Home Assistant)" },
  { value: "admin", label: "Admin: everything a signed-in admin can, except managing API tokens" },
];

export function revokeTokenQuestion(token: Pick<ApiTokenView, "name">): string {
  return `Revoke the API token "${token.name}"? Whatever still uses it is refused from its next request.`;
}

function domainLabel(domain: DomainChoice): string {
  return `${domain.domain_name} (${domain.record_type}) at ${domain.provider_name}`;
}

function Reach({ token, domains }: { token: ApiTokenView; domains: DomainChoice[] }) {
  if (token.scope !== "update") return <span>Everything</span>;
  if (token.domain_ids === null) return <span>All domains</span>;
  return (
    <ul class="plain-list">
      {token.domain_ids.map((id) => {
        const domain = domains.find((d) => d.id === id);
        return domain ? <li safe>{domainLabel(domain)}</li> : <li class="muted">a deleted domain</li>;
      })}
    </ul>
  );
}

function CreatedToken({ created }: { created: ApiTokenView }) {
  return (
    <section class="card key-created" aria-labelledby="created-title">
      <h2 id="created-title" class="card-title" safe>
        {`API token “${created.name}” created`}
      </h2>
      <p>
        <strong>Copy it now: it is shown only this once.</strong> ddnsd keeps only a hash of it; if it is lost, revoke
        it and make another. Send it as <code>Authorization: Bearer ddnsd_…</code>.
      </p>
      <div class="field">
        <label for="new-token">The token</label>
        <div class="inline-control">
          <input
            type="text"
            id="new-token"
            class="mono"
            value={created.token}
            readonly
            autocomplete="off"
            spellcheck="false"
          />
          <button type="button" class="button" data-copy="new-token" hidden>
            Copy token
          </button>
        </div>
      </div>
    </section>
  );
}

function CreateForm({ domains, values, errors }: Pick<ApiTokensPageProps, "domains" | "values" | "errors">) {
  const chosen = new Set(values.domain_ids);
  return (
    <section class="card form-card" aria-labelledby="create-title">
      <h2 id="create-title" class="card-title">
        Make an API token
      </h2>
      <FormProblem errors={errors} />
      <form method="post" action="/api-tokens" class="stack" id="api-token-form">
        <Field name="name" label="Name" errors={errors} help="What the token is for, e.g. Home Assistant.">
          <input
            type="text"
            value={values.name}
            required
            maxlength="100"
            autocomplete="off"
            {...controlAttrs("name", errors, true)}
          />
        </Field>
        <fieldset class={["field", "choices", errors.fields.scope !== undefined && "has-error"]} id={fieldId("scope")}>
          <legend>What it may do</legend>
          {SCOPES.map((scope) => (
            <div class="field-check">
              <input
                type="radio"
                id={`scope-${scope.value}`}
                name="scope"
                value={scope.value}
                checked={values.scope === scope.value}
              />
              <label for={`scope-${scope.value}`}>{scope.label}</label>
            </div>
          ))}
          <FieldError name="scope" errors={errors} />
        </fieldset>
        <fieldset
          class={["field", "choices", errors.fields.domain_ids !== undefined && "has-error"]}
          id={fieldId("domain_ids")}
        >
          <legend>Domains an update token reaches</legend>
          <div class="field-check">
            <input type="radio" id="domains-all" name="domains" value="all" checked={values.domains === "all"} />
            <label for="domains-all">All domains, including ones added later</label>
          </div>
          <div class="field-check">
            <input
              type="radio"
              id="domains-chosen"
              name="domains"
              value="chosen"
              checked={values.domains === "chosen"}
            />
            <label for="domains-chosen">Only these:</label>
          </div>
          {domains.length === 0 ? (
            <p class="help">No domains yet.</p>
          ) : (
            <ul class="plain-list choice-list">
              {domains.map((domain) => (
                <li class="field-check">
                  <input
                    type="checkbox"
                    id={`token-domain-${domain.id}`}
                    name="domain_ids"
                    value={String(domain.id)}
                    checked={chosen.has(String(domain.id))}
                  />
                  <label for={`token-domain-${domain.id}`} safe>
                    {domainLabel(domain)}
                  </label>
                </li>
              ))}
            </ul>
          )}
          <FieldError name="domain_ids" errors={errors} />
        </fieldset>
        <Field
          name="expires_at"
          label="Expires on (optional)"
          errors={errors}
          help="The day (UTC) it stops working; empty: never."
        >
          <input type="date" value={values.expires_on} {...controlAttrs("expires_at", errors, true)} />
        </Field>
        <div class="form-actions">
          <button type="submit" class="button button-primary">
            Make token
          </button>
        </div>
      </form>
    </section>
  );
}

const TOKEN_LIST_ID = "api-token-list";

export function TokenList({
  tokens,
  domains,
  now,
  deletion,
}: Pick<ApiTokensPageProps, "tokens" | "domains" | "now"> & { deletion?: ListDeletion | null }) {
  return (
    <section id={TOKEN_LIST_ID} class="card" aria-labelledby="api-token-list-title">
      <ListHeading id="api-token-list-title" text="Your API tokens" deletion={deletion} />
      {tokens.length === 0 ? (
        <p class="empty">No API tokens yet. Make one below for each script or home automation.</p>
      ) : (
        <div class="table-wrap">
          <table class="table responsive">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scope</th>
                <th scope="col">Reaches</th>
                <th scope="col">Token</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((token) => (
                <tr id={`api-token-${token.id}`}>
                  <td data-label="Name" class="cell-name" safe>
                    {token.name}
                  </td>
                  <td data-label="Scope">{token.scope}</td>
                  <td data-label="Reaches">
                    <Reach token={token} domains={domains} />
                  </td>
                  <td data-label="Token">
                    <code safe>{token.token}</code>
                  </td>
                  <td data-label="Expires">
                    {token.expires_at === null ? (
                      <span class="muted">never</span>
                    ) : (
                      <span safe>{token.expires_at}</span>
                    )}
                  </td>
                  <td data-label="Last used">
                    {token.last_used_at === null ? (
                      <span class="muted">never</span>
                    ) : (
                      <TimeAgo at={token.last_used_at} now={now} />
                    )}
                  </td>
                  <td class="cell-actions">
                    <div class="actions">
                      <DeleteForm
                        url={`/api-tokens/${token.id}/delete`}
                        list={TOKEN_LIST_ID}
                        question={revokeTokenQuestion(token)}
                        label={`Revoke API token ${token.name}`}
                        id={`api-token-delete-${token.id}`}
                        autofocus={deletion?.focusId === token.id}
                      />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function ApiTokensPage({ user, flash, now, tokens, domains, values, errors, created }: ApiTokensPageProps) {
  return (
    <Layout title="API tokens" user={user} section="api-tokens" flash={flash}>
      <PageHeader title="API tokens" />
      <p class="lead muted">
        Tokens for scripts, Home Assistant and dashboards: no password to store, nothing that runs out every week.
        Recipes: <a href="/help/operations#automation-recipes">Automation recipes</a>.
      </p>
      {created ? <CreatedToken created={created} /> : ""}
      <TokenList tokens={tokens} domains={domains} now={now} />
      <CreateForm domains={domains} values={values} errors={errors} />
    </Layout>
  );
}
