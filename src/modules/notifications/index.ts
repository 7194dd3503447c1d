// Routes of /api/v1/notifications.

import { Elysia, t } from "elysia";
import { bodyShape, DeletedBody, errorResponses, NotificationIdParams, plainIds } from "../shared";
import { Notification, NotificationCreate, NotificationUpdate, TestResult } from "./model";
import {
  createNotification,
  deleteNotification,
  getNotification,
  listNotifications,
  type NotificationDeps,
  testNotification,
  updateNotification,
} from "./service";

export function notificationRoutes(ctx: NotificationDeps) {
  return new Elysia({ prefix: "/notifications", tags: ["notifications"] })
    .onTransform(plainIds)
    .get("", () => listNotifications(ctx), {
      response: { 200: t.Array(Notification), ...errorResponses(401) },
      detail: { operationId: "listNotifications", summary: "List notifications" },
    })
    .post("", ({ body }) => createNotification(ctx, body), {
      body: NotificationCreate,
      transform: bodyShape({ objects: ["options"] }),
      response: { 200: Notification, ...errorResponses(401, 422) },
      detail: { operationId: "createNotification", summary: "Create a notification" },
    })
    .get("/:notification_id", ({ params }) => getNotification(ctx, params.notification_id), {
      params: NotificationIdParams,
      response: { 200: Notification, ...errorResponses(401, 404, 422) },
      detail: { operationId: "getNotification", summary: "Get a notification" },
    })
    .put("/:notification_id", ({ params, body }) => updateNotification(ctx, params.notification_id, body), {
      params: NotificationIdParams,
      body: NotificationUpdate,
      transform: bodyShape({ objects: ["options"] }),
      response: { 200: Notification, ...errorResponses(401, 404, 422) },
      detail: { operationId: "updateNotification", summary: "Update a notification (partial)" },
    })
    .delete(
      "/:notification_id",
      ({ params }) => {
        deleteNotification(ctx, params.notification_id);
        return { message: "Notification deleted", id: params.notification_id };
      },
      {
        params: NotificationIdParams,
        response: { 200: DeletedBody, ...errorResponses(401, 404, 422) },
        detail: { operationId: "deleteNotification", summary: "Delete a notification" },
      },
    )
    .post("/:notification_id/test", ({ params }) => testNotification(ctx, params.notification_id), {
      params: NotificationIdParams,
      response: { 200: TestResult, ...errorResponses(401, 404, 422) },
      detail: {
        operationId: "testNotification",
        summary: "Send a test message",
        description: "Sends once, without retries; `ok` says whether the service took it.",
      },
    });
}
