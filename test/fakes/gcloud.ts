// A stand-in for Google Cloud DNS (dns.googleapis.com/dns/v1) and Google's OAuth 2.0 token endpoint,
// on one server. `POST /token` takes the JWT bearer grant (form: grant_type=
// urn:ietf:params:oauth:grant-type:jwt-bearer, assertion=<JWT>): it checks the JWT's RS256 signature
// with the public key registered for its `iss` (the service account's client_email), its `aud` (this
// endpoint), scope and times, and answers `{access_token, expires_in: 3599, token_type: "Bearer"}` or
// `{error: "invalid_grant", error_description}` (400). Under `/dns/v1` every call needs
// `Authorization: Bearer`: `GET /projects/{p}/managedZones` (`{managedZones: [{name, dnsName,
// visibility}], nextPageToken}`, `maxZonesPerPage` per page), `GET …/managedZones/{zone}`, `GET
// …/managedZones/{zone}/rrsets?name=&type=` (`{rrsets: [...]}`) and `POST …/managedZones/{zone}/changes`
// (`{additions, deletions}` applied atomically: every deletion must match the set held exactly, or
// 412 conditionNotMet; an addition over an existing set is 409 alreadyExists). Errors:
// `{"error": {code, message, status, errors: [{domain, reason, message}]}}`.
//
// Sources: cloud.google.com/dns/docs/reference/rest/v1 (managedZones.list/get, resourceRecordSets.list,
// changes.create and the Change resource: "deletions: which ResourceRecordSets to remove? Must match
// existing data exactly"); developers.google.com/identity/protocols/oauth2/service-account (the JWT and
// the token answer); independent clients: lego providers/dns/gcloud and libdns/googleclouddns (both
// read rrsets by name and type and write with changes), qdm12/ddns-updater providers/gcp.
// Quirks it can play: `fault({status: 429, reason: "rateLimitExceeded"})` and the same as a 403 (Google
// sends quota answers either way), `private` zones beside public ones, paging of the zone list.
// UNSURE: the exact words of each refusal (modelled on Google's documented error format).

import { createVerify, generateKeyPairSync, type KeyObject } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
import {
  type FakeServer,
  htmlErrorPage,
  json,
  type LoggedRequest,
  malformedJson,
  retryAfterHeader,
  startFakeServer,
} from "./server";

export const GCLOUD_FAKE_PROJECT = "ddnsd-fake-project";
export const GCLOUD_FAKE_EMAIL = `ddnsd@${GCLOUD_FAKE_PROJECT}.iam.gserviceaccount.com`;
const SCOPE = "https://www.googleapis.com/auth/ndev.clouddns.readwrite";

/** A fresh RSA key pair, as Google makes for a service account key. */
export function newRsaKey(): { privatePem: string; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { privatePem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(), publicKey };
}

