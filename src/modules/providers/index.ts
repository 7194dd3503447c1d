// Routes of /api/v1/providers.

import { Elysia, t } from "elysia";
import {
  bodyShape,
  DeletedBody,
  errorResponses,
  ProviderIdParams,
  plainIds,
  type WriteCount,
  whileUnchanged,
} from "../shared";
import { DeleteQuery, Provider, ProviderCreate, ProviderUpdate, VerifyResult } from "./model";
import {
  createProvider,
  deleteProvider,
  getProvider,
  listProviders,
  type ProviderDeps,
  updateProvider,
  verifyProvider,
} from "./service";

export function providerRoutes(ctx: ProviderDeps & WriteCount) {
  return new Elysia({ prefix: "/providers", tags: ["providers"] })
    .onTransform(plainIds)
    .get(
      "",
      whileUnchanged(ctx, () => listProviders(ctx)),
      {
        response: { 200: t.Array(Provider), ...errorResponses(401) },
        detail: { operationId: "listProviders", summary: "List providers" },
      },
    )
    .post("", ({ body }) => createProvider(ctx, body), {
      body: ProviderCreate,
      transform: bodyShape({ objects: ["credentials", "options"] }),
      response: { 200: Provider, ...errorResponses(401, 409, 422) },
      detail: { operationId: "createProvider", summary: "Create a provider" },
    })
    .get("/:provider_id", ({ params }) => getProvider(ctx, params.provider_id), {
      params: ProviderIdParams,
      response: { 200: Provider, ...errorResponses(401, 404, 422) },
      detail: { operationId: "getProvider", summary: "Get a provider" },
    })
    .put("/:provider_id", ({ params, body }) => updateProvider(ctx, params.provider_id, body), {
      params: ProviderIdParams,
      body: ProviderUpdate,
      transform: bodyShape({ objects: ["credentials", "options"] }),
      response: { 200: Provider, ...errorResponses(401, 404, 409, 422) },
      detail: { operationId: "updateProvider", summary: "Update a provider (partial)" },
    })
    .delete(
      "/:provider_id",
      ({ params, query }) => {
        deleteProvider(ctx, params.provider_id, query.cascade ?? false);
        return { message: "Provider deleted", id: params.provider_id };
      },
      {
        params: ProviderIdParams,
        query: DeleteQuery,
        response: { 200: DeletedBody, ...errorResponses(401, 404, 409, 422) },
        detail: {
          operationId: "deleteProvider",
          summary: "Delete a provider",
          description: "409 while domains use it, unless `?cascade=true`.",
        },
      },
    )
    .post("/:provider_id/verify", ({ params }) => verifyProvider(ctx, params.provider_id), {
      params: ProviderIdParams,
      response: { 200: VerifyResult, ...errorResponses(401, 404, 422) },
      detail: {
        operationId: "verifyProvider",
        summary: "Check the provider's credentials",
        description: "Never changes a record.",
      },
    });
}
