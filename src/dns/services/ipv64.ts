// IPv64.net (docs/services/ipv64.md): reads through its API, writes through its DynDNS update URL.
// The API (`<base>/api`, Bearer API key) has `get_domains`, which lists each of the account's
// domains (`home.ipv64.net`, or a domain of your own) with its `domain_update_hash` and its records
// (`type`, `content`, `ttl`, `praefix`: the name inside the domain, "" for the domain itself), and
// `add_record`/`del_record`, but no way to change a record: through the API a change would be a
// delete and an add, which ddnsd never does. The update URL
//   GET <base>/nic/update?key=<domain_update_hash>&domain=<domain>[&praefix=<name>]&ip=<v4> | &ip6=<v6>
// changes a record in place, keeping its TTL; each request names one family, the other is kept.
// So a write reads the listing (one API call), and only when the address differs calls the update
// URL with the domain's own update hash. A missing record is added with `add_record`.
//
// Requests per write: get_domains + the update URL = 2 (1 when the address is already there).
//
// The domain's update hash updates it without the API key: it is kept in memory for the one write,
// never stored, and masked in every message.
//
// Sources: ipv64.net/dyndns_updater_api (update URL, parameters, limits); apidoc.ipv64.net (API,
// authentication, get_domains); go-acme/lego providers/dns/ipv64 (get_domains/add_record fixtures,
// `{status, info}` errors); qdm12/ddns-updater providers/ipv64 (key + domain + ip/ip6, 200 or 401).

import { excerpt, exchange } from "../../net/http";
import { asObject, isObject, objectsIn, parseJson } from "../../util/json";
import { plural } from "../../util/plural";
import { failed, failedAnswer, type JsonAnswer, requestJson, type ServiceError } from "../answers";
import { failedAnswerText, maskSecrets } from "../one-shot";
import type { Step } from "../provider";
import { type ZoneApi, zoneClient } from "../reconcile";
import { type ClientContext, defineService } from "../service";
import { configuredZone, failedCheck, foreignZoneMessage, longestZone, relativeName, zoneHolds } from "../zones";

const SERVICE = "IPv64";

/** One domain of the get_domains listing. */
interface Domain {
  updateHash: string;
  records: Record<string, unknown>[];
}

