// The page frame: head with the embedded stylesheet and htmx, the header with the navigation
// (inline on wide screens, a disclosure menu on phones), the flash notice, and the content.
// `hx-boost` turns every link and form into an htmx request that swaps the body, so pages feel
// instant while each one stays a plain server-rendered document.

import { Html, type PropsWithChildren } from "@elysiajs/html";
import { ASSETS } from "../src/ui/assets";
import { Notice } from "./components";

export type Section = "dashboard" | "domains" | "providers" | "about";

export interface LayoutProps {
  title: string;
  /** The signed-in user; the sign-in page has none and shows no navigation. */
  user?: string | null;
  section?: Section;
  /** A one-time notice from the previous request ("Provider added"). */
  flash?: string | null;
}

const NAV: { section: Section; href: string; label: string }[] = [
  { section: "dashboard", href: "/", label: "Dashboard" },
  { section: "domains", href: "/domains", label: "Domains" },
  { section: "providers", href: "/providers", label: "Providers" },
  { section: "about", href: "/about", label: "About" },
];

// History snapshots stay out of localStorage (pages hold addresses) and a miss reloads the page;
// htmx's own injected <style> would need the CSP to allow inline styles, so styles.css has it.
const HTMX_CONFIG = JSON.stringify({
  historyCacheSize: 0,
  refreshOnHistoryMiss: true,
  scrollIntoViewOnBoost: false,
  includeIndicatorStyles: false,
});

function NavLinks({ section }: { section?: Section }) {
  return (
    <ul>
      {NAV.map((item) => (
        <li>
          <a href={item.href} aria-current={item.section === section ? "page" : undefined}>
            {item.label}
          </a>
        </li>
      ))}
      <li>
        {/* The Swagger page is a different app: a normal navigation, not a boosted swap. */}
        <a href="/docs" hx-boost="false">
          API docs
        </a>
      </li>
    </ul>
  );
}

function SignOut({ user }: { user: string }) {
  return (
    <form method="post" action="/logout" class="sign-out">
      <span class="muted">
        Signed in as <strong safe>{user}</strong>
      </span>
      <button type="submit" class="button button-quiet button-small">
        Sign out
      </button>
    </form>
  );
}

export function Layout({ title, user, section, flash, children }: PropsWithChildren<LayoutProps>) {
  return (
    <>
      {"<!doctype html>"}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="color-scheme" content="light dark" />
          <meta name="htmx-config" content={HTMX_CONFIG} />
          <title safe>{`${title} · ddnsd`}</title>
          <link rel="stylesheet" href={ASSETS.styles.url} />
          <script src={ASSETS.htmx.url} defer></script>
        </head>
        <body hx-boost="true">
          <a class="skip-link" href="#main">
            Skip to content
          </a>
          {user ? (
            <header class="site-header">
              <div class="header-inner">
                <a href="/" class="brand" aria-label="ddnsd dashboard">
                  <span class="brand-mark" aria-hidden="true">
                    ◆
                  </span>
                  ddnsd
                </a>
                <nav class="nav-inline" aria-label="Main">
                  <NavLinks section={section} />
                </nav>
                <div class="header-user">
                  <SignOut user={user} />
                </div>
                <details class="nav-menu">
                  <summary>
                    <span aria-hidden="true">☰</span> Menu
                  </summary>
                  <nav aria-label="Main (menu)">
                    <NavLinks section={section} />
                    <SignOut user={user} />
                  </nav>
                </details>
              </div>
            </header>
          ) : (
            ""
          )}
          <main id="main" class={user ? "container" : "container container-narrow"}>
            {flash ? (
              <Notice tone="ok">
                <span safe>{flash}</span>
              </Notice>
            ) : (
              ""
            )}
            {children}
          </main>
        </body>
      </html>
    </>
  );
}

/** A page heading with optional actions on the right. */
export function PageHeader({ title, children }: PropsWithChildren<{ title: string }>) {
  return (
    <div class="page-header">
      <h1 safe>{title}</h1>
      {children ? <div class="page-actions">{children}</div> : ""}
    </div>
  );
}
