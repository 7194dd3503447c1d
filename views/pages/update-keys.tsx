// Update keys: the keys routers push their address with (GET /nic/update). The list shows each
// key masked with the domains it covers and when it was last used; the form creates one, whose
// whole key is shown once, in the answer to that very post (never stored, never in a cookie);
// the router settings to paste name this ddnsd's own /nic/update URL.

import { Html } from "@elysiajs/html";
import type { DomainView } from "../../src/modules/domains/service";
import type { UpdateKeyView } from "../../src/modules/update-keys/service";
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
import { msg, pageLang } from "../i18n";
import { FRITZBOX, type FritzBoxNames } from "../i18n/fritzbox";
import { Layout, PageHeader } from "../layout";
import { pageFacts } from "../page-facts";

export interface UpdateKeyFormValues {
  name: string;
  /** "all", or "chosen" with `domain_ids`. */
  scope: "all" | "chosen";
  domain_ids: string[];
}

export interface UpdateKeysPageProps {
  user: string;
  flash?: Flash | null;
  now: number;
  keys: UpdateKeyView[];
  domains: Pick<DomainView, "id" | "domain_name" | "record_type" | "provider_name">[];
  values: UpdateKeyFormValues;
  errors: FormErrors;
  /** The key just created, shown this once with its whole value. */
  created?: UpdateKeyView;
  /** This ddnsd's router push URL as the browser reached it, e.g. `http://ddnsd.lan:8001/nic/update`. */
  pushUrl: string;
}

export const NO_KEY_VALUES: UpdateKeyFormValues = { name: "", scope: "all", domain_ids: [] };

export function deleteKeyQuestion(key: Pick<UpdateKeyView, "name">): string {
  return msg().updateKeys.deleteQuestion(key.name);
}

/** "home.example.com (A) at Cloudflare (personal)": the same name at two providers is two domains. */
function domainLabel(domain: Pick<DomainView, "domain_name" | "record_type" | "provider_name">): string {
  return msg().common.domainAt(domain.domain_name, domain.record_type, domain.provider_name);
}

/** The domains a key covers, by name; "All domains" for a key without a list. */
function Covered({ ids, domains }: { ids: number[] | null; domains: UpdateKeysPageProps["domains"] }) {
  if (ids === null) return <span>{msg().common.allDomains}</span>;
  return (
    <ul class="plain-list">
      {ids.map((id) => {
        const domain = domains.find((d) => d.id === id);
        return domain ? <li safe>{domainLabel(domain)}</li> : <li class="muted">{msg().common.deletedDomain}</li>;
      })}
    </ul>
  );
}

function CreatedKey({ created }: { created: UpdateKeyView }) {
  const words = msg().updateKeys;
  return (
    <section class="card key-created" aria-labelledby="created-title">
      <h2 id="created-title" class="card-title" safe>
        {words.created(created.name)}
      </h2>
      <p>
        <strong>{msg().common.copyNow}</strong> {words.keptHashed}
      </p>
      <div class="field">
        <label for="new-key">{words.theKey}</label>
        <div class="inline-control">
          <input
            type="text"
            id="new-key"
            class="mono"
            value={created.key}
            readonly
            autocomplete="off"
            spellcheck="false"
          />
          {/* Shown by client.js; without JavaScript the key is selectable text. */}
          <button type="button" class="button" data-copy="new-key" hidden>
            {words.copyKey}
          </button>
        </div>
      </div>
    </section>
  );
}

/** Hosts a router cannot reach ddnsd by: this machine's own loopback names, as the browser on it used them. */
export function unreachableByRouter(pushUrl: string): boolean {
  const host = new URL(pushUrl).hostname.replace(/^\[|\]$/g, "");
  return (
    host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127\./.test(host) || host === "0.0.0.0"
  );
}

/** The domains the key just made covers, in the page's order (none without a key). */
function coveredDomains(created: UpdateKeyView | undefined, domains: UpdateKeysPageProps["domains"]) {
  if (created === undefined) return [];
  return domains.filter((d) => created.domain_ids === null || created.domain_ids.includes(d.id));
}

const coveredName = (created: UpdateKeyView | undefined, domains: UpdateKeysPageProps["domains"]) =>
  coveredDomains(created, domains)[0]?.domain_name;

/**
 * The FRITZ!Box's DynDNS form field by field, in the box's own names (views/i18n/fritzbox.ts): the
 * one a home user meets most, filled in with the key just made (and a domain it covers) when there
 * is one. A German page names only the German menu; any other page names the English one with the
 * German beside it (most boxes in the field speak German).
 */
