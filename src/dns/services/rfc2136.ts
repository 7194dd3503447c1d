// RFC 2136 dynamic updates, signed with TSIG (RFC 8945), to one's own authoritative name server:
// BIND, Knot, PowerDNS, Technitium, Windows DNS … (docs/services/rfc2136.md). Every message goes
// over TCP and is signed (signed-dns.ts), answers included, so nothing off-path can forge them.
//
// Per write: a signed SOA query for the name (the server answers with the zone that holds it: a
// zone given in the options or config is checked against it), a signed query for the name's record
// set (its TTL is kept), then one UPDATE that deletes that name's record set of that type and adds
// the new address in the same message (the server applies both or neither); nothing else of the
// name is touched.
//
// Every UPDATE carries a prerequisite (RFC 2136 §2.4), so the server itself refuses a write made
// on a stale read: a replacement requires the record set to be exactly the one read (§2.4.2), a
// creation requires that there is none (§2.4.3). A query answered from a wildcard looks like the
// name's own record set; a record set read is therefore confirmed with an UPDATE holding only that
// prerequisite (it changes nothing), and one the server does not hold is taken as missing, so
// `create_if_missing` decides, rather than ddnsd "replacing" what is only the wildcard.

import {
  type Answer,
  ask,
  fail,
  formatServer,
  newId,
  parseServer,
  type ServerAddress,
  type SignedServer,
} from "../protocols/signed-dns";
import { isTsigAlgorithm, TSIG_ALGORITHMS, type TsigAlgorithm } from "../protocols/tsig";
import {
  addressData,
  addressText,
  CLASS,
  type Message,
  message,
  OPCODE,
  RCODE,
  type ResourceRecord,
  rcodeName,
  TYPE,
  txtData,
  txtText,
} from "../protocols/wire";
import type { RecordType, Step, StepFailure } from "../provider";
import { type RecordSet, type TxtApi, type Zone, type ZoneApi, zoneClient } from "../reconcile";
import { defineService, ttlRange } from "../service";
import { candidateZones, failedCheck, zoneHolds } from "../zones";

/** The TTL of an ACME challenge value: it lives for minutes, and a resolver must not keep an old one. */
const CHALLENGE_TTL = 60;

/** The TTL of a record set ddnsd creates when the domain's config names none: a dynamic address changes, so caches should let go soon. */
export const DEFAULT_TTL = 300;

export interface Rfc2136Options {
  server: ServerAddress;
  keyName: string;
  algorithm: TsigAlgorithm;
  secret: Uint8Array;
  /** The zone the `zone` option names, lowercase without a trailing dot. */
  zone?: string;
  timeoutMs: number;
}

/** A zone the server no longer serves (or that does not hold the name): the reconciler looks the zone up afresh, once. */
function stale(failure: StepFailure): StepFailure {
  return { ...failure, staleZone: true };
}

/** A DNS name as the options and messages hold it: lowercase, without the trailing dot. */
function normaliseName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, "");
}

