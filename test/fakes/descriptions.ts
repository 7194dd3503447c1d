// The services' own published descriptions (test/conformance/descriptions/), as the fakes check
// requests against them and the conformance tests check the fakes' answers.
//
// OpenAPI descriptions (Cloudflare, DigitalOcean, Hetzner Cloud, dynv6, Azure DNS, Linode, Vultr,
// Domeneshop, Hostinger) are checked by openapi-backend's router and validator (Ajv underneath): the
// operation (method and path), path and query parameters (unknown query parameters are refused, as
// the description lists every one), header parameters where described, and the JSON body against
// its schema (required fields, types, enums, formats where Ajv knows them). Route 53 publishes no OpenAPI but a botocore model (shapes and REST-XML bindings):
// `botocoreDescription` checks the few shapes ddnsd uses from that model.

import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import addFormats from "ajv-formats";
import { type Document, OpenAPIRouter, OpenAPIValidator, type Operation } from "openapi-backend";
import { childrenNamed, parseXml, type XmlElement } from "../../src/dns/protocols/xml";
import type { RequestDescription } from "./server";

const DIRECTORY = `${import.meta.dir}/../conformance/descriptions`;

export interface OpenApiDescription {
  document: Document;
  router: OpenAPIRouter;
  validator: OpenAPIValidator;
  /** Why the answer does not match the operation's response schema for this status; empty when it does. */
  checkResponse(method: string, pathname: string, status: number, body: unknown): string[];
}

const loaded = new Map<string, OpenApiDescription>();

/**
 * Where a vendored description is known to be stricter than the service it describes, the fake that
 * uses it says so here, visibly, rather than the fixture being edited.
 */
export interface Leniency {
  /** PATCH bodies are partial: no field is required (the schema's types and enums still hold). */
  partialPatch?: boolean;
  /** Fields the service assigns, which the description requires of requests without marking them readOnly. */
  assigned?: string[];
  /**
   * Query parameters the service's own next-page links carry, which the description leaves out (it
   * calls those links opaque): not refused as unknown.
   */
  nextLinkParameters?: string[];
  /**
   * Query parameters the service's documentation gives every listing (its pagination), which the
   * description names on only some operations: not refused as unknown where it leaves them out.
   */
  pagingParameters?: string[];
  /** Request fields the service takes empty (an apex's name), though the description sets them a minimum length. */
  emptyAllowed?: string[];
}

/** The vendored OpenAPI description `name` (a file in test/conformance/descriptions), compiled once per process. */
export function openApi(name: string, apiRoot: string, leniency: Leniency = {}): OpenApiDescription {
  const cached = loaded.get(name);
  if (cached) return cached;
  const document = withoutTypelessNullable(
    withNumericBounds(dereferenced(JSON.parse(readFileSync(`${DIRECTORY}/${name}.json`, "utf8")))),
  ) as Document;
  for (const [path, method, operation] of Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item ?? {}).map(([method, operation]) => [path, method, operation] as const),
  )) {
    // openapi-backend finds operations by id; a description that gives none (Domeneshop's) is given one.
    if (
      method !== "parameters" &&
      typeof operation === "object" &&
      operation !== null &&
      !("operationId" in operation)
    ) {
      (operation as { operationId?: string }).operationId = `${method.toUpperCase()} ${path}`;
    }
    const body = (operation as { requestBody?: { content?: Record<string, { schema?: unknown }> } }).requestBody;
    const json = body?.content?.["application/json"];
    if (json?.schema) {
      json.schema = forRequests(
        json.schema,
        leniency.partialPatch === true && method === "patch",
        leniency.assigned ?? [],
        leniency.emptyAllowed ?? [],
      );
    }
  }
  const router = new OpenAPIRouter({ definition: document, apiRoot });
  const validator = new OpenAPIValidator({
    definition: document,
    router,
    // Request validators are compiled here, once per process, so no request waits for Ajv (a client
    // test with a short timeout would see it); response validators only when a test asks for them.
    lazyCompileValidators: true,
    coerceTypes: true,
    // Ajv's code optimisation triples the compile time of these large schemas, for no gain in tests.
    ajvOpts: { strict: false, code: { optimize: false } },
    // The descriptions' formats (ipv4, ipv6, date-time, …) are part of what they forbid.
    customizeAjv: (ajv) => {
      addFormats(ajv);
      // The unsigned widths protobuf-made descriptions use (Scaleway's), beside ajv-formats' int32/int64.
      ajv.addFormat("uint32", {
        type: "number",
        validate: (n: number) => Number.isInteger(n) && n >= 0 && n <= 0xffffffff,
      });
      ajv.addFormat("uint64", { type: "number", validate: (n: number) => Number.isInteger(n) && n >= 0 });
      // Linode's own format for an address of either family.
      ajv.addFormat("ip", { type: "string", validate: (value: string) => isIP(value) !== 0 });
      // Domeneshop's, on integers whose own maximum is far past 16 bits (TTLs up to 604800): the
      // range is the schema's to say.
      ajv.addFormat("int16", { type: "number", validate: Number.isInteger });
      return ajv;
    },
  });
  validator.preCompileRequestValidators();
  const description: OpenApiDescription = {
    document,
    router,
    validator,
    checkResponse(method, pathname, status, body) {
      const operation = router.matchOperation({ method, path: pathname, headers: {} });
      if (!operation) return [`no ${method} ${pathname} in the description`];
      const result = validator.validateResponse(body, operation, status);
      return result.valid ? [] : (result.errors ?? []).map(formatError);
    },
  };
  loaded.set(name, description);
  return description;
}

