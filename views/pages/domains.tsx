// The domain list, filtered by provider and status, in pages of DOMAIN_PAGE_SIZE. Changing a filter
// re-fetches the page and swaps only the list (the URL follows, so a filtered view can be
// bookmarked); the previous and next links keep the search and the order; the list refreshes
// itself every few seconds, on the page it shows.

import { Html } from "@elysiajs/html";
import type { DomainView } from "../../src/modules/domains/service";
import type { ProviderView } from "../../src/modules/providers/service";
import {
  type DomainSort,
  domainSortOptions,
  domainStatusFilters,
  type Flash,
  type ListDeletion,
  ListHeading,
  LiveRegion,
  Options,
  Pager,
  type UpdateConditions,
} from "../components";
import { plural } from "../format";
import { type BoxProblems, BoxProblemsBanner } from "../fragments/box-problems";
import { DOMAIN_FILTERS_ID, DOMAIN_LIST_ID, DOMAIN_PAGE_FIELD_ID, DomainRow } from "../fragments/domain-row";
import { msg } from "../i18n";
import { Layout, PageHeader } from "../layout";

export interface DomainFilters {
  /** Part of a hostname or a provider's name, or "" for all. */
  q: string;
  /** A provider id as text, or "" for all. */
  provider: string;
  /** A status key, or "" for all. */
  status: string;
  sort: DomainSort;
  /** Which page of the matching domains, from 1. */
  page: number;
}

/** Rows a page of the list shows: a thousand domains make a page of kilobytes, not megabytes. */
export const DOMAIN_PAGE_SIZE = 50;

export interface DomainsPageProps {
  user: string;
  flash?: Flash | null;
  now: number;
  intervalSeconds: number;
  /** The page's domains among those that pass the filters. */
  domains: DomainView[];
  /** How many domains pass the filters, on every page. */
  matching: number;
  /** How many domains there are before filtering. */
  total: number;
  providers: Pick<ProviderView, "id" | "name">[];
  filters: DomainFilters;
  /** What each domain's updates depend on (its provider, its address's detection). */
  conditions?: (domain: DomainView) => UpdateConditions;
  /** The domain just added or saved: its row is marked and scrolled to. */
  landed?: number | null;
  /** A domain just deleted from the list in place: said above it, focus on the next row's Delete. */
  deletion?: ListDeletion | null;
  /** The appliance's problems, said once above the list (its rows link there). */
  box?: BoxProblems;
}

/** The list's own address with its filters, order and page, for bookmarks, its refreshes and its pager (defaults left out). */
function listUrl(filters: DomainFilters): string {
  const params = new URLSearchParams(
    Object.entries(filters)
      .map(([name, value]): [string, string] => [name, String(value)])
      .filter(
        ([name, value]) =>
          value !== "" && !(name === "sort" && value === "name") && !(name === "page" && value === "1"),
      ),
  );
  return params.size > 0 ? `/domains?${params}` : "/domains";
}

/** "1–50", or the one domain's place when the page holds one. */
function shownRange(props: DomainsPageProps): string {
  const first = (props.filters.page - 1) * DOMAIN_PAGE_SIZE + 1;
  const last = first + props.domains.length - 1;
  return first === last ? String(first) : `${first}–${last}`;
}

export function DomainsPage(props: DomainsPageProps) {
  const { filters } = props;
  const filtered = filters.q !== "" || filters.provider !== "" || filters.status !== "";
  const words = msg().domains;
  return (
    <Layout title={words.title} user={props.user} section="domains" flash={props.flash}>
      <PageHeader title={words.title}>
        <a class="button button-primary" href="/domains/new">
          {words.add}
        </a>
      </PageHeader>
      <form
        id={DOMAIN_FILTERS_ID}
        method="get"
        action="/domains"
        class="filters"
        role="search"
        aria-label={words.filterLabel}
        hx-get="/domains"
        hx-trigger="change, input changed delay:400ms from:#filter-q"
        hx-sync="this:replace"
        hx-target={`#${DOMAIN_LIST_ID}`}
        hx-select={`#${DOMAIN_LIST_ID}`}
        hx-swap="outerHTML"
        hx-push-url="true"
      >
        <div class="field field-inline">
          <label for="filter-q">{words.search}</label>
          <input
            type="search"
            id="filter-q"
            name="q"
            value={filters.q}
            autocomplete="off"
            placeholder={words.searchPlaceholder}
          />
        </div>
        <div class="field field-inline">
          <label for="filter-provider">{words.provider}</label>
          <select id="filter-provider" name="provider">
            <Options
              options={[
                { value: "", label: words.allProviders },
                ...props.providers.map((p) => ({ value: String(p.id), label: p.name })),
              ]}
              selected={filters.provider}
            />
          </select>
        </div>
        <div class="field field-inline">
          <label for="filter-status">{words.status}</label>
          <select id="filter-status" name="status">
            <Options
              options={[{ value: "", label: words.anyStatus }, ...domainStatusFilters()]}
              selected={filters.status}
            />
          </select>
        </div>
        <div class="field field-inline">
          <label for="filter-sort">{words.sortBy}</label>
          <select id="filter-sort" name="sort">
            <Options options={domainSortOptions()} selected={filters.sort} />
          </select>
        </div>
        <button type="submit" class="button button-quiet no-js-only">
          {words.filter}
        </button>
      </form>
      <LiveRegion id={DOMAIN_LIST_ID} url={listUrl(filters)} now={props.now}>
        {props.box ? <BoxProblemsBanner box={props.box} now={props.now} /> : ""}
        <section class="card" aria-labelledby="domain-list-title">
          <ListHeading id="domain-list-title" text={words.yours} deletion={props.deletion} />
          {props.domains.length === 0 ? (
            <p class="empty">
              {props.total === 0
                ? words.empty((text) => `<a href="/domains/new">${text}</a>`)
                : words.noMatch((text) => `<a href="/domains">${text}</a>`, props.total)}
            </p>
          ) : (
            <>
              {filtered || props.matching > props.domains.length ? (
                <p class="muted small">
                  {words.showing(shownRange(props), props.total, filtered ? props.matching : null)}
                </p>
              ) : (
                ""
              )}
              <input type="hidden" id={DOMAIN_PAGE_FIELD_ID} name="page" value={String(filters.page)} />
              <div class="table-wrap">
                <table class="table responsive domain-table">
                  <thead>
                    <tr>
                      <th scope="col">{words.domain}</th>
                      <th scope="col">{words.provider}</th>
                      <th scope="col">{words.ipAddress}</th>
                      <th scope="col">{words.status}</th>
                      <th scope="col">{words.schedule}</th>
                      <th scope="col">{words.enabled}</th>
                      <th scope="col">
                        <span class="visually-hidden">{msg().common.actions}</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {props.domains.map((domain) => (
                      <DomainRow
                        domain={domain}
                        view="list"
                        now={props.now}
                        intervalSeconds={props.intervalSeconds}
                        conditions={props.conditions?.(domain)}
                        landed={domain.id === props.landed}
                        focusDelete={props.deletion?.focusId === domain.id}
                        box={props.box}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager
                label={words.pages}
                page={filters.page}
                pages={Math.ceil(props.matching / DOMAIN_PAGE_SIZE)}
                href={(page) => listUrl({ ...filters, page })}
                previous={words.previous}
                next={words.next}
              />
            </>
          )}
        </section>
      </LiveRegion>
    </Layout>
  );
}
