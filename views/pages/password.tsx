// Changing the signed-in user's password. The current one is asked first; nothing typed is ever
// sent back (a rejected form comes back with empty fields and the reason next to each).

import { Html } from "@elysiajs/html";
import { controlAttrs, Field, type FormErrors } from "../components";
import { msg } from "../i18n";
import { Layout, PageHeader } from "../layout";

export interface PasswordPageProps {
  user: string;
  errors: FormErrors;
}

export function PasswordPage({ user, errors }: PasswordPageProps) {
  const words = msg().password;
  return (
    <Layout title={words.title} user={user} section="account">
      <PageHeader title={words.title} />
      <section class="card form-card">
        <form method="post" action="/account/password" class="stack">
          {/* Tells password managers whose password this is. */}
          <input type="text" name="username" value={user} autocomplete="username" hidden />
          <Field name="current_password" label={words.current} errors={errors}>
            <input
              type="password"
              autocomplete="current-password"
              required
              {...controlAttrs("current_password", errors)}
            />
          </Field>
          <Field name="new_password" label={words.new} errors={errors} help={words.newHelp}>
            <input
              type="password"
              autocomplete="new-password"
              required
              minlength="8"
              {...controlAttrs("new_password", errors, true)}
            />
          </Field>
          <Field name="confirm_password" label={words.again} errors={errors}>
            <input type="password" autocomplete="new-password" required {...controlAttrs("confirm_password", errors)} />
          </Field>
          <p class="muted small">{words.signedOutAfter}</p>
          <div class="form-actions">
            <button type="submit" class="button button-primary">
              {words.submit}
            </button>
            <a class="button button-quiet" href="/">
              {msg().common.cancel}
            </a>
          </div>
        </form>
      </section>
    </Layout>
  );
}
