// The one error page: what went wrong in a sentence, what to do about it, and a way back. Every
// error under the admin pages that a person would otherwise see as JSON is shown with it.

import { Html } from "@elysiajs/html";
import { Notice } from "../components";
import { msg } from "../i18n";
import { Layout, PageHeader } from "../layout";

export interface ErrorPageProps {
  /** The signed-in user, or null (then no navigation is shown). */
  user: string | null;
  status: number;
  /** The error's own sentence (`{detail}`). */
  detail: string;
  /** The path that failed, to offer the list it belongs to. */
  path: string;
}

interface Explanation {
  title: string;
  advice: string;
}

function explain(status: number): Explanation {
  const words = msg().error;
  if (status === 404) return { title: words.notFound, advice: words.notFoundAdvice };
  if (status === 403) return { title: words.refused, advice: words.refusedAdvice };
  if (status === 409) return { title: words.conflict, advice: words.conflictAdvice };
  if (status === 413) return { title: words.tooLarge, advice: words.tooLargeAdvice };
  if (status === 429) return { title: words.tooMany, advice: words.tooManyAdvice };
  if (status === 422 || status === 400) return { title: words.invalid, advice: words.invalidAdvice };
  if (status === 507) return { title: words.diskFull, advice: words.diskFullAdvice };
  return { title: words.failed, advice: words.failedAdvice };
}

/** The list a failed path belongs to (`/domains/7/history` → the domain list). */
function listOf(path: string): { href: string; label: string } | null {
  if (path.startsWith("/domains")) return { href: "/domains", label: msg().error.allDomains };
  if (path.startsWith("/providers")) return { href: "/providers", label: msg().error.allProviders };
  return null;
}

/**
 * The API's sentence in a page's words where it speaks of its own parameters: an address whose
 * number is not one (`/domains/abc/edit`) is an address that names nothing.
 */
function pageWords(detail: string): string {
  return /^\w*id: must be a positive integer$/.test(detail) ? msg().error.badId : detail;
}

export function ErrorPage({ user, status, detail: apiDetail, path }: ErrorPageProps) {
  const { title, advice } = explain(status);
  const detail = pageWords(apiDetail);
  const list = user ? listOf(path) : null;
  return (
    <Layout title={title} user={user}>
      <PageHeader title={title} />
      <section class="card error-card">
        <Notice tone="fail">
          {detail === "" ? (
            <span safe>{title}</span>
          ) : (
            // The API's sentence (English, as the API fixes it) unless the page has its own words for it.
            <span
              lang={detail === apiDetail ? "en" : undefined}
              data-api-words={detail === apiDetail ? "" : undefined}
              safe
            >
              {detail}
            </span>
          )}
        </Notice>
        <p>{advice}</p>
        <p class="muted small">{msg().error.status(status)}</p>
        <div class="actions">
          {list ? (
            <a class="button button-primary" href={list.href}>
              {list.label}
            </a>
          ) : (
            ""
          )}
          <a class={["button", !list && "button-primary"]} href={user ? "/" : "/login"}>
            {user ? msg().error.dashboard : msg().error.signIn}
          </a>
        </div>
      </section>
    </Layout>
  );
}
