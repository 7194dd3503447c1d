// A provider's `credentials` and `options` as the OpenAPI document types them: one schema per DNS
// service, derived from the service's description (its credential and option fields), joined by a
// `oneOf` with a `discriminator` on `type`. A client generator then knows that a `cloudflare`
// provider takes `{api_token}` and a `dyndns2` one `{username, password}` with `options.server`, and
// a service added to the registry appears here by itself.
//
// The routes themselves validate with the looser record schemas of modules/providers/model.ts (and
// dns/rules.ts, which names the field at fault in a 422 and accepts aliases such as Cloudflare's
// `token`); only the served document is typed this way. Which operations carry which schema is
// listed once, by operationId, in TYPED_OPERATIONS.

import type { CredentialField, OptionField, ServiceDescription } from "../dns/service";

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** `digitalocean` → `Digitalocean`, `route53` → `Route53`: the prefix of a service's schema names. */
function schemaPrefix(type: string): string {
  return type.charAt(0).toUpperCase() + type.slice(1);
}

function credentialSchema(field: CredentialField, masked: boolean): Schema {
  const aliases = field.aliases?.length
    ? ` Also accepted as ${field.aliases.map((alias) => `\`${alias}\``).join(", ")}.`
    : "";
  const shown = masked && field.secret ? " Masked in answers, e.g. `••••3f9a`." : "";
  return { type: "string", title: field.label, description: `${field.help}${aliases}${shown}` };
}

function optionSchema(field: OptionField): Schema {
  const base: Schema = { title: field.label, description: field.help };
  if (field.default !== undefined) base.default = field.default;
  switch (field.kind) {
    case "choice":
      return { ...base, type: "string", enum: [...(field.choices ?? [])] };
    case "url":
      return { ...base, type: "string", format: "uri" };
    case "headers":
      return { ...base, type: "object", additionalProperties: { type: "string" } };
    default:
      return { ...base, type: "string" };
  }
}

function credentialsObject(service: ServiceDescription, masked: boolean): Schema {
  const required = service.credentials.filter((field) => !field.optional).map((field) => field.key);
  return {
    type: "object",
    description: `${service.label} credentials${masked ? ", as answers show them" : ""}. Sealed at rest.`,
    properties: Object.fromEntries(service.credentials.map((field) => [field.key, credentialSchema(field, masked)])),
    ...(required.length > 0 ? { required } : {}),
  };
}

function optionsObject(service: ServiceDescription): Schema {
  const required = service.options.filter((field) => field.required).map((field) => field.key);
  return {
    type: "object",
    description: `${service.label} options (not secret). An unknown key is refused.`,
    properties: Object.fromEntries(service.options.map((field) => [field.key, optionSchema(field)])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

const NAME: Schema = {
  type: "string",
  minLength: 1,
  maxLength: 100,
  description: "Display name, unique ignoring case",
};
const ENABLED: Schema = { type: "boolean" };

/** The named schemas: per service its credentials, masked credentials, options, create body and answer; then the unions. */
function providerSchemas(services: readonly ServiceDescription[]): Record<string, Schema> {
  const schemas: Record<string, Schema> = {};
  const mapping = (suffix: string) =>
    Object.fromEntries(services.map((service) => [service.type, ref(`${schemaPrefix(service.type)}${suffix}`).$ref]));
  const typeOf = (service: ServiceDescription): Schema => ({
    type: "string",
    const: service.type,
    description: service.summary,
  });
  for (const service of services) {
    const prefix = schemaPrefix(service.type);
    schemas[`${prefix}Credentials`] = credentialsObject(service, false);
    schemas[`${prefix}MaskedCredentials`] = credentialsObject(service, true);
    schemas[`${prefix}Options`] = optionsObject(service);
    schemas[`${prefix}ProviderCreate`] = {
      type: "object",
      title: `${service.label} provider`,
      properties: {
        name: NAME,
        type: typeOf(service),
        credentials: ref(`${prefix}Credentials`),
        options: ref(`${prefix}Options`),
        is_enabled: ENABLED,
      },
      required: ["name", "type", "credentials"],
    };
    schemas[`${prefix}Provider`] = {
      type: "object",
      title: `${service.label} provider`,
      properties: {
        id: { type: "integer" },
        name: { type: "string" },
        type: typeOf(service),
        is_enabled: { type: "boolean" },
        credentials: ref(`${prefix}MaskedCredentials`),
        options: ref(`${prefix}Options`),
        domain_count: { type: "integer" },
        created_at: { type: "string", format: "date-time" },
        updated_at: { type: "string", format: "date-time" },
      },
      required: [
        "id",
        "name",
        "type",
        "is_enabled",
        "credentials",
        "options",
        "domain_count",
        "created_at",
        "updated_at",
      ],
    };
  }
  const union = (suffix: string, description: string): Schema => ({
    description,
    oneOf: services.map((service) => ref(`${schemaPrefix(service.type)}${suffix}`)),
    discriminator: { propertyName: "type", mapping: mapping(suffix) },
  });
  schemas.ProviderCreate = union(
    "ProviderCreate",
    "A new provider; `credentials` and `options` as its `type` takes them",
  );
  schemas.Provider = union("Provider", "A provider; secret credentials masked");
  schemas.ProviderUpdate = {
    type: "object",
    description:
      "Any subset of the fields; `credentials` and `options` replace all stored ones and are those of the (new) `type`",
    properties: {
      name: NAME,
      type: { type: "string", enum: services.map((service) => service.type) },
      credentials: { anyOf: services.map((service) => ref(`${schemaPrefix(service.type)}Credentials`)) },
      options: { anyOf: services.map((service) => ref(`${schemaPrefix(service.type)}Options`)) },
      is_enabled: ENABLED,
    },
  };
  return schemas;
}

/** Which schema replaces the generated one, by operationId: the request body, and the 200 answer. */
const TYPED_OPERATIONS: Record<string, { body?: Schema; answer?: Schema }> = {
  listProviders: { answer: { type: "array", items: ref("Provider") } },
  createProvider: { body: ref("ProviderCreate"), answer: ref("Provider") },
  getProvider: { answer: ref("Provider") },
  updateProvider: { body: ref("ProviderUpdate"), answer: ref("Provider") },
};

type Json = Record<string, unknown>;

const asJson = (value: unknown): Json => (typeof value === "object" && value !== null ? (value as Json) : {});

/** The operation with the typed schema in place of the generated one, in each of its media types. */
function retyped(operation: Json, typed: { body?: Schema; answer?: Schema }): Json {
  const replaced: Json = { ...operation };
  const withSchema = (content: unknown, schema: Schema) =>
    Object.fromEntries(Object.entries(asJson(content)).map(([type, media]) => [type, { ...asJson(media), schema }]));
  const requestBody = asJson(operation.requestBody);
  if (typed.body && requestBody.content)
    replaced.requestBody = { ...requestBody, content: withSchema(requestBody.content, typed.body) };
  const responses = asJson(operation.responses);
  const ok = asJson(responses["200"]);
  if (typed.answer && ok.content)
    replaced.responses = { ...responses, 200: { ...ok, content: withSchema(ok.content, typed.answer) } };
  return replaced;
}

/** The document with the typed provider schemas added and put in place of the generated ones. */
export function withTypedProviders(document: Json, services: readonly ServiceDescription[]): Json {
  const paths = Object.fromEntries(
    Object.entries(asJson(document.paths)).map(([path, operations]) => [
      path,
      Object.fromEntries(
        Object.entries(asJson(operations)).map(([method, operation]) => {
          const typed = TYPED_OPERATIONS[String(asJson(operation).operationId)];
          return [method, typed ? retyped(asJson(operation), typed) : operation];
        }),
      ),
    ]),
  );
  const components = asJson(document.components);
  return {
    ...document,
    paths,
    components: { ...components, schemas: { ...asJson(components.schemas), ...providerSchemas(services) } },
  };
}
