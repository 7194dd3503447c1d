// Routes of /api/v1/config: the configuration as a file (YAML), and applying one.

import { Elysia, t } from "elysia";
import { errorResponses } from "../shared";
import { type ConfigFileDeps, exportConfig, importConfig } from "./service";

const ImportQuery = t.Object({
  dry_run: t.Optional(
    t.Boolean({
      title: "dry_run",
      description: "Say what would change, change nothing",
      error: "must be true or false",
    }),
  ),
  prune: t.Optional(
    t.Boolean({
      title: "prune",
      description: "Also delete what the file does not name",
      error: "must be true or false",
    }),
  ),
  force: t.Optional(
    t.Boolean({
      title: "force",
      description: "With prune: apply a file that names no providers and no domains (deleting every one)",
      error: "must be true or false",
    }),
  ),
});

const ImportResult = t.Object({
  dry_run: t.Boolean(),
  changes: t.Array(t.String(), {
    description: 'One line per change, e.g. `create provider "Cloudflare" (cloudflare)`; empty when nothing differs',
  }),
});

export function configFileRoutes(ctx: ConfigFileDeps) {
  return new Elysia({ prefix: "/config", tags: ["config"] })
    .get(
      "/export",
      () =>
        new Response(exportConfig(ctx), {
          headers: {
            "content-type": "application/yaml; charset=utf-8",
            "content-disposition": 'attachment; filename="ddnsd.yaml"',
          },
        }),
      {
        response: {
          200: t.String({ description: "The file, secrets sealed with this ddnsd's encryption key" }),
          ...errorResponses(401),
        },
        detail: {
          operationId: "exportConfig",
          summary: "Export the configuration as a file",
          description:
            "Providers, domains, update keys and notifications as YAML, each known by its name. Secrets are sealed (they open only with this ddnsd's " +
            "encryption key); `ddnsd export --include-secrets` on the host writes them in clear.",
        },
      },
    )
    .post(
      "/import",
      ({ body, query }) =>
        importConfig(ctx, body, {
          dryRun: query.dry_run ?? false,
          prune: query.prune ?? false,
          force: query.force ?? false,
        }),
      {
        parse: "text",
        body: t.String({ description: "The configuration file (YAML; JSON is read the same way), sent as text" }),
        query: ImportQuery,
        response: { 200: ImportResult, ...errorResponses(401, 422) },
        detail: {
          operationId: "importConfig",
          summary: "Apply a configuration file",
          description:
            "Creates what the file names and this ddnsd lacks and updates what differs, matched by name; deletes nothing unless `?prune=true` " +
            "(and a file naming no providers and no domains is refused with it unless `&force=true`). " +
            "All or nothing: a file with one bad value changes nothing, and the 422 names its line. `?dry_run=true` lists the changes without making them.",
        },
      },
    );
}