/**
 * A request body's schema as OpenAPI 3.0 applies it to requests: a property marked `readOnly` (or
 * listed in `assigned`) is never required of a request, only of the answer. `partial`: nothing is
 * required at all, and `oneOf` becomes `anyOf` (without their required fields, the variants overlap).
 * A property named in `emptyAllowed` loses its `minLength`.
 */
function forRequests(schema: unknown, partial: boolean, assigned: string[], emptyAllowed: string[] = []): unknown {
  type Node = { properties?: Record<string, { readOnly?: boolean }>; allOf?: Node[]; oneOf?: Node[]; anyOf?: Node[] };
  // The readOnly properties an object schema has: its own, and those of the schemas it combines.
  const readOnlyOf = (node: Node): Set<string> => {
    const names = new Set<string>(assigned);
    for (const [name, property] of Object.entries(node.properties ?? {})) if (property?.readOnly) names.add(name);
    for (const part of [...(node.allOf ?? []), ...(node.oneOf ?? []), ...(node.anyOf ?? [])]) {
      if (typeof part === "object" && part !== null) for (const name of readOnlyOf(part)) names.add(name);
    }
    return names;
  };
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (typeof node !== "object" || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "required" && Array.isArray(value)) {
        const readOnly = readOnlyOf(node as Node);
        const kept = partial ? [] : value.filter((name) => !readOnly.has(name));
        if (kept.length > 0) out.required = kept;
      } else if (key === "oneOf" && partial) out.anyOf = rewrite(value);
      else if (key === "properties" && typeof value === "object" && value !== null && emptyAllowed.length > 0) {
        out.properties = Object.fromEntries(
          Object.entries(value).map(([name, property]) => {
            if (!emptyAllowed.includes(name) || typeof property !== "object" || property === null)
              return [name, rewrite(property)];
            const { minLength: _, ...rest } = property as Record<string, unknown>;
            return [name, rewrite(rest)];
          }),
        );
      } else out[key] = rewrite(value);
    }
    return out;
  };
  return rewrite(schema);
}

/**
 * OpenAPI 3.0 writes an exclusive bound as `minimum` with `exclusiveMinimum: true` (JSON Schema
 * draft 4, as Exoscale's description does); the validator knows only the later form, where the
 * exclusive bound is the number itself. The same bounds, in that form.
 */
function withNumericBounds(document: unknown): unknown {
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (typeof node !== "object" || node === null) return node;
    const out: Record<string, unknown> = Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, rewrite(value)]),
    );
    for (const [exclusive, bound] of [
      ["exclusiveMinimum", "minimum"],
      ["exclusiveMaximum", "maximum"],
    ] as const) {
      if (typeof out[exclusive] !== "boolean") continue;
      if (out[exclusive] === true && typeof out[bound] === "number") {
        out[exclusive] = out[bound];
        delete out[bound];
      } else delete out[exclusive];
    }
    return out;
  };
  return rewrite(document);
}

