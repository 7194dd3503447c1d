// Azure DNS through Azure Resource Manager (docs/services/azure.md): the zone service primitives. A
// service principal's client credentials buy a bearer token at the Microsoft identity platform's
// token endpoint (the `login_url` option, so sovereign clouds and the tests can name another); the
// token is kept in memory only, until a minute before the expiry it was given with, and never
// logged. A record set is one ARM resource named by zone, type and relative name (`@` for the apex):
// read with GET, changed with a PATCH that names only the addresses (so the TTL and metadata stay)
// and the etag read (If-Match), created with PUT (If-None-Match: *), so nothing another writer made
// meanwhile is overwritten.
//
// Requests per write, with the zone known (config.zone_id = "resource group/zone") and a live token:
//   GET + PATCH = 2 (1 when the address is already there), + 1 token per client
//
// Sources: learn.microsoft.com (Azure DNS REST: Record Sets, Zones; the OAuth 2.0 client credentials
// flow); Azure/azure-rest-api-specs specification/dns; lego azuredns and libdns/azure.

import { exchange } from "../../net/http";
import { asObject, isObject, objectsIn, parseJson } from "../../util/json";
import { failed, failedAnswer, type JsonAnswer, requestJson, type ServiceError } from "../answers";
import { paginate } from "../paging";
import type { RecordType, Step } from "../provider";
import { type RecordSet, type TxtApi, type ZoneApi, zoneClient } from "../reconcile";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, txtSet } from "../txt";
import { acceptedCounting, longestZone, noZoneMessage, relativeName, zoneHolds } from "../zones";

const SERVICE = "Azure DNS";
const API_VERSION = "2018-05-01";
/** A token is dropped this long before the expiry it came with. */
const TOKEN_MARGIN_MS = 60_000;
/** A new record set's TTL when the config names none: Azure's portal default. */
const NEW_SET_TTL = 3600;

interface Credentials {
  tenant_id: string;
  client_id: string;
  client_secret: string;
  subscription_id: string;
}

const FIELDS: Record<RecordType, { key: string; field: string }> = {
  A: { key: "ARecords", field: "ipv4Address" },
  AAAA: { key: "AAAARecords", field: "ipv6Address" },
};

/**
 * The token's scope: the audience of the Resource Manager ddnsd talks to, which is its own address
 * (`https://management.azure.com/.default` for the public cloud; US Government
 * `https://management.usgovcloudapi.net/.default`, China `https://management.chinacloudapi.cn/.default`,
 * as Azure/azure-sdk-for-go's cloud.go and lego name them). A token for the public cloud's audience
 * is refused by a sovereign cloud, so the scope follows `DDNS_AZURE_API_URL`.
 */
export function tokenScope(resourceManagerUrl: string): string {
  let origin: string;
  try {
    origin = new URL(resourceManagerUrl).origin;
  } catch {
    origin = "https://management.azure.com";
  }
  return `${origin}/.default`;
}

