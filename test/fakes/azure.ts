// A stand-in for Azure DNS through Azure Resource Manager (management.azure.com, api-version
// 2018-05-01) and for the Microsoft identity platform's token endpoint, on one server: `POST
// /login/{tenant}/oauth2/v2.0/token` (form: grant_type=client_credentials, client_id,
// client_secret, scope=<the Resource Manager's audience>/.default: the fake's own origin, as
// management.azure.com is the public cloud's) answers `{token_type, expires_in,
// access_token}` or `{error, error_description}`; under `/arm` every call needs `Authorization:
// Bearer` and `api-version=2018-05-01`: `GET /subscriptions/{s}/providers/Microsoft.Network/dnszones`
// (`{value: [{id, name}]}`, `nextLink` while there are more), and record sets at
// `/subscriptions/{s}/resourceGroups/{g}/providers/Microsoft.Network/dnsZones/{zone}/{A|AAAA}/{name}`
// (`@` for the apex): GET (404 when absent), PATCH (changes only the properties sent, honours
// If-Match), PUT (creates; If-None-Match: * refuses to overwrite). Errors: `{"error": {code, message}}`.
//
// Sources: learn.microsoft.com Azure DNS REST reference (Record Sets: Get, Update, Create Or Update;
// Zones: List) and "Microsoft identity platform and the OAuth 2.0 client credentials flow";
// Azure/azure-rest-api-specs specification/dns (the record set schema); independent clients:
// lego providers/dns/azuredns and libdns/azure. UNSURE: the exact words of each refusal (modelled on
// the documented codes: AuthenticationFailed/InvalidAuthenticationToken 401, AuthorizationFailed 403,
// ResourceNotFound 404, PreconditionFailed 412); ARM's throttle is a 429 with Retry-After.
//
// The ARM half is checked against the DNS resource provider's own description (azure-rest-api-specs
// dns.json, 2018-05-01, converted to OpenAPI 3: test/conformance/descriptions/azure.json): a record
// type it does not list, a missing api-version, an unknown query parameter, a body of the wrong shape
// is refused (400 BadRequest) and recorded. The token endpoint is no part of that description.

import { isIPv4, isIPv6 } from "node:net";
import { openApiDescription } from "./descriptions";
import {
  type FakeServer,
  htmlErrorPage,
  json,
  type LoggedRequest,
  malformedJson,
  type RequestDescription,
  retryAfterHeader,
  startFakeServer,
} from "./server";

/** ARM's published description of Azure DNS, checked against every request under `/arm` (compiled once, at import). */
const ARM_DESCRIPTION = openApiDescription("azure", {
  title: "Azure DNS OpenAPI",
  apiRoot: "/arm",
  refuse: (_request, problems) => armError(400, "BadRequest", problems.join("; ")),
  // The zone list's nextLink carries this fake's continuation parameter (`skip`); the description
  // names only $top and api-version, and calls the link opaque (x-ms-pageable).
  leniency: { nextLinkParameters: ["skip"] },
});
const DESCRIPTION: RequestDescription = {
  ...ARM_DESCRIPTION,
  check: (request, raw) => (raw.pathname.startsWith("/arm/") ? ARM_DESCRIPTION.check(request, raw) : []),
};

export const AZURE_FAKE_TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47";
export const AZURE_FAKE_CLIENT_ID = "0b2c6a6e-3b1f-4a8e-9f0d-6c1e2d3f4a5b";
export const AZURE_FAKE_CLIENT_SECRET = "azureFakeClientSecret~0123456789abcdef";
export const AZURE_FAKE_SUBSCRIPTION = "00000000-1111-2222-3333-444444444444";
export const AZURE_FAKE_GROUP = "dns-rg";
export const API_VERSION = "2018-05-01";

export interface AzureRecordSet {
  name: string;
  type: "A" | "AAAA" | "TXT";
  ttl: number;
  /** The set's addresses; a TXT set's texts (each record one string). */
  addresses: string[];
  etag: string;
}

/** Where a set's records are in its properties, and each record's field. */
const RECORD_FIELDS = {
  A: ["ARecords", "ipv4Address"],
  AAAA: ["AAAARecords", "ipv6Address"],
  TXT: ["TXTRecords", "value"],
} as const;

export type AzureFault =
  | { status: number; code?: string; message?: string; retryAfter?: number }
  | "malformed"
  | "html";

export interface AzureFake extends FakeServer<AzureFault> {
  /** The token endpoint's base (`…/login`), the provider's `login_url` option. */
  loginUrl: string;
  /** The ARM base (`…/arm`), `DDNS_AZURE_API_URL`. */
  armUrl: string;
  clients: Map<string, string>;
  tokens: Set<string>;
  /** zone name → its resource group and record sets. */
  zones: Map<string, { group: string; sets: AzureRecordSet[] }>;
  addZone(name: string, group?: string): void;
  addRecordSet(
    zone: string,
    set: { name: string; type: AzureRecordSet["type"]; addresses: string[]; ttl?: number },
  ): AzureRecordSet;
  recordSet(zone: string, name: string, type: string): AzureRecordSet | undefined;
  reset(): void;
}

