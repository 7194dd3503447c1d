// INWX DomRobot API (docs/services/inwx.md): the zone service primitives over JSON-RPC. Every call
// is a `POST` of `{"method", "params"}` to one address, answered HTTP 200 with `{code, msg, reason,
// reasonCode, resData}`: a code from 1000 to 1499 is success (1000 "Command completed
// successfully"), 2xxx a refusal (2200 "Authentication error", 2303 "Object does not exist", 2400
// "Command failed" …). `account.login` opens a session, kept in the `domrobot` cookie that every
// later call carries; an account with two-factor login answers `tfa: "GOOGLE-AUTH"` and the session
// is unlocked with `account.unlock` and a TOTP code made from the shared secret. Records are
// `{id, name, type, content, ttl, prio}` with `name` the full host name (the domain itself at the apex).
//
// The session lives in memory only, never logged, for one client: ddnsd builds a client for each
// record it writes, so each write logs in, does its work and logs out (INWX limits open sessions).
//
// Requests per write, with the domain known (config.zone_id) — the steady state:
//   account.login + nameserver.info + nameserver.updateRecord + account.logout = 4
//   (3 when the address is already there; + account.unlock with two-factor login)
// Without it each parent of the hostname is asked for (nameserver.info), longest first.
//
// Sources: inwx.de/en/help/apidoc (the DomRobot API: account.login/unlock/logout, nameserver.info,
// nameserver.createRecord, nameserver.updateRecord, the result codes); INWX's own Terraform provider
// (inwx/terraform-provider-inwx internal/api/client.go: the JSON-RPC body, the session cookie, the
// 2200 body with reasonCode), lego providers/dns/inwx and nrdcg/goinwx (FQDN record names, the
// GOOGLE-AUTH unlock, success codes 1000–1500).

import { asObject, isObject, objectsIn } from "../../util/json";
import { failed, requestJson, type ServiceError } from "../answers";
import type { DnsProvider, FailureCause, Step } from "../provider";
import { type RecordSet, type TxtApi, type ZoneApi, zoneClient } from "../reconcile";
import { writeSetByRecords } from "../record-per-address";
import { type ClientContext, defineService, ttlRange } from "../service";
import { decodeBase32, TOTP_STEP_MS, totp } from "../signing/totp";
import { txtRecords, unquotedTxt } from "../txt";
import { failedCheck } from "../zones";

const SERVICE = "INWX";
/** A new record's TTL when the domain's config names none: INWX's default. */
const NEW_RECORD_TTL = 3600;
/** INWX's shortest TTL, a challenge value's. */
const MIN_TTL = 300;
/** INWX's codes ddnsd tells apart. */
const AUTHENTICATION_ERROR = 2200;
const OBJECT_DOES_NOT_EXIST = 2303;
/** EPP's "Authentication error; server closing connection". */
const AUTHENTICATION_ERROR_CLOSING = 2501;
/** "Session limit exceeded" (EPP's 2502): too many sessions or calls; a "slow down". */
const SESSION_LIMIT = 2502;

interface Credentials {
  username: string;
  password: string;
  /** The base32 secret shown when two-factor login was set up; empty for an account without it. */
  shared_secret: string;
}

/** What INWX answered to one call: its resData, or its refusal. */
type Answer = { ok: true; data: Record<string, unknown> } | { ok: false; code: number; words: string };

export interface InwxApi extends ZoneApi {
  txt: TxtApi;
  /** Ends the session, if one was opened; a failure to do so is not the write's. */
  logout(): Promise<void>;
}

/**
 * The last TOTP step whose code unlocked (or is about to unlock) a session, per account and API:
 * INWX refuses a code that was used before ("INWX forbids to re-use the same TOTP twice", lego's INWX
 * provider), and ddnsd logs in once per write, so the A and the AAAA of one name written together
 * would otherwise send the same code and the second write would stop for good. Memory only: a step
 * number, no secret.
 */
const lastUnlockStep = new Map<string, number>();

