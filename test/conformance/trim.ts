// Re-vendors the service descriptions in ./descriptions from their upstream files: keeps only the
// operations ddnsd calls and what they reference, drops prose and examples, and writes the result with
// an `x-vendored` header (source, version, licence, what was trimmed). Run by hand when a service
// changes its description, never by the tests (which read only the trimmed files):
//
//   bun test/conformance/trim.ts openapi <upstream.json|.yaml> <out.json> <header.json> "GET /zones" "PATCH /zones/{zone_id}/dns_records/{dns_record_id}" …
//   bun test/conformance/trim.ts botocore <service-2.json> <out.json> <header.json> ListHostedZonesByName ChangeResourceRecordSets …
//
// An OpenAPI description split over several YAML files (DigitalOcean's, dynv6's) is bundled on the way:
// a `$ref` to another file is replaced by that file's content.

import { dirname, resolve } from "node:path";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Keys whose values are maps from names to things, so a child named `description` is a name, not prose. */
const NAME_MAPS = new Set([
  "properties",
  "patternProperties",
  "paths",
  "schemas",
  "responses",
  "headers",
  "content",
  "securitySchemes",
  "requestBodies",
  "parameters",
  "members",
  "shapes",
  "operations",
  "mapping",
  "variables",
]);
/** Prose and samples, dropped from every object that is not a name map. */
const DROPPED = new Set([
  "description",
  "summary",
  "example",
  "examples",
  "externalDocs",
  "documentation",
  "documentationUrl",
  "tags",
]);

/** `nameMap`: the key of the map `node` is, when it is one. A response keeps an empty `description` (OpenAPI requires one). */
export function stripProse(node: Json, nameMap?: string, isResponse = false): Json {
  if (Array.isArray(node)) return node.map((item) => stripProse(item));
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (nameMap !== undefined) {
      out[key] = stripProse(value, undefined, nameMap === "responses");
      continue;
    }
    if (DROPPED.has(key) || key.startsWith("x-")) {
      if (key === "description" && isResponse) out[key] = "";
      continue;
    }
    out[key] = stripProse(value, NAME_MAPS.has(key) && isObject(value) ? key : undefined);
  }
  return out;
}

async function load(file: string): Promise<Json> {
  const text = await Bun.file(file).text();
  return (file.endsWith(".json") ? JSON.parse(text) : Bun.YAML.parse(text)) as Json;
}

/**
 * Replaces every `$ref` to another file (relative to the file holding it), and every `#/…` inside such
 * a file, by what it points at, recursively; the root file's own `#/…` references stay.
 */
async function bundle(node: Json, file: string, cache: Map<string, Json>, root = file): Promise<Json> {
  if (Array.isArray(node)) return Promise.all(node.map((item) => bundle(item, file, cache, root)));
  if (!isObject(node)) return node;
  const ref = node.$ref;
  if (typeof ref === "string" && (!ref.startsWith("#") || file !== root)) {
    const [target = "", pointer = ""] = ref.split("#");
    const targetFile = target === "" ? file : resolve(dirname(file), target);
    if (!cache.has(targetFile)) cache.set(targetFile, await load(targetFile));
    const content = at(cache.get(targetFile) ?? null, pointer);
    return bundle(content, targetFile, cache, root);
  }
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) out[key] = await bundle(value, file, cache, root);
  return out;
}

function at(document: Json, pointer: string): Json {
  let node = document;
  for (const raw of pointer.split("/").filter(Boolean)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    const next = isObject(node) || Array.isArray(node) ? (node as Record<string, Json>)[key] : undefined;
    if (next === undefined) throw new Error(`no ${pointer}`);
    node = next;
  }
  return node;
}

/** The `#/…` references written in `node`. */
function internalRefs(node: Json, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) internalRefs(item, found);
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string" && value.startsWith("#/")) found.add(value);
      else internalRefs(value, found);
    }
  }
  return found;
}

