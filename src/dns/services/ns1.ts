// NS1 (IBM NS1 Connect) REST API v1 (docs/services/ns1.md): the zone service primitives. A record is
// addressed by its zone, its full domain name and its type (/zones/{zone}/{domain}/{type}); it holds
// a list of answers, each `{answer: [rdata…], meta?, region?, id}`, with the record's `ttl`, filters,
// meta and optional `link` to another record beside them. A POST changes only the fields it is sent,
// so an update sends the answer list with the one answer's address replaced (its meta and region
// kept) and the TTL only when the config names one; the filter chain, the record's meta and its
// other settings stay. A record that only links to another record is not changed: its answers are
// the other record's. A missing record is created with a PUT. Requests carry `X-NSONE-Key`.
//
// Requests per write, with the zone known (config.zone_id) — the steady state:
//   GET the record + POST its answers = 2 (1 when the address is already there)
// Without it the account's zones are listed first (GET /zones) and the longest holding the name is used.
//
// Sources: NS1 API reference (ns1.com/api, now IBM NS1 Connect: zones list, record get/post/put) and
// "API rate limiting" (help.ns1.com, ibm.com/docs/en/ns1-connect); ns1/ns1-go rest/client.go
// (X-NSONE-Key, `{message}` errors, X-Ratelimit-* headers), rest/record.go ("record not found",
// "zone not found"), rest/model/dns/record.go and answer.go; go-acme/lego providers/dns/ns1 (the
// zone found by its name, answers replaced on the record).

import { asObject, isObject, objectsIn } from "../../util/json";
import { failed, type JsonAnswer, jsonCalls, type ServiceError } from "../answers";
import { paginate } from "../paging";
import type { Step, StepFailure } from "../provider";
import { type RecordSet, type TxtApi, type Zone, type ZoneApi, zoneClient, zonesNamed } from "../reconcile";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, readByValue, txtSet, unquotedTxt } from "../txt";
import { acceptedCounting } from "../zones";

const SERVICE = "NS1";

export function createNs1Api(credentials: { api_key: string }, context: ClientContext): ZoneApi & { txt: TxtApi } {
  const call = jsonCalls(context, SERVICE, { "X-NSONE-Key": credentials.api_key }, readError);

  /**
   * The zones this key may use, without secondary zones (copies of another server's, not NS1's to
   * change), following the `Link: <…>; rel="next"` pages NS1 may split a long list into.
   */
  async function listZones(): Promise<Step<Zone[]>> {
    const listed = await paginate<Record<string, unknown>>(async (next) => {
      const answer = await call("GET", next === undefined ? "/zones" : String(next));
      if (!answer.ok) return answer;
      return {
        ok: true,
        value: {
          items: objectsIn(answer.value.body),
          next: nextPage(answer.value.headers.get("link"), context.baseUrl),
        },
      };
    });
    if (!listed.ok) return listed;
    return {
      ok: true,
      value: zonesNamed(
        listed.value.filter((z) => !(isObject(z.secondary) && z.secondary.enabled === true)).map((z) => z.zone),
      ),
    };
  }

  const recordPath = (zone: string, hostname: string, type: string) =>
    `/zones/${encodeURIComponent(zone)}/${encodeURIComponent(hostname)}/${type}`;

  function recordSet(hostname: string, type: string, record: Record<string, unknown>): RecordSet {
    const answers = objectsIn(record.answers);
    return {
      id: `${hostname}/${type}`,
      values: answers.map((a) => (Array.isArray(a.answer) ? String(a.answer[0] ?? "") : "")),
      ...(typeof record.ttl === "number" ? { ttl: record.ttl } : {}),
      raw: record,
    };
  }

  function written(
    hostname: string,
    type: string,
    answer: Step<JsonAnswer>,
    addresses: readonly string[],
    ttl: number | undefined,
  ): Step<RecordSet> {
    if (!answer.ok) return answer;
    const record = asObject(answer.value.body);
    return {
      ok: true,
      value: {
        ...recordSet(hostname, type, record),
        values: [...addresses],
        ...(typeof record.ttl === "number" ? { ttl: record.ttl } : ttl === undefined ? {} : { ttl }),
      },
    };
  }

  // A TXT record holds every value of the name, one answer each (its rdata the text itself): a POST
  // sends the answers with the value added or dropped (each kept answer as it was read), a PUT
  // creates the record, and a DELETE removes it once no value is left.
  const txt = txtSet({
    async read(zone, name) {
      const read = await call("GET", recordPath(zone.id, name, "TXT"));
      if (!read.ok) {
        if (read.status !== 404) return read;
        return /zone not found/i.test(read.message)
          ? { ...read, staleZone: true }
          : { ok: true, value: { values: [] } };
      }
      const answers = objectsIn(asObject(read.value.body).answers);
      const values = answers.map((a) => unquotedTxt(Array.isArray(a.answer) ? a.answer.join("") : ""));
      return { ok: true, value: { values, raw: answers } };
    },
    write(zone, name, values, held) {
      const path = recordPath(zone.id, name, "TXT");
      if (values.length === 0) return call("DELETE", path);
      const kept = readByValue(held);
      const answers = values.map((value) => kept.get(value) ?? { answer: [value] });
      return held.values.length > 0
        ? call("POST", path, { answers })
        : call("PUT", path, { zone: zone.id, domain: name, type: "TXT", answers, ttl: CHALLENGE_TTL });
    },
  });
  /** A linked record serves another record's answers: refused for good, naming the one to update. */
  function linkRefusal(hostname: string, type: string, record: Record<string, unknown>): StepFailure | undefined {
    if (typeof record.link !== "string" || record.link === "") return undefined;
    return failed(
      `${SERVICE}: ${hostname} ${type} links to ${record.link}, whose answers it serves; ddnsd changes only a record with its own answer — update ${record.link} instead`,
      { cause: "refused", stopRetrying: true },
    );
  }

  return {
    service: SERVICE,
    txt,

    // The zones the key may see; changes nothing.
    verify: () => acceptedCounting(listZones(), "API key accepted"),

    listZones,

    async readRecordSet(zone, hostname, type) {
      const read = await call("GET", recordPath(zone.id, hostname, type));
      if (!read.ok) {
        if (read.status !== 404) return read;
        // "record not found" is a missing record; "zone not found" a zone to look up afresh.
        return /zone not found/i.test(read.message) ? { ...read, staleZone: true } : { ok: true, value: null };
      }
      const record = asObject(read.value.body);
      return { ok: true, value: recordSet(hostname, type, record) };
    },

    async updateRecordSet(zone, hostname, type, current, address, settings) {
      const record = asObject(current.raw);
      const linked = linkRefusal(hostname, type, record);
      if (linked) return linked;
      const [old] = objectsIn(record.answers);
      // The answer keeps its meta (notes, up/down, weights) and region; only its address changes.
      const answer = {
        answer: [address],
        ...(old && isObject(old.meta) ? { meta: old.meta } : {}),
        ...(old && typeof old.region === "string" ? { region: old.region } : {}),
      };
      const posted = await call("POST", recordPath(zone.id, hostname, type), {
        answers: [answer],
        ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }),
      });
      return written(hostname, type, posted, [address], settings.ttl ?? current.ttl);
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      // Without a TTL from the config, NS1 gives the record the zone's default TTL.
      const put = await call("PUT", recordPath(zone.id, hostname, type), {
        zone: zone.id,
        domain: hostname,
        type,
        answers: [{ answer: [address] }],
        ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }),
      });
      return written(hostname, type, put, [address], settings.ttl);
    },

    // One answer per address: an address that stays keeps its answer (meta, region), a new one gets
    // an answer of its own; a record made new is PUT, one that exists is POSTed whole.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const record = asObject(current?.raw);
      const linked = linkRefusal(hostname, type, record);
      if (linked) return linked;
      const old = objectsIn(record.answers);
      const answers = addresses.map(
        (address) =>
          old.find((answer) => Array.isArray(answer.answer) && answer.answer[0] === address) ?? { answer: [address] },
      );
      const ttl = settings.ttl === undefined ? {} : { ttl: settings.ttl };
      const sent =
        current === null
          ? await call("PUT", recordPath(zone.id, hostname, type), {
              zone: zone.id,
              domain: hostname,
              type,
              answers,
              ...ttl,
            })
          : await call("POST", recordPath(zone.id, hostname, type), { answers, ...ttl });
      return written(hostname, type, sent, addresses, settings.ttl ?? current?.ttl);
    },
  };
}

