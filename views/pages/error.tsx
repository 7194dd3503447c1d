// The one error page: what went wrong in a sentence, what to do about it, and a way back. Every
// error under the admin pages that a person would otherwise see as JSON is shown with it.

import { Html } from "@elysiajs/html";
import { Notice } from "../components";
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
  if (status === 404) {
    return {
      title: "Not found",
      advice: "It may have been deleted, perhaps in another tab, or the address is mistyped.",
    };
  }
  if (status === 403) {
    return {
      title: "Refused",
      advice: "The form was not sent from ddnsd's own pages. Open the page again and send it from there.",
    };
  }
  if (status === 409)
    return {
      title: "Not possible right now",
      advice: "Something changed meanwhile. Open the page again to see the current state.",
    };
  if (status === 413) return { title: "Too much data", advice: "Send less at once and try again." };
  if (status === 429) return { title: "Too many attempts", advice: "Wait the time given above, then try again." };
  if (status === 422 || status === 400)
    return { title: "That request was not understood", advice: "Go back, check what you entered and try again." };
  if (status === 507)
    return {
      title: "The data disk is full",
      advice: "Free some space on the disk that holds ddnsd's data; nothing stored is lost.",
    };
  return {
    title: "Something went wrong",
    advice: "Try again in a moment. If it keeps happening, look in ddnsd's log for the request id above.",
  };
}

/** The list a failed path belongs to (`/domains/7/history` → the domain list). */
function listOf(path: string): { href: string; label: string } | null {
  if (path.startsWith("/domains")) return { href: "/domains", label: "All domains" };
  if (path.startsWith("/providers")) return { href: "/providers", label: "All providers" };
  return null;
}

/**
 * The API's sentence in a page's words where it speaks of its own parameters: an address whose
 * number is not one (`/domains/abc/edit`) is an address that names nothing.
 */
function pageWords(detail: string): string {
  return /^\w*id: must be a positive integer$/.test(detail)
    ? "This address names nothing: the number in it is not one ddnsd gives."
    : detail;
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
          <span safe>{detail || title}</span>
        </Notice>
        <p>{advice}</p>
        <p class="muted small">Error {status}</p>
        <div class="actions">
          {list ? (
            <a class="button button-primary" href={list.href}>
              {list.label}
            </a>
          ) : (
            ""
          )}
          <a class={["button", !list && "button-primary"]} href={user ? "/" : "/login"}>
            {user ? "Dashboard" : "Sign in"}
          </a>
        </div>
      </section>
    </Layout>
  );
}
