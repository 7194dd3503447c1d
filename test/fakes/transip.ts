// A stand-in for TransIP's REST API v6 (api.transip.nl/v6) as far as DNS goes: `POST /auth` takes
// `{login, nonce, read_only, expiration_time, label, global_key}` with a `Signature` header (the
// body signed with the account's RSA private key, SHA-512, base64) and answers `{"token"}`, a bearer
// token for every other call; `GET /domains/{name}` (404 for a domain the account lacks),
// `GET /domains/{name}/dns` answering `{"dnsEntries": [{name, expire, type, content}]}` with `name`
// relative to the domain (`@` for the apex); `PATCH /domains/{name}/dns` with `{"dnsEntry"}`
// changing the content of the one entry with that name, expire and type (204); `POST` adding one
// (201); errors as `{"error": "…"}`.
//
// Sources: api.transip.nl/rest/docs.html (authentication, domains, DNS: `DELETE …/dns` with the
// `dnsEntry` to remove, named by name, expire, type and content); the official SDK
// transip/transip-api-php (its AuthRepository signs json_encode(body) with openssl_sign SHA-512);
// independent clients: StackExchange/dnscontrol providers/transip (via transip/gotransip), lego
// providers/dns/transip, the transip-dns Python client (DnsEntry: name, expire, type, content).
// UNSURE: the exact words of refusals (modelled on the docs' examples: "Signature validation
// failed", "Your access token has expired", "Domain not found"); the rate limit (modelled as a 429
// with an optional Retry-After); which expire values TransIP accepts (the fake accepts 60–86400).

import { createPublicKey, createVerify, type KeyObject } from "node:crypto";
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

export const TRANSIP_FAKE_LOGIN = "ddnsd-user";
/** A throwaway 1024-bit key, made for these tests only. */
export const TRANSIP_FAKE_PRIVATE_KEY = `-----BEGIN RSA PRIVATE KEY-----
MIICXAIBAAKBgQCnU5bshOFXY5Tnd6Ol4sL92eQjthgCOrTzntPlODLyMxfpaI41
bQKoin1JZFAA0Q1/ycwM9CLX1vIX2fnb4X0smvFNUTeazVQCn0AHKy8T+nvMCisV
UFpZM+TuhEyA/eh1WtaTEw4AqF0cAddLOikpGh9k18bmFTsRcon4kewefQIDAQAB
AoGAHblRpC5uwVFlUEEGhx9jOCkOx/E/DpZTMrvSNHPpSPEenE4AhSkaQcpoOzNg
quR4G21DnEF6NxFt7CLCqfbCf3JuILweYNZ1LKqVQUhv39e5Vmw4YdQ147pdrNjq
PcD70/i/nYL4UneUEplZPYghUjTWwKLa97VMjXxAywrG09kCQQDVN6TNryDnrztT
MP7bkiL+JeyhfSGyV3wGj55sLe7kvlnUOIBi6pJrUcpZ9hoSzGEIcD9UebgT4V9S
ugZJwmYrAkEAyOaqtRKXm7cXyJBrtamDWwojXZ+GiXq1EBm9MUBU5aFx1+YxPYiY
EHtfbxANzwjRm+NcXOqy8m+UdwQToJAh9wJAZDom70UOq7o0ofObKe31IxECvhrL
N0FmnNLwPpwM+1v7cAYrW9Q2hdpJy6YjNYj7Z/MT4grhm/7KR2IIyK1oRwJAPD4P
CmUc2TC6DQZhhgPiw7XyjOx9J1SIXt+Y/9/OlV0oChmYwl7nWmnkYCVsPpziXeB7
ndEy/8e9uUKbsBYIWQJBAJZKkOTauN1jt7dEAfPAYpqd+48/5sJnlKUTNTuAb112
v2wSUjrhxnBTZqpGUGFv+1VuFFvYE/3Fv/x5UrzDdrY=
-----END RSA PRIVATE KEY-----
`;
/** An expire TransIP gives a new entry in these tests. */
export const TRANSIP_DEFAULT_EXPIRE = 300;

export interface TransipEntry {
  name: string;
  expire: number;
  type: string;
  content: string;
}

/** `{status}` answers `{"error"}` with that status (`error` replaces its words, `retryAfter` adds the header); `"malformed"` a 200 with broken JSON; `"html"` a 502 page. */
export type TransipFault = { status: number; error?: string; retryAfter?: number } | "malformed" | "html";

export interface TransipFake extends FakeServer<TransipFault> {
  /** login → public key; delete one to revoke the key pair. */
  keys: Map<string, KeyObject>;
  domains: Map<string, TransipEntry[]>;
  /** Tokens handed out; clear to expire them all. */
  tokens: Set<string>;
  /** The bodies of every accepted login, as sent. */
  logins: Record<string, unknown>[];
  addDomain(name: string): void;
  addEntry(domain: string, entry: { name: string; type: string; content: string; expire?: number }): TransipEntry;
  entry(domain: string, name: string, type: string): TransipEntry | undefined;
  reset(): void;
}

const ERRORS: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  406: "Not acceptable",
  409: "Conflict",
  429: "Rate limit exceeded",
  500: "Internal server error",
};

