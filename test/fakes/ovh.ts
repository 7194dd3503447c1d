// A stand-in for the OVHcloud API v1 (eu.api.ovh.com/1.0) as far as DNS zones go. Every call but
// `GET /auth/time` is signed: `X-Ovh-Application` (application key), `X-Ovh-Consumer` (consumer key),
// `X-Ovh-Timestamp` (the server's time in seconds, which clients learn from `/auth/time`) and
// `X-Ovh-Signature`: "$1$" + SHA-1 hex of application secret + consumer key + method + full URL +
// body + timestamp, joined with "+". Zones: `GET /domain/zone` (names), `GET
// /domain/zone/{zone}/record?fieldType=&subDomain=` (ids), `GET …/record/{id}` ({id, zone,
// subDomain, fieldType, target, ttl}, `subDomain` "" at the apex, ttl 0 = the zone's default), `PUT
// …/record/{id}` (changes only the fields sent; null), `POST …/record` (the new record), and `POST
// /domain/zone/{zone}/refresh`, without which a change is not published. Errors: `{"message"}`.
//
// Sources: the OVHcloud API console and guide "First steps with the OVHcloud APIs" (signature,
// /auth/time, consumer key access rules); the official SDK ovh/go-ovh (ovh.go: the signer, whose
// test vectors test/dns/ovh.test.ts repeats); independent clients: qdm12/ddns-updater providers/ovh
// (getrecords.go, updaterecord.go: PUT {target} only, refresh.go, errors.go) and lego
// providers/dns/ovh (a TXT record per value, the text as `target`, deleted by id with `DELETE
// …/record/{id}`, each change followed by a refresh). UNSURE: the exact words of refusals (modelled on what clients quote: "Invalid
// signature", "This credential does not exist", "This call has not been granted"); whether
// `subDomain=` (empty) filters for the apex (the client checks each record's subDomain itself); the
// request limit (undocumented; the throttle fault is a plain 429).

import { createHash } from "node:crypto";
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

export const OVH_FAKE_APPLICATION_KEY = "TDPKJdwZwAQPwKX2";
export const OVH_FAKE_APPLICATION_SECRET = "9ufkBmLaTQ9nz5yMUlg79taH0GNnzDjk";
export const OVH_FAKE_CONSUMER_KEY = "5mBuy6SUQcRw2ZUxg0cG68BoDKpED4KY";

export interface OvhRecord {
  id: number;
  zone: string;
  subDomain: string;
  fieldType: string;
  target: string;
  ttl: number;
}

/** `{status}` answers `{"message"}` (`message` replaces its words, `retryAfter` adds the header); `"malformed"` a 200 with broken JSON; `"html"` a 502 page. */
export type OvhFault = { status: number; message?: string; retryAfter?: number } | "malformed" | "html";

export interface OvhFake extends FakeServer<OvhFault> {
  /** application key → secret; consumer key → the application key it was made for. */
  applications: Map<string, string>;
  consumers: Map<string, string>;
  zones: Map<string, OvhRecord[]>;
  /** Seconds the fake's clock is ahead of this machine's (a client must sign with the server's time). */
  clockAheadSeconds: number;
  /** Zone → how many times it was refreshed (changes published). */
  refreshes: Map<string, number>;
  addZone(name: string): void;
  addRecord(zone: string, record: { subDomain: string; fieldType: string; target: string; ttl?: number }): OvhRecord;
  record(zone: string, subDomain: string, fieldType: string): OvhRecord | undefined;
  reset(): void;
}

export function ovhSignature(
  secret: string,
  consumer: string,
  method: string,
  url: string,
  body: string,
  timestamp: string,
): string {
  return `$1$${createHash("sha1").update([secret, consumer, method, url, body, timestamp].join("+")).digest("hex")}`;
}

