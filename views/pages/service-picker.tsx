// Adding a provider starts here: every service ddnsd speaks, grouped and sorted by name, each a
// link to the provider form for it (a dyndns2 preset opens the dyndns2 form with its server filled
// in). The search is a plain GET form (`?q=`, filtered on the server); with JavaScript the list
// also narrows as one types (client.js, by the entries' data-search keys).

import { Html } from "@elysiajs/html";
import { plural } from "../format";
import { Layout, PageHeader } from "../layout";
import { type CatalogEntry, type CatalogGroup, entryHref, namesRouter, ROUTER_KEYS } from "../service-catalog";

export interface ServicePickerPageProps {
  user: string;
  query: string;
  /** Every group, each entry marked found by the search or not (not found: rendered hidden). */
  groups: CatalogGroup[];
  /** The entries shown first while nothing is searched. */
  popular: CatalogEntry[];
}

function Entry({ entry }: { entry: CatalogEntry & { found: boolean } }) {
  return (
    <li class="service-entry" data-search={entry.keys.join(" ")} hidden={!entry.found}>
      <a href={entryHref(entry)} class="service-link">
        <span class="service-name" safe>
          {entry.label}
        </span>
        {entry.note === "" ? (
          ""
        ) : (
          <span class="service-note muted small" safe>
            {entry.note}
          </span>
        )}
      </a>
    </li>
  );
}

export function ServicePickerPage({ user, query, groups, popular }: ServicePickerPageProps) {
  const total = groups.reduce((n, group) => n + group.entries.length, 0);
  const found = groups.reduce((n, group) => n + group.entries.filter((entry) => entry.found).length, 0);
  const counted = query.trim() === "" ? `${plural(total, "service")}` : `${plural(found, "service")} of ${total} match`;
  return (
    <Layout title="Add provider" user={user} section="providers">
      <PageHeader title="Add provider">
        <a class="button button-quiet" href="/providers">
          Back to providers
        </a>
      </PageHeader>
      <p class="lead muted">
        Choose the DNS service that holds your records. Search by its name or another one it goes by (e.g. “noip”,
        “he.net”, “gcp”, “bind”).
      </p>
      <form method="get" action="/providers/new" role="search" class="service-search">
        <label for="f-q">Find your service</label>
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
          <button type="submit" class="button no-js-only">
            Search
          </button>
        </div>
      </form>
      <p id="service-count" class="muted small" aria-live="polite" data-service-count safe>
        {counted}
      </p>
      <p class="notice notice-info router-hint" data-router-hint={ROUTER_KEYS} hidden={!namesRouter(query)}>
        A router (FRITZ!Box, UniFi, OpenWrt …) is not a DNS service, but it can tell ddnsd its address itself:{" "}
        <a href="/update-keys">make an update key</a> for it, and pick here the DNS service your domain is at.
      </p>
      <div id="service-list" class="service-groups">
        <section
          class="service-group"
          aria-labelledby="group-popular"
          data-service-popular
          hidden={query.trim() !== ""}
        >
          <h2 class="card-title" id="group-popular">
            Popular
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
            <h2 class="card-title" id={`group-${group.key}`}>
              {group.label}
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
        No service goes by that name. Most dynamic DNS services speak dyndns2:{" "}
        <a href={entryHref({ type: "dyndns2" })}>name its update server</a>, or{" "}
        <a href={entryHref({ type: "custom" })}>call any update URL</a>.
      </p>
    </Layout>
  );
}
