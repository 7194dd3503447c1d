// The notifications table: where the appliance reports what happened (a channel's type, its plain
// options and its sealed secrets, the events it wants), and how its last delivery went.

import { asc, eq } from "drizzle-orm";
import { notifications } from "../db/schema";
import type { Handle } from "./handle";
import type { NotificationRow } from "./rows";

export type NewNotification = Omit<typeof notifications.$inferInsert, "id" | "lastSentAt" | "lastError">;
export type NotificationChanges = Partial<Omit<NewNotification, "createdAt">>;

export interface NotificationQueries {
  /** The new notification's id. */
  create(notification: NewNotification): number;
  find(id: number): NotificationRow | undefined;
  /** Oldest first. */
  list(): NotificationRow[];
  /** The enabled ones, the ones a delivery goes to. */
  enabled(): NotificationRow[];
  update(id: number, changes: NotificationChanges): void;
  delete(id: number): void;
  /** How a delivery went: sent at `now`, or the error (the last sending time stays). */
  noteDelivery(id: number, error: string | null, now: number): void;
}

export function notificationQueries(db: Handle): NotificationQueries {
  return {
    create(notification) {
      return db.insert(notifications).values(notification).returning({ id: notifications.id }).get().id;
    },
    find(id) {
      return db.select().from(notifications).where(eq(notifications.id, id)).get();
    },
    list() {
      return db.select().from(notifications).orderBy(asc(notifications.id)).all();
    },
    enabled() {
      return db.select().from(notifications).where(eq(notifications.isEnabled, true)).all();
    },
    update(id, changes) {
      db.update(notifications).set(changes).where(eq(notifications.id, id)).run();
    },
    delete(id) {
      db.delete(notifications).where(eq(notifications.id, id)).run();
    },
    noteDelivery(id, error, now) {
      db.update(notifications)
        .set(error === null ? { lastSentAt: now, lastError: null } : { lastError: error })
        .where(eq(notifications.id, id))
        .run();
    },
  };
}
