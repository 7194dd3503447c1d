// Routes of /api/v1/api-tokens: only a signed-in admin (a password sign-in or the proxy's) manages
// them; http/api-tokens.ts refuses every API token here.

import { Elysia, t } from "elysia";
import { ApiTokenIdParams, bodyShape, DeletedBody, errorResponses, plainIds } from "../shared";
import { ApiToken, ApiTokenCreate } from "./model";
import { type ApiTokenDeps, createApiToken, deleteApiToken, getApiToken, listApiTokens } from "./service";

export function apiTokenRoutes(ctx: ApiTokenDeps) {
  return new Elysia({ prefix: "/api-tokens", tags: ["API tokens"] })
    .onTransform(plainIds)
    .get("", () => listApiTokens(ctx), {
      response: { 200: t.Array(ApiToken), ...errorResponses(401, 403) },
      detail: { operationId: "listApiTokens", summary: "List API tokens (masked)" },
    })
    .post("", ({ body }) => createApiToken(ctx, body), {
      body: ApiTokenCreate,
      transform: bodyShape({}),
      response: { 200: ApiToken, ...errorResponses(401, 403, 422) },
      detail: {
        operationId: "createApiToken",
        summary: "Create an API token",
        description:
          "The answer is the only place the whole token is ever shown. Send it as `Authorization: Bearer ddnsd_…`. " +
          "API tokens cannot manage API tokens.",
      },
    })
    .get("/:api_token_id", ({ params }) => getApiToken(ctx, params.api_token_id), {
      params: ApiTokenIdParams,
      response: { 200: ApiToken, ...errorResponses(401, 403, 404, 422) },
      detail: { operationId: "getApiToken", summary: "Get an API token (masked)" },
    })
    .delete(
      "/:api_token_id",
      ({ params }) => {
        deleteApiToken(ctx, params.api_token_id);
        return { message: "API token revoked", id: params.api_token_id };
      },
      {
        params: ApiTokenIdParams,
        response: { 200: DeletedBody, ...errorResponses(401, 403, 404, 422) },
        detail: {
          operationId: "deleteApiToken",
          summary: "Revoke an API token",
          description: "The token is refused from its next request on.",
        },
      },
    );
}