function FritzBoxFields({ pushUrl, created, domains }: Pick<UpdateKeysPageProps, "pushUrl" | "created" | "domains">) {
  const words = msg().updateKeys;
  const covered = coveredDomains(created, domains);
  const domainName = covered[0]?.domain_name ?? "home.example.com";
  const families = new Set(covered.filter((d) => d.domain_name === domainName).map((d) => d.record_type));
  // A name with no AAAA record gets no IPv6 placeholder, or the box would push its IPv6 to nothing.
  const myip = families.size > 0 && !families.has("AAAA") ? "<ipaddr>" : "<ipaddr>,<ip6addr>";
  const password = created?.key ?? "<pass>";
  const german = pageFacts().locale === "de";
  const box: FritzBoxNames = german ? FRITZBOX.de : FRITZBOX.en;
  const rows: [keyof FritzBoxNames, string][] = [
    ["updateUrl", `${pushUrl}?hostname=<domain>&myip=${myip}&password=<pass>`],
    ["domainName", domainName],
    ["username", words.fritzAnyName],
    ["password", password],
  ];
  // The box's names are quoted as it writes them, never translated: English ones on a Chinese page are marked so.
  const named = (key: keyof FritzBoxNames): string =>
    pageLang() === "zh-CN" ? String(<span lang="en">{Html.escapeHtml(box[key])}</span>) : Html.escapeHtml(box[key]);
  return (
    <div class="fritzbox">
      <h3 class="card-subtitle">FRITZ!Box</h3>
      <p class="small">
        {words.fritzIntro(named("menu"), named("useDynDns"), named("userDefined"))}
        {german ? (
          ""
        ) : (
          <>
            {" "}
            <span class="muted">
              ({words.fritzGermanNote}{" "}
              <span lang="de" safe>
                {`${FRITZBOX.de.menu}, „${FRITZBOX.de.userDefined}“`}
              </span>
              )
            </span>
          </>
        )}
      </p>
      <dl class="facts">
        {rows.map(([key, value]) => (
          <div>
            <dt>
              {named(key)}
              {german ? (
                ""
              ) : (
                <>
                  {" "}
                  <span class="muted small" lang="de" safe>
                    {`(${FRITZBOX.de[key]})`}
                  </span>
                </>
              )}
            </dt>
            <dd>
              <code safe>{value}</code>
            </dd>
          </div>
        ))}
      </dl>
      <p class="muted small" safe>
        {words.fritzFillsIn}
      </p>
    </div>
  );
}

function RouterSettings({ pushUrl, created, domains }: Pick<UpdateKeysPageProps, "pushUrl" | "created" | "domains">) {
  const words = msg().updateKeys;
  const host = pushUrl.replace(/^https?:\/\//, "");
  return (
    <section class="card" aria-labelledby="router-title">
      <h2 id="router-title" class="card-title">
        {words.routerSettings}
      </h2>
      {unreachableByRouter(pushUrl) ? (
        <p class="notice notice-warn router-unreachable" role="note">
          <span safe>{words.openedAs(new URL(pushUrl).host)}</span>{" "}
          {words.useLanAddress("<code>192.168.178.20:8001</code>", "<code>ddnsd.lan</code>")}
        </p>
      ) : (
        ""
      )}
      <p>
        {words.pushTo(String(<code safe>{pushUrl}</code>))}
        {created ? words.carryKey : ""}
      </p>
      <FritzBoxFields pushUrl={pushUrl} created={created} domains={domains} />
      <dl class="facts router-examples">
        <div>
          <dt>{words.oneUrl}</dt>
          <dd>
            <code
              safe
            >{`${pushUrl}?hostname=${coveredName(created, domains) ?? "<domain>"}&myip=<address>&password=${created?.key ?? "<key>"}`}</code>
          </dd>
        </div>
        <div>
          <dt>{words.unifi}</dt>
          <dd>
            <code safe>{`${host}?hostname=%h&myip=%i`}</code>
          </dd>
        </div>
        <div>
          <dt>{words.openwrt}</dt>
          <dd>
            <code safe>{`${pushUrl.replace("://", "://[USERNAME]:[PASSWORD]@")}?hostname=[DOMAIN]&myip=[IP]`}</code>
          </dd>
        </div>
      </dl>
      <p class="muted small">{words.stepByStep((text) => `<a href="/help/router-push">${text}</a>`)}</p>
    </section>
  );
}

/**
 * The domains by name, each name once with its records (a router pushes a name, and its A and AAAA
 * go together): one tick box a name.
 */
function byName(domains: UpdateKeysPageProps["domains"]): { hostname: string; ids: number[]; label: string }[] {
  const names = new Map<string, UpdateKeysPageProps["domains"]>();
  for (const domain of domains) names.set(domain.domain_name, [...(names.get(domain.domain_name) ?? []), domain]);
  return [...names]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([hostname, records]) => ({
      hostname,
      ids: records.map((record) => record.id),
      label: msg().common.domainAt(
        hostname,
        records.map((record) => record.record_type).join(", "),
        [...new Set(records.map((record) => record.provider_name))].join(", "),
      ),
    }));
}

