// Adding a provider starts here: every service ddnsd speaks, grouped and sorted by name, each a
// link to the provider form for it (a dyndns2 preset opens the dyndns2 form with its server filled
// in). The search is a plain GET form (`?q=`, filtered on the server); with JavaScript the list
// also narrows as one types (client.js, by the entries' data-search keys).

import { Html } from "@elysiajs/html";
import { msg } from "../i18n";
import { Layout, PageHeader } from "../layout";
import { type CatalogEntry, type CatalogGroup, entryHref, hostOf, namesRouter, ROUTER_KEYS } from "../service-catalog";

export interface ServicePickerPageProps {
  user: string;
  query: string;
  /** Every group, each entry marked found by the search or not (not found: rendered hidden). */
  groups: CatalogGroup[];
  /** The entries shown first while nothing is searched. */
  popular: CatalogEntry[];
}

function Entry({ entry }: { entry: CatalogEntry & { found: boolean } }) {
  const words = msg().servicePicker;
  const dyndns2 = entry.type === "dyndns2" && entry.server === undefined;
  // Only the entries that are not simply the service's own API say how ddnsd speaks to them.
  const note = entry.server !== undefined ? words.presetNote(hostOf(entry.server)) : dyndns2 ? words.dyndns2Note : "";
  return (
    <li class="service-entry" data-search={entry.keys.join(" ")} hidden={!entry.found}>
      <a href={entryHref(entry)} class="service-link">
        <span class="service-name" safe>
          {dyndns2 ? words.anyDyndns2 : entry.label}
        </span>
        {note === "" ? (
          ""
        ) : (
          <span class="service-note muted small" safe>
            {note}
          </span>
        )}
      </a>
    </li>
  );
}

export function ServicePickerPage({ user, query, groups, popular }: ServicePickerPageProps) {
  const total = groups.reduce((n, group) => n + group.entries.length, 0);
  const found = groups.reduce((n, group) => n + group.entries.filter((entry) => entry.found).length, 0);
  const words = msg().servicePicker;
  const counted = query.trim() === "" ? words.count(total) : words.matching(found, total);
  return (
    <Layout title={words.title} user={user} section="providers">
      <PageHeader title={words.title}>
        <a class="button button-quiet" href="/providers" safe>
          {words.back}
        </a>
      </PageHeader>
      <p class="lead muted" safe>
        {words.lead}
      </p>
      <form method="get" action="/providers/new" role="search" class="service-search">
        <label for="f-q" safe>
          {words.find}
        </label>
        <div class="inline-control">
          <input
            type="search"
            id="f-q"
            name="q"
            value={query}
            autocomplete="off"
            aria-describedby="service-count"
            data-service-search
          />
          <button type="submit" class="button no-js-only" safe>
            {words.search}
          </button>
        </div>
      </form>
      <p id="service-count" class="muted small" aria-live="polite" data-service-count safe>
        {counted}
      </p>
      <p class="notice notice-info router-hint" data-router-hint={ROUTER_KEYS} hidden={!namesRouter(query)}>
        {words.router((text) => `<a href="/update-keys">${text}</a>`)}
      </p>
      <div id="service-list" class="service-groups">
        <section
          class="service-group"
          aria-labelledby="group-popular"
          data-service-popular
          hidden={query.trim() !== ""}
        >
          <h2 class="card-title" id="group-popular" safe>
            {words.popular}
          </h2>
          <ul class="service-grid">
            {popular.map((entry) => (
              <Entry entry={{ ...entry, found: true }} />
            ))}
          </ul>
        </section>
        {groups.map((group) => (
          <section
            class="service-group"
            aria-labelledby={`group-${group.key}`}
            data-service-group
            hidden={!group.entries.some((entry) => entry.found)}
          >
            <h2 class="card-title" id={`group-${group.key}`} safe>
              {words.group[group.key]}
            </h2>
            <ul class="service-grid">
              {group.entries.map((entry) => (
                <Entry entry={entry} />
              ))}
            </ul>
          </section>
        ))}
      </div>
      <p class="empty" data-service-empty hidden={found > 0}>
        {words.empty(
          (text) => `<a href="${entryHref({ type: "dyndns2" })}">${text}</a>`,
          (text) => `<a href="${entryHref({ type: "custom" })}">${text}</a>`,
        )}
      </p>
    </Layout>
  );
}
