// TransIP REST API v6 (docs/services/transip.md): the zone service primitives. A login (`POST /auth`)
// signed with the account's RSA private key (SHA-512, PKCS#1 v1.5, base64 in the `Signature` header)
// gives a bearer token for 30 minutes; the token is kept in memory only, with its expiry, and never
// logged. A domain's name is its id; the domain holding a name is found by asking for each of the
// name's parents, longest first. An entry is `{name, expire, type, content}` with no id: TransIP
// identifies it by name, expire and type, so ddnsd changes only the content (`PATCH`) and keeps the
// expire (its TTL) as it is.
//
// Requests per write, with the domain known (config.zone_id) and a live token — the steady state:
//   GET dns + PATCH = 2 (1 when the address is already there), + 1 login per client
//
// Sources: api.transip.nl/rest/docs.html; the official SDK transip/transip-api-php (the signer);
// StackExchange/dnscontrol's and lego's TransIP providers (via transip/gotransip).

import { createPrivateKey, createSign, randomBytes } from "node:crypto";
import { asObject, isObject, objectsIn } from "../../util/json";
import { type BearerToken, bearerCalls, failed, requestJson, type ServiceError } from "../answers";
import type { Step } from "../provider";
import { type RecordSet, type TxtApi, type ZoneApi, zoneClient } from "../reconcile";
import { writePerAddress } from "../record-per-address";
import { type ClientContext, defineService } from "../service";
import { CHALLENGE_TTL, txtRecords, unquotedTxt } from "../txt";
import { failedCheck, relativeName } from "../zones";

const SERVICE = "TransIP";
/** What the login asks for; the token is used for 25 minutes of it, so it never runs out mid-write. */
const TOKEN_LIFETIME = "30 minutes";
const TOKEN_USE_MS = 25 * 60 * 1000;
/** A new entry's expire (TTL): TransIP's own default in its control panel (UNSURE). */
const NEW_ENTRY_EXPIRE = 300;

/** The login's `Signature` header: `body` signed with the private key, SHA-512, base64 (as the official SDK does). */
export function transipSignature(body: string, privateKeyPem: string): string {
  return createSign("sha512").update(body).sign(createPrivateKey(privateKeyPem), "base64");
}

/** Whether a private key can be read (the form's check); its words when it cannot. */
function privateKeyProblem(value: string): string | undefined {
  try {
    createPrivateKey(value);
    return undefined;
  } catch {
    return "must be the private key TransIP gave, in PEM (-----BEGIN … PRIVATE KEY-----)";
  }
}