export function createIpv64Api(credentials: { apiKey: string }, context: ClientContext): ZoneApi {
  const hashes = new Set<string>([credentials.apiKey]);
  const mask = (text: string) => maskSecrets(text, [...hashes]);
  /** The listing, read once per write (the API counts every call against a daily limit). */
  let listing: Promise<Step<Map<string, Domain>>> | undefined;

  async function api(method: string, path: string, form?: Record<string, string>): Promise<Step<JsonAnswer>> {
    if (form === undefined) {
      const answer = await requestJson(
        context,
        SERVICE,
        { method, path, headers: { Authorization: `Bearer ${credentials.apiKey}` } },
        readError,
      );
      if (!answer.ok) return answer;
      // IPv64 may refuse inside an HTTP 200 (`{"status": "401 Unauthorized"}`): that is no listing.
      const refused = readError(answer.value.body, answer.value.status);
      return refused === undefined
        ? answer
        : failedAnswer(
            SERVICE,
            answer.value.status,
            answer.value.headers,
            mask(JSON.stringify(answer.value.body)),
            refused,
          );
    }
    // add_record takes a form, as the service's own examples and lego send it.
    const answer = await exchange(
      context.fetch,
      `${context.baseUrl}${path}`,
      {
        method,
        headers: {
          Authorization: `Bearer ${credentials.apiKey}`,
          Accept: "application/json",
          "Content-Type": "application/x-www-form-urlencoded",
          "User-Agent": context.userAgent,
        },
        body: new URLSearchParams(form).toString(),
      },
      context.timeoutMs,
    );
    if (!answer.ok) return failed(`${SERVICE}: ${answer.reason}`, { cause: answer.cause });
    const body = parseJson(answer.text);
    if (answer.status >= 200 && answer.status < 300 && body !== undefined) {
      const refused = readError(body, answer.status);
      if (refused === undefined) return { ok: true, value: { status: answer.status, headers: answer.headers, body } };
    }
    return failedAnswerText(SERVICE, answer.status, answer.headers, mask(answer.text));
  }

  function list(): Promise<Step<Map<string, Domain>>> {
    listing ??= (async () => {
      const answer = await api("GET", "/api?get_domains");
      if (!answer.ok) return answer;
      const body = asObject(answer.value.body);
      const domains = new Map<string, Domain>();
      for (const [name, value] of Object.entries(asObject(body.subdomains))) {
        if (!isObject(value)) continue;
        const updateHash = typeof value.domain_update_hash === "string" ? value.domain_update_hash : "";
        if (updateHash !== "") hashes.add(updateHash);
        domains.set(name.toLowerCase().replace(/\.$/, ""), {
          updateHash,
          records: objectsIn(value.records),
        });
      }
      return { ok: true, value: domains };
    })();
    return listing;
  }

  return {
    service: SERVICE,

    async verify() {
      const listed = await list();
      if (!listed.ok) return failedCheck(listed);
      const count = listed.value.size;
      return { ok: true, detail: `API key accepted (${plural(count, "domain")})` };
    },

    async findZone(hostname, configured) {
      const given = configuredZone(configured);
      if (given !== undefined && !zoneHolds(given, hostname))
        return failed(foreignZoneMessage(SERVICE, given, hostname), { cause: "refused" });
      const listed = await list();
      if (!listed.ok) return listed;
      const domain = given ?? longestZone(hostname, listed.value.keys());
      if (domain === undefined || !listed.value.has(domain)) {
        return failed(
          `${SERVICE}: no domain of this account ${given ? `is named ${given}` : `holds ${hostname}`}; add it at ipv64.net first`,
          { cause: "refused" },
        );
      }
      return { ok: true, value: { id: domain, name: domain } };
    },

    async readRecordSet(zone, hostname, type) {
      const listed = await list();
      if (!listed.ok) return listed;
      const domain = listed.value.get(zone.id);
      if (domain === undefined) return { ok: true, value: null };
      const praefix = relativeName(hostname, zone.id);
      const records = domain.records.filter(
        (r) => r.type === type && String(r.praefix ?? "").toLowerCase() === praefix,
      );
      if (records.length === 0) return { ok: true, value: null };
      const first = records[0]!;
      return {
        ok: true,
        value: {
          id:
            typeof first.record_id === "number" || typeof first.record_id === "string"
              ? String(first.record_id)
              : `${praefix || "@"}/${type}`,
          values: records.map((r) => String(r.content)),
          ...(typeof first.ttl === "number" ? { ttl: first.ttl } : {}),
          raw: domain.updateHash,
        },
      };
    },

    async updateRecordSet(zone, hostname, type, current, address) {
      const key = typeof current.raw === "string" ? current.raw : "";
      const praefix = relativeName(hostname, zone.id);
      const query = new URLSearchParams({
        key,
        domain: zone.id,
        ...(praefix === "" ? {} : { praefix }),
        [type === "AAAA" ? "ip6" : "ip"]: address,
      });
      const answer = await exchange(
        context.fetch,
        `${context.baseUrl}/nic/update?${query}`,
        { method: "GET", headers: { "User-Agent": context.userAgent } },
        context.timeoutMs,
      );
      listing = undefined;
      if (!answer.ok) return failed(`${SERVICE}: ${mask(answer.reason)}`, { cause: answer.cause });
      const refusal = updateRefusal(answer.status, answer.headers, mask(answer.text));
      return refusal ?? { ok: true, value: { ...current, values: [address], raw: undefined } };
    },

    async createRecordSet(zone, hostname, type, address) {
      const added = await api("POST", "/api", {
        add_record: zone.id,
        praefix: relativeName(hostname, zone.id),
        type,
        content: address,
      });
      listing = undefined;
      if (!added.ok) return added;
      return { ok: true, value: { id: `${relativeName(hostname, zone.id) || "@"}/${type}`, values: [address] } };
    },
  };
}