/** The step whose code the next unlock sends: the current one, or the first not used yet. Reserved at once, so writes running side by side take different steps. */
function reserveUnlockStep(account: string, nowMs: number): number {
  const used = lastUnlockStep.get(account);
  const step = Math.max(Math.floor(nowMs / TOTP_STEP_MS), used === undefined ? 0 : used + 1);
  lastUnlockStep.set(account, step);
  return step;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createInwxApi(
  credentials: Credentials,
  context: ClientContext,
  now: () => number = Date.now,
  sleep: (ms: number) => Promise<void> = realSleep,
): InwxApi {
  let session: string | undefined;

  /** One call as it came back; a failure only when no answer in INWX's form came back. */
  async function post(method: string, params: Record<string, unknown>): Promise<Step<Answer>> {
    const headers: Record<string, string> = session === undefined ? {} : { Cookie: `domrobot=${session}` };
    const answer = await requestJson(
      context,
      SERVICE,
      { method: "POST", path: "/", headers, body: { method, params } },
      readError,
    );
    if (!answer.ok) return answer;
    const body = answer.value.body;
    if (!isObject(body) || typeof body.code !== "number")
      return failed(`${SERVICE}: unreadable answer to ${method} (HTTP ${answer.value.status})`, {
        cause: "unreachable",
      });
    const cookie = /(?:^|[,;]\s*)domrobot=([^;,\s]+)/.exec(answer.value.headers.get("set-cookie") ?? "");
    if (cookie?.[1]) session = cookie[1];
    if (body.code >= 1000 && body.code < 1500) return { ok: true, value: { ok: true, data: asObject(body.resData) } };
    return { ok: true, value: { ok: false, code: body.code, words: wordsOf(body) } };
  }

  const refusal = (
    method: string,
    answer: { code: number; words: string },
    cause: FailureCause,
    stopRetrying = false,
  ) => failed(`${SERVICE}: ${method}: ${answer.words} (code ${answer.code})`, { cause, stopRetrying });

  /** The cause of a refusal after the login: the session not accepted, a "slow down", or a refusal. */
  function causeOf(code: number): FailureCause {
    if (isAuthenticationError(code)) return "credentials";
    if (code === SESSION_LIMIT) return "throttled";
    return "refused";
  }

  async function login(): Promise<Step<true>> {
    const answer = await post("account.login", { user: credentials.username, pass: credentials.password, lang: "en" });
    if (!answer.ok) return answer;
    if (!answer.value.ok) {
      session = undefined;
      // Only an authentication error is the login's fault; "Command failed" (2400, 2500) and the
      // like are INWX's own trouble and may pass on a later try.
      const cause = isAuthenticationError(answer.value.code) ? "credentials" : causeOf(answer.value.code);
      return refusal("account.login", answer.value, cause, cause === "credentials");
    }
    if (session === undefined)
      return failed(`${SERVICE}: the login answered no session cookie`, { cause: "unreachable" });
    const tfa = answer.value.data.tfa;
    if (tfa === undefined || tfa === "0" || tfa === 0 || tfa === "") return { ok: true, value: true };
    // Two-factor login: the session works only once unlocked with a current code.
    const secret = decodeBase32(credentials.shared_secret);
    if (secret === undefined) {
      return failed(
        `${SERVICE}: the account asks for a second factor (${String(tfa)}); set the shared secret of its two-factor login, or use an account without one`,
        {
          cause: "credentials",
          stopRetrying: true,
        },
      );
    }
    // A code used before is refused: when this step's was, wait for the next step.
    const step = reserveUnlockStep(`${context.baseUrl}\n${credentials.username.toLowerCase()}`, now());
    const wait = step * TOTP_STEP_MS - now();
    if (wait > 0) await sleep(wait);
    const unlocked = await post("account.unlock", { tan: totp(secret, step * TOTP_STEP_MS) });
    if (!unlocked.ok) return unlocked;
    if (!unlocked.value.ok) return refusal("account.unlock", unlocked.value, "credentials", true);
    return { ok: true, value: true };
  }

  async function logout(): Promise<void> {
    if (session === undefined) return;
    await post("account.logout", {});
    session = undefined;
  }

  /** A call in a session, logging in first when there is none. */
  async function call(method: string, params: Record<string, unknown>): Promise<Step<Answer>> {
    if (session === undefined) {
      const opened = await login();
      if (!opened.ok) return opened;
    }
    return post(method, params);
  }

  /** The call's resData, or its refusal as a failure. */
  async function succeed(method: string, params: Record<string, unknown>): Promise<Step<Record<string, unknown>>> {
    const answer = await call(method, params);
    if (!answer.ok) return answer;
    if (!answer.value.ok) return refusal(method, answer.value, causeOf(answer.value.code));
    return { ok: true, value: answer.value.data };
  }

  function recordSet(found: Record<string, unknown>[]): RecordSet {
    const [first] = found;
    return {
      id: String(first!.id),
      values: found.map((r) => String(r.content)),
      ...(typeof first!.ttl === "number" ? { ttl: first!.ttl } : {}),
      raw: first,
      members: found,
    };
  }

  // One record per value, its content the text itself; removed by id (nameserver.deleteRecord).
  const txt = txtRecords({
    async list(zone, name) {
      const answer = await call("nameserver.info", { domain: zone.id, name, type: "TXT" });
      if (!answer.ok) return answer;
      if (!answer.value.ok) return refusal("nameserver.info", answer.value, causeOf(answer.value.code));
      const records = objectsIn(answer.value.data.record).filter(
        (r) => r.type === "TXT" && r.id !== undefined && String(r.name ?? "").toLowerCase() === name,
      );
      return { ok: true, value: records.map((r) => ({ id: String(r.id), value: unquotedTxt(r.content) })) };
    },
    create: (zone, name, value) =>
      succeed("nameserver.createRecord", { domain: zone.id, name, type: "TXT", content: value, ttl: MIN_TTL }),
    delete: (_zone, record) => succeed("nameserver.deleteRecord", { id: Number(record.id) }),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      // A login (and the unlock, with two-factor login) checks every credential; nothing changes.
      const opened = await login();
      await logout();
      return opened.ok ? { ok: true, detail: `Login accepted for ${credentials.username}` } : failedCheck(opened);
    },

    logout,

    async hasZone(name) {
      // The SOA alone: the smallest answer that says whether the account has this domain.
      const answer = await call("nameserver.info", { domain: name, type: "SOA" });
      if (!answer.ok) return answer;
      if (answer.value.ok || answer.value.code === OBJECT_DOES_NOT_EXIST) return { ok: true, value: answer.value.ok };
      return refusal("nameserver.info", answer.value, causeOf(answer.value.code));
    },

    async readRecordSet(zone, hostname, type) {
      const answer = await call("nameserver.info", { domain: zone.id, name: hostname, type });
      if (!answer.ok) return answer;
      if (!answer.value.ok) {
        const failure = refusal("nameserver.info", answer.value, causeOf(answer.value.code));
        // A configured domain the account no longer has: look it up afresh.
        return answer.value.code === OBJECT_DOES_NOT_EXIST ? { ...failure, staleZone: true } : failure;
      }
      const records = objectsIn(answer.value.data.record);
      const found = records.filter((r) => r.type === type && String(r.name ?? "").toLowerCase() === hostname);
      return { ok: true, value: found.length === 0 ? null : recordSet(found) };
    },

    async updateRecordSet(_zone, _hostname, _type, current, address, settings) {
      // INWX changes only the fields sent: the address, and the TTL when the config names one.
      const changes = { content: address, ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }) };
      const answer = await succeed("nameserver.updateRecord", { id: Number(current.id), ...changes });
      if (!answer.ok) return answer;
      const raw = { ...asObject(current.raw), ...changes };
      const ttl = settings.ttl ?? current.ttl;
      return { ok: true, value: { id: current.id, values: [address], ...(ttl === undefined ? {} : { ttl }), raw } };
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const ttl = settings.ttl ?? NEW_RECORD_TTL;
      const answer = await succeed("nameserver.createRecord", {
        domain: zone.id,
        name: hostname,
        type,
        content: address,
        ttl,
      });
      if (!answer.ok) return answer;
      if (answer.value.id === undefined)
        return failed(`${SERVICE}: the new record's id is not in the answer`, { cause: "unreachable" });
      return { ok: true, value: { id: String(answer.value.id), values: [address], ttl } };
    },

    // One record per address: the difference is created, updated (only the fields sent change) or deleted by id.
    // One record per address: the difference is sent through the one-record requests.
    writeAddressSet(...args) {
      return writeSetByRecords(
        this,
        {
          address: (record) => String(record.content),
          ttl: (record) => (typeof record.ttl === "number" ? record.ttl : undefined),
          asSet: (record) => recordSet([record]),
          delete: (_zone, record) => succeed("nameserver.deleteRecord", { id: Number(record.id) }),
        },
        args,
      );
    },
  };
}

