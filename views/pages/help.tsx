// The documentation pages at /help (src/ui/help.ts renders the Markdown of docs/): the page in the
// admin pages' frame, readable without signing in, with a way back to the index and to ddnsd.

import { Html } from "@elysiajs/html";
import { Layout, PageHeader } from "../layout";

export interface HelpPageProps {
  /** The signed-in user, or null: the page shows either way, with the navigation when signed in. */
  user: string | null;
  title: string;
  /** The page's HTML, rendered from the project's own Markdown. */
  html: string;
  /** Whether this is the index (no "All help pages" link back to itself). */
  index: boolean;
}

export function HelpPage({ user, title, html, index }: HelpPageProps) {
  return (
    <Layout title={title} user={user} section="help" wide>
      <nav class="help-trail small" aria-label="Help">
        {index ? "" : <a href="/help">All help pages</a>}
        {user ? "" : <a href="/login">Sign in to ddnsd</a>}
      </nav>
      <article class="help-doc">{html}</article>
    </Layout>
  );
}

export interface HelpIndexEntry {
  route: string;
  title: string;
  summary: string;
}

function IndexList({ entries }: { entries: HelpIndexEntry[] }) {
  return (
    <ul class="help-index">
      {entries.map((entry) => (
        <li>
          <a href={entry.route} safe>
            {entry.title}
          </a>
          <span class="muted small" safe>
            {entry.summary}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The index's body: the pages for running ddnsd first, each with its first sentence; those about its code apart. */
export function helpIndexHtml(groups: { home: HelpIndexEntry[]; developer: HelpIndexEntry[] }): string {
  return (
    <>
      <PageHeader title="Help" />
      <p>The documentation of this ddnsd, served by ddnsd itself: it works without internet access.</p>
      <h2 id="using-ddnsd">Using ddnsd</h2>
      <IndexList entries={groups.home} />
      <h2 id="working-on-ddnsd">Working on ddnsd's code</h2>
      <IndexList entries={groups.developer} />
    </>
  ) as string;
}