/**
 * OpenAPI 3.0.3: `nullable` adds null to the values of the `type` beside it; without a `type` (as
 * in bunny.net's `{"nullable": true, "oneOf": [{"$ref": …}]}`) it says nothing, and Ajv refuses to
 * compile it. The same schemas without such a `nullable`.
 */
function withoutTypelessNullable(document: unknown): unknown {
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (typeof node !== "object" || node === null) return node;
    const out: Record<string, unknown> = Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, rewrite(value)]),
    );
    if (typeof out.nullable === "boolean" && out.type === undefined) delete out.nullable;
    return out;
  };
  return rewrite(document);
}

/**
 * The document with every `#/…` reference replaced by what it points at. A reference back into a
 * schema it is part of (ARM's error body lists further error bodies in its `details`) becomes `{}`:
 * what lies below the first level of such a cycle is not checked.
 */
function dereferenced(document: unknown): unknown {
  const resolve = (node: unknown, within: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => resolve(item, within));
    if (typeof node !== "object" || node === null) return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === "string" && ref.startsWith("#/")) {
      if (within.includes(ref)) return {};
      const target = ref
        .slice(2)
        .split("/")
        .reduce<unknown>(
          (at, key) => (at as Record<string, unknown>)[key.replaceAll("~1", "/").replaceAll("~0", "~")],
          document,
        );
      return resolve(target, [...within, ref]);
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolve(value, within)]));
  };
  return resolve(document, []);
}

/**
 * A fake's check against the OpenAPI description `name`, answering what it forbids with `refuse`
 * (the service's own error).
 */
export function openApiDescription(
  name: string,
  options: { title: string; apiRoot: string; refuse: RequestDescription["refuse"]; leniency?: Leniency },
): RequestDescription {
  const { router, validator } = openApi(name, options.apiRoot, options.leniency);
  const nextLinkParameters = new Set([
    ...(options.leniency?.nextLinkParameters ?? []),
    ...(options.leniency?.pagingParameters ?? []),
  ]);
  return {
    name: options.title,
    refuse: options.refuse,
    check(request, raw) {
      const query: Record<string, string | string[]> = {};
      for (const [key, value] of new URLSearchParams(raw.search)) {
        if (nextLinkParameters.has(key)) continue;
        const previous = query[key];
        query[key] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
      }
      const shaped = {
        method: request.method,
        path: raw.pathname,
        query,
        headers: request.headers,
        body: request.body,
      };
      let operation: Operation | undefined;
      try {
        operation = router.matchOperation(shaped);
      } catch {
        operation = undefined;
      }
      if (!operation) return [`the description has no operation ${request.method} ${raw.pathname}`];
      const problems: string[] = [];
      const json =
        operation.requestBody &&
        "content" in operation.requestBody &&
        operation.requestBody.content["application/json"];
      if (request.body !== undefined && json && !/^application\/json\b/.test(request.headers["content-type"] ?? "")) {
        problems.push(`a JSON body sent as ${request.headers["content-type"] ?? "no Content-Type"}`);
      }
      if (typeof request.body === "string") problems.push("the body is not JSON");
      const result = validator.validateRequest(shaped, operation);
      if (!result.valid) problems.push(...(result.errors ?? []).map(formatError));
      return problems;
    },
  };
}

