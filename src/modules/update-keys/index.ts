// Routes of /api/v1/update-keys.

import { Elysia, t } from "elysia";
import { bodyShape, DeletedBody, errorResponses, plainIds, UpdateKeyIdParams } from "../shared";
import { UpdateKey, UpdateKeyCreate } from "./model";
import { createUpdateKey, deleteUpdateKey, getUpdateKey, listUpdateKeys, type UpdateKeyDeps } from "./service";

export function updateKeyRoutes(ctx: UpdateKeyDeps) {
  return new Elysia({ prefix: "/update-keys", tags: ["update keys"] })
    .onTransform(plainIds)
    .get("", () => listUpdateKeys(ctx), {
      response: { 200: t.Array(UpdateKey), ...errorResponses(401) },
      detail: { operationId: "listUpdateKeys", summary: "List update keys (masked)" },
    })
    .post("", ({ body }) => createUpdateKey(ctx, body), {
      body: UpdateKeyCreate,
      transform: bodyShape({}),
      response: { 200: UpdateKey, ...errorResponses(401, 422) },
      detail: {
        operationId: "createUpdateKey",
        summary: "Create an update key",
        description: "The answer is the only place the whole key is ever shown.",
      },
    })
    .get("/:update_key_id", ({ params }) => getUpdateKey(ctx, params.update_key_id), {
      params: UpdateKeyIdParams,
      response: { 200: UpdateKey, ...errorResponses(401, 404, 422) },
      detail: { operationId: "getUpdateKey", summary: "Get an update key (masked)" },
    })
    .delete(
      "/:update_key_id",
      ({ params }) => {
        deleteUpdateKey(ctx, params.update_key_id);
        return { message: "Update key deleted", id: params.update_key_id };
      },
      {
        params: UpdateKeyIdParams,
        response: { 200: DeletedBody, ...errorResponses(401, 404, 422) },
        detail: { operationId: "deleteUpdateKey", summary: "Delete an update key" },
      },
    );
}