/** The client for the updater: each write (and each verify) in its own session, logged out after. */
export function inwxClient(api: InwxApi): DnsProvider {
  const inner = zoneClient(api, api.txt);
  return {
    verify: () => api.verify(),
    ...(inner.writesAddressSets ? { writesAddressSets: true as const } : {}),
    async writeRecord(target, address) {
      try {
        return await inner.writeRecord(target, address);
      } finally {
        await api.logout();
      }
    },
    async writeTxt(change) {
      try {
        return await inner.writeTxt!(change);
      } finally {
        await api.logout();
      }
    },
  };
}

function isAuthenticationError(code: number): boolean {
  return code === AUTHENTICATION_ERROR || code === AUTHENTICATION_ERROR_CLOSING;
}

/** INWX's message, with its reason when it gives one. */
function wordsOf(body: Record<string, unknown>): string {
  const msg = typeof body.msg === "string" && body.msg !== "" ? body.msg : "refused";
  return typeof body.reason === "string" && body.reason !== "" ? `${msg}: ${body.reason}` : msg;
}

/** An HTTP error (INWX's own errors come as HTTP 200): its `msg`, if the body has one. */
function readError(body: unknown): ServiceError | undefined {
  return isObject(body) && typeof body.msg === "string" && body.msg !== "" ? { words: wordsOf(body) } : undefined;
}