/**
 * The path (below the API's base) of the page a `Link` header names as `rel="next"`; undefined when
 * there is none, or when it points outside the API (it is never followed elsewhere with the key).
 */
export function nextPage(link: string | null, baseUrl: string): string | undefined {
  const next = link?.split(",").find((part) => /;\s*rel="?next"?/.test(part));
  const target = next ? /<([^>]+)>/.exec(next)?.[1] : undefined;
  if (target === undefined) return undefined;
  let url: URL;
  let base: URL;
  try {
    base = new URL(baseUrl);
    url = new URL(target, base);
  } catch {
    return undefined;
  }
  const prefix = base.pathname.replace(/\/$/, "");
  // NS1 may name the next page with https even behind a proxy: the host and path decide, not the scheme.
  if (url.host !== base.host || !url.pathname.startsWith(`${prefix}/`)) return undefined;
  return url.pathname.slice(prefix.length) + url.search;
}

/**
 * NS1's error body: `{"message": "..."}`. A wrong or disabled key (401), or one without the
 * permission or zone this needs (403), only comes right when the provider (or the key) is edited.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body) || typeof body.message !== "string" || body.message === "") return undefined;
  return { words: body.message, ...(status === 401 || status === 403 ? { stopRetrying: true } : {}) };
}

/** Everything ddnsd knows about NS1 (docs/services/ns1.md). */
export const ns1 = defineService({
  type: "ns1",
  label: "NS1",
  summary: "Zones hosted at NS1 (IBM NS1 Connect), through its REST API with an API key.",
  credentials: [
    {
      key: "api_key",
      url: "https://my.nsone.net/#/account/settings",
      label: "API key",
      help:
        'In the NS1 portal: Account settings → Users & teams → API keys → Add key. Under DNS give it only "View zones" and ' +
        '"Manage zones", limited to the zones ddnsd updates; leave every other permission off.',
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(1, 2147483647, "the zone's default TTL"),
  canVerify: true,
  holdsAddressSets: true,
  defaultApiUrl: "https://api.nsone.net/v1",
  // NS1 counts tokens per route: a GET about 900 per 300 s, a POST or PUT about 300 per 300 s; ddnsd stays at 250.
  rateLimits: [{ requests: 250, perSeconds: 300 }],
  holdsTxt: true,
  createClient(credentials, _options, context) {
    const api = createNs1Api({ api_key: credentials.api_key ?? "" }, context);
    return zoneClient(api, api.txt);
  },
});
