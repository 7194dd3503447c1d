// Routes of /api/v1/providers.

import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { DeletedBody, errorResponses, IdParams, objectBody } from "../shared";
import { DeleteQuery, Provider, ProviderCreate, ProviderUpdate, VerifyResult } from "./model";
import {
  createProvider,
  deleteProvider,
  getProvider,
  listProviders,
  updateProvider,
  verifyProvider,
} from "./service";

export function providerRoutes(ctx: AppContext) {
  return new Elysia({ prefix: "/providers", tags: ["providers"] })
    .get("", () => listProviders(ctx), {
      response: { 200: t.Array(Provider), ...errorResponses(401) },
      detail: { summary: "List providers" },
    })
    .post("", ({ body }) => createProvider(ctx, body), {
      body: ProviderCreate,
      transform: objectBody("credentials"),
      response: { 200: Provider, ...errorResponses(401, 409, 422) },
      detail: { summary: "Create a provider" },
    })
    .get("/:id", ({ params }) => getProvider(ctx, params.id), {
      params: IdParams,
      response: { 200: Provider, ...errorResponses(401, 404, 422) },
      detail: { summary: "Get a provider" },
    })
    .put("/:id", ({ params, body }) => updateProvider(ctx, params.id, body), {
      params: IdParams,
      body: ProviderUpdate,
      transform: objectBody("credentials"),
      response: { 200: Provider, ...errorResponses(401, 404, 409, 422) },
      detail: { summary: "Update a provider (partial)" },
    })
    .delete(
      "/:id",
      ({ params, query }) => {
        deleteProvider(ctx, params.id, query.cascade ?? false);
        return { message: "Provider deleted", id: params.id };
      },
      {
        params: IdParams,
        query: DeleteQuery,
        response: { 200: DeletedBody, ...errorResponses(401, 404, 409, 422) },
        detail: { summary: "Delete a provider", description: "409 while domains use it, unless `?cascade=true`." },
      },
    )
    .post("/:id/verify", ({ params }) => verifyProvider(ctx, params.id), {
      params: IdParams,
      response: { 200: VerifyResult, ...errorResponses(401, 404, 422) },
      detail: { summary: "Check the provider's credentials", description: "Never changes a record." },
    });
}
