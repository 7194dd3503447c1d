// Google Cloud DNS (docs/services/gcloud.md): the zone service primitives. A service account's JSON
// key signs a short JWT (RS256) that the key's token endpoint trades for a bearer token (the
// OAuth 2.0 JWT bearer grant); the token is kept in memory only, until a minute before the expiry it
// came with, and never logged. Records live in managed zones (named by the project, not by their DNS
// name): the record set of a name and type is read with `rrsets?name=&type=` and replaced with one
// Change that deletes exactly the set as read and adds it back with the new address, so Cloud DNS
// applies both atomically, and refuses the change (412) when the set was changed meanwhile.
//
// Requests per write, with the zone known (config.zone_id = the managed zone's name) and a live token:
//   GET rrsets + POST changes = 2 (1 when the address is already there), + 1 token per client
//
// Sources: cloud.google.com/dns/docs/reference/rest/v1 (managedZones.list, resourceRecordSets.list,
// changes.create) and the Cloud DNS discovery document; developers.google.com/identity/protocols/oauth2/service-account
// ("Preparing to make an authorized API call": the JWT's header, claims and grant type); lego
// providers/dns/gcloud and libdns/googleclouddns (changes with deletions + additions).

import { createPrivateKey, createSign, type KeyObject } from "node:crypto";
import { exchange } from "../../net/http";
import { asObject, isObject, objectsIn, parseJson } from "../../util/json";
import { type BearerToken, bearerCalls, failed, failedAnswer, type ServiceError } from "../answers";
import { paginate } from "../paging";
import type { Step } from "../provider";
import { type RecordSet, type TxtApi, type ZoneApi, zoneClient } from "../reconcile";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, quotedTxt, txtSet, unquotedTxt } from "../txt";
import { acceptedCounting, longestZone, noZoneMessage } from "../zones";

const SERVICE = "Google Cloud DNS";
const GCLOUD_SCOPE = "https://www.googleapis.com/auth/ndev.clouddns.readwrite";
const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token";
/** Google accepts an assertion that lives at most an hour. */
const ASSERTION_SECONDS = 3600;
/** A token is dropped this long before the expiry it came with. */
const TOKEN_MARGIN_MS = 60_000;
/** A new record set's TTL when the config names none: the Cloud Console's default. */
const NEW_SET_TTL = 300;

/** What ddnsd uses of a service account's JSON key. */
export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  project_id?: string;
  token_uri?: string;
}