export function createTransipApi(
  credentials: { login: string; private_key: string },
  context: ClientContext,
  now: () => number = Date.now,
): ZoneApi & { txt: TxtApi } {
  async function login(): Promise<Step<BearerToken>> {
    const body = {
      login: credentials.login,
      nonce: randomBytes(16).toString("hex"),
      read_only: false,
      expiration_time: TOKEN_LIFETIME,
      // TransIP wants each token's label unique within the account.
      label: `ddnsd ${now()} ${randomBytes(3).toString("hex")}`,
      // A dynamic address cannot be on the key's whitelist.
      global_key: true,
    };
    let signature: string;
    try {
      signature = transipSignature(JSON.stringify(body), credentials.private_key);
    } catch {
      return failed(`${SERVICE}: the private key cannot be read; paste the whole key TransIP gave`, {
        cause: "credentials",
        stopRetrying: true,
      });
    }
    const answer = await requestJson(
      context,
      SERVICE,
      { method: "POST", path: "/auth", headers: { Signature: signature }, body },
      readError,
    );
    if (!answer.ok) {
      // A refused login is the login name or the key: only an edit of the provider changes them.
      return answer.cause === "credentials" || answer.status === 400 || answer.status === 404
        ? { ...answer, cause: "credentials", stopRetrying: true }
        : answer;
    }
    const given = isObject(answer.value.body) ? answer.value.body.token : undefined;
    if (typeof given !== "string" || given === "")
      return failed(`${SERVICE}: the login answered no token`, { cause: "unreachable" });
    return { ok: true, value: { value: given, until: now() + TOKEN_USE_MS } };
  }

  /** A call with the bearer token: logs in when there is none, and once more when TransIP refuses it (401). */
  const call = bearerCalls(context, SERVICE, login, readError, now);

  const dnsPath = (domain: string) => `/domains/${encodeURIComponent(domain)}/dns`;

  function entriesOf(body: unknown): Record<string, unknown>[] {
    return isObject(body) ? objectsIn(body.dnsEntries) : [];
  }

  function recordSet(entries: Record<string, unknown>[]): RecordSet {
    const first = entries[0]!;
    return {
      id: `${String(first.name)} ${String(first.type)}`,
      values: entries.map((e) => String(e.content)),
      ...(typeof first.expire === "number" ? { ttl: first.expire } : {}),
      raw: first,
      members: entries,
    };
  }

  // One entry per value, its content the text itself. An entry has no id: it is named by its name,
  // expire, type and content, so those four (as read) are its id here, and a DELETE sends them.
  const txt = txtRecords({
    async list(zone, name) {
      const answer = await call("GET", dnsPath(zone.id));
      if (!answer.ok) return answer.status === 404 ? { ...answer, staleZone: true } : answer;
      const relative = relativeName(name, zone.id, "@");
      const entries = entriesOf(answer.value.body).filter(
        (e) => e.type === "TXT" && String(e.name ?? "").toLowerCase() === relative,
      );
      return {
        ok: true,
        value: entries.map((e) => ({
          id: JSON.stringify({ name: e.name, expire: e.expire, type: e.type, content: e.content }),
          value: unquotedTxt(e.content),
        })),
      };
    },
    create: (zone, name, value) =>
      call("POST", dnsPath(zone.id), {
        dnsEntry: { name: relativeName(name, zone.id, "@"), expire: CHALLENGE_TTL, type: "TXT", content: value },
      }),
    delete: (zone, record) => call("DELETE", dnsPath(zone.id), { dnsEntry: JSON.parse(record.id) }),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      const answer = await login();
      return answer.ok ? { ok: true, detail: `Key pair accepted for ${credentials.login}` } : failedCheck(answer);
    },

    async hasZone(name) {
      const answer = await call("GET", `/domains/${encodeURIComponent(name)}`);
      // 404: not a domain of this account; its parent may be.
      return answer.ok || answer.status === 404 ? { ok: true, value: answer.ok } : answer;
    },

    async readRecordSet(zone, hostname, type) {
      const answer = await call("GET", dnsPath(zone.id));
      if (!answer.ok) return answer.status === 404 ? { ...answer, staleZone: true } : answer;
      const name = relativeName(hostname, zone.id, "@");
      const entries = entriesOf(answer.value.body).filter(
        (e) => e.type === type && String(e.name ?? "").toLowerCase() === name,
      );
      return { ok: true, value: entries.length === 0 ? null : recordSet(entries) };
    },

    async updateRecordSet(zone, _hostname, _type, current, address) {
      const entry = asObject(current.raw);
      // The entry is named by its name, expire and type: all three go back as read.
      const changed = { name: entry.name, expire: entry.expire, type: entry.type, content: address };
      const answer = await call("PATCH", dnsPath(zone.id), { dnsEntry: changed });
      return answer.ok ? { ok: true, value: recordSet([changed]) } : answer;
    },

    async createRecordSet(zone, hostname, type, address) {
      const entry = { name: relativeName(hostname, zone.id, "@"), expire: NEW_ENTRY_EXPIRE, type, content: address };
      const answer = await call("POST", dnsPath(zone.id), { dnsEntry: entry });
      return answer.ok ? { ok: true, value: recordSet([entry]) } : answer;
    },

    // One entry per address: only the difference is sent, each new address POSTed with the set's
    // expire and each address that goes DELETEd by its four fields. No entry is PATCHed: TransIP names
    // the entry a PATCH changes by name, expire and type alone, which several entries of a set share.
    async writeAddressSet(zone, hostname, type, current, addresses) {
      const name = relativeName(hostname, zone.id, "@");
      const expire = current?.ttl ?? NEW_ENTRY_EXPIRE;
      const result = await writePerAddress(current?.members ?? [], addresses, {
        address: (entry) => String(entry.content),
        async create(address) {
          const entry = { name, expire, type, content: address };
          const answer = await call("POST", dnsPath(zone.id), { dnsEntry: entry });
          return answer.ok ? { ok: true, value: entry } : answer;
        },
        delete: (entry) =>
          call("DELETE", dnsPath(zone.id), {
            dnsEntry: { name: entry.name, expire: entry.expire, type: entry.type, content: entry.content },
          }),
      });
      return result.ok ? { ok: true, value: recordSet(result.value) } : result;
    },

    describe(set) {
      return set.ttl === undefined ? [] : [`expire ${set.ttl}`];
    },
  };
}

/** TransIP's error body: `{"error": "…"}`. */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body) || typeof body.error !== "string" || body.error === "") return undefined;
  return { words: body.error, ...(status === 401 || status === 403 ? { stopRetrying: true } : {}) };
}

/** Everything ddnsd knows about TransIP (docs/services/transip.md). */
export const transip = defineService({
  type: "transip",
  label: "TransIP",
  summary:
    "Domains whose DNS is at TransIP, through the REST API v6 with the account's login name and an API key pair's private key.",
  credentials: [
    {
      key: "login",
      label: "Login name",
      help: "The login name of your TransIP account (not the e-mail address).",
      url: "https://www.transip.nl/cp/account/api/",
      secret: false,
    },
    {
      key: "private_key",
      label: "Private key",
      help:
        'In the control panel: Account → API → Key pairs: turn the API on, add a key pair WITHOUT "Only accept IP addresses from the whitelist" ' +
        "(a dynamic address cannot be whitelisted), and paste the whole private key shown once. TransIP keys are not scoped: the key can do " +
        "everything the account can, so make one for ddnsd alone and delete it when you stop using ddnsd.",
      url: "https://www.transip.nl/cp/account/api/",
      secret: true,
      validate: privateKeyProblem,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  // An entry is named by its expire, so ddnsd keeps the one it has (new entries get 300).
  ttl: null,
  canVerify: true,
  defaultApiUrl: "https://api.transip.nl/v6",
  // TransIP allows about 1,000 requests a minute per account (UNSURE); ddnsd stays well under.
  rateLimits: [{ requests: 10, perSeconds: 1 }],
  holdsTxt: true,
  holdsAddressSets: true,
  createClient(credentials, _options, context) {
    const api = createTransipApi(
      { login: credentials.login ?? "", private_key: credentials.private_key ?? "" },
      context,
    );
    return zoneClient(api, api.txt);
  },
});