/** Everything ddnsd knows about INWX's API (docs/services/inwx.md). */
export const inwx = defineService({
  type: "inwx",
  label: "INWX",
  summary:
    "Domains whose DNS is at INWX, through its DomRobot API with an account login: ddnsd changes the address of the record and keeps the rest; a missing record is created.",
  credentials: [
    {
      key: "username",
      label: "Username",
      help: "The login of an INWX account. Best an extra account access made for ddnsd alone, allowed only to edit nameserver records and without two-factor login.",
      url: "https://www.inwx.com/en/",
      secret: false,
    },
    {
      key: "password",
      label: "Password",
      help: "That account's password.",
      url: "https://www.inwx.com/en/",
      secret: true,
    },
    {
      key: "shared_secret",
      label: "Two-factor shared secret",
      help: "Only for an account with two-factor login: the secret (base32, e.g. EELTWFL55ESIHPTJ…) shown as text beside the QR code when two-factor login was set up. ddnsd makes the six-digit codes from it. Leave empty for an account without two-factor login.",
      secret: true,
      optional: true,
      validate: (value) =>
        value.trim() === "" || decodeBase32(value) !== undefined
          ? undefined
          : "must be the base32 secret (letters A–Z and digits 2–7)",
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(MIN_TTL, 86400, NEW_RECORD_TTL),
  canVerify: true,
  holdsAddressSets: true,
  defaultApiUrl: "https://api.domrobot.com/jsonrpc",
  // INWX documents no request limit; ddnsd keeps a gentle pace (a write is up to five calls).
  rateLimits: [{ requests: 2, perSeconds: 1 }],
  holdsTxt: true,
  createClient: (credentials, _options, context) =>
    inwxClient(
      createInwxApi(
        {
          username: (credentials.username ?? "").trim(),
          password: credentials.password ?? "",
          shared_secret: (credentials.shared_secret ?? "").trim(),
        },
        context,
      ),
    ),
});