const DNS_NAME =
  /^(?=.{1,253}\.?$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i;

/** Why a key or zone name is not a DNS name; undefined when it is one. */
function dnsNameProblem(text: string): string | undefined {
  return DNS_NAME.test(text.trim())
    ? undefined
    : "must be a DNS name (letters, digits, hyphens and dots), e.g. ddnsd-key or example.com";
}

/** Why a TSIG secret is not one; undefined when it is base64 of at least one byte. */
function secretProblem(text: string): string | undefined {
  const compact = text.replace(/\s+/g, "");
  const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
  return base64.test(compact)
    ? undefined
    : "must be the key's secret in base64, as in the server's key file (e.g. from tsig-keygen or keymgr)";
}

export function createRfc2136Api(options: Rfc2136Options): ZoneApi & { txt: TxtApi } {
  const label = `DNS server ${formatServer(options.server)}`;
  const target: SignedServer = {
    server: options.server,
    key: { name: options.keyName, algorithm: options.algorithm, secret: options.secret },
    timeoutMs: options.timeoutMs,
    label,
  };

  function query(name: string, type: number): Promise<Answer> {
    return ask(target, message({ id: newId(), opcode: OPCODE.QUERY, questions: [{ name, type, class: CLASS.IN }] }));
  }

  /** Why a query for `name` got no usable answer, in plain words; null when the rcode is fine for a query. */
  function queryFailure(answer: Message, name: string): StepFailure | null {
    if (answer.rcode === RCODE.NOERROR || answer.rcode === RCODE.NXDOMAIN) return null;
    if (answer.rcode === RCODE.REFUSED || answer.rcode === RCODE.NOTAUTH) {
      return fail(
        `${label}: refused the query for ${name} (${rcodeName(answer.rcode)}): it serves no zone that holds this name; set the zone option, or check that the server is authoritative for it`,
        "refused",
      );
    }
    if (answer.rcode === RCODE.SERVFAIL)
      return fail(`${label}: could not answer for ${name} (SERVFAIL): the zone may have failed to load`, "unreachable");
    return fail(`${label}: answered the query for ${name} with ${rcodeName(answer.rcode)}`, "refused");
  }

  /** A referral (the name lies in a zone delegated to other servers) as the reason nothing can be done here. */
  function referral(answer: Message, name: string): StepFailure | null {
    if (answer.aa) return null;
    const delegation = answer.authorities.find((record) => record.type === TYPE.NS);
    if (!delegation) return null;
    return fail(
      `${label}: ${name} lies in ${delegation.name}, which is delegated to other servers; point ddnsd at the server that holds ${delegation.name}`,
      "refused",
      true,
    );
  }

  /** The words for an UPDATE's rcode other than NOERROR. */
  function updateFailure(rcode: number, zone: string, hostname: string, type: RecordType | "TXT"): StepFailure {
    const what = `${hostname} ${type}`;
    switch (rcode) {
      case RCODE.REFUSED:
        return fail(
          `${label}: refused to change ${what} in zone ${zone} (REFUSED): the server's policy does not let key "${options.keyName}" update this name and type (BIND update-policy, Knot acl)`,
          "refused",
          true,
        );
      case RCODE.NOTAUTH:
        return stale(
          fail(
            `${label}: is not authoritative for zone ${zone} (NOTAUTH): check the zone option or the server's zones`,
            "refused",
            true,
          ),
        );
      case RCODE.NOTZONE:
        return stale(
          fail(
            `${label}: ${hostname} is not inside zone ${zone} (NOTZONE): correct the zone option or config.zone_id`,
            "refused",
            true,
          ),
        );
      case RCODE.NXDOMAIN:
        return fail(
          `${label}: a condition of the update failed: a name that must exist does not (NXDOMAIN)`,
          "refused",
        );
      case RCODE.YXDOMAIN:
        return fail(
          `${label}: a condition of the update failed: a name that must not exist does (YXDOMAIN)`,
          "refused",
        );
      case RCODE.YXRRSET:
        return fail(
          `${label}: a condition of the update failed: a record set that must not exist does (YXRRSET)`,
          "refused",
        );
      case RCODE.NXRRSET:
        return fail(
          `${label}: a condition of the update failed: a record set that must exist does not (NXRRSET)`,
          "refused",
        );
      case RCODE.NOTIMP:
        return fail(`${label}: does not accept dynamic updates (NOTIMP)`, "refused", true);
      case RCODE.FORMERR:
        return fail(`${label}: could not read the update (FORMERR)`, "refused", true);
      case RCODE.SERVFAIL:
        return fail(`${label}: failed to apply the update to zone ${zone} (SERVFAIL); its log says why`, "unreachable");
      default:
        return fail(`${label}: refused the update of ${what} with ${rcodeName(rcode)}`, "refused");
    }
  }

  /** The prerequisite that `hostname type` holds exactly `values` (RFC 2136 §2.4.2: class IN, TTL 0, each record's data). */
  function holdsExactly(hostname: string, type: RecordType, values: readonly string[]): ResourceRecord[] {
    return values.map((value) => ({
      name: hostname,
      type: TYPE[type],
      class: CLASS.IN,
      ttl: 0,
      data: addressData(value),
    }));
  }

  /** The prerequisite that `hostname` has no record set of `type` (RFC 2136 §2.4.3: class NONE, TTL 0, no data). */
  function holdsNone(hostname: string, type: RecordType): ResourceRecord[] {
    return [{ name: hostname, type: TYPE[type], class: CLASS.NONE, ttl: 0, data: new Uint8Array() }];
  }

  /** One UPDATE to `zone`: the prerequisites (the answer section of an UPDATE), then the changes. */
  function update(zone: string, prerequisites: ResourceRecord[], changes: ResourceRecord[]): Promise<Answer> {
    return ask(
      target,
      message({
        id: newId(),
        opcode: OPCODE.UPDATE,
        questions: [{ name: zone, type: TYPE.SOA, class: CLASS.IN }],
        answers: prerequisites,
        authorities: changes,
      }),
    );
  }

  /**
   * Whether the server holds `hostname type` as its own record set with exactly `values`: an UPDATE
   * with only that prerequisite, which the server checks and then has nothing to apply. NXRRSET: the
   * values came from a wildcard (or changed since the query).
   */
  async function confirm(
    zone: string,
    hostname: string,
    type: RecordType,
    values: readonly string[],
  ): Promise<Step<boolean>> {
    const answer = await update(zone, holdsExactly(hostname, type, values), []);
    if (!answer.ok) return answer;
    if (answer.message.rcode === RCODE.NOERROR) return { ok: true, value: true };
    if (answer.message.rcode === RCODE.NXRRSET) return { ok: true, value: false };
    return updateFailure(answer.message.rcode, zone, hostname, type);
  }

  /**
   * One UPDATE: this name's record set of this type deleted and the address added, atomically, on
   * condition that the set is still what was read (`current`), or still absent (null).
   */
  async function replace(
    zone: string,
    hostname: string,
    type: RecordType,
    current: RecordSet | null,
    addresses: readonly string[],
    ttl: number,
  ): Promise<Step<RecordSet>> {
    const rrtype = TYPE[type];
    const answer = await update(
      zone,
      current ? holdsExactly(hostname, type, current.values) : holdsNone(hostname, type),
      [
        // RFC 2136 §2.5.2: class ANY, TTL 0, no data deletes the RRset; §2.5.1: class IN adds a record.
        { name: hostname, type: rrtype, class: CLASS.ANY, ttl: 0, data: new Uint8Array() },
        ...addresses.map((address) => ({
          name: hostname,
          type: rrtype,
          class: CLASS.IN,
          ttl,
          data: addressData(address),
        })),
      ],
    );
    if (!answer.ok) return answer;
    const { rcode } = answer.message;
    if (rcode === RCODE.NXRRSET || rcode === RCODE.YXRRSET) {
      // Someone else changed the name between ddnsd's read and its write: nothing was written, and
      // the next attempt reads it afresh.
      return fail(
        `${label}: ${hostname} ${type} changed at the server after ddnsd read it (${rcodeName(rcode)}), so nothing was written; it is read again on the next attempt`,
        "refused",
      );
    }
    if (rcode !== RCODE.NOERROR) return updateFailure(rcode, zone, hostname, type);
    return { ok: true, value: { id: hostname, values: [...addresses], ttl } };
  }

  /**
   * One TXT value added (class IN) or removed (class NONE, RFC 2136 §2.5.4: exactly that record);
   * the server applies it to that one record, so the name's other values stay as they are.
   */
  async function changeTxt(zone: Zone, name: string, value: string, add: boolean): Promise<Step<void>> {
    const answer = await update(
      zone.name ?? zone.id,
      [],
      [
        {
          name,
          type: TYPE.TXT,
          class: add ? CLASS.IN : CLASS.NONE,
          ttl: add ? CHALLENGE_TTL : 0,
          data: txtData(value),
        },
      ],
    );
    if (!answer.ok) return answer;
    if (answer.message.rcode !== RCODE.NOERROR)
      return updateFailure(answer.message.rcode, zone.name ?? zone.id, name, "TXT");
    return { ok: true, value: undefined };
  }

  const txt: TxtApi = {
    async read(_zone, name) {
      const answer = await query(name, TYPE.TXT);
      if (!answer.ok) return answer;
      const problem = queryFailure(answer.message, name) ?? referral(answer.message, name);
      if (problem) return problem;
      return {
        ok: true,
        value: answer.message.answers
          .filter((record) => record.name === name && record.type === TYPE.TXT)
          .map((record) => txtText(record.data)),
      };
    },
    add: (zone, name, _current, value) => changeTxt(zone, name, value, true),
    remove: (zone, name, _current, value) => changeTxt(zone, name, value, false),
  };

  return {
    service: label,
    txt,

    async verify() {
      // Without a zone, the root's SOA: a server that serves no root still signs its REFUSED, which
      // proves that it knows the key and accepts our signature.
      const zone = options.zone ?? "";
      const answer = await query(zone, TYPE.SOA);
      if (!answer.ok) return failedCheck(answer);
      const { rcode } = answer.message;
      if (options.zone === undefined) {
        if (answer.signed)
          return {
            ok: true,
            detail: `${label} accepts key "${options.keyName}" (${options.algorithm}); the zone of each name is found when it is updated`,
          };
        return {
          ok: false,
          detail: `${label} answered ${rcodeName(rcode)} without a signature, so the key could not be checked (servers such as Knot check keys only within their zones): set the zone option to a zone this key may update`,
        };
      }
      const soa = answer.message.answers.find((record) => record.type === TYPE.SOA && record.name === zone);
      if (rcode === RCODE.NOERROR && soa && answer.message.aa) {
        return {
          ok: true,
          detail: `${label} accepts key "${options.keyName}" (${options.algorithm}) and serves zone ${zone}`,
        };
      }
      if (rcode === RCODE.NOERROR || rcode === RCODE.NXDOMAIN)
        return {
          ok: false,
          cause: "refused",
          detail: `${label} accepts the key but does not serve zone ${zone} (no SOA record for it)`,
        };
      return {
        ok: false,
        cause: "refused",
        detail: `${label} accepts the key but answers ${rcodeName(rcode)} for zone ${zone}: it is not authoritative for it`,
      };
    },

    async findZone(hostname, configured) {
      const given = configured === undefined ? options.zone : normaliseName(configured);
      if (given !== undefined && !zoneHolds(given, hostname)) {
        return fail(
          `${label}: zone ${given} does not hold ${hostname}; correct the zone option or config.zone_id`,
          "refused",
          true,
        );
      }
      const zone = (name: string): Step<Zone> => ({ ok: true, value: { id: name, name } });
      // Asked before every write, even with a zone given: BIND and Knot accept an update of a name
      // below a delegation into the parent zone, where no resolver will ever see it.
      const answer = await query(hostname, TYPE.SOA);
      if (!answer.ok) return answer;
      const problem = queryFailure(answer.message, hostname) ?? referral(answer.message, hostname);
      // A server that answers no queries from ddnsd (allow-query) may still take its updates: a zone given stands.
      if (problem) {
        if (given !== undefined && problem.cause === "refused" && !problem.stopRetrying) return zone(given);
        // No zone given, and the server serves none that holds the name (REFUSED, NOTAUTH): asking
        // again cannot help until the domain or the provider (its zone option) is edited.
        const served = answer.message.rcode !== RCODE.REFUSED && answer.message.rcode !== RCODE.NOTAUTH;
        return served ? problem : fail(problem.message, "refused", true);
      }
      const soa = [...answer.message.answers, ...answer.message.authorities].find(
        (record) => record.type === TYPE.SOA && candidateZones(hostname).includes(record.name),
      );
      if (!soa)
        return given !== undefined
          ? zone(given)
          : fail(
              `${label}: found no zone that holds ${hostname} (its answer names no SOA record); set the zone option`,
              "refused",
            );
      if (options.zone !== undefined && soa.name !== options.zone) {
        return fail(
          `${label}: serves ${hostname} in zone ${soa.name}, not in ${options.zone}; correct the zone option (or leave it empty)`,
          "refused",
          true,
        );
      }
      // A config.zone_id saved before the name's zone changed (a sub-zone delegated since) gives way to the server's answer.
      return zone(soa.name);
    },

    async readRecordSet(zone, hostname, type) {
      const answer = await query(hostname, TYPE[type]);
      if (!answer.ok) return answer;
      const problem = queryFailure(answer.message, hostname) ?? referral(answer.message, hostname);
      if (problem) return problem;
      const owned = answer.message.answers.filter((record) => record.name === hostname);
      if (owned.some((record) => record.type === TYPE.CNAME)) {
        return fail(
          `${label}: ${hostname} is an alias (CNAME), which cannot also hold an ${type} record; use the name it points to`,
          "refused",
          true,
        );
      }
      const records = owned.filter((record) => record.type === TYPE[type] && record.class === CLASS.IN);
      if (records.length === 0) return { ok: true, value: null };
      const values = records.map((record) => addressText(record.data));
      const own = await confirm(zone.name ?? zone.id, hostname, type, values);
      if (!own.ok) return own;
      if (!own.value) return { ok: true, value: null };
      return { ok: true, value: { id: hostname, values, ttl: Math.min(...records.map((record) => record.ttl)) } };
    },

    updateRecordSet(zone, hostname, type, current, address, settings) {
      return replace(
        zone.name ?? zone.id,
        hostname,
        type,
        current,
        [address],
        settings.ttl ?? current.ttl ?? DEFAULT_TTL,
      );
    },

    createRecordSet(zone, hostname, type, address, settings) {
      return replace(zone.name ?? zone.id, hostname, type, null, [address], settings.ttl ?? DEFAULT_TTL);
    },

    // The whole RRset in one UPDATE, on the prerequisite that it still holds what was read: the
    // addresses that go and the ones that come change together, or nothing does.
    writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const ttl = settings.ttl ?? current?.ttl ?? DEFAULT_TTL;
      return replace(zone.name ?? zone.id, hostname, type, current, addresses, ttl);
    },
  };
}