export function createAzureApi(
  credentials: Credentials,
  loginUrl: string,
  context: ClientContext,
  now: () => number = Date.now,
): ZoneApi & { txt: TxtApi } {
  let token: { value: string; until: number } | undefined;
  const scope = tokenScope(context.baseUrl);

  async function obtainToken(): Promise<Step<string>> {
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: credentials.client_id,
      client_secret: credentials.client_secret,
      scope,
    });
    const url = `${loginUrl.replace(/\/+$/, "")}/${encodeURIComponent(credentials.tenant_id)}/oauth2/v2.0/token`;
    const answer = await exchange(
      context.fetch,
      url,
      {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Accept: "application/json",
          "User-Agent": context.userAgent,
        },
        body: form.toString(),
      },
      context.timeoutMs,
    );
    if (!answer.ok) return failed(`${SERVICE}: ${answer.reason}`, { cause: "unreachable" });
    const body = parseJson(answer.text);
    if (answer.status === 200 && isObject(body) && typeof body.access_token === "string") {
      const seconds = typeof body.expires_in === "number" ? body.expires_in : Number(body.expires_in ?? 0);
      token = { value: body.access_token, until: now() + Math.max(0, seconds * 1000 - TOKEN_MARGIN_MS) };
      return { ok: true, value: body.access_token };
    }
    // The identity platform's 400/401 (`invalid_client`, an unknown tenant) is about the credentials.
    const words =
      isObject(body) && typeof body.error === "string"
        ? {
            words: typeof body.error_description === "string" ? body.error_description.split("\r\n")[0]! : body.error,
            code: body.error,
          }
        : undefined;
    const failure = failedAnswer(SERVICE, answer.status, answer.headers, answer.text, words);
    return answer.status === 400 || answer.status === 401
      ? { ...failure, cause: "credentials", stopRetrying: true }
      : failure;
  }

  /** An ARM call with the bearer token: one is obtained when there is none, and once more when ARM refuses it (401). */
  async function call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Step<JsonAnswer>> {
    for (let attempt = 0; ; attempt++) {
      const bearer =
        token !== undefined && token.until > now() ? { ok: true as const, value: token.value } : await obtainToken();
      if (!bearer.ok) return bearer;
      const separator = path.includes("?") ? "&" : "?";
      const answer = await requestJson(
        context,
        SERVICE,
        {
          method,
          path: `${path}${separator}api-version=${API_VERSION}`,
          headers: { ...headers, Authorization: `Bearer ${bearer.value}` },
          body,
        },
        readError,
      );
      if (answer.ok || answer.status !== 401 || attempt > 0) return answer;
      token = undefined;
    }
  }

  const subscription = `/subscriptions/${encodeURIComponent(credentials.subscription_id)}`;
  /** `zone.id` is "resource group/zone". */
  function setPath(zoneId: string, type: RecordType | "TXT", name: string): string {
    const [group = "", zone = ""] = zoneId.split("/");
    return `${subscription}/resourceGroups/${encodeURIComponent(group)}/providers/Microsoft.Network/dnsZones/${encodeURIComponent(zone)}/${type}/${encodeURIComponent(name)}`;
  }

  function listZones(): Promise<Step<{ group: string; name: string }[]>> {
    return paginate(async (path = `${subscription}/providers/Microsoft.Network/dnszones`) => {
      const answer = await call("GET", String(path));
      if (!answer.ok) return answer;
      const body = asObject(answer.value.body);
      const zones: { group: string; name: string }[] = [];
      for (const zone of objectsIn(body.value)) {
        const group = /\/resourceGroups\/([^/]+)\//i.exec(String(zone.id ?? ""))?.[1];
        if (group !== undefined && typeof zone.name === "string") zones.push({ group, name: zone.name.toLowerCase() });
      }
      // nextLink is absolute; only its path and query below the API base are followed.
      const next =
        typeof body.nextLink === "string" && body.nextLink.startsWith(context.baseUrl)
          ? body.nextLink
              .slice(context.baseUrl.length)
              .replace(/[?&]api-version=[^&]*/, "")
              .replace(/^([^?&]*)&/, "$1?")
          : undefined;
      return { ok: true, value: { items: zones, next } };
    });
  }

  // The name's TXT set, written whole on the etag it was read with; deleted once no value is left.
  const txt = txtSet({
    async read(zone, name) {
      const answer = await call("GET", setPath(zone.id, "TXT", relativeName(name, zone.name!, "@")));
      if (!answer.ok) return answer.status === 404 ? { ok: true, value: { values: [] } } : answer;
      const body = asObject(answer.value.body);
      const properties = asObject(body.properties);
      return {
        ok: true,
        value: {
          // A TXT record's value is a list of strings, which a resolver reads as one text.
          values: objectsIn(properties.TXTRecords).map((r) =>
            Array.isArray(r.value) ? r.value.map(String).join("") : "",
          ),
          ...(typeof properties.TTL === "number" ? { ttl: properties.TTL } : {}),
          raw: body,
        },
      };
    },
    async write(zone, name, values, held) {
      const path = setPath(zone.id, "TXT", relativeName(name, zone.name!, "@"));
      const etag = asObject(held.raw).etag;
      const onEtag: Record<string, string> = typeof etag === "string" ? { "If-Match": etag } : {};
      if (values.length === 0) return call("DELETE", path, undefined, onEtag);
      const records = values.map((value) => ({ value: [value] }));
      return held.values.length === 0
        ? call("PUT", path, { properties: { TTL: CHALLENGE_TTL, TXTRecords: records } }, { "If-None-Match": "*" })
        : call("PATCH", path, { properties: { TXTRecords: records } }, onEtag);
    },
  });

  function recordSet(body: unknown, type: RecordType): RecordSet | null {
    if (!isObject(body) || !isObject(body.properties)) return null;
    const { key, field } = FIELDS[type];
    const records = Array.isArray(body.properties[key]) ? body.properties[key].filter(isObject) : [];
    return {
      id: String(body.id ?? body.name),
      values: records.map((r) => String(r[field])),
      ...(typeof body.properties.TTL === "number" ? { ttl: body.properties.TTL } : {}),
      raw: { etag: body.etag },
    };
  }

  function written(answer: Step<JsonAnswer>, type: RecordType): Step<RecordSet> {
    if (!answer.ok) return answer;
    const set = recordSet(answer.value.body, type);
    return set === null
      ? failed(`${SERVICE}: the written record set came back unreadable`, { cause: "unreachable" })
      : { ok: true, value: set };
  }

  const addresses = (type: RecordType, ...list: readonly string[]) => ({
    [FIELDS[type].key]: list.map((address) => ({ [FIELDS[type].field]: address })),
  });

  return {
    service: SERVICE,
    txt,

    verify: () => acceptedCounting(listZones(), "Service principal accepted", "zone", " visible"),

    async findZone(hostname, configured) {
      const given = typeof configured === "string" ? configured.trim().toLowerCase() : "";
      if (given !== "") {
        const [group, zone] = given.split("/");
        if (!group || !zone)
          return failed(`${SERVICE}: config.zone_id must be "resource group/zone", e.g. "dns-rg/example.com"`, {
            cause: "refused",
          });
        if (!zoneHolds(zone, hostname))
          return failed(
            `${SERVICE}: config.zone_id ${given} does not hold ${hostname}; correct config.zone_id or remove it`,
            { cause: "refused" },
          );
        return { ok: true, value: { id: `${group}/${zone}`, name: zone } };
      }
      const listed = await listZones();
      if (!listed.ok) return listed;
      const name = longestZone(
        hostname,
        listed.value.map((z) => z.name),
      );
      const zone = listed.value.find((z) => z.name === name);
      return zone === undefined
        ? failed(noZoneMessage(SERVICE, hostname), { cause: "refused" })
        : { ok: true, value: { id: `${zone.group}/${zone.name}`, name: zone.name } };
    },

    async readRecordSet(zone, hostname, type) {
      const answer = await call("GET", setPath(zone.id, type, relativeName(hostname, zone.name!, "@")));
      if (!answer.ok) {
        if (answer.status !== 404) return answer;
        // A missing record set is "none"; a missing zone or group means config.zone_id is stale.
        return /ParentResourceNotFound|ResourceGroupNotFound/.test(answer.message)
          ? { ...answer, staleZone: true }
          : { ok: true, value: null };
      }
      const set = recordSet(answer.value.body, type);
      return { ok: true, value: set === null || set.values.length === 0 ? null : set };
    },

    async updateRecordSet(zone, hostname, type, current, address, settings) {
      const etag = isObject(current.raw) && typeof current.raw.etag === "string" ? current.raw.etag : undefined;
      const properties = { ...addresses(type, address), ...(settings.ttl === undefined ? {} : { TTL: settings.ttl }) };
      return written(
        await call(
          "PATCH",
          setPath(zone.id, type, relativeName(hostname, zone.name!, "@")),
          { properties },
          etag === undefined ? {} : { "If-Match": etag },
        ),
        type,
      );
    },

    // The set's records in one request: a PATCH of the set read (on its etag), or a PUT that creates it.
    async writeAddressSet(zone, hostname, type, current, list, settings) {
      const path = setPath(zone.id, type, relativeName(hostname, zone.name!, "@"));
      if (current === null)
        return written(
          await call(
            "PUT",
            path,
            { properties: { TTL: settings.ttl ?? NEW_SET_TTL, ...addresses(type, ...list) } },
            { "If-None-Match": "*" },
          ),
          type,
        );
      const etag = isObject(current.raw) && typeof current.raw.etag === "string" ? current.raw.etag : undefined;
      const properties = { ...addresses(type, ...list), ...(settings.ttl === undefined ? {} : { TTL: settings.ttl }) };
      return written(await call("PATCH", path, { properties }, etag === undefined ? {} : { "If-Match": etag }), type);
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const properties = { TTL: settings.ttl ?? NEW_SET_TTL, ...addresses(type, address) };
      return written(
        await call(
          "PUT",
          setPath(zone.id, type, relativeName(hostname, zone.name!, "@")),
          { properties },
          { "If-None-Match": "*" },
        ),
        type,
      );
    },
  };
}

