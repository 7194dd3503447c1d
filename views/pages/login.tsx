// Sign in. The notice says why the visitor is here (session expired, signed out); a failed
// attempt keeps the username and says what went wrong without saying which half was wrong; a
// forgotten password is reset on the machine itself, and the page says how.

import { Html } from "@elysiajs/html";
import { Notice } from "../components";
import { msg } from "../i18n";
import { Layout } from "../layout";

export interface LoginPageProps {
  username: string;
  /** Where to go after signing in (a local path). */
  next: string;
  error?: string | null;
  notice?: string | null;
}

export function LoginPage({ username, next, error, notice }: LoginPageProps) {
  const words = msg().login;
  return (
    <Layout title={words.title}>
      <section class="card login-card">
        <div class="login-brand">
          <span class="brand-mark" aria-hidden="true">
            ◆
          </span>
          <span>ddnsd</span>
        </div>
        <h1>{words.title}</h1>
        {notice ? (
          <Notice tone="info">
            <span safe>{notice}</span>
          </Notice>
        ) : (
          ""
        )}
        {error ? (
          <Notice tone="fail">
            <span id="login-error" safe>
              {error}
            </span>
          </Notice>
        ) : (
          ""
        )}
        <form method="post" action="/login" class="stack">
          <input type="hidden" name="next" value={next} />
          <div class="field">
            <label for="f-username">{words.username}</label>
            <input
              id="f-username"
              name="username"
              type="text"
              value={username}
              autocomplete="username"
              autocapitalize="none"
              spellcheck="false"
              required
              autofocus={username === ""}
              aria-describedby={error ? "login-error" : undefined}
            />
          </div>
          <div class="field">
            <label for="f-password">{words.password}</label>
            <input
              id="f-password"
              name="password"
              type="password"
              autocomplete="current-password"
              required
              autofocus={username !== ""}
              aria-invalid={error ? "true" : undefined}
              aria-describedby={error ? "login-error" : undefined}
            />
          </div>
          <button type="submit" class="button button-primary button-block">
            {words.submit}
          </button>
        </form>
        <details class="forgot">
          <summary>{words.forgot}</summary>
          <p class="small">
            {words.forgotHelp(
              "<code>sudo sh install.sh --reset-admin-password</code>",
              "<code>ddnsd admin set-password admin</code>",
              (text) => `<a href="/help/operations#troubleshooting">${text}</a>`,
            )}
          </p>
        </details>
      </section>
    </Layout>
  );
}
