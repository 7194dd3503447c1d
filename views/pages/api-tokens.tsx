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
import { msg } from "../i18n";
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

/** The scopes, each with its words: the short name the list shows and the form's sentence. */
const SCOPES: {
  value: ApiTokenFormValues["scope"];
  name: "read" | "update" | "admin";
  label: "scopeRead" | "scopeUpdate" | "scopeAdmin";
}[] = [
  { value: "read", name: "read", label: "scopeRead" },
  { value: "update", name: "update", label: "scopeUpdate" },
  { value: "admin", name: "admin", label: "scopeAdmin" },
];

export function revokeTokenQuestion(token: Pick<ApiTokenView, "name">): string {
  return msg().apiTokens.revokeQuestion(token.name);
}

function domainLabel(domain: DomainChoice): string {
  return msg().common.domainAt(domain.domain_name, domain.record_type, domain.provider_name);
}

function Reach({ token, domains }: { token: ApiTokenView; domains: DomainChoice[] }) {
  if (token.scope !== "update") return <span>{msg().apiTokens.everything}</span>;
  if (token.domain_ids === null) return <span>{msg().common.allDomains}</span>;
  return (
    <ul class="plain-list">
      {token.domain_ids.map((id) => {
        const domain = domains.find((d) => d.id === id);
        return domain ? <li safe>{domainLabel(domain)}</li> : <li class="muted">{msg().common.deletedDomain}</li>;
      })}
    </ul>
  );
}

function CreatedToken({ created }: { created: ApiTokenView }) {
  const words = msg().apiTokens;
  return (
    <section class="card key-created" aria-labelledby="created-title">
      <h2 id="created-title" class="card-title" safe>
        {words.created(created.name)}
      </h2>
      <p>
        <strong>{msg().common.copyNow}</strong> {words.keptHashed("<code>Authorization: Bearer ddnsd_…</code>")}
      </p>
      <div class="field">
        <label for="new-token">{words.theToken}</label>
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
            {words.copyToken}
          </button>
        </div>
      </div>
    </section>
  );
}

function CreateForm({ domains, values, errors }: Pick<ApiTokensPageProps, "domains" | "values" | "errors">) {
  const chosen = new Set(values.domain_ids);
  const words = msg().apiTokens;
  const common = msg().common;
  return (
    <section class="card form-card" aria-labelledby="create-title">
      <h2 id="create-title" class="card-title">
        {words.make}
      </h2>
      <FormProblem errors={errors} />
      <form method="post" action="/api-tokens" class="stack" id="api-token-form">
        <Field name="name" label={common.name} errors={errors} help={words.nameHelp}>
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
          <legend>{words.mayDo}</legend>
          {SCOPES.map((scope) => (
            <div class="field-check">
              <input
                type="radio"
                id={`scope-${scope.value}`}
                name="scope"
                value={scope.value}
                checked={values.scope === scope.value}
              />
              <label for={`scope-${scope.value}`}>{words[scope.label]}</label>
            </div>
          ))}
          <FieldError name="scope" errors={errors} />
        </fieldset>
        <fieldset
          class={["field", "choices", errors.fields.domain_ids !== undefined && "has-error"]}
          id={fieldId("domain_ids")}
        >
          <legend>{words.reaches}</legend>
          <div class="field-check">
            <input type="radio" id="domains-all" name="domains" value="all" checked={values.domains === "all"} />
            <label for="domains-all">{common.allLater}</label>
          </div>
          <div class="field-check">
            <input
              type="radio"
              id="domains-chosen"
              name="domains"
              value="chosen"
              checked={values.domains === "chosen"}
            />
            <label for="domains-chosen">{common.onlyThese}</label>
          </div>
          {domains.length === 0 ? (
            <p class="help">{common.noDomains}</p>
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
        <Field name="expires_at" label={words.expiresOn} errors={errors} help={words.expiresHelp}>
          <input type="date" value={values.expires_on} {...controlAttrs("expires_at", errors, true)} />
        </Field>
        <div class="form-actions">
          <button type="submit" class="button button-primary">
            {words.makeToken}
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
  const words = msg().apiTokens;
  const common = msg().common;
  return (
    <section id={TOKEN_LIST_ID} class="card" aria-labelledby="api-token-list-title">
      <ListHeading id="api-token-list-title" text={words.yours} deletion={deletion} />
      {tokens.length === 0 ? (
        <p class="empty">{words.empty}</p>
      ) : (
        <div class="table-wrap">
          <table class="table responsive">
            <thead>
              <tr>
                <th scope="col">{common.name}</th>
                <th scope="col">{words.scope}</th>
                <th scope="col">{words.reachesColumn}</th>
                <th scope="col">{words.token}</th>
                <th scope="col">{words.expires}</th>
                <th scope="col">{words.lastUsed}</th>
                <th scope="col">
                  <span class="visually-hidden">{common.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((token) => (
                <tr id={`api-token-${token.id}`}>
                  <td data-label={common.name} class="cell-name" safe>
                    {token.name}
                  </td>
                  <td data-label={words.scope}>{words[token.scope]}</td>
                  <td data-label={words.reachesColumn}>
                    <Reach token={token} domains={domains} />
                  </td>
                  <td data-label={words.token}>
                    <code safe>{token.token}</code>
                  </td>
                  <td data-label={words.expires}>
                    {token.expires_at === null ? (
                      <span class="muted">{common.never}</span>
                    ) : (
                      <span safe>{token.expires_at}</span>
                    )}
                  </td>
                  <td data-label={words.lastUsed}>
                    {token.last_used_at === null ? (
                      <span class="muted">{common.never}</span>
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
                        label={words.revokeName(token.name)}
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
  const words = msg().apiTokens;
  return (
    <Layout title={words.title} user={user} section="api-tokens" flash={flash}>
      <PageHeader title={words.title} />
      <p class="lead muted">{words.lead((text) => `<a href="/help/operations#automation-recipes">${text}</a>`)}</p>
      {created ? <CreatedToken created={created} /> : ""}
      <TokenList tokens={tokens} domains={domains} now={now} />
      <CreateForm domains={domains} values={values} errors={errors} />
    </Layout>
  );
}
