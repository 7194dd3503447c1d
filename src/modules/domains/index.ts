// Routes of /api/v1/domains, their history, and the forced update.

import { Elysia, t } from "elysia";
import type { UpdateParts } from "../../updater/update";
import {
  bodyShape,
  DeletedBody,
  DomainIdParams,
  errorResponses,
  plainIds,
  plainQueryNumbers,
  type WriteCount,
  whileUnchanged,
} from "../shared";
import {
  Domain,
  DomainCreate,
  DomainListQuery,
  DomainUpdate,
  HistoryQuery,
  HistoryRecord,
  UpdateResult,
} from "./model";
import {
  createDomain,
  type DomainDeps,
  deleteDomain,
  domainHistory,
  forceUpdate,
  getDomain,
  listDomains,
  updateDomain,
} from "./service";

export function domainRoutes(ctx: DomainDeps & UpdateParts & WriteCount) {
  // The list is served again until the next write or the next answer of a name server.
  const changes: WriteCount = {
    sqlite: {
      get writes() {
        return ctx.sqlite.writes + ctx.propagation.changes;
      },
    },
  };
  const everyDomain = whileUnchanged(changes, () => listDomains(ctx));
  return new Elysia({ prefix: "/domains", tags: ["domains"] })
    .onTransform(plainIds)
    .get(
      "",
      ({ query }) =>
        query.limit === undefined && query.offset === undefined
          ? everyDomain()
          : listDomains(ctx, { limit: query.limit, offset: query.offset }),
      {
        query: DomainListQuery,
        transform: plainQueryNumbers("limit", "offset"),
        response: { 200: t.Array(Domain), ...errorResponses(401, 422) },
        detail: {
          operationId: "listDomains",
          summary: "List domains",
          description:
            "Every domain, oldest first. With `limit` and/or `offset`, only that part of the list: " +
            "`?limit=100&offset=200` is the third hundred; a shorter page than `limit` is the last.",
        },
      },
    )
    .post("", ({ body }) => createDomain(ctx, body), {
      body: DomainCreate,
      transform: bodyShape({
        objects: ["config"],
        numbers: ["provider_id", "config.ttl", "config.ipv6_prefix_length"],
      }),
      response: { 200: Domain, ...errorResponses(401, 404, 409, 422) },
      detail: {
        operationId: "createDomain",
        summary: "Create a domain",
        description: "The new domain is checked at once, then on its schedule.",
      },
    })
    .get("/:domain_id", ({ params }) => getDomain(ctx, params.domain_id), {
      params: DomainIdParams,
      response: { 200: Domain, ...errorResponses(401, 404, 422) },
      detail: { operationId: "getDomain", summary: "Get a domain" },
    })
    .put("/:domain_id", ({ params, body }) => updateDomain(ctx, params.domain_id, body), {
      params: DomainIdParams,
      body: DomainUpdate,
      transform: bodyShape({
        objects: ["config"],
        numbers: ["provider_id", "config.ttl", "config.ipv6_prefix_length"],
      }),
      response: { 200: Domain, ...errorResponses(401, 404, 409, 422) },
      detail: { operationId: "updateDomain", summary: "Update a domain (partial)" },
    })
    .delete(
      "/:domain_id",
      ({ params }) => {
        deleteDomain(ctx, params.domain_id);
        return { message: "Domain deleted", id: params.domain_id };
      },
      {
        params: DomainIdParams,
        response: { 200: DeletedBody, ...errorResponses(401, 404, 422) },
        detail: {
          operationId: "deleteDomain",
          summary: "Delete a domain",
          description: "Removes its history; the DNS record at the provider stays.",
        },
      },
    )
    .get("/:domain_id/history", ({ params, query }) => domainHistory(ctx, params.domain_id, query.limit ?? 20), {
      params: DomainIdParams,
      query: HistoryQuery,
      transform: plainQueryNumbers("limit"),
      response: { 200: t.Array(HistoryRecord), ...errorResponses(401, 404, 422) },
      detail: { operationId: "getDomainHistory", summary: "A domain's update history, newest first" },
    })
    .post("/:domain_id/update_ip", ({ params }) => forceUpdate(ctx, params.domain_id), {
      params: DomainIdParams,
      response: { 200: UpdateResult, ...errorResponses(401, 404, 409, 422, 502, 503) },
      detail: {
        operationId: "updateDomainIp",
        summary: "Update the record now",
        description:
          "Detects the public IP and writes it to the provider, even when it looks unchanged. " +
          "502: the provider refused or could not be reached; 503: the public IP could not be detected; " +
          "409: the domain or its provider is disabled. Every attempt writes a history row.",
      },
    });
}