/** ARM's error body: `{"error": {code, message}}`. 401/403 only come right when the principal or its role changes. */
function readError(body: unknown, status: number): ServiceError | undefined {
  const error = isObject(body) && isObject(body.error) ? body.error : undefined;
  if (!error || typeof error.message !== "string") return undefined;
  return {
    words: error.message,
    ...(typeof error.code === "string" ? { code: error.code } : {}),
    ...(status === 401 || status === 403 ? { stopRetrying: true } : {}),
  };
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const guid = (value: string) =>
  GUID.test(value.trim()) ? undefined : "must be a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)";

/** Everything ddnsd knows about Azure DNS (docs/services/azure.md). */
export const azure = defineService({
  type: "azure",
  label: "Azure DNS",
  summary:
    "Public zones in Azure DNS, through Azure Resource Manager with a service principal (tenant, client id and secret) and the subscription.",
  credentials: [
    {
      key: "tenant_id",
      label: "Tenant ID",
      help: "Microsoft Entra ID → Overview: Tenant ID.",
      url: "https://portal.azure.com/#view/Microsoft_AAD_IAMAUX/ActiveDirectoryMenuBlade/~/Overview",
      secret: false,
      validate: guid,
    },
    {
      key: "client_id",
      label: "Client ID",
      help: 'App registrations → New registration (a name such as ddnsd): its Application (client) ID. Then give it the role "DNS Zone Contributor" on the zone (or its resource group) only: the zone\'s Access control (IAM) → Add role assignment.',
      url: "https://portal.azure.com/#view/Microsoft_AAD_RegisteredApps/ApplicationsListBlade",
      secret: false,
      validate: guid,
    },
    {
      key: "client_secret",
      label: "Client secret",
      help: "The app registration's Certificates & secrets → New client secret: its Value (shown once). Secrets expire: note the date.",
      url: "https://portal.azure.com/#view/Microsoft_AAD_RegisteredApps/ApplicationsListBlade",
      secret: true,
    },
    {
      key: "subscription_id",
      label: "Subscription ID",
      help: "Subscriptions: the ID of the subscription that holds the zone.",
      url: "https://portal.azure.com/#view/Microsoft_Azure_Billing/SubscriptionsBlade",
      secret: false,
      validate: guid,
    },
  ],
  options: [
    {
      key: "login_url",
      label: "Token endpoint",
      help: "Where the service principal gets its tokens. Leave as is for Azure's public cloud (https://login.microsoftonline.com).",
      kind: "url",
      default: "https://login.microsoftonline.com",
    },
  ],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(1, 2147483647, 3600),
  canVerify: true,
  holdsAddressSets: true,
  holdsTxt: true,
  defaultApiUrl: "https://management.azure.com",
  // ARM allows 12,000 reads and 1,200 writes an hour per principal and subscription; ddnsd stays under both.
  rateLimits: [
    { requests: 10, perSeconds: 1 },
    { requests: 1100, perSeconds: 3600 },
  ],
  createClient: (credentials, options, context) => {
    const api = createAzureApi(
      {
        tenant_id: (credentials.tenant_id ?? "").trim(),
        client_id: (credentials.client_id ?? "").trim(),
        client_secret: credentials.client_secret ?? "",
        subscription_id: (credentials.subscription_id ?? "").trim(),
      },
      typeof options.login_url === "string" ? options.login_url : "https://login.microsoftonline.com",
      context,
    );
    return zoneClient(api, api.txt);
  },
});