export function startOvhFake(): OvhFake {
  const applications = new Map([[OVH_FAKE_APPLICATION_KEY, OVH_FAKE_APPLICATION_SECRET]]);
  const consumers = new Map([[OVH_FAKE_CONSUMER_KEY, OVH_FAKE_APPLICATION_KEY]]);
  const zones = new Map<string, OvhRecord[]>();
  const refreshes = new Map<string, number>();
  let nextId = 5000;
  let base = "";

  function addRecord(
    zone: string,
    init: { subDomain: string; fieldType: string; target: string; ttl?: number },
  ): OvhRecord {
    const records = zones.get(zone);
    if (!records) throw new Error(`fake OVH: no zone ${zone}`);
    const record = {
      id: ++nextId,
      zone,
      subDomain: init.subDomain,
      fieldType: init.fieldType,
      target: init.target,
      ttl: init.ttl ?? 0,
    };
    records.push(record);
    return record;
  }

  const now = () => Math.floor(Date.now() / 1000) + fake.clockAheadSeconds;

  function signed(request: LoggedRequest, target: string): Response | undefined {
    const key = request.headers["x-ovh-application"] ?? "";
    const secret = applications.get(key);
    if (secret === undefined) return error(403, "Invalid application key");
    const consumer = request.headers["x-ovh-consumer"] ?? "";
    if (consumers.get(consumer) !== key) return error(403, "This credential does not exist");
    const timestamp = request.headers["x-ovh-timestamp"] ?? "";
    if (!/^\d+$/.test(timestamp) || Math.abs(Number(timestamp) - now()) > 180) return error(400, "Query out of time");
    const body =
      request.body === undefined ? "" : typeof request.body === "string" ? request.body : JSON.stringify(request.body);
    if (
      request.headers["x-ovh-signature"] !==
      ovhSignature(secret, consumer, request.method, base + target, body, timestamp)
    )
      return error(400, "Invalid signature");
    return undefined;
  }

  function route(request: LoggedRequest, target: string): Response {
    if (request.path === "/auth/time")
      return request.method === "GET" ? json(200, now()) : error(405, "Method not allowed");
    const refused = signed(request, target);
    if (refused) return refused;
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] !== "domain" || segments[1] !== "zone") return error(404, "This service does not exist");
    if (segments.length === 2)
      return request.method === "GET" ? json(200, [...zones.keys()].sort()) : error(405, "Method not allowed");
    const zone = segments[2]!;
    const records = zones.get(zone);
    if (!records) return error(404, `This service does not exist`);
    if (segments[3] === "refresh" && segments.length === 4) {
      if (request.method !== "POST") return error(405, "Method not allowed");
      refreshes.set(zone, (refreshes.get(zone) ?? 0) + 1);
      return json(200, null);
    }
    if (segments[3] !== "record" || segments.length > 5) return error(404, "Not found");
    const fields =
      typeof request.body === "object" && request.body !== null ? (request.body as Record<string, unknown>) : {};
    if (segments.length === 4) {
      if (request.method === "GET") {
        const { fieldType, subDomain } = request.query;
        return json(
          200,
          records
            .filter(
              (r) =>
                (fieldType === undefined || r.fieldType === fieldType) &&
                (subDomain === undefined || r.subDomain === subDomain),
            )
            .map((r) => r.id),
        );
      }
      if (request.method !== "POST") return error(405, "Method not allowed");
      const invalid = check(String(fields.fieldType), fields);
      if (invalid) return error(400, invalid);
      return json(
        200,
        addRecord(zone, {
          subDomain: String(fields.subDomain ?? ""),
          fieldType: String(fields.fieldType),
          target: String(fields.target),
          ttl: fields.ttl as number | undefined,
        }),
      );
    }
    const record = records.find((r) => r.id === Number(segments[4]));
    if (!record) return error(404, `The requested object (id = ${segments[4]}) does not exist`);
    if (request.method === "GET") return json(200, record);
    if (request.method === "DELETE") {
      records.splice(records.indexOf(record), 1);
      return json(200, null);
    }
    if (request.method !== "PUT") return error(405, "Method not allowed");
    const invalid = check(record.fieldType, fields);
    if (invalid) return error(400, invalid);
    // A PUT changes only what it names.
    if (typeof fields.target === "string") record.target = fields.target;
    if (typeof fields.ttl === "number") record.ttl = fields.ttl;
    if (typeof fields.subDomain === "string") record.subDomain = fields.subDomain;
    return json(200, null);
  }

  const server = startFakeServer<OvhFault>({
    prefix: "/1.0",
    route(request) {
      const query = new URLSearchParams(request.query).toString();
      return route(request, `${request.path}${query === "" ? "" : `?${query}`}`);
    },
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      return error(
        mode.status,
        mode.message ?? (mode.status === 429 ? "Too many requests" : "Internal server error"),
        retryAfterHeader(mode.retryAfter),
      );
    },
  });
  base = server.url;

  const fake: OvhFake = Object.assign(server, {
    applications,
    consumers,
    zones,
    clockAheadSeconds: 0,
    refreshes,
    addZone: (name: string) => void zones.set(name, []),
    addRecord,
    record: (zone: string, subDomain: string, fieldType: string) =>
      zones.get(zone)?.find((r) => r.subDomain === subDomain && r.fieldType === fieldType),
    reset() {
      zones.clear();
      refreshes.clear();
      applications.clear();
      applications.set(OVH_FAKE_APPLICATION_KEY, OVH_FAKE_APPLICATION_SECRET);
      consumers.clear();
      consumers.set(OVH_FAKE_CONSUMER_KEY, OVH_FAKE_APPLICATION_KEY);
      fake.clockAheadSeconds = 0;
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

function check(type: string, fields: Record<string, unknown>): string | undefined {
  if (type !== "A" && type !== "AAAA" && type !== "TXT") return "Invalid field type";
  const target = fields.target;
  if (
    target !== undefined &&
    (typeof target !== "string" || (type === "A" && !isIPv4(target)) || (type === "AAAA" && !isIPv6(target)))
  )
    return `Invalid target for a ${type} record`;
  if (fields.ttl !== undefined && (typeof fields.ttl !== "number" || fields.ttl < 0)) return "Invalid TTL";
  return undefined;
}

function error(status: number, message: string, headers: Record<string, string> = {}): Response {
  return json(status, { message }, headers);
}
