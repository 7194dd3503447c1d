// The page frame: head with the embedded stylesheet and htmx, the header with the navigation
// (inline on wide screens, a disclosure menu on phones), the flash notice, and the content.
// `hx-boost` turns every link and form into an htmx request that swaps the body, so pages feel
// instant while each one stays a plain server-rendered document.

import { Html, type PropsWithChildren } from "@elysiajs/html";
import { LOCALE_NAMES, LOCALES } from "../src/util/locale";
import { ASSETS } from "./assets";
import { type Flash, Notice } from "./components";
import { type Messages, msg, pageLang } from "./i18n";
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

const NAV: { section: Section; href: string; label: keyof Messages["nav"] }[] = [
  { section: "dashboard", href: "/", label: "dashboard" },
  { section: "domains", href: "/domains", label: "domains" },
  { section: "providers", href: "/providers", label: "providers" },
  { section: "update-keys", href: "/update-keys", label: "updateKeys" },
  { section: "acme-keys", href: "/acme-keys", label: "acmeKeys" },
  { section: "api-tokens", href: "/api-tokens", label: "apiTokens" },
  { section: "notifications", href: "/notifications", label: "notifications" },
  { section: "about", href: "/about", label: "about" },
  { section: "help", href: "/help", label: "help" },
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

/** The words client.js needs, in the page's language, as JSON safe inside a <script> element. */
function pageWords(): string {
  const words = msg();
  return JSON.stringify({ ...words.client, themeSystem: words.layout.themeSystem }).replace(/</g, "\\u003c");
}

function NavLinks({ section }: { section?: Section }) {
  return (
    <ul>
      {NAV.map((item) => (
        <li>
          <a href={item.href} aria-current={item.section === section ? "page" : undefined}>
            {msg().nav[item.label]}
          </a>
        </li>
      ))}
      <li>
        {/* The Swagger page is a different app: a normal navigation, not a boosted swap. */}
        <a href="/docs" hx-boost="false">
          {msg().layout.apiDocs}
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
      <span aria-hidden="true">◐</span> <span data-theme-words>{msg().layout.themeSystem}</span>
    </button>
  );
}

/**
 * The languages, each a button named in its own language that posts the choice (kept for the
 * signed-in user, and in a cookie for the pages before signing in) and comes back to this page.
 */
export function LanguageSwitch() {
  const current = pageLang();
  return (
    // A full page load, not a boosted swap: htmx swaps the body and would leave <html lang> as it was.
    <form method="post" action="/language" class="language-switch" hx-boost="false">
      <div role="group" aria-label={msg().layout.language}>
        {LOCALES.map((locale) => (
          <button
            type="submit"
            name="language"
            value={locale}
            lang={locale}
            class="button button-quiet button-small"
            aria-current={locale === current ? "true" : undefined}
          >
            {LOCALE_NAMES[locale]}
          </button>
        ))}
      </div>
    </form>
  );
}

function SignOut({ user }: { user: string }) {
  const facts = pageFacts();
  const words = msg().layout;
  // Signed in by the reverse proxy: there is no password session here to end, only the proxy's.
  if (facts.signedInByProxy)
    return (
      <div class="sign-out">
        <span class="muted" safe>
          {words.signedInAsName(user)}
        </span>
        {facts.proxyLogoutUrl === null ? (
          ""
        ) : (
          <a class="button button-quiet button-small" href={facts.proxyLogoutUrl} hx-boost="false">
            {words.signOut}
          </a>
        )}
      </div>
    );
  return (
    <form method="post" action="/logout" class="sign-out">
      <span class="muted">
        {words.signedInAs}{" "}
        <a href="/account/password" title={words.changePassword} safe>
          {user}
        </a>
      </span>
      <button type="submit" class="button button-quiet button-small">
        {words.signOut}
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
  const words = msg().layout;
  return (
    <>
      {"<!doctype html>"}
      <html lang={pageLang()}>
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
          {/* Data, not a script (the CSP allows none inline): the words client.js writes into the page. */}
          <script type="application/json" id="page-words">
            {pageWords()}
          </script>
          <script src={ASSETS.client.url}></script>
          <script src={ASSETS.localTime.url} defer></script>
          <script src={ASSETS.htmx.url} defer></script>
        </head>
        <body hx-boost="true">
          <a class="skip-link" href="#main">
            {words.skip}
          </a>
          {user ? (
            <header class="site-header">
              <div class="header-inner">
                <a href="/" class="brand" aria-label={msg().brand.dashboardLink}>
                  <span class="brand-mark" aria-hidden="true">
                    ◆
                  </span>
                  ddnsd
                </a>
                <nav class="nav-inline" aria-label={words.main}>
                  <NavLinks section={section} />
                </nav>
                <div class="header-user">
                  <ThemeToggle />
                  <SignOut user={user} />
                </div>
                <details class="nav-menu">
                  <summary>
                    <span aria-hidden="true">☰</span> {words.menu}
                  </summary>
                  <nav aria-label={words.mainMenu}>
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
          {/* Below every page rather than in the header, whose navigation has no room to spare in German. */}
          <footer class="site-footer">
            <LanguageSwitch />
          </footer>
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
