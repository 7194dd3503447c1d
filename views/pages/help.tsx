// The documentation pages at /help (src/ui/help.ts renders the Markdown of docs/): the page in the
// admin pages' frame, readable without signing in, with a way back to the index and to ddnsd.

import { Html } from "@elysiajs/html";
import { msg } from "../i18n";
import { Layout, PageHeader } from "../layout";
import { pageFacts } from "../page-facts";

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
  const words = msg().help;
  // The index is in the page's language around the docs' English titles; a doc page is English throughout.
  return (
    <Layout title={title} user={user} section="help" wide>
      <nav class="help-trail small" aria-label={words.trail}>
        {index ? (
          ""
        ) : (
          <a href="/help" safe>
            {words.all}
          </a>
        )}
        {user ? (
          ""
        ) : (
          <a href="/login" safe>
            {words.signIn}
          </a>
        )}
        {index || pageFacts().locale === "en" ? (
          ""
        ) : (
          <span class="muted" safe>
            {words.inEnglish}
          </span>
        )}
      </nav>
      <article class="help-doc" lang={index ? undefined : "en"}>
        {html}
      </article>
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
    <ul class="help-index" lang="en">
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
      <PageHeader title={msg().help.title} />
      <p safe>{msg().help.intro}</p>
      <h2 id="using-ddnsd" safe>
        {msg().help.using}
      </h2>
      <IndexList entries={groups.home} />
      <h2 id="working-on-ddnsd" safe>
        {msg().help.developing}
      </h2>
      <IndexList entries={groups.developer} />
    </>
  ) as string;
}
