// "Are you sure?" as a page: where a delete goes without JavaScript (with it, htmx asks in a
// dialog), and what it takes with it. The form carries `confirm=yes`; without that the delete
// routes send the visitor here.

import { Html } from "@elysiajs/html";
import { msg } from "../i18n";
import { Layout, PageHeader, type Section } from "../layout";

export interface ConfirmDeletePageProps {
  user: string;
  section: Section;
  title: string;
  question: string;
  action: string;
  cancel: string;
}

export function ConfirmDeletePage({ user, section, title, question, action, cancel }: ConfirmDeletePageProps) {
  return (
    <Layout title={title} user={user} section={section}>
      <PageHeader title={title} />
      <section class="card form-card">
        <p safe>{question}</p>
        <form method="post" action={action} class="form-actions">
          <input type="hidden" name="confirm" value="yes" />
          <button type="submit" class="button button-danger" autofocus>
            {msg().common.delete}
          </button>
          <a class="button button-quiet" href={cancel}>
            {msg().common.cancel}
          </a>
        </form>
      </section>
    </Layout>
  );
}
