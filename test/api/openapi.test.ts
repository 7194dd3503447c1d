// /docs/json is an OpenAPI 3.1 document real tools accept (issue 10, part 3): checked with
// @seriousme/openapi-schema-validator against the official 3.1 schema, and free of what that schema
// lets through but linters such as `redocly lint` refuse — our validation messages (`error`),
// OpenAPI 3.0's `nullable` — with `servers`, every response described, and the provider types
// enumerated from the service registry.

import { beforeAll, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { NOTIFICATION_EVENTS } from "../../src/db/schema";
import { PROVIDER_TYPES, SERVICES } from "../../src/dns/registry";
import { openApi31 } from "../../src/http/docs";
import { NOTIFICATION_TYPES } from "../../src/notify/registry";
import { makeTestApp } from "../support";

let spec: any;
beforeAll(async () => {
  const t = await makeTestApp();
  const response = await t.request("GET", "/docs/json", { token: null });
  expect(response.status).toBe(200);
  spec = response.body;
});

/** Every `[path, value]` under `node` whose key is `key`. */
function findKey(node: unknown, key: string, path = ""): [string, unknown][] {
  if (typeof node !== "object" || node === null) return [];
  return Object.entries(node).flatMap(([name, value]) => [
    ...(name === key ? [[`${path}/${name}`, value] as [string, unknown]] : []),
    ...findKey(value, key, `${path}/${name}`),
  ]);
}

describe("the OpenAPI document", () => {
  test("is valid OpenAPI 3.1 by the official schema", async () => {
    const validator = new Validator();
    const result = await validator.validate(spec);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  test("has no validation messages leaking as `error` keywords, and no 3.0 `nullable`", () => {
    expect(findKey(spec, "error").filter(([, value]) => typeof value === "string")).toEqual([]);
    expect(findKey(spec, "nullable")).toEqual([]);
  });

  test("a nullable field is a type list", () => {
    const ok =
      spec.paths["/api/v1/providers/{provider_id}/verify"].post.responses["200"].content["application/json"].schema
        .properties.ok;
    expect(ok.type).toEqual(["boolean", "null"]);
  });

  test("names its server, and describes every response", () => {
    expect(spec.servers).toEqual([{ url: "/", description: expect.any(String) }]);
    for (const [path, operations] of Object.entries<any>(spec.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        for (const [status, response] of Object.entries<any>(operation.responses ?? {})) {
          expect([method, path, status, typeof response.description]).toEqual([method, path, status, "string"]);
        }
      }
    }
  });

  test("a provider is one of the registered services, told apart by its type, in requests and answers", () => {
    const schemas = spec.components.schemas;
    const create = spec.paths["/api/v1/providers"].post.requestBody.content["application/json"].schema;
    const answer =
      spec.paths["/api/v1/providers/{provider_id}"].get.responses["200"].content["application/json"].schema;
    for (const [schema, name] of [
      [create, "ProviderCreate"],
      [answer, "Provider"],
    ] as const) {
      expect(schema).toEqual({ $ref: `#/components/schemas/${name}` });
      const union = schemas[name];
      expect(union.discriminator.propertyName).toBe("type");
      expect(Object.keys(union.discriminator.mapping)).toEqual([...PROVIDER_TYPES]);
      expect(union.oneOf.map((variant: any) => variant.$ref)).toEqual(Object.values(union.discriminator.mapping));
      for (const [type, target] of Object.entries<string>(union.discriminator.mapping)) {
        const variant = schemas[target.replace("#/components/schemas/", "")];
        expect(variant.properties.type.const).toBe(type);
        expect(variant.required).toEqual(
          expect.arrayContaining(name === "Provider" ? ["type", "credentials", "options"] : ["type", "credentials"]),
        );
      }
    }
    expect(spec.paths["/api/v1/providers/{provider_id}"].put.requestBody.content["application/json"].schema.$ref).toBe(
      "#/components/schemas/ProviderUpdate",
    );
  });

  test("each service's credentials and options are typed from its description", () => {
    const schemas = spec.components.schemas;
    for (const service of SERVICES) {
      const prefix = service.type.charAt(0).toUpperCase() + service.type.slice(1);
      const credentials = schemas[`${prefix}Credentials`];
      expect(Object.keys(credentials.properties)).toEqual(service.credentials.map((field) => field.key));
      expect(credentials.required ?? []).toEqual(
        service.credentials.filter((field) => !field.optional).map((field) => field.key),
      );
      const options = schemas[`${prefix}Options`];
      expect(Object.keys(options.properties)).toEqual(service.options.map((field) => field.key));
      expect(options.additionalProperties).toBe(false);
      for (const field of service.options.filter((option) => option.kind === "choice")) {
        expect(options.properties[field.key].enum).toEqual([...field.choices!]);
      }
    }
    expect(schemas.CloudflareCredentials.required).toEqual(["api_token"]);
    expect(schemas.Dyndns2Options.required).toEqual(["server"]);
  });

  test("closed values are enums: record types, notification types and events", () => {
    const domain = spec.paths["/api/v1/domains"].post.requestBody.content["application/json"].schema;
    expect(domain.properties.record_type.enum).toEqual(["A", "AAAA"]);
    const answer = spec.paths["/api/v1/domains/{domain_id}"].get.responses["200"].content["application/json"].schema;
    expect(answer.properties.record_type.enum).toEqual(["A", "AAAA"]);
    const notification = spec.paths["/api/v1/notifications"].post.requestBody.content["application/json"].schema;
    expect(notification.properties.type.enum).toEqual([...NOTIFICATION_TYPES]);
    expect(notification.properties.events.items.enum).toEqual([...NOTIFICATION_EVENTS]);
  });

  test("path ids are plain integers, without the string coercion Elysia validates them with", () => {
    const parameter = spec.paths["/api/v1/domains/{domain_id}"].get.parameters.find((p: any) => p.name === "domain_id");
    expect(parameter.schema).toMatchObject({ type: "integer", minimum: 1 });
    expect(parameter.schema.anyOf).toBeUndefined();
  });
});

describe("openApi31", () => {
  test("turns nullable into a type list and drops messages, leaving properties named error alone", () => {
    const tidy = openApi31({
      openapi: "3.1.0",
      components: {
        schemas: {
          X: {
            type: "object",
            properties: {
              error: { type: "string", nullable: true, error: "must be text" },
              n: { type: ["integer"], nullable: true },
            },
          },
        },
      },
    }) as any;
    expect(tidy.components.schemas.X.properties).toEqual({
      error: { type: ["string", "null"] },
      n: { type: ["integer", "null"] },
    });
  });
});
