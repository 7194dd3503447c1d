// Selectel DNS hosting, API v2 (docs/services/selectel.md): the zone service primitives. A service
// user's password buys a Keystone token scoped to the project that holds the zones (`POST
// {identity}/auth/tokens`, the token in the answer's `X-Subject-Token` header, valid for a day);
// the token is kept in memory only, with its expiry, and sent as `X-Auth-Token`. Zones and record
// sets (rrsets) have UUIDs; names are absolute with a trailing dot (`home.example.com.`); listings
// page with `limit` / `offset` / `next_offset` under `result`.
//
// Requests per write, with the zone known (config.zone_id) and a live token — the steady state:
//   GET rrset?name=&rrset_types= + PATCH rrset/{id} = 2 (1 when the address is already there), + 1 token per client
// Without it each of the name's parents is looked for (`GET /zones?filter=`), longest first; a zone
// given by id is named (GET /zones/{id}) only before a record set is created in it.
//
// Sources: docs.selectel.ru (DNS hosting API v2: zones, rrsets; Keystone tokens for a service user);
// selectel/domains-go pkg/v2 (the official Go client: paths, the PATCH form `{ttl, records, comment}`,
// errors `{"error", "description"}`); go-acme/lego providers/dns/selectelv2 (the token, the zone
// search by `filter`, the exact-name match after the rrset search).

import { exchange } from "../../net/http";
import { asObject, isObject, objectsIn, parseJson } from "../../util/json";
import { plural } from "../../util/plural";
import { failed, failedAnswer, type JsonAnswer, requestJson, type ServiceError, staleOn404 } from "../answers";
import { paginate } from "../paging";
import type { Step } from "../provider";
import { type RecordSet, type TxtApi, type ZoneApi, zoneClient } from "../reconcile";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, quotedTxt, txtSet, unquotedTxt } from "../txt";
import { candidateZones, failedCheck, noZoneMessage } from "../zones";

const SERVICE = "Selectel";
const SELECTEL_IDENTITY_URL = "https://cloud.api.selcloud.ru/identity/v3";
/** A new record set's TTL when the domain's config names none (the control panel's default). */
const NEW_RECORD_TTL = 3600;
/** A token is not used in its last five minutes, so it never runs out mid-write. */
const TOKEN_MARGIN_MS = 5 * 60 * 1000;
/** When the answer names no expiry: Keystone's default lifetime, a day, less the margin. */
const DEFAULT_TOKEN_USE_MS = 24 * 60 * 60 * 1000 - TOKEN_MARGIN_MS;
const PAGE_SIZE = 1000;
const MAX_PAGES = 25;

interface Credentials {
  account_id: string;
  username: string;
  password: string;
  project_id: string;
}

