// Adding or editing a notification. The option fields follow the type select (htmx swaps them;
// without JavaScript "Continue" reloads the form for the chosen type); on edit an empty secret
// keeps the stored one, which is only ever shown masked.

import { Html } from "@elysiajs/html";
import type { NotificationView } from "../../src/modules/notifications/service";
import { NOTIFICATION_EVENTS } from "../../src/store/rows";
import {
  CheckField,
  controlAttrs,
  DefaultSubmit,
  Field,
  FieldError,
  type FormErrors,
  FormProblem,
  fieldId,
  TypeSelect,
} from "../components";
import { NOTIFICATION_TYPE_OPTIONS, NotificationFields } from "../fragments/notification-fields";
import {
  deleteNotificationQuestion,
  notificationRowId,
  type TestOutcome,
  TestResult,
} from "../fragments/notification-row";
import { msg } from "../i18n";
import { Layout, PageHeader } from "../layout";

export interface NotificationFormValues {
  name: string;
  type: string;
  /** Option values by key, as typed; secrets only as typed (never the stored ones). */
  options: Record<string, string>;
  events: string[];
  is_enabled: boolean;
}

export interface NotificationFormPageProps {
  user: string;
  /** The notification being edited; absent when adding one. */
  notification?: NotificationView;
  values: NotificationFormValues;
  errors: FormErrors;
  /** What "Send a test" of the form's values (not saved) answered. */
  test?: TestOutcome | null;
}

export function NotificationFormPage({ user, notification, values, errors, test = null }: NotificationFormPageProps) {
  const words = msg().notificationForm;
  const title = notification ? words.edit : words.add;
  const submit = notification ? words.save : words.add;
  const action = notification ? `/notifications/${notification.id}/edit` : "/notifications/new";
  return (
    <Layout title={title} user={user} section="notifications">
      <PageHeader title={title}>
        <a class="button button-quiet" href="/notifications" safe>
          {words.back}
        </a>
      </PageHeader>
      <section class="card form-card">
        <FormProblem errors={errors} />
        <form method="post" action={action} class="stack" id="notification-form">
          <DefaultSubmit label={submit} />
          <Field name="name" label={words.name} errors={errors} help={Html.escapeHtml(words.nameHelp)}>
            <input
              type="text"
              value={values.name}
              required
              maxlength="100"
              autocomplete="off"
              {...controlAttrs("name", errors, true)}
            />
          </Field>
          <Field name="type" label={words.type} errors={errors} help={Html.escapeHtml(words.typeHelp)}>
            <TypeSelect
              fieldsUrl="/notifications/fields"
              fieldsTarget="#notification-fields"
              vals={notification ? { notification: notification.id } : undefined}
              options={NOTIFICATION_TYPE_OPTIONS}
              selected={values.type}
              errors={errors}
            />
          </Field>
          <NotificationFields type={values.type} values={values.options} errors={errors} stored={notification} />
          {/* A heartbeat channel pings after every pass whatever happened: its events are hidden (styles.css). */}
          <fieldset
            class={["field", "choices", "event-choices", errors.fields.events !== undefined && "has-error"]}
            id={fieldId("events")}
          >
            <legend safe>{words.events}</legend>
            {NOTIFICATION_EVENTS.map((event) => (
              <div class="field-check">
                <input
                  type="checkbox"
                  id={`event-${event}`}
                  name="events"
                  value={event}
                  checked={values.events.includes(event)}
                />
                <label for={`event-${event}`} safe>
                  {words.event[event]}
                </label>
              </div>
            ))}
            <FieldError name="events" errors={errors} />
          </fieldset>
          <CheckField
            name="is_enabled"
            label={words.enabled}
            checked={values.is_enabled}
            errors={errors}
            help={Html.escapeHtml(words.enabledHelp)}
          />
          <div class="form-actions">
            <button type="submit" class="button button-primary" safe>
              {submit}
            </button>
            {/* Sends what the form holds, before saving: a wrong topic or token shows now, and nothing is saved. */}
            <button type="submit" name="send_test" value="1" class="button" formnovalidate safe>
              {words.sendTest}
            </button>
            <a class="button button-quiet" href="/notifications" safe>
              {msg().common.cancel}
            </a>
          </div>
          <div aria-live="polite">{test ? <TestResult outcome={test} /> : ""}</div>
        </form>
      </section>
      {notification ? (
        <section class="card form-card">
          <h2 class="card-title" safe>
            {words.remove}
          </h2>
          <div class="actions">
            <form
              method="post"
              action={`/notifications/${notification.id}/delete`}
              hx-confirm={deleteNotificationQuestion(notification)}
            >
              <button type="submit" class="button button-danger" safe>
                {words.delete}
              </button>
            </form>
          </div>
          <p class="help">
            {words.testFromList((text) => `<a href="/notifications#${notificationRowId(notification.id)}">${text}</a>`)}
          </p>
        </section>
      ) : (
        ""
      )}
    </Layout>
  );
}