function formatError(error: { instancePath?: string; message?: string; params?: unknown }): string {
  const where = (error.instancePath ?? "").replace(/^\/requestBody/, "body").replace(/^\//, "") || "request";
  const detail = error.params && typeof error.params === "object" ? ` ${JSON.stringify(error.params)}` : "";
  return `${where} ${error.message ?? "is invalid"}${detail}`;
}

// ---- botocore (Route 53) ----

interface BotocoreMember {
  shape: string;
  location?: "uri" | "querystring" | "header" | "headers" | "statusCode";
  locationName?: string;
}

interface BotocoreShape {
  type: "structure" | "list" | "string" | "integer" | "long" | "boolean" | "timestamp" | "map" | "blob";
  members?: Record<string, BotocoreMember>;
  required?: string[];
  member?: { shape: string; locationName?: string };
  enum?: string[];
  min?: number;
  max?: number;
  pattern?: string;
  payload?: string;
  locationName?: string;
}

interface BotocoreOperation {
  name: string;
  http: { method: string; requestUri: string; responseCode?: number };
  input?: { shape: string; locationName?: string; xmlNamespace?: { uri: string } };
  output?: { shape: string };
}

export interface BotocoreModel {
  metadata: { apiVersion: string; xmlNamespace?: string };
  operations: Record<string, BotocoreOperation>;
  shapes: Record<string, BotocoreShape>;
}

function botocoreModel(name: string): BotocoreModel {
  return JSON.parse(readFileSync(`${DIRECTORY}/${name}.json`, "utf8")) as BotocoreModel;
}

/**
 * A fake's check against a botocore REST-XML model (Route 53's): the operation is found by method and
 * `requestUri`, then its input shape is checked member by member: `uri` members
 * against the path segment, `querystring` members against the query (an unknown parameter is refused),
 * and the XML payload element by element (required members, enums, integer ranges, string lengths,
 * list lengths, unknown elements).
 */
export function botocoreDescription(
  name: string,
  options: { title: string; refuse: RequestDescription["refuse"] },
): RequestDescription {
  const model = botocoreModel(name);
  const routes = Object.values(model.operations).map((operation) => {
    const [uri = "", fixedQuery = ""] = operation.http.requestUri.split("?");
    const names: string[] = [];
    const pattern = new RegExp(
      `^${uri.replace(/\/$/, "").replace(/\{(\w+)\+?\}/g, (_, param: string) => {
        names.push(param);
        return "([^/]+)";
      })}$`,
    );
    return { operation, pattern, names, fixedQuery };
  });

  return {
    name: options.title,
    refuse: options.refuse,
    check(request, raw) {
      // A trailing slash is optional, as at Route 53 (the model writes `…/rrset/`, most clients `…/rrset`).
      const pathname = raw.pathname.replace(/\/$/, "");
      const route = routes.find((r) => r.operation.http.method === request.method && r.pattern.test(pathname));
      if (!route) return [`the model has no operation ${request.method} ${raw.pathname}`];
      const { operation } = route;
      const input = operation.input ? model.shapes[operation.input.shape] : undefined;
      if (!input) return request.body === undefined ? [] : [`${operation.name} takes no body`];
      const problems: string[] = [];
      const pathValues = route.pattern.exec(pathname)?.slice(1).map(decodeURIComponent) ?? [];
      const query = new URLSearchParams(raw.search);
      const seenQuery = new Set<string>();
      for (const [memberName, member] of Object.entries(input.members ?? {})) {
        const required = input.required?.includes(memberName) ?? false;
        if (member.location === "uri") {
          const value = pathValues[route.names.indexOf(member.locationName ?? memberName)];
          problems.push(...checkScalar(model, member.shape, value, `path ${memberName}`, required));
        } else if (member.location === "querystring") {
          const key = member.locationName ?? memberName;
          seenQuery.add(key);
          problems.push(...checkScalar(model, member.shape, query.get(key) ?? undefined, `query ${key}`, required));
        } else if (member.location === "header") {
          const key = (member.locationName ?? memberName).toLowerCase();
          problems.push(...checkScalar(model, member.shape, request.headers[key], `header ${key}`, required));
        }
      }
      for (const key of query.keys())
        if (!seenQuery.has(key)) problems.push(`query ${key} is not a parameter of ${operation.name}`);

      const bodyMembers = Object.entries(input.members ?? {}).filter(([, member]) => member.location === undefined);
      if (bodyMembers.length === 0) {
        if (request.body !== undefined) problems.push(`${operation.name} takes no body`);
        return problems;
      }
      if (typeof request.body !== "string") return [...problems, `${operation.name} takes an XML body`];
      const root = parseXml(request.body);
      if (!root) return [...problems, "the body is not well-formed XML"];
      const rootName = operation.input?.locationName ?? operation.input?.shape ?? "";
      if (root.name !== rootName) problems.push(`the body's root element is <${root.name}>, not <${rootName}>`);
      const namespace = operation.input?.xmlNamespace?.uri;
      if (
        namespace &&
        !new RegExp(`^(<\\?xml[^>]*>\\s*)?<${rootName}\\s[^>]*xmlns="${namespace.replaceAll(".", "\\.")}"`).test(
          request.body.trim(),
        )
      ) {
        problems.push(`<${rootName}> is not in the namespace ${namespace}`);
      }
      problems.push(...checkStructure(model, { ...input, members: Object.fromEntries(bodyMembers) }, root, rootName));
      return problems;
    },
  };
}

/**
 * Why an XML answer to `operationName` does not match the model's output shape (`<…Response>` root,
 * required members, unknown elements, enums, ranges); empty when it does.
 */
export function checkBotocoreAnswer(name: string, operationName: string, text: string): string[] {
  const model = botocoreModel(name);
  const operation = model.operations[operationName];
  if (!operation?.output) return [`the model has no output for ${operationName}`];
  const root = parseXml(text);
  if (!root) return ["the answer is not well-formed XML"];
  const rootName = `${operationName}Response`;
  if (root.name !== rootName) return [`the answer's root element is <${root.name}>, not <${rootName}>`];
  const shape = model.shapes[operation.output.shape];
  if (!shape) return [`the model has no shape ${operation.output.shape}`];
  return checkStructure(model, shape, root, rootName);
}

function checkStructure(model: BotocoreModel, shape: BotocoreShape, element: XmlElement, where: string): string[] {
  const problems: string[] = [];
  const members = shape.members ?? {};
  const known = new Set(Object.entries(members).map(([name, member]) => member.locationName ?? name));
  for (const child of element.children) {
    if (!known.has(child.name)) problems.push(`${where}/${child.name} is not a member of ${where}`);
  }
  for (const [memberName, member] of Object.entries(members)) {
    const tag = member.locationName ?? memberName;
    const found = childrenNamed(element, tag);
    const required = shape.required?.includes(memberName) ?? false;
    if (found.length === 0) {
      if (required) problems.push(`${where}/${tag} is required`);
      continue;
    }
    if (found.length > 1) problems.push(`${where}/${tag} appears ${found.length} times`);
    problems.push(...checkElement(model, member.shape, found[0]!, `${where}/${tag}`));
  }
  return problems;
}

function checkElement(model: BotocoreModel, shapeName: string, element: XmlElement, where: string): string[] {
  const shape = model.shapes[shapeName];
  if (!shape) return [`${where}: the model has no shape ${shapeName}`];
  if (shape.type === "structure") return checkStructure(model, shape, element, where);
  if (shape.type === "list") {
    const memberTag = shape.member?.locationName ?? "member";
    const items = element.children;
    const problems: string[] = [];
    for (const item of items) {
      if (item.name !== memberTag) problems.push(`${where}/${item.name}: a list of ${memberTag}`);
      else problems.push(...checkElement(model, shape.member?.shape ?? "", item, `${where}/${memberTag}`));
    }
    if (shape.min !== undefined && items.length < shape.min)
      problems.push(`${where} has ${items.length} items, at least ${shape.min} wanted`);
    if (shape.max !== undefined && items.length > shape.max)
      problems.push(`${where} has ${items.length} items, at most ${shape.max} allowed`);
    return problems;
  }
  if (element.children.length > 0) return [`${where} holds elements where ${shape.type} is wanted`];
  return checkScalar(model, shapeName, element.text, where, true);
}

function checkScalar(
  model: BotocoreModel,
  shapeName: string,
  value: string | undefined,
  where: string,
  required: boolean,
): string[] {
  if (value === undefined) return required ? [`${where} is required`] : [];
  const shape = model.shapes[shapeName];
  if (!shape) return [`${where}: the model has no shape ${shapeName}`];
  switch (shape.type) {
    case "string":
      if (shape.enum && !shape.enum.includes(value))
        return [`${where} is "${value}", not one of ${shape.enum.join(", ")}`];
      if (shape.min !== undefined && value.length < shape.min) return [`${where} is shorter than ${shape.min}`];
      if (shape.max !== undefined && value.length > shape.max) return [`${where} is longer than ${shape.max}`];
      return [];
    case "integer":
    case "long": {
      if (!/^-?\d+$/.test(value)) return [`${where} is "${value}", not an integer`];
      const number = Number(value);
      if (shape.min !== undefined && number < shape.min) return [`${where} is ${number}, below ${shape.min}`];
      if (shape.max !== undefined && number > shape.max) return [`${where} is ${number}, above ${shape.max}`];
      return [];
    }
    case "boolean":
      return value === "true" || value === "false" ? [] : [`${where} is "${value}", not true or false`];
    default:
      return [];
  }
}