function CreateForm({ domains, values, errors }: Pick<UpdateKeysPageProps, "domains" | "values" | "errors">) {
  const chosen = new Set(values.domain_ids.flatMap((ids) => ids.split(",")));
  const words = msg().updateKeys;
  return (
    <section class="card form-card" aria-labelledby="create-title">
      <h2 id="create-title" class="card-title">
        {words.create}
      </h2>
      <FormProblem errors={errors} />
      <form method="post" action="/update-keys" class="stack" id="update-key-form">
        <Field name="name" label={words.name} errors={errors} help={words.nameHelp}>
          <input
            type="text"
            value={values.name}
            required
            maxlength="100"
            autocomplete="off"
            {...controlAttrs("name", errors, true)}
          />
        </Field>
        <fieldset
          class={["field", "choices", errors.fields.domain_ids !== undefined && "has-error"]}
          id={fieldId("domain_ids")}
        >
          <legend>{words.mayUpdate}</legend>
          <div class="field-check">
            <input type="radio" id="scope-all" name="scope" value="all" checked={values.scope === "all"} />
            <label for="scope-all">{msg().common.allLater}</label>
          </div>
          <div class="field-check">
            <input type="radio" id="scope-chosen" name="scope" value="chosen" checked={values.scope === "chosen"} />
            <label for="scope-chosen">{msg().common.onlyThese}</label>
          </div>
          {domains.length === 0 ? (
            <p class="help">{msg().common.noDomains}</p>
          ) : (
            <>
              {/* Shown by client.js, which narrows the list as one types; without it, the whole list. */}
              <div class="field field-inline" data-domain-search-field hidden>
                <label for="key-domain-search">{words.findDomain}</label>
                <input type="search" id="key-domain-search" data-domain-search autocomplete="off" />
              </div>
              <ul class="plain-list choice-list" data-domain-choices>
                {byName(domains).map((name) => {
                  const value = name.ids.join(",");
                  return (
                    <li class="field-check" data-search={name.hostname.toLowerCase()}>
                      <input
                        type="checkbox"
                        id={`key-domain-${name.ids[0]}`}
                        name="domain_ids"
                        value={value}
                        checked={name.ids.every((id) => chosen.has(String(id)))}
                      />
                      <label for={`key-domain-${name.ids[0]}`} safe>
                        {name.label}
                      </label>
                    </li>
                  );
                })}
              </ul>
            </>
          )}
          <FieldError name="domain_ids" errors={errors} />
        </fieldset>
        <div class="form-actions">
          <button type="submit" class="button button-primary">
            {words.createKey}
          </button>
        </div>
      </form>
    </section>
  );
}

/** The list's element, which an in-place Delete answers with. */
const KEY_LIST_ID = "update-key-list";

/** The keys (their own element: a Delete with JavaScript answers with it, saying what was deleted). */
export function KeyList({
  keys,
  domains,
  now,
  deletion,
}: Pick<UpdateKeysPageProps, "keys" | "domains" | "now"> & { deletion?: ListDeletion | null }) {
  const words = msg().updateKeys;
  const common = msg().common;
  return (
    <section id={KEY_LIST_ID} class="card" aria-labelledby="update-key-list-title">
      <ListHeading id="update-key-list-title" text={words.yours} deletion={deletion} />
      {keys.length === 0 ? (
        <p class="empty">{words.empty}</p>
      ) : (
        <div class="table-wrap">
          <table class="table responsive">
            <thead>
              <tr>
                <th scope="col">{common.name}</th>
                <th scope="col">{common.domains}</th>
                <th scope="col">{words.key}</th>
                <th scope="col">{words.createdAt}</th>
                <th scope="col">{words.lastUsed}</th>
                <th scope="col">
                  <span class="visually-hidden">{common.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr id={`update-key-${key.id}`}>
                  <td data-label={common.name} class="cell-name" safe>
                    {key.name}
                  </td>
                  <td data-label={common.domains}>
                    <Covered ids={key.domain_ids} domains={domains} />
                  </td>
                  <td data-label={words.key}>
                    <code safe>{key.key}</code>
                  </td>
                  <td data-label={words.createdAt}>
                    <TimeAgo at={key.created_at} now={now} />
                  </td>
                  <td data-label={words.lastUsed}>
                    {key.last_used_at === null ? (
                      <span class="muted">{common.never}</span>
                    ) : (
                      <TimeAgo at={key.last_used_at} now={now} />
                    )}
                  </td>
                  <td class="cell-actions">
                    <div class="actions">
                      <DeleteForm
                        url={`/update-keys/${key.id}/delete`}
                        list={KEY_LIST_ID}
                        question={deleteKeyQuestion(key)}
                        label={words.deleteName(key.name)}
                        id={`update-key-delete-${key.id}`}
                        autofocus={deletion?.focusId === key.id}
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

export function UpdateKeysPage({
  user,
  flash,
  now,
  keys,
  domains,
  values,
  errors,
  created,
  pushUrl,
}: UpdateKeysPageProps) {
  const words = msg().updateKeys;
  return (
    <Layout title={words.title} user={user} section="update-keys" flash={flash}>
      <PageHeader title={words.title} />
      <p class="lead muted">{words.lead}</p>
      {created ? <CreatedKey created={created} /> : ""}
      {/* Just made: the router's settings with the key come next, while it is on the screen. */}
      {created ? <RouterSettings pushUrl={pushUrl} created={created} domains={domains} /> : ""}
      <KeyList keys={keys} domains={domains} now={now} />
      <CreateForm domains={domains} values={values} errors={errors} />
      {created ? "" : <RouterSettings pushUrl={pushUrl} domains={domains} />}
    </Layout>
  );
}