export function createSelectelApi(
  credentials: Credentials,
  identityUrl: string,
  context: ClientContext,
  now: () => number = Date.now,
): ZoneApi & { txt: TxtApi } {
  let token: { value: string; until: number } | undefined;

  async function obtainToken(): Promise<Step<string>> {
    const body = {
      auth: {
        identity: {
          methods: ["password"],
          password: {
            user: {
              name: credentials.username,
              domain: { name: credentials.account_id },
              password: credentials.password,
            },
          },
        },
        scope: { project: { id: credentials.project_id } },
      },
    };
    const answer = await exchange(
      context.fetch,
      `${identityUrl.replace(/\/+$/, "")}/auth/tokens`,
      {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "User-Agent": context.userAgent },
        body: JSON.stringify(body),
      },
      context.timeoutMs,
    );
    if (!answer.ok) return failed(`${SERVICE}: ${answer.reason}`, { cause: answer.cause });
    const given = answer.headers.get("x-subject-token");
    if (answer.status >= 200 && answer.status < 300 && given) {
      const parsed = parseJson(answer.text);
      const expires =
        isObject(parsed) && isObject(parsed.token) ? Date.parse(String(parsed.token.expires_at ?? "")) : Number.NaN;
      token = {
        value: given,
        until: Number.isFinite(expires) ? expires - TOKEN_MARGIN_MS : now() + DEFAULT_TOKEN_USE_MS,
      };
      return { ok: true, value: given };
    }
    const parsed = parseJson(answer.text);
    const failure = failedAnswer(SERVICE, answer.status, answer.headers, answer.text, readKeystoneError(parsed));
    // Keystone's 401 (a wrong name, password or account) and 403/404 (no role in, or no such, project) need an edit.
    return answer.status === 401 || answer.status === 403 || answer.status === 404
      ? { ...failure, cause: "credentials", stopRetrying: true }
      : failure;
  }

  /** A DNS API call with the token: one is obtained when there is none, and once more when the API refuses it (401). */
  async function call(method: string, path: string, body?: unknown): Promise<Step<JsonAnswer>> {
    for (let attempt = 0; ; attempt++) {
      const live =
        token !== undefined && token.until > now() ? { ok: true as const, value: token.value } : await obtainToken();
      if (!live.ok) return live;
      const answer = await requestJson(
        context,
        SERVICE,
        { method, path, headers: { "X-Auth-Token": live.value }, body },
        readError,
      );
      if (answer.ok || answer.status !== 401 || attempt > 0) return answer;
      token = undefined;
    }
  }

  /** Every item of a listing, following `next_offset`. */
  async function listAll(path: string, query: Record<string, string>): Promise<Step<Record<string, unknown>[]>> {
    return paginate(async (next) => {
      const offset = Number(next ?? 0);
      const listed = await call(
        "GET",
        `${path}?${new URLSearchParams({ ...query, limit: String(PAGE_SIZE), offset: String(offset) })}`,
      );
      if (!listed.ok) return listed;
      const body = asObject(listed.value.body);
      const more = typeof body.next_offset === "number" && body.next_offset > offset;
      return { ok: true, value: { items: objectsIn(body.result), next: more ? Number(body.next_offset) : undefined } };
    }, MAX_PAGES);
  }

  const idOf = (item: Record<string, unknown>) => String(item.id ?? item.uuid ?? "");
  const bare = (name: unknown) =>
    String(name ?? "")
      .toLowerCase()
      .replace(/\.$/, "");
  const rrsetPath = (zoneId: string) => `/zones/${encodeURIComponent(zoneId)}/rrset`;

  function recordSet(rrset: Record<string, unknown>): RecordSet {
    const records = objectsIn(rrset.records);
    return {
      id: idOf(rrset),
      values: records.map((r) => String(r.content)),
      ...(typeof rrset.ttl === "number" ? { ttl: rrset.ttl } : {}),
      raw: rrset,
    };
  }

  /**
   * Writes the rrset whole: the PATCH form replaces the records and TTL, so the TTL read and the
   * comment are sent back, and an address that stays keeps whether it is disabled; a POST creates it.
   */
  async function writeSet(
    zone: string,
    hostname: string,
    type: string,
    current: RecordSet | null,
    addresses: readonly string[],
    asked: number | undefined,
  ): Promise<Step<RecordSet>> {
    if (current === null) {
      const ttl = asked ?? NEW_RECORD_TTL;
      const post = await call("POST", rrsetPath(zone), {
        name: `${hostname}.`,
        type,
        ttl,
        records: addresses.map((content) => ({ content, disabled: false })),
      });
      if (!post.ok) return staleOn404(post);
      const created = asObject(post.value.body);
      if (idOf(created) === "")
        return failed(`${SERVICE}: the created record set came back without an id`, { cause: "unreachable" });
      return { ok: true, value: recordSet(created) };
    }
    const read = asObject(current.raw);
    const old = objectsIn(read.records);
    const ttl = asked ?? current.ttl ?? NEW_RECORD_TTL;
    const records = addresses.map((content, at) => {
      // One address in, one out: the record written over is the one read (its disabled flag kept).
      const held = old.find((r) => r.content === content) ?? (addresses.length === 1 ? old[at] : undefined);
      return { content, disabled: held?.disabled === true };
    });
    const patch = await call("PATCH", `${rrsetPath(zone)}/${encodeURIComponent(current.id)}`, {
      ttl,
      records,
      ...(typeof read.comment === "string" && read.comment !== "" ? { comment: read.comment } : {}),
    });
    if (!patch.ok) return staleOn404(patch);
    return { ok: true, value: { id: current.id, values: [...addresses], ttl } };
  }

  // An rrset holds every value of the name, each record's content the text in quotes: a PATCH
  // writes its records whole (TTL and comment kept), a POST creates it, a DELETE removes it once empty.
  const txt = txtSet({
    async read(zone, name) {
      const listed = await listAll(rrsetPath(zone.id), { name: `${name}.`, rrset_types: "TXT" });
      if (!listed.ok) return staleOn404(listed);
      const rrset = listed.value.find((s) => bare(s.name) === name && s.type === "TXT");
      if (rrset === undefined) return { ok: true, value: { values: [] } };
      const values = objectsIn(rrset.records).map((r) => unquotedTxt(r.content));
      return { ok: true, value: { values, ...(typeof rrset.ttl === "number" ? { ttl: rrset.ttl } : {}), raw: rrset } };
    },
    write(zone, name, values, held) {
      const read = held.raw === undefined ? undefined : asObject(held.raw);
      const records = values.map((value) => ({ content: quotedTxt(value), disabled: false }));
      const ttl = held.ttl ?? CHALLENGE_TTL;
      if (read === undefined) return call("POST", rrsetPath(zone.id), { name: `${name}.`, type: "TXT", ttl, records });
      const path = `${rrsetPath(zone.id)}/${encodeURIComponent(idOf(read))}`;
      if (values.length === 0) return call("DELETE", path);
      return call("PATCH", path, {
        ttl,
        records,
        ...(typeof read.comment === "string" && read.comment !== "" ? { comment: read.comment } : {}),
      });
    },
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      const listed = await call("GET", "/zones?limit=1");
      if (!listed.ok) return failedCheck(listed);
      const count = isObject(listed.value.body) ? listed.value.body.count : undefined;
      return {
        ok: true,
        detail:
          typeof count === "number"
            ? `Service user accepted (${plural(count, "zone")} in the project)`
            : "Service user accepted",
      };
    },

    async findZone(hostname, configured) {
      // A configured zone is used by its id; it is named only before a record set is created in it.
      if (configured !== undefined) return { ok: true, value: { id: configured, name: null } };
      for (const candidate of candidateZones(hostname)) {
        const listed = await listAll("/zones", { filter: candidate });
        if (!listed.ok) return listed;
        // The filter matches part of a name: only the zone of exactly this name counts.
        const zone = listed.value.find((z) => bare(z.name) === candidate);
        if (zone)
          return {
            ok: true,
            value: {
              id: idOf(zone),
              name: candidate,
              ...(zone.disabled === true
                ? { note: `zone ${candidate} is disabled at Selectel, so the record is not served until it is enabled` }
                : {}),
            },
          };
      }
      return failed(noZoneMessage(SERVICE, hostname, "this project"), { cause: "refused" });
    },

    async zoneName(zoneId) {
      const zone = await call("GET", `/zones/${encodeURIComponent(zoneId)}`);
      if (!zone.ok) return staleOn404(zone);
      return { ok: true, value: bare(isObject(zone.value.body) ? zone.value.body.name : "") };
    },

    async readRecordSet(zone, hostname, type) {
      const listed = await listAll(rrsetPath(zone.id), { name: `${hostname}.`, rrset_types: type });
      if (!listed.ok) return staleOn404(listed);
      const rrset = listed.value.find((s) => bare(s.name) === hostname && s.type === type);
      return { ok: true, value: rrset === undefined ? null : recordSet(rrset) };
    },

    async updateRecordSet(zone, hostname, type, current, address, settings) {
      return writeSet(zone.id, hostname, type, current, [address], settings.ttl);
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      return writeSet(zone.id, hostname, type, null, [address], settings.ttl);
    },

    // The rrset holds every address of the name: one PATCH (or POST) writes the set whole.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      return writeSet(zone.id, hostname, type, current, addresses, settings.ttl);
    },
  };
}