export async function trimOpenApi(file: string, operations: string[], header: JsonObject): Promise<JsonObject> {
  const root = resolve(file);
  const document = (await load(root)) as JsonObject;
  const cache = new Map<string, Json>([[root, document]]);
  const paths: JsonObject = {};
  for (const operation of operations) {
    const [method = "", path = ""] = operation.split(" ");
    // A path item may itself be a `$ref` to another file (dynv6's are): followed before its operations are picked.
    const written = (document.paths as JsonObject)[path];
    const item = isObject(written) && typeof written.$ref === "string" ? await bundle(written, root, cache) : written;
    if (!isObject(item)) throw new Error(`no path ${path}`);
    const kept = (paths[path] ??= item.parameters ? { parameters: item.parameters } : {}) as JsonObject;
    const op = item[method.toLowerCase()];
    if (!op) throw new Error(`no ${operation}`);
    kept[method.toLowerCase()] = op;
  }
  const bundled = (await bundle(paths, root, cache)) as JsonObject;
  // The components the kept operations reach, each bundled in turn (it may reach further ones).
  const components: JsonObject = {};
  const pending = [...internalRefs(bundled)];
  const done = new Set<string>();
  for (let ref = pending.pop(); ref !== undefined; ref = pending.pop()) {
    if (done.has(ref)) continue;
    done.add(ref);
    const [, , group = "", name = ""] = ref.split("/");
    const content = await bundle(at(document, ref.slice(1)), root, cache);
    ((components[group] ??= {}) as JsonObject)[name] = content;
    pending.push(...internalRefs(content));
  }
  for (const [group, entries] of Object.entries(components)) {
    components[group] = Object.fromEntries(
      Object.entries(entries as JsonObject).sort(([a], [b]) => a.localeCompare(b)),
    );
  }
  const info = document.info as JsonObject;
  return {
    "x-vendored": header,
    openapi: document.openapi ?? "3.0.3",
    info: { title: info.title ?? "", version: info.version ?? "" },
    servers: document.servers ?? [],
    paths: stripProse(bundled) as JsonObject,
    components: stripProse(components) as JsonObject,
  };
}

export async function trimBotocore(file: string, operations: string[], header: JsonObject): Promise<JsonObject> {
  const model = (await load(file)) as JsonObject;
  const shapes = model.shapes as JsonObject;
  const keptShapes: JsonObject = {};
  const visit = (name: string) => {
    if (keptShapes[name] !== undefined) return;
    const shape = shapes[name];
    if (!isObject(shape)) throw new Error(`no shape ${name}`);
    keptShapes[name] = shape;
    for (const child of [
      shape.member,
      shape.key,
      shape.value,
      ...Object.values(isObject(shape.members) ? shape.members : {}),
    ]) {
      if (isObject(child) && typeof child.shape === "string") visit(child.shape);
    }
  };
  const keptOperations: JsonObject = {};
  for (const name of operations) {
    const operation = (model.operations as JsonObject)[name];
    if (!isObject(operation)) throw new Error(`no operation ${name}`);
    keptOperations[name] = operation;
    for (const part of [
      operation.input,
      operation.output,
      ...(Array.isArray(operation.errors) ? operation.errors : []),
    ]) {
      if (isObject(part) && typeof part.shape === "string") visit(part.shape);
    }
  }
  const sorted = Object.fromEntries(Object.entries(keptShapes).sort(([a], [b]) => a.localeCompare(b)));
  return {
    "x-vendored": header,
    version: model.version ?? "2.0",
    metadata: model.metadata ?? {},
    operations: stripProse(keptOperations) as JsonObject,
    shapes: stripProse(sorted) as JsonObject,
  };
}

if (import.meta.main) {
  const [kind, input = "", output = "", headerFile = "", ...operations] = process.argv.slice(2);
  const header = JSON.parse(await Bun.file(headerFile).text()) as JsonObject;
  const trimmed =
    kind === "botocore" ? await trimBotocore(input, operations, header) : await trimOpenApi(input, operations, header);
  await Bun.write(output, `${JSON.stringify(trimmed, null, 1)}\n`);
  console.log(`${output}: ${(await Bun.file(output).text()).length} characters`);
}
