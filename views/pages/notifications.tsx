// The notification list: where ddnsd tells a person about address changes and failures.

import { Html } from "@elysiajs/html";
import type { NotificationView } from "../../src/modules/notifications/service";
import { type Flash, type ListDeletion, ListHeading } from "../components";
import { NOTIFICATION_LIST_ID, NotificationRow } from "../fragments/notification-row";
import { msg } from "../i18n";
import { Layout, PageHeader } from "../layout";

export interface NotificationsPageProps {
  user: string;
  flash?: Flash | null;
  now: number;
  notifications: NotificationView[];
}

export function NotificationsPage({ user, flash, now, notifications }: NotificationsPageProps) {
  const words = msg().notifications;
  return (
    <Layout title={words.title} user={user} section="notifications" flash={flash}>
      <PageHeader title={words.title}>
        <a class="button button-primary" href="/notifications/new">
          {words.add}
        </a>
      </PageHeader>
      <p class="lead muted">{words.lead}</p>
      <NotificationList notifications={notifications} now={now} />
    </Layout>
  );
}

/** The list (its own element: a Delete with JavaScript answers with it, saying what was deleted). */
export function NotificationList({
  notifications,
  now,
  deletion,
}: {
  notifications: NotificationView[];
  now: number;
  deletion?: ListDeletion | null;
}) {
  const words = msg().notifications;
  const common = msg().common;
  return (
    <section id={NOTIFICATION_LIST_ID} class="card" aria-labelledby="notification-list-title">
      <ListHeading id="notification-list-title" text={words.yours} deletion={deletion} />
      {notifications.length === 0 ? (
        <p class="empty">{words.empty((text) => `<a href="/notifications/new">${text}</a>`)}</p>
      ) : (
        <div class="table-wrap">
          <table class="table responsive">
            <thead>
              <tr>
                <th scope="col">{common.name}</th>
                <th scope="col">{common.type}</th>
                <th scope="col">{words.events}</th>
                <th scope="col">{words.enabled}</th>
                <th scope="col">{words.lastSent}</th>
                <th scope="col">{words.lastError}</th>
                <th scope="col">
                  <span class="visually-hidden">{common.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {notifications.map((notification) => (
                <NotificationRow
                  notification={notification}
                  now={now}
                  focusDelete={deletion?.focusId === notification.id}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