/** Keystone's error body: `{"error": {"code", "title", "message"}}`. */
function readKeystoneError(body: unknown): ServiceError | undefined {
  if (!isObject(body) || !isObject(body.error)) return undefined;
  const words =
    typeof body.error.message === "string"
      ? body.error.message
      : typeof body.error.title === "string"
        ? body.error.title
        : undefined;
  return words === undefined ? undefined : { words };
}

/**
 * The DNS API's error body: `{"error": "bad_request", "description"?, "location"?}`. A token the
 * project does not accept (403) only comes right when the provider is edited.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body) || typeof body.error !== "string") return undefined;
  const described = typeof body.description === "string" && body.description !== "" ? body.description : undefined;
  const words = [described ?? body.error, typeof body.location === "string" ? `(${body.location})` : ""]
    .filter(Boolean)
    .join(" ");
  return {
    words,
    ...(described === undefined ? {} : { code: body.error }),
    ...(status === 403 ? { stopRetrying: true } : {}),
  };
}

/** Everything ddnsd knows about Selectel's DNS hosting (docs/services/selectel.md). */
export const selectel = defineService({
  type: "selectel",
  label: "Selectel DNS",
  summary:
    "Zones in Selectel's DNS hosting (API v2), through a service user's Keystone token scoped to the zones' project.",
  credentials: [
    {
      key: "account_id",
      label: "Account number",
      help: "The number of your Selectel account, shown at the top of the control panel (my.selectel.ru).",
      secret: false,
    },
    {
      key: "username",
      url: "https://my.selectel.ru/iam/users_management/users",
      label: "Service user name",
      help:
        "In the control panel, Identity and access management → Service users → Add: a service user for ddnsd alone with the role " +
        '"member" in the one project that holds the zones (no account-wide role).',
      secret: false,
    },
    { key: "password", label: "Service user password", help: "The password given to that service user.", secret: true },
    {
      key: "project_id",
      label: "Project ID",
      help: "The ID of the project that holds the zones: Cloud platform → the project's settings (a 32-character hex string).",
      secret: false,
    },
  ],
  options: [
    {
      key: "identity_url",
      label: "Identity (Keystone) URL",
      help: `Where the service user gets its tokens. Leave as is for Selectel's cloud (${SELECTEL_IDENTITY_URL}).`,
      kind: "url",
      default: SELECTEL_IDENTITY_URL,
    },
  ],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(60, 604800, 3600),
  canVerify: true,
  defaultApiUrl: "https://api.selectel.ru/domains/v2",
  // Selectel publishes no request limit for its DNS API: ddnsd keeps to two requests a second.
  rateLimits: [{ requests: 2, perSeconds: 1 }],
  holdsTxt: true,
  holdsAddressSets: true,
  createClient(credentials, options, context) {
    const api = createSelectelApi(
      {
        account_id: (credentials.account_id ?? "").trim(),
        username: (credentials.username ?? "").trim(),
        password: credentials.password ?? "",
        project_id: (credentials.project_id ?? "").trim(),
      },
      typeof options.identity_url === "string" ? options.identity_url : SELECTEL_IDENTITY_URL,
      context,
    );
    return zoneClient(api, api.txt);
  },
});
