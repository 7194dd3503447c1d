import { describe, expect, test } from "bun:test";
import type { NewNotification } from "../../../src/store/notifications";
import { memoryStore } from "./support";

const channel: NewNotification = {
  name: "phone",
  type: "ntfy",
  options: { topic: "home" },
  secrets: "sealed",
  events: ["update_failed"],
  isEnabled: true,
  createdAt: 10,
  updatedAt: 10,
};

describe("store: notifications", () => {
  test("create, find, list oldest first, enabled, update, delete", () => {
    const { store } = memoryStore();
    const first = store.notifications.create(channel);
    const second = store.notifications.create({ ...channel, name: "mail", isEnabled: false });
    expect(store.notifications.find(first)).toMatchObject({ ...channel, id: first, lastSentAt: null, lastError: null });
    expect(store.notifications.list().map((row) => row.id)).toEqual([first, second]);
    expect(store.notifications.enabled().map((row) => row.id)).toEqual([first]);
    store.notifications.update(second, { isEnabled: true, events: ["ip_changed"], updatedAt: 20 });
    expect(store.notifications.find(second)).toMatchObject({
      isEnabled: true,
      events: ["ip_changed"],
      updatedAt: 20,
      createdAt: 10,
    });
    store.notifications.delete(first);
    expect(store.notifications.find(first)).toBeUndefined();
    expect(store.notifications.list().map((row) => row.name)).toEqual(["mail"]);
  });

  test("noteDelivery: a success stamps the time and clears the error; a failure keeps the last success", () => {
    const { store } = memoryStore();
    const id = store.notifications.create(channel);
    store.notifications.noteDelivery(id, null, 100);
    expect(store.notifications.find(id)).toMatchObject({ lastSentAt: 100, lastError: null });
    store.notifications.noteDelivery(id, "refused", 200);
    expect(store.notifications.find(id)).toMatchObject({ lastSentAt: 100, lastError: "refused" });
  });
});
