// Sign in. The notice says why the visitor is here (session expired, signed out); a failed
// attempt keeps the username and says what went wrong without saying which half was wrong; a
// forgotten password is reset on the machine itself, and the page says how.

import { Html } from "@elysiajs/html";
import { Notice } from "../components";
import { Layout } from "../layout";

export interface LoginPageProps {
  username: string;
  /** Where to go after signing in (a local path). */
  next: string;
  error?: string | null;
  notice?: string | null;
}

export function LoginPage({ username, next, error, notice }: LoginPageProps) {
  return (
    <Layout title="Sign in">
      <section class="card login-card">
        <div class="login-brand">
          <span class="brand-mark" aria-hidden="true">
            ◆
          </span>
          <span>ddnsd</span>
        </div>
        <h1>Sign in</h1>
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
            <label for="f-username">Username</label>
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
            <label for="f-password">Password</label>
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
            Sign in
          </button>
        </form>
        <details class="forgot">
          <summary>Forgot the password?</summary>
          <p class="small">
            It cannot be reset from here. On the machine ddnsd runs on, where you installed it, run{" "}
            <code>sudo sh install.sh --reset-admin-password</code>: it asks for a new password, and ddnsd needs no
            restart. Without the installer, <code>ddnsd admin set-password admin</code> (run as the service's user)
            reads a new one from standard input. <a href="/help/operations#troubleshooting">Troubleshooting</a> has the
            details.
          </p>
        </details>
      </section>
    </Layout>
  );
}