/** The key's fields, or why the text is not a service account key. */
export function parseServiceAccountKey(
  text: string,
): { ok: true; key: ServiceAccountKey } | { ok: false; problem: string } {
  const parsed = parseJson(text.trim());
  if (!isObject(parsed)) return { ok: false, problem: "must be the service account's JSON key file, as downloaded" };
  if (parsed.type !== undefined && parsed.type !== "service_account")
    return { ok: false, problem: `is a key of type "${String(parsed.type)}"; a service account key is needed` };
  if (typeof parsed.client_email !== "string" || parsed.client_email === "")
    return { ok: false, problem: "has no client_email: use the service account's JSON key file" };
  if (typeof parsed.private_key !== "string" || !parsed.private_key.includes("PRIVATE KEY"))
    return { ok: false, problem: "has no private_key: use the service account's JSON key file" };
  const text_ = (field: string) =>
    typeof parsed[field] === "string" && parsed[field] !== "" ? { [field]: parsed[field] as string } : {};
  return {
    ok: true,
    key: {
      client_email: parsed.client_email,
      private_key: parsed.private_key,
      ...text_("private_key_id"),
      ...text_("project_id"),
      ...text_("token_uri"),
    },
  };
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString("base64url");

/**
 * The signed JWT a service account trades for a token: header `{alg: RS256, typ: JWT, kid}`, claims
 * `{iss, scope, aud, iat, exp}`, signed with RSASSA-PKCS1-v1_5 over SHA-256 (RFC 7518 §3.3).
 */
export function signedAssertion(
  key: ServiceAccountKey,
  privateKey: KeyObject,
  audience: string,
  nowSeconds: number,
): string {
  const header = { alg: "RS256", typ: "JWT", ...(key.private_key_id === undefined ? {} : { kid: key.private_key_id }) };
  const claims = {
    iss: key.client_email,
    scope: GCLOUD_SCOPE,
    aud: audience,
    iat: nowSeconds,
    exp: nowSeconds + ASSERTION_SECONDS,
  };
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  return `${input}.${rs256Signature(input, privateKey)}`;
}

/** A JWS signing input's RS256 signature, base64url without padding (RFC 7515 §5.1, RFC 7518 §3.3). */
export function rs256Signature(input: string, privateKey: KeyObject): string {
  return base64url(createSign("RSA-SHA256").update(input).sign(privateKey));
}

interface GoogleRrset {
  name: string;
  type: string;
  ttl?: number;
  rrdatas?: string[];
  [field: string]: unknown;
}

export function createGcloudApi(
  credentials: { key: ServiceAccountKey; project: string },
  tokenUrl: string,
  context: ClientContext,
  now: () => number = Date.now,
): ZoneApi & { txt: TxtApi } {
  const { key, project } = credentials;
  let privateKey: KeyObject | undefined;

  async function obtainToken(): Promise<Step<BearerToken>> {
    if (privateKey === undefined) {
      try {
        privateKey = createPrivateKey(key.private_key);
      } catch {
        return failed(`${SERVICE}: the key's private_key is not a readable PEM key; download a new JSON key`, {
          cause: "credentials",
          stopRetrying: true,
        });
      }
    }
    const assertion = signedAssertion(key, privateKey, tokenUrl, Math.floor(now() / 1000));
    const answer = await exchange(
      context.fetch,
      tokenUrl,
      {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Accept: "application/json",
          "User-Agent": context.userAgent,
        },
        body: new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion }).toString(),
      },
      context.timeoutMs,
    );
    if (!answer.ok) return failed(`${SERVICE}: ${answer.reason}`, { cause: answer.cause });
    const body = parseJson(answer.text);
    if (answer.status === 200 && isObject(body) && typeof body.access_token === "string") {
      const seconds = typeof body.expires_in === "number" ? body.expires_in : Number(body.expires_in ?? 0);
      const until = now() + Math.max(0, seconds * 1000 - TOKEN_MARGIN_MS);
      return { ok: true, value: { value: body.access_token, until } };
    }
    // The token endpoint's 400/401 (`invalid_grant`: a deleted key, a bad signature) is about the key.
    const words =
      isObject(body) && typeof body.error === "string"
        ? {
            words:
              typeof body.error_description === "string" && body.error_description !== ""
                ? body.error_description
                : body.error,
            code: body.error,
          }
        : undefined;
    // Except when it names the assertion's times: that is this machine's clock, which comes right by itself.
    if (words !== undefined && /\biat\b|\bexp\b|timeframe|clock/i.test(words.words)) {
      return failedAnswer(SERVICE, answer.status, answer.headers, answer.text, {
        ...words,
        words: `${words.words} (check this machine's clock)`,
        cause: "refused",
      });
    }
    const failure = failedAnswer(SERVICE, answer.status, answer.headers, answer.text, words);
    return answer.status === 400 || answer.status === 401
      ? { ...failure, cause: "credentials", stopRetrying: true }
      : failure;
  }

  /** A Cloud DNS call with the bearer token: one is obtained when there is none, and once more when it is refused (401). */
  const call = bearerCalls(context, SERVICE, obtainToken, readError, now);

  const zonesPath = `/projects/${encodeURIComponent(project)}/managedZones`;
  const zonePath = (zone: string) => `${zonesPath}/${encodeURIComponent(zone)}`;
  /** A 404 under a managed zone's name means the zone is gone (or another project's). */
  const staleOnZone404 = <T>(step: Step<T>): Step<T> =>
    !step.ok && step.status === 404 ? { ...step, staleZone: true } : step;

  function listZones(): Promise<Step<{ name: string; dnsName: string }[]>> {
    return paginate(async (pageToken) => {
      const answer = await call(
        "GET",
        pageToken === undefined ? zonesPath : `${zonesPath}?${new URLSearchParams({ pageToken: String(pageToken) })}`,
      );
      if (!answer.ok) return answer;
      const body = asObject(answer.value.body);
      const zones: { name: string; dnsName: string }[] = [];
      for (const zone of objectsIn(body.managedZones)) {
        // A private zone answers only inside its VPC networks: the public name is never there.
        if (zone.visibility === "private") continue;
        if (typeof zone.name === "string" && typeof zone.dnsName === "string")
          zones.push({ name: zone.name, dnsName: zone.dnsName.toLowerCase().replace(/\.$/, "") });
      }
      const next = typeof body.nextPageToken === "string" && body.nextPageToken !== "" ? body.nextPageToken : undefined;
      return { ok: true, value: { items: zones, next } };
    });
  }

  function recordSet(rrset: GoogleRrset): RecordSet {
    return {
      id: `${rrset.name}/${rrset.type}`,
      values: rrset.rrdatas ?? [],
      ...(typeof rrset.ttl === "number" ? { ttl: rrset.ttl } : {}),
      raw: rrset,
    };
  }

  /** One change of the zone: Cloud DNS applies its deletions and additions together, or none of them. */
  async function change(zoneId: string, deletions: GoogleRrset[], addition: GoogleRrset): Promise<Step<RecordSet>> {
    const answer = staleOnZone404(
      await call("POST", `${zonePath(zoneId)}/changes`, {
        ...(deletions.length > 0 ? { deletions } : {}),
        additions: [addition],
      }),
    );
    return answer.ok ? { ok: true, value: recordSet(addition) } : answer;
  }

  // A TXT set holds every value of the name, each a quoted string: one Change deletes the set as
  // read and adds it back with the value added or dropped (each kept value spelt as it was), its TTL
  // kept; with no value left it is only deleted. A set changed meanwhile makes Cloud DNS refuse it.
  const txt = txtSet({
    async read(zone, name) {
      const query = new URLSearchParams({ name: `${name}.`, type: "TXT" });
      const answer = staleOnZone404(await call("GET", `${zonePath(zone.id)}/rrsets?${query}`));
      if (!answer.ok) return answer;
      const rrset = (objectsIn(asObject(answer.value.body).rrsets) as GoogleRrset[]).find(
        (r) => typeof r.name === "string" && r.name.toLowerCase() === `${name}.` && r.type === "TXT",
      );
      if (rrset === undefined) return { ok: true, value: { values: [] } };
      const values = (rrset.rrdatas ?? []).map(unquotedTxt);
      return { ok: true, value: { values, ...(typeof rrset.ttl === "number" ? { ttl: rrset.ttl } : {}), raw: rrset } };
    },
    write(zone, name, values, held) {
      const read = held.raw as GoogleRrset | undefined;
      const spelt = new Map((read?.rrdatas ?? []).map((data) => [unquotedTxt(data), data]));
      const addition: GoogleRrset = {
        ...(read ?? { name: `${name}.`, type: "TXT" }),
        ttl: held.ttl ?? CHALLENGE_TTL,
        rrdatas: values.map((value) => spelt.get(value) ?? quotedTxt(value)),
      };
      return call("POST", `${zonePath(zone.id)}/changes`, {
        ...(read ? { deletions: [read] } : {}),
        ...(values.length > 0 ? { additions: [addition] } : {}),
      });
    },
  });

  return {
    service: SERVICE,
    txt,

    verify: () => acceptedCounting(listZones(), "Service account accepted", "public zone", ` in project ${project}`),

    async findZone(hostname, configured) {
      if (configured !== undefined) return { ok: true, value: { id: configured, name: null } };
      const listed = await listZones();
      if (!listed.ok) return listed;
      const name = longestZone(
        hostname,
        listed.value.map((z) => z.dnsName),
      );
      const zone = listed.value.find((z) => z.dnsName === name);
      return zone === undefined
        ? failed(noZoneMessage(SERVICE, hostname, `project ${project}`), { cause: "refused" })
        : { ok: true, value: { id: zone.name, name: zone.dnsName } };
    },

    async zoneName(zoneId) {
      const answer = staleOnZone404(await call("GET", zonePath(zoneId)));
      if (!answer.ok) return answer;
      const body = asObject(answer.value.body);
      return typeof body.dnsName === "string"
        ? { ok: true, value: body.dnsName.toLowerCase().replace(/\.$/, "") }
        : failed(`${SERVICE}: managed zone ${zoneId} came back without its DNS name`, { cause: "unreachable" });
    },

    async readRecordSet(zone, hostname, type) {
      const query = new URLSearchParams({ name: `${hostname}.`, type });
      const answer = staleOnZone404(await call("GET", `${zonePath(zone.id)}/rrsets?${query}`));
      if (!answer.ok) return answer;
      const body = asObject(answer.value.body);
      const rrsets = objectsIn(body.rrsets) as GoogleRrset[];
      const rrset = rrsets.find(
        (r) => typeof r.name === "string" && r.name.toLowerCase() === `${hostname}.` && r.type === type,
      );
      if (rrset === undefined) return { ok: true, value: null };
      // A set with a routing policy (geo, weighted, failover) holds its addresses in the policy, not in rrdatas.
      if (rrset.routingPolicy !== undefined)
        return failed(
          `${SERVICE}: ${hostname} ${type} has a routing policy; ddnsd changes only a plain record set, so nothing was written`,
          { cause: "refused" },
        );
      return { ok: true, value: recordSet(rrset) };
    },

    async updateRecordSet(zone, _hostname, _type, current, address, settings) {
      const read = current.raw as GoogleRrset;
      // The addition is the set as read, with only the address (and a configured TTL) changed.
      const replacement: GoogleRrset = {
        ...read,
        rrdatas: [address],
        ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }),
      };
      return change(zone.id, [read], replacement);
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      return change(zone.id, [], { name: `${hostname}.`, type, ttl: settings.ttl ?? NEW_SET_TTL, rrdatas: [address] });
    },

    // One change: the set as read deleted and the new one added (both or neither), or the set created.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      if (current === null)
        return change(zone.id, [], {
          name: `${hostname}.`,
          type,
          ttl: settings.ttl ?? NEW_SET_TTL,
          rrdatas: [...addresses],
        });
      const read = current.raw as GoogleRrset;
      return change(zone.id, [read], {
        ...read,
        rrdatas: [...addresses],
        ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }),
      });
    },
  };
}

