// The notification list: where ddnsd tells a person about address changes and failures.

import { Html } from "@elysiajs/html";
import type { NotificationView } from "../../src/modules/notifications/service";
import { type Flash, type ListDeletion, ListHeading } from "../components";
import { NOTIFICATION_LIST_ID, NotificationRow } from "../fragments/notification-row";
import { Layout, PageHeader } from "../layout";

export interface NotificationsPageProps {
  user: string;
  flash?: Flash | null;
  now: number;
  notifications: NotificationView[];
}

export function NotificationsPage({ user, flash, now, notifications }: NotificationsPageProps) {
  return (
    <Layout title="Notifications" user={user} section="notifications" flash={flash}>
      <PageHeader title="Notifications">
        <a class="button button-primary" href="/notifications/new">
          Add notification
        </a>
      </PageHeader>
      <p class="lead muted">
        Where ddnsd tells you when an address changes or updates fail: a webhook, ntfy, Gotify, Discord, Slack or
        Telegram; or a heartbeat after each check to Healthchecks or Uptime Kuma.
      </p>
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
  return (
    <section id={NOTIFICATION_LIST_ID} class="card" aria-labelledby="notification-list-title">
      <ListHeading id="notification-list-title" text="Your notifications" deletion={deletion} />
      {notifications.length === 0 ? (
        <p class="empty">
          No notifications yet. <a href="/notifications/new">Add one</a> to hear about address changes and failures.
        </p>
      ) : (
        <div class="table-wrap">
          <table class="table responsive">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Events</th>
                <th scope="col">Enabled</th>
                <th scope="col">Last sent</th>
                <th scope="col">Last error</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
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