export function startTransipFake(): TransipFake {
  const publicKey = () => createPublicKey(TRANSIP_FAKE_PRIVATE_KEY);
  const keys = new Map([[TRANSIP_FAKE_LOGIN, publicKey()]]);
  const domains = new Map<string, TransipEntry[]>();
  const tokens = new Set<string>();
  const logins: Record<string, unknown>[] = [];
  const nonces = new Set<string>();

  function addEntry(
    domain: string,
    init: { name: string; type: string; content: string; expire?: number },
  ): TransipEntry {
    const entries = domains.get(domain);
    if (!entries) throw new Error(`fake TransIP: no domain ${domain}`);
    const entry = {
      name: init.name,
      expire: init.expire ?? TRANSIP_DEFAULT_EXPIRE,
      type: init.type,
      content: init.content,
    };
    entries.push(entry);
    return entry;
  }

  function auth(request: LoggedRequest, raw: string): Response {
    const body = isRecord(request.body) ? request.body : {};
    const key = typeof body.login === "string" ? keys.get(body.login) : undefined;
    const signature = request.headers.signature ?? "";
    if (!key || signature === "" || !createVerify("sha512").update(raw).verify(key, signature, "base64"))
      return error(401, "Signature validation failed");
    if (typeof body.nonce !== "string" || body.nonce.length < 6 || nonces.has(body.nonce))
      return error(401, "Nonce is invalid or was used before");
    if (typeof body.label !== "string" || typeof body.expiration_time !== "string")
      return error(400, "label and expiration_time are required");
    nonces.add(body.nonce);
    logins.push(body);
    const token = `tok${crypto.randomUUID().replaceAll("-", "")}`;
    tokens.add(token);
    return json(201, { token });
  }

  function route(request: LoggedRequest, raw: string): Response {
    if (request.path === "/auth")
      return request.method === "POST" ? auth(request, raw) : error(405, "Method not allowed");
    const bearer = (request.headers.authorization ?? "").replace(/^Bearer /, "");
    if (!tokens.has(bearer)) return error(401, "Your access token has expired.");
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] !== "domains" || segments.length < 2 || segments.length > 3) return error(404, "Not found");
    const entries = domains.get(segments[1] ?? "");
    if (!entries) return error(404, "Domain not found");
    if (segments.length === 2)
      return request.method === "GET" ? json(200, { domain: { name: segments[1] } }) : error(405, "Method not allowed");
    if (segments[2] !== "dns") return error(404, "Not found");
    if (request.method === "GET") return json(200, { dnsEntries: entries });
    const given = isRecord(request.body) && isRecord(request.body.dnsEntry) ? request.body.dnsEntry : {};
    const invalid = check(given);
    if (invalid) return error(406, invalid);
    if (request.method === "POST") {
      addEntry(segments[1]!, {
        name: String(given.name),
        type: String(given.type),
        content: String(given.content),
        expire: Number(given.expire),
      });
      return new Response(null, { status: 201 });
    }
    if (request.method === "DELETE") {
      // The entry named by all four of its fields goes.
      const at = entries.findIndex(
        (e) =>
          e.name === given.name && e.type === given.type && e.expire === given.expire && e.content === given.content,
      );
      if (at < 0) return error(404, "DNS entry not found");
      entries.splice(at, 1);
      return new Response(null, { status: 204 });
    }
    if (request.method !== "PATCH") return error(405, "Method not allowed");
    const matching = entries.filter((e) => e.name === given.name && e.type === given.type && e.expire === given.expire);
    if (matching.length === 0) return error(404, "DNS entry not found");
    if (matching.length > 1) return error(406, "Multiple DNS entries match; use PUT to replace them all");
    matching[0]!.content = String(given.content);
    return new Response(null, { status: 204 });
  }

  const server = startFakeServer<TransipFault>({
    prefix: "/v6",
    route: (request) =>
      route(request, typeof request.body === "string" ? request.body : JSON.stringify(request.body ?? "")),
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      return error(mode.status, mode.error ?? ERRORS[mode.status] ?? "Error", retryAfterHeader(mode.retryAfter));
    },
  });

  const fake: TransipFake = Object.assign(server, {
    keys,
    domains,
    tokens,
    logins,
    addDomain: (name: string) => void domains.set(name, []),
    addEntry,
    entry: (domain: string, name: string, type: string) =>
      domains.get(domain)?.find((e) => e.name === name && e.type === type),
    reset() {
      domains.clear();
      tokens.clear();
      logins.length = 0;
      keys.clear();
      keys.set(TRANSIP_FAKE_LOGIN, publicKey());
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function check(entry: Record<string, unknown>): string | undefined {
  if (typeof entry.name !== "string" || entry.name === "") return "dnsEntry.name is required";
  if (entry.type !== "A" && entry.type !== "AAAA" && entry.type !== "TXT")
    return "dnsEntry.type is not supported by this fake";
  if (typeof entry.expire !== "number" || !Number.isInteger(entry.expire) || entry.expire < 60 || entry.expire > 86400)
    return "dnsEntry.expire is invalid";
  const content = entry.content;
  if (
    typeof content !== "string" ||
    (entry.type === "A" && !isIPv4(content)) ||
    (entry.type === "AAAA" && !isIPv6(content))
  )
    return "dnsEntry.content is not a valid address";
  return undefined;
}

function error(status: number, words: string, headers: Record<string, string> = {}): Response {
  return json(status, { error: words }, headers);
}