/**
 * IPv64's API answers `{"status": "<code> <reason>", "info": "<words>", "<call>": "<words>"}`; a
 * refused key is `401 Unauthorized`, and only a new key helps.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body)) return undefined;
  const said = typeof body.status === "string" ? body.status : "";
  const code = Number(said.split(" ")[0]);
  if (status < 300 && (!Number.isInteger(code) || code < 300)) return undefined;
  const effective = status >= 300 ? status : code;
  const words = [body.add_record, body.info, said].find((w) => typeof w === "string" && w !== "") as string | undefined;
  return {
    words: words ?? `HTTP ${effective}`,
    ...(effective === 401 || effective === 403 ? { cause: "credentials" as const, stopRetrying: true } : {}),
    ...(effective === 429 ? { cause: "throttled" as const } : {}),
  };
}

/** The update URL's refusal, or undefined when it took the address. */
function updateRefusal(status: number, headers: Headers, text: string): Step<never> | undefined {
  const line = text.trim().split(/\r?\n/)[0] ?? "";
  const word = line.split(/\s+/)[0]?.toLowerCase() ?? "";
  if (status === 401 || word === "badauth") {
    return failed(`${SERVICE}: ${line || "Unauthorized"} — the domain's update hash was refused (HTTP ${status})`, {
      cause: "credentials",
      stopRetrying: true,
    });
  }
  // Over the call limit (3 in 10 s) or the account's daily limit (48 a day by default): words the
  // updater page does not spell out, so any naming a limit or an overcommitted account is a slow-down.
  if (status === 429 || /429 Too Many Requests/i.test(text) || /overcommit|limit/i.test(line)) {
    return failed(`${SERVICE}: ${line || "429 Too Many Requests"} (HTTP ${status})`, { cause: "throttled" });
  }
  if (["nohost", "notfqdn", "abuse"].includes(word))
    return failed(`${SERVICE}: ${line} (HTTP ${status})`, { cause: "refused", stopRetrying: true });
  if (status < 200 || status >= 300) return failedAnswerText(SERVICE, status, headers, text);
  // Only words of success say the address was taken: the DynDNS2 ones, or IPv64's own ("success",
  // and "no change" for an address already there), which its updater answers as the text or inside
  // a JSON body (`{"info": "success", …}`).
  if (word === "good" || word === "nochg" || /\b(success|no change)\b/i.test(text)) return undefined;
  return failed(
    `${SERVICE}: the update answered ${excerpt(line) || "nothing"} (HTTP ${status}), which does not say the address was taken`,
    { cause: "unreachable" },
  );
}

export const ipv64 = defineService({
  type: "ipv64",
  label: "IPv64.net",
  summary:
    "Domains at IPv64.net: ddnsd reads the records through the API and changes an address through the domain's own DynDNS update URL only when it differs, keeping the TTL; a missing record is added.",
  credentials: [
    {
      key: "api_key",
      label: "API key",
      help: "Your account's API key, shown on your IPv64.net account page. ddnsd uses it to read your domains; each change goes through the domain's own update hash, read with it.",
      url: "https://ipv64.net/account",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  // The update URL takes only the address: a record keeps the TTL it has at IPv64.
  ttl: null,
  canVerify: true,
  defaultApiUrl: "https://ipv64.net",
  // The updater takes at most 3 requests in 10 seconds. Its daily limit (48 a day by default) is not
  // paced: it depends on the account class, it counts only update calls while pacing would count the
  // API reads too, and ddnsd calls the updater only when an address changed; an over-limit answer
  // pauses the provider instead.
  rateLimits: [{ requests: 2, perSeconds: 10 }],
  createClient: (credentials, _options, context) =>
    zoneClient(createIpv64Api({ apiKey: credentials.api_key ?? "" }, context)),
});