const THROTTLE_REASONS = new Set([
  "rateLimitExceeded",
  "userRateLimitExceeded",
  "quotaExceeded",
  "RATE_LIMIT_EXCEEDED",
]);

/**
 * Google's error body: `{"error": {code, message, status, errors: [{reason, message}]}}`. A quota
 * answer is "slow down" whatever its status (Google sends some as 403); a 401/403 otherwise only
 * comes right when the account or its role changes.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  const error = isObject(body) && isObject(body.error) ? body.error : undefined;
  if (!error || typeof error.message !== "string") return undefined;
  const first = Array.isArray(error.errors) ? error.errors.find(isObject) : undefined;
  const reason = first !== undefined && typeof first.reason === "string" ? first.reason : undefined;
  const code = reason ?? (typeof error.status === "string" ? error.status : undefined);
  if (reason !== undefined && THROTTLE_REASONS.has(reason))
    return { words: error.message, code: reason, cause: "throttled" };
  return {
    words: error.message,
    ...(code === undefined ? {} : { code }),
    ...(status === 401 || status === 403 ? { stopRetrying: true } : {}),
  };
}

/** Everything ddnsd knows about Google Cloud DNS (docs/services/gcloud.md). */
export const gcloud = defineService({
  type: "gcloud",
  label: "Google Cloud DNS",
  summary: "Public managed zones in Google Cloud DNS, with a service account's JSON key.",
  credentials: [
    {
      key: "service_account_key",
      label: "Service account key (JSON)",
      help: 'IAM & Admin → Service Accounts → Create service account (e.g. ddnsd), with the role "DNS Administrator" (roles/dns.admin) granted on the project, or better on the managed zone only; then its Keys → Add key → Create new key → JSON. Paste the whole downloaded file.',
      url: "https://console.cloud.google.com/iam-admin/serviceaccounts",
      secret: true,
      // The downloaded file is about 2,400 characters: its private key alone is over 1,600.
      maxChars: 4096,
      validate: (text) => {
        const parsed = parseServiceAccountKey(text);
        return parsed.ok ? undefined : parsed.problem;
      },
    },
  ],
  options: [
    {
      key: "project",
      label: "Project ID",
      help: "The project that holds the managed zones. Empty: the key's own project (its project_id).",
      kind: "text",
      validate: (value) =>
        /^[a-z0-9][a-z0-9.:-]*$/.test(value.trim()) ? undefined : "must be a project ID such as my-project-123",
    },
    {
      key: "token_url",
      label: "Token endpoint",
      help: "Where the key's tokens come from. Empty: the key's token_uri (https://oauth2.googleapis.com/token).",
      kind: "url",
    },
  ],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(0, 2147483647, 300),
  canVerify: true,
  holdsTxt: true,
  holdsAddressSets: true,
  defaultApiUrl: "https://dns.googleapis.com/dns/v1",
  // Cloud DNS counts API requests per minute per project (the quota the console shows); ddnsd stays far below.
  rateLimits: [
    { requests: 5, perSeconds: 1 },
    { requests: 200, perSeconds: 60 },
  ],
  createClient: (credentials, options, context) => {
    const parsed = parseServiceAccountKey(credentials.service_account_key ?? "");
    if (!parsed.ok) {
      const problem = `${SERVICE}: the service account key ${parsed.problem}`;
      const refused = async () => failed(problem, { cause: "credentials", stopRetrying: true });
      return {
        verify: async () => ({ ok: false, detail: problem }),
        writeRecord: refused,
        writeTxt: refused,
        // The same kind of client as one with a usable key: only its credentials are refused.
        writesAddressSets: true,
      };
    }
    const project =
      typeof options.project === "string" && options.project.trim() !== ""
        ? options.project.trim()
        : (parsed.key.project_id ?? "");
    const tokenUrl =
      typeof options.token_url === "string" && options.token_url !== ""
        ? options.token_url
        : (parsed.key.token_uri ?? GOOGLE_TOKEN_URI);
    const api = createGcloudApi({ key: parsed.key, project }, tokenUrl, context);
    return zoneClient(api, api.txt);
  },
});