/** The client's options from a provider's stored credentials and options (validated by the rules already). */
export function rfc2136Options(
  credentials: Record<string, string>,
  stored: Record<string, unknown>,
  timeoutMs: number,
): Rfc2136Options {
  const server = parseServer(String(stored.server ?? ""));
  const algorithm = String(stored.tsig_algorithm ?? TSIG_ALGORITHMS[0]);
  return {
    server: typeof server === "string" ? { host: "", port: 0 } : server,
    keyName: normaliseName(String(stored.tsig_key_name ?? "")),
    algorithm: isTsigAlgorithm(algorithm) ? algorithm : TSIG_ALGORITHMS[0],
    secret: new Uint8Array(Buffer.from((credentials.tsig_secret ?? "").replace(/\s+/g, ""), "base64")),
    ...(typeof stored.zone === "string" && stored.zone.trim() !== "" ? { zone: normaliseName(stored.zone) } : {}),
    timeoutMs,
  };
}

export const rfc2136 = defineService({
  type: "rfc2136",
  label: "RFC 2136 (DNS UPDATE)",
  summary:
    "Your own authoritative name server (BIND, Knot, PowerDNS, Technitium, Windows DNS …), changed with DNS UPDATE messages signed with a TSIG key.",
  credentials: [
    {
      key: "tsig_secret",
      label: "TSIG secret",
      help: "The key's secret in base64, exactly as in the server's key file: BIND `tsig-keygen -a hmac-sha256 ddnsd-key`, Knot `keymgr -t ddnsd-key hmac-sha256`.",
      secret: true,
      validate: secretProblem,
    },
  ],
  options: [
    {
      key: "server",
      label: "Name server",
      help: "The primary name server that accepts the updates: host or host:port (port 53 by default), e.g. ns1.example.com or 192.0.2.53:5353.",
      kind: "host",
      required: true,
    },
    {
      key: "tsig_key_name",
      label: "TSIG key name",
      help: 'The key\'s name as the server knows it (BIND `key "ddnsd-key"`, Knot `key: - id: ddnsd-key`).',
      kind: "text",
      required: true,
      validate: dnsNameProblem,
    },
    {
      key: "tsig_algorithm",
      label: "TSIG algorithm",
      help: "The key's algorithm, as in the server's key file.",
      kind: "choice",
      choices: TSIG_ALGORITHMS,
      default: TSIG_ALGORITHMS[0],
    },
    {
      key: "zone",
      label: "Zone",
      help: "The zone to update, e.g. example.com. Empty: found with an SOA query for each name. Needed by verify on servers such as Knot, which check keys only within their zones.",
      kind: "text",
      validate: dnsNameProblem,
    },
  ],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(1, 2_147_483_647, DEFAULT_TTL),
  canVerify: true,
  nameServer: (options) => (typeof options.server === "string" ? options.server : null),
  // The server is the user's own: nothing to pace beyond one update per change.
  holdsTxt: true,
  holdsAddressSets: true,
  createClient: (credentials, options, context) => {
    const api = createRfc2136Api(rfc2136Options(credentials, options, context.timeoutMs));
    return zoneClient(api, api.txt);
  },
});