export function startAzureFake(): AzureFake {
  const clients = new Map([[AZURE_FAKE_CLIENT_ID, AZURE_FAKE_CLIENT_SECRET]]);
  const tokens = new Set<string>();
  const zones = new Map<string, { group: string; sets: AzureRecordSet[] }>();
  let etags = 0;

  function addRecordSet(
    zone: string,
    init: { name: string; type: AzureRecordSet["type"]; addresses: string[]; ttl?: number },
  ): AzureRecordSet {
    const held = zones.get(zone);
    if (!held) throw new Error(`fake Azure: no zone ${zone}`);
    const set = {
      name: init.name,
      type: init.type,
      ttl: init.ttl ?? 3600,
      addresses: [...init.addresses],
      etag: `etag-${++etags}`,
    };
    held.sets.push(set);
    return set;
  }

  function body(zone: string, set: AzureRecordSet): unknown {
    const group = zones.get(zone)!.group;
    const [key, field] = RECORD_FIELDS[set.type];
    return {
      id: `/subscriptions/${AZURE_FAKE_SUBSCRIPTION}/resourceGroups/${group}/providers/Microsoft.Network/dnszones/${zone}/${set.type}/${set.name}`,
      name: set.name,
      type: `Microsoft.Network/dnszones/${set.type}`,
      etag: set.etag,
      properties: {
        TTL: set.ttl,
        fqdn: `${set.name === "@" ? "" : `${set.name}.`}${zone}.`,
        [key]: set.addresses.map((a) => ({ [field]: set.type === "TXT" ? [a] : a })),
      },
    };
  }

  function token(request: LoggedRequest): Response {
    const form = new URLSearchParams(typeof request.body === "string" ? request.body : "");
    if (
      form.get("grant_type") !== "client_credentials" ||
      form.get("scope") !== `${new URL(server.url).origin}/.default`
    ) {
      return json(400, {
        error: "invalid_request",
        error_description: "AADSTS900144: The request body must contain grant_type and scope.",
      });
    }
    if (clients.get(form.get("client_id") ?? "") !== form.get("client_secret")) {
      return json(401, {
        error: "invalid_client",
        error_description: "AADSTS7000215: Invalid client secret provided.",
      });
    }
    const value = `eyFake${crypto.randomUUID().replaceAll("-", "")}`;
    tokens.add(value);
    return json(200, { token_type: "Bearer", expires_in: 3599, ext_expires_in: 3599, access_token: value });
  }

  function route(request: LoggedRequest): Response {
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] === "login") {
      return request.method === "POST" &&
        segments[1] === AZURE_FAKE_TENANT &&
        segments.slice(2).join("/") === "oauth2/v2.0/token"
        ? token(request)
        : json(400, { error: "invalid_request", error_description: "AADSTS90002: Tenant not found." });
    }
    if (segments[0] !== "arm") return armError(404, "NotFound", "Not found");
    if (!tokens.has((request.headers.authorization ?? "").replace(/^Bearer /, "")))
      return armError(401, "InvalidAuthenticationToken", "The access token is invalid.");
    if (request.query["api-version"] !== API_VERSION)
      return armError(400, "InvalidApiVersionParameter", "The api-version is invalid.");
    const path = segments.slice(1);
    if (path[0] !== "subscriptions" || path[1] !== AZURE_FAKE_SUBSCRIPTION)
      return armError(403, "AuthorizationFailed", "The client does not have authorization to perform this action.");
    if (
      path.length === 5 &&
      path[2] === "providers" &&
      path[4]!.toLowerCase() === "dnszones" &&
      request.method === "GET"
    ) {
      const all = [...zones.entries()].sort(([a], [b]) => a.localeCompare(b));
      const skip = Number(request.query.skip ?? 0);
      const page = all.slice(skip, skip + 100).map(([name, held]) => ({
        id: `/subscriptions/${AZURE_FAKE_SUBSCRIPTION}/resourceGroups/${held.group}/providers/Microsoft.Network/dnszones/${name}`,
        name,
        type: "Microsoft.Network/dnszones",
        // Required of every zone by the description; Azure DNS zones are global.
        location: "global",
      }));
      return json(200, {
        value: page,
        ...(skip + 100 < all.length
          ? { nextLink: `${fake.armUrl}/${path.join("/")}?api-version=${API_VERSION}&skip=${skip + 100}` }
          : {}),
      });
    }
    // subscriptions/{s}/resourceGroups/{g}/providers/Microsoft.Network/dnsZones/{zone}/{type}/{name}
    if (path.length !== 10 || path[2] !== "resourceGroups" || path[6]!.toLowerCase() !== "dnszones")
      return armError(404, "NotFound", "Not found");
    const zone = path[7]!;
    const held = zones.get(zone);
    if (!held || held.group !== path[3])
      return armError(
        404,
        "ParentResourceNotFound",
        `Can not perform requested operation on nested resource. Parent resource '${zone}' not found.`,
      );
    const type = path[8] as AzureRecordSet["type"];
    if (type !== "A" && type !== "AAAA" && type !== "TXT")
      return armError(400, "BadRequest", "The record type is not supported by this fake.");
    const name = path[9]!.toLowerCase();
    const set = held.sets.find((s) => s.name === name && s.type === type);
    if (request.method === "GET")
      return set
        ? json(200, body(zone, set))
        : armError(404, "NotFound", `The resource record '${name}' does not exist in resource group '${held.group}'.`);
    if (request.method === "DELETE") {
      if (!set) return new Response(null, { status: 204 });
      const match = request.headers["if-match"];
      if (match !== undefined && match !== set.etag)
        return armError(412, "PreconditionFailed", "The etag does not match.");
      held.sets = held.sets.filter((s) => s !== set);
      return new Response(null, { status: 200 });
    }
    const properties =
      typeof request.body === "object" && request.body !== null
        ? ((request.body as { properties?: Record<string, unknown> }).properties ?? {})
        : {};
    const [key, field] = RECORD_FIELDS[type];
    const given = properties[key];
    let addresses: string[] | undefined;
    if (given !== undefined) {
      if (!Array.isArray(given)) return armError(400, "BadRequest", `${key} must be an array.`);
      if (type === "TXT") {
        // A TXT record's value is a list of strings, read as one text.
        addresses = given.map((r) => {
          const value = (r as Record<string, unknown>)?.value;
          return Array.isArray(value) ? value.map(String).join("") : "";
        });
        if (addresses.some((a) => a === "")) return armError(400, "BadRequest", "A TXT record's value is required.");
      } else {
        addresses = given.map((r) => String((r as Record<string, unknown>)?.[field]));
        if (addresses.some((a) => (type === "A" ? !isIPv4(a) : !isIPv6(a))))
          return armError(400, "BadRequest", `An ${field} is not valid.`);
      }
    }
    if (properties.TTL !== undefined && (typeof properties.TTL !== "number" || properties.TTL < 1))
      return armError(400, "BadRequest", "TTL is not valid.");
    if (request.method === "PATCH") {
      if (!set) return armError(404, "NotFound", `The resource record '${name}' does not exist.`);
      const match = request.headers["if-match"];
      if (match !== undefined && match !== set.etag)
        return armError(412, "PreconditionFailed", "The etag does not match.");
      if (addresses) set.addresses = addresses;
      if (typeof properties.TTL === "number") set.ttl = properties.TTL;
      set.etag = `etag-${++etags}`;
      return json(200, body(zone, set));
    }
    if (request.method === "PUT") {
      if (set && request.headers["if-none-match"] === "*")
        return armError(412, "PreconditionFailed", "The record set already exists.");
      if (set) return armError(400, "BadRequest", "This fake only creates with PUT.");
      const created = addRecordSet(zone, {
        name,
        type,
        addresses: addresses ?? [],
        ttl: typeof properties.TTL === "number" ? properties.TTL : 3600,
      });
      return json(201, body(zone, created));
    }
    return armError(405, "MethodNotAllowed", "Method not allowed");
  }

  const server = startFakeServer<AzureFault>({
    prefix: "",
    route,
    description: DESCRIPTION,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      return armError(
        mode.status,
        mode.code ?? (mode.status === 429 ? "TooManyRequests" : "InternalServerError"),
        mode.message ?? (mode.status === 429 ? "The request is being throttled." : "An error occurred."),
        retryAfterHeader(mode.retryAfter),
      );
    },
  });

  const fake: AzureFake = Object.assign(server, {
    loginUrl: `${server.url}/login`,
    armUrl: `${server.url}/arm`,
    clients,
    tokens,
    zones,
    addZone: (name: string, group = AZURE_FAKE_GROUP) => void zones.set(name, { group, sets: [] }),
    addRecordSet,
    recordSet: (zone: string, name: string, type: string) =>
      zones.get(zone)?.sets.find((s) => s.name === name && s.type === type),
    reset() {
      zones.clear();
      tokens.clear();
      clients.clear();
      clients.set(AZURE_FAKE_CLIENT_ID, AZURE_FAKE_CLIENT_SECRET);
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

function armError(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return json(status, { error: { code, message } }, headers);
}
