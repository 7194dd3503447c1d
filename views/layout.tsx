// The page frame: head with the embedded stylesheet and htmx, the header with the navigation
// (inline on wide screens, a disclosure menu on phones), the flash notice, and the content.
// `hx-boost` turns every link and form into an htmx request that swaps the body, so pages feel
// instant while each one stays a plain server-rendered document.

import { Html, type PropsWithChildren } from "@elysiajs/html";
import { ASSETS } from "./assets";
import { type Flash, Notice } from "./components";
import { pageFacts } from "./page-facts";

export type Section =
  | "dashboard"
  | "domains"
  | "providers"
  | "update-keys"
  | "acme-keys"
  | "api-tokens"
  | "notifications"
  | "about"
  | "account"
  | "help";

export interface LayoutProps {
  title: string;
  /** The signed-in user; the sign-in page has none and shows no navigation. */
  user?: string | null;
  section?: Section;
  /** A one-time notice from the previous request ("Provider added"). */
  flash?: Flash | null;
  /** Without JavaScript, reload the page this often (with it, a LiveRegion refreshes itself). */
  refreshSeconds?: number;
  /** Full width also without a signed-in user (help pages); else such a page is the narrow sign-in column. */
  wide?: boolean;
}

const NAV: { section: Section; href: string; label: string }[] = [
  { section: "dashboard", href: "/", label: "Dashboard" },
  { section: "domains", href: "/domains", label: "Domains" },
  { section: "providers", href: "/providers", label: "Providers" },
  { section: "update-keys", href: "/update-keys", label: "Update keys" },
  { section: "acme-keys", href: "/acme-keys", label: "Certificate keys" },
  { section: "api-tokens", href: "/api-tokens", label: "API tokens" },
  { section: "notifications", href: "/notifications", label: "Notifications" },
  { section: "about", href: "/about", label: "About" },
  { section: "help", href: "/help", label: "Help" },
];

// History snapshots stay out of localStorage (pages hold addresses) and a miss reloads the page;
// htmx's own injected <style> would need the CSP to allow inline styles, so styles.css has it. A
// boosted link or form (a new page) starts at the new page's top, as a plain navigation would.
const HTMX_CONFIG = JSON.stringify({
  // Content swapped in gets its behaviour when htmx settles it; with htmx's default delay (20 ms,
  // for transitions the styles do not use) a control already focused in it and pressed at once
  // sent its form the plain way, as without JavaScript, and the page was reloaded.
  defaultSettleDelay: 0,
  historyCacheSize: 0,
  refreshOnHistoryMiss: true,
  scrollIntoViewOnBoost: true,
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

/**
 * The system's theme, or light or dark chosen and remembered in the browser; each press moves to
 * the next and the button names the one in force. Shown only once the script runs (it does the work).
 */
function ThemeToggle() {
  return (
    <button type="button" class="button button-quiet button-small theme-toggle" data-theme-toggle hidden>
      <span aria-hidden="true">◐</span> <span data-theme-words>Theme: system</span>
    </button>
  );
}

function SignOut({ user }: { user: string }) {
  const facts = pageFacts();
  // Signed in by the reverse proxy: there is no password session here to end, only the proxy's.
  if (facts.signedInByProxy)
    return (
      <div class="sign-out">
        <span class="muted" safe>{`Signed in as ${user}`}</span>
        {facts.proxyLogoutUrl === null ? (
          ""
        ) : (
          <a class="button button-quiet button-small" href={facts.proxyLogoutUrl} hx-boost="false">
            Sign out
          </a>
        )}
      </div>
    );
  return (
    <form method="post" action="/logout" class="sign-out">
      <span class="muted">
        Signed in as{" "}
        <a href="/account/password" title="Change password" safe>
          {user}
        </a>
      </span>
      <button type="submit" class="button button-quiet button-small">
        Sign out
      </button>
    </form>
  );
}

export function Layout({
  title,
  user,
  section,
  flash,
  refreshSeconds,
  wide,
  children,
}: PropsWithChildren<LayoutProps>) {
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
          {refreshSeconds ? (
            <noscript>
              <meta http-equiv="refresh" content={String(refreshSeconds)} />
            </noscript>
          ) : (
            ""
          )}
          <link rel="icon" href={ASSETS.favicon.url} type="image/svg+xml" />
          <link rel="stylesheet" href={ASSETS.styles.url} />
          <script src={ASSETS.client.url}></script>
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
                  <ThemeToggle />
                  <SignOut user={user} />
                </div>
                <details class="nav-menu">
                  <summary>
                    <span aria-hidden="true">☰</span> Menu
                  </summary>
                  <nav aria-label="Main (menu)">
                    <NavLinks section={section} />
                    <ThemeToggle />
                    <SignOut user={user} />
                  </nav>
                </details>
              </div>
            </header>
          ) : (
            ""
          )}
          <main id="main" class={user || wide ? "container" : "container container-narrow"}>
            {flash ? (
              <Notice tone={flash.tone}>
                <span safe>{flash.text}</span>
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