/** A service account key file in Google's shape. */
export function serviceAccountKeyJson(
  privatePem: string,
  fields: { tokenUri?: string; email?: string; project?: string; keyId?: string } = {},
): string {
  return JSON.stringify(
    {
      type: "service_account",
      project_id: fields.project ?? GCLOUD_FAKE_PROJECT,
      private_key_id: fields.keyId ?? "4b9e1c0a7d3f2e5b6a8c9d0e1f2a3b4c5d6e7f80",
      private_key: privatePem,
      client_email: fields.email ?? GCLOUD_FAKE_EMAIL,
      client_id: "104729384756102938475",
      auth_uri: "https://accounts.google.com/o/oauth2/auth",
      token_uri: fields.tokenUri ?? "https://oauth2.googleapis.com/token",
      auth_provider_x509_cert_url: "https://www.googleapis.com/oauth2/v1/certs",
      client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(fields.email ?? GCLOUD_FAKE_EMAIL)}`,
      universe_domain: "googleapis.com",
    },
    null,
    2,
  );
}

/** The account's key, made once per process: the adapters need it before any fake starts. */
export const GCLOUD_FAKE_KEY = newRsaKey();
/** Another key under the same account name, which the fake does not know: a deleted key. */
export const GCLOUD_FAKE_WRONG_KEY = newRsaKey();

export interface GcloudRrset {
  name: string;
  type: string;
  ttl: number;
  rrdatas: string[];
  kind?: string;
  [field: string]: unknown;
}

export type GcloudFault =
  | { status: number; reason?: string; message?: string; retryAfter?: number }
  | "malformed"
  | "html";

export interface GcloudFake extends FakeServer<GcloudFault> {
  /** The token endpoint, the provider's `token_url` option (or the key's token_uri). */
  tokenUrl: string;
  /** The API base (`…/dns/v1`), `DDNS_GCLOUD_API_URL`. */
  apiUrl: string;
  /** client_email → the public key its JWTs are checked with. */
  accounts: Map<string, KeyObject>;
  tokens: Set<string>;
  /** The assertions the token endpoint accepted, decoded. */
  assertions: { header: Record<string, unknown>; claims: Record<string, unknown> }[];
  maxZonesPerPage: number;
  /** managed zone name → its DNS name (with the trailing dot), visibility and record sets. */
  zones: Map<string, { dnsName: string; visibility: "public" | "private"; rrsets: GcloudRrset[] }>;
  addZone(name: string, dnsName: string, visibility?: "public" | "private"): void;
  addRrset(
    zone: string,
    rrset: { name: string; type: string; rrdatas: string[]; ttl?: number; [field: string]: unknown },
  ): GcloudRrset;
  rrset(zone: string, name: string, type: string): GcloudRrset | undefined;
  reset(): void;
}

/** `example.com` → the managed zone name the console would suggest, `example-com`. */
export const zoneNameFor = (dnsName: string) => dnsName.replace(/\.$/, "").replaceAll(".", "-");

export function startGcloudFake(): GcloudFake {
  const accounts = new Map<string, KeyObject>([[GCLOUD_FAKE_EMAIL, GCLOUD_FAKE_KEY.publicKey]]);
  const tokens = new Set<string>();
  const assertions: GcloudFake["assertions"] = [];
  const zones: GcloudFake["zones"] = new Map();

  function addRrset(
    zone: string,
    init: { name: string; type: string; rrdatas: string[]; ttl?: number; [field: string]: unknown },
  ): GcloudRrset {
    const held = zones.get(zone);
    if (!held) throw new Error(`fake Cloud DNS: no zone ${zone}`);
    const rrset: GcloudRrset = {
      kind: "dns#resourceRecordSet",
      ...init,
      ttl: init.ttl ?? 300,
      rrdatas: [...init.rrdatas],
    };
    held.rrsets.push(rrset);
    return rrset;
  }

  function decode(part: string | undefined): Record<string, unknown> | undefined {
    try {
      const value = JSON.parse(Buffer.from(part ?? "", "base64url").toString("utf8")) as unknown;
      return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }

  function token(request: LoggedRequest): Response {
    const form = new URLSearchParams(typeof request.body === "string" ? request.body : "");
    const grantError = (description: string) => json(400, { error: "invalid_grant", error_description: description });
    if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer")
      return json(400, { error: "unsupported_grant_type", error_description: "Invalid grant_type: " });
    const [headerPart, claimsPart, signature] = (form.get("assertion") ?? "").split(".");
    const header = decode(headerPart);
    const claims = decode(claimsPart);
    if (!header || !claims || signature === undefined)
      return json(400, { error: "invalid_request", error_description: "Invalid JWT." });
    if (header.alg !== "RS256") return grantError("Invalid JWT: unsupported algorithm.");
    const publicKey = accounts.get(String(claims.iss));
    if (!publicKey) return grantError("Invalid grant: account not found");
    const verifier = createVerify("RSA-SHA256").update(`${headerPart}.${claimsPart}`);
    if (!verifier.verify(publicKey, Buffer.from(signature, "base64url"))) return grantError("Invalid JWT Signature.");
    if (claims.aud !== fake.tokenUrl) return grantError("Invalid JWT: Failed audience check.");
    const now = Math.floor(Date.now() / 1000);
    const iat = Number(claims.iat);
    const exp = Number(claims.exp);
    if (!(Math.abs(iat - now) < 300 && exp > iat && exp - iat <= 3600))
      return grantError(
        "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values and use a clock with skew to account for clock differences between systems.",
      );
    if (claims.scope !== SCOPE)
      return json(400, {
        error: "invalid_scope",
        error_description: "Invalid OAuth scope or ID token audience provided.",
      });
    assertions.push({ header, claims });
    const value = `ya29.fake${crypto.randomUUID().replaceAll("-", "")}`;
    tokens.add(value);
    return json(200, { access_token: value, expires_in: 3599, token_type: "Bearer" });
  }

  function rrsetOut(rrset: GcloudRrset): GcloudRrset {
    return { ...rrset, rrdatas: [...rrset.rrdatas] };
  }

  function same(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
    const fields = (r: Record<string, unknown>) =>
      JSON.stringify({
        name: String(r.name).toLowerCase(),
        type: r.type,
        ttl: r.ttl,
        rrdatas: r.rrdatas,
        routingPolicy: r.routingPolicy ?? null,
        signatureRrdatas: r.signatureRrdatas ?? null,
      });
    return fields(a) === fields(b);
  }

  function changes(zone: string, request: LoggedRequest): Response {
    const held = zones.get(zone)!;
    const body = (typeof request.body === "object" && request.body !== null ? request.body : {}) as {
      additions?: unknown;
      deletions?: unknown;
    };
    const additions = (Array.isArray(body.additions) ? body.additions : []) as Record<string, unknown>[];
    const deletions = (Array.isArray(body.deletions) ? body.deletions : []) as Record<string, unknown>[];
    if (additions.length + deletions.length === 0)
      return googleError(400, "required", "The 'entity.change' parameter is required but was missing.");
    const next = [...held.rrsets];
    for (const [index, deletion] of deletions.entries()) {
      const at = next.findIndex(
        (r) => r.name.toLowerCase() === String(deletion.name).toLowerCase() && r.type === deletion.type,
      );
      if (at < 0)
        return googleError(
          404,
          "notFound",
          `The 'entity.change.deletions[${index}]' resource named '${String(deletion.name)} (${String(deletion.type)})' does not exist.`,
        );
      if (!same(next[at]!, deletion))
        return googleError(412, "conditionNotMet", `Precondition not met for 'entity.change.deletions[${index}]'`);
      next.splice(at, 1);
    }
    for (const [index, addition] of additions.entries()) {
      const name = String(addition.name ?? "");
      if (
        !name.endsWith(".") ||
        !(name.toLowerCase() === held.dnsName || name.toLowerCase().endsWith(`.${held.dnsName}`))
      )
        return googleError(400, "invalid", `Invalid value for 'entity.change.additions[${index}].name': '${name}'`);
      const type = String(addition.type);
      const rrdatas = Array.isArray(addition.rrdatas) ? addition.rrdatas.map(String) : [];
      if (
        rrdatas.length === 0 ||
        rrdatas.some((d) => (type === "A" ? !isIPv4(d) : type === "AAAA" ? !isIPv6(d) : false))
      )
        return googleError(400, "invalid", `Invalid value for 'entity.change.additions[${index}].rrdata'`);
      if (typeof addition.ttl !== "number" || addition.ttl < 0)
        return googleError(400, "invalid", `Invalid value for 'entity.change.additions[${index}].ttl'`);
      if (next.some((r) => r.name.toLowerCase() === name.toLowerCase() && r.type === type))
        return googleError(
          409,
          "alreadyExists",
          `The resource 'entity.change.additions[${index}]' named '${name} (${type})' already exists`,
        );
      next.push({ ...(addition as GcloudRrset), name, type, ttl: addition.ttl, rrdatas });
    }
    held.rrsets = next;
    return json(200, {
      kind: "dns#change",
      additions,
      deletions,
      startTime: new Date().toISOString(),
      id: String(++changeIds),
      status: "pending",
    });
  }

  let changeIds = 0;

  function route(request: LoggedRequest): Response {
    if (request.path === "/token")
      return request.method === "POST" ? token(request) : json(405, { error: "invalid_request" });
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] !== "dns" || segments[1] !== "v1") return googleError(404, "notFound", "Not Found");
    if (!tokens.has((request.headers.authorization ?? "").replace(/^Bearer /, ""))) {
      return json(401, {
        error: {
          code: 401,
          message:
            "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
          status: "UNAUTHENTICATED",
          errors: [
            {
              message: "Invalid Credentials",
              domain: "global",
              reason: "authError",
              location: "Authorization",
              locationType: "header",
            },
          ],
        },
      });
    }
    const path = segments.slice(2);
    if (path[0] !== "projects" || path[2] !== "managedZones") return googleError(404, "notFound", "Not Found");
    if (path[1] !== GCLOUD_FAKE_PROJECT)
      return googleError(
        403,
        "forbidden",
        `Forbidden: the caller does not have permission on project ${path[1]}`,
        "PERMISSION_DENIED",
      );
    if (path.length === 3 && request.method === "GET") {
      const all = [...zones.entries()].sort(([a], [b]) => a.localeCompare(b));
      const skip = Number(
        request.query.pageToken === undefined ? 0 : Buffer.from(request.query.pageToken, "base64url").toString(),
      );
      const page = all.slice(skip, skip + fake.maxZonesPerPage).map(([name, held]) => ({
        kind: "dns#managedZone",
        name,
        dnsName: held.dnsName,
        id: String(1000 + all.findIndex(([n]) => n === name)),
        visibility: held.visibility,
      }));
      const more = skip + fake.maxZonesPerPage < all.length;
      return json(200, {
        kind: "dns#managedZonesListResponse",
        managedZones: page,
        ...(more ? { nextPageToken: Buffer.from(String(skip + fake.maxZonesPerPage)).toString("base64url") } : {}),
      });
    }
    const zone = path[3]!;
    const held = zones.get(zone);
    if (!held)
      return googleError(404, "notFound", `The 'parameters.managedZone' resource named '${zone}' does not exist.`);
    if (path.length === 4 && request.method === "GET")
      return json(200, { kind: "dns#managedZone", name: zone, dnsName: held.dnsName, visibility: held.visibility });
    if (path.length === 5 && path[4] === "rrsets" && request.method === "GET") {
      const { name, type } = request.query;
      if (type !== undefined && name === undefined)
        return googleError(400, "invalid", "The 'parameters.type' parameter requires 'parameters.name'.");
      const found = held.rrsets.filter(
        (r) =>
          (name === undefined || r.name.toLowerCase() === name.toLowerCase()) &&
          (type === undefined || r.type === type),
      );
      return json(200, { kind: "dns#resourceRecordSetsListResponse", rrsets: found.map(rrsetOut) });
    }
    if (path.length === 5 && path[4] === "changes" && request.method === "POST") return changes(zone, request);
    return googleError(404, "notFound", "Not Found");
  }

  const server = startFakeServer<GcloudFault>({
    prefix: "",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      const reason = mode.reason ?? (mode.status === 429 ? "rateLimitExceeded" : "backendError");
      const message =
        mode.message ??
        (mode.status === 429 || reason === "rateLimitExceeded"
          ? "Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute' of service 'dns.googleapis.com'."
          : "Internal error encountered.");
      return googleError(mode.status, reason, message, undefined, retryAfterHeader(mode.retryAfter));
    },
  });

  const fake: GcloudFake = Object.assign(server, {
    tokenUrl: `${server.url}/token`,
    apiUrl: `${server.url}/dns/v1`,
    accounts,
    tokens,
    assertions,
    maxZonesPerPage: 100,
    zones,
    addZone: (name: string, dnsName: string, visibility: "public" | "private" = "public") =>
      void zones.set(name, { dnsName: dnsName.endsWith(".") ? dnsName : `${dnsName}.`, visibility, rrsets: [] }),
    addRrset,
    rrset: (zone: string, name: string, type: string) =>
      zones.get(zone)?.rrsets.find((r) => r.name === name && r.type === type),
    reset() {
      zones.clear();
      tokens.clear();
      assertions.length = 0;
      accounts.clear();
      accounts.set(GCLOUD_FAKE_EMAIL, GCLOUD_FAKE_KEY.publicKey);
      fake.maxZonesPerPage = 100;
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

const STATUS_WORDS: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  409: "ALREADY_EXISTS",
  412: "FAILED_PRECONDITION",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

function googleError(
  status: number,
  reason: string,
  message: string,
  statusWord?: string,
  headers: Record<string, string> = {},
): Response {
  return json(
    status,
    {
      error: {
        code: status,
        message,
        errors: [{ message, domain: "global", reason }],
        status: statusWord ?? STATUS_WORDS[status] ?? "UNKNOWN",
      },
    },
    headers,
  );
}
