// A faithful stand-in for Baidu AI Cloud DNS (dns.baidubce.com, API v1; docs/services/baiducloud.md):
// every request's BCE auth v1 signature checked for real (an unknown AK is 403 InvalidAccessKeyId, a
// wrong signature 400 SignatureDoesNotMatch, a missing or garbled header 400 InvalidHTTPAuthHeader),
// zones named by themselves, records with string ids and a host record `rr` (`@` the apex),
// marker paging (`marker`, `isTruncated`, `nextMarker`, `maxKeys` up to 1000), and these quirks:
// the `rr` filter of the record listing matches part of a host record (`home` finds `myhome`); writes
// answer 200 with no body, so a new record's id is only seen by listing again; a PUT without a TTL gives
// the record the plan's default TTL (300) rather than keeping its own; a PUT never changes the line;
// errors are BCE's common `{requestId, code, message}` (NoSuchZone 404 for a zone not in the account,
// NoSuchRecord 404, InappropriateJSON 400 for a bad value or a TTL under the plan's minimum).
//
// Sources: Baidu AI Cloud DNS API reference (intl.cloud.baidu.com/doc/DNS: Domain Name Related
// Interfaces, Resolution Records Related Interfaces: list, add, modify, delete by id; a TXT
// record's value is its text); the BCE authentication
// guide and common error codes (cloud.baidu.com/doc/Reference); go-acme/lego providers/dns/baiducloud
// with baidubce/bce-sdk-go services/dns (paths, bodies, marker paging) and auth/signer.go (the
// signature). Baidu names no throttling code; the fake's "slow down" is a 429 in the common shape.
//
// Quirk switches: `keys` (delete one to disable it); `minTtl` (the plan's minimum, 300 for the free
// plan); faults `{status, code, message}`, "malformed", "html".

import { isIPv4, isIPv6 } from "node:net";
import { bceAuthorization } from "../../src/dns/services/baiducloud";
import { type FakeServer, htmlErrorPage, json, type LoggedRequest, malformedJson, startFakeServer } from "./server";

export const BAIDU_FAKE_AK = "ALTAKfake0123456789abcdef";
export const BAIDU_FAKE_SK = "fakeSecretKey0123456789abcdef0123";
const BAIDU_DEFAULT_TTL = 300;

export interface BaiduRecord {
  id: string;
  rr: string;
  type: string;
  value: string;
  ttl: number;
  line: string;
  description: string;
  status: string;
}

export type BaiduFault = { status: number; code: string; message?: string } | "malformed" | "html";

export interface BaiduFake extends FakeServer<BaiduFault> {
  /** AK → SK; delete one to disable it mid-test. */
  keys: Map<string, string>;
  /** zone name → records */
  zones: Map<string, BaiduRecord[]>;
  /** The smallest TTL the account's plan accepts. */
  minTtl: number;
  addZone(name: string): void;
  addRecord(
    zone: string,
    record: { rr: string; type: string; value: string; ttl?: number; line?: string; description?: string },
  ): BaiduRecord;
  records(zone: string, rr: string, type: string): BaiduRecord[];
  reset(): void;
}

const AUTHORIZATION = /^bce-auth-v1\/([^/]+)\/(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)\/(\d+)\/([^/]*)\/([0-9a-f]{64})$/;
const PAGE_LIMIT = 1000;

export function startBaiduFake(): BaiduFake {
  const keys = new Map([[BAIDU_FAKE_AK, BAIDU_FAKE_SK]]);
  const zones = new Map<string, BaiduRecord[]>();
  let next = 1;

  function error(status: number, code: string, message: string): Response {
    return json(status, { requestId: crypto.randomUUID(), code, message });
  }

  function addRecord(
    zone: string,
    init: { rr: string; type: string; value: string; ttl?: number; line?: string; description?: string },
  ): BaiduRecord {
    const records = zones.get(zone);
    if (!records) throw new Error(`fake Baidu DNS: no zone ${zone}`);
    const record = {
      id: `rc-${String(next++).padStart(10, "0")}`,
      ttl: BAIDU_DEFAULT_TTL,
      line: "default",
      description: "",
      status: "running",
      ...init,
    };
    records.push(record);
    return record;
  }

  function authenticate(request: LoggedRequest): Response | null {
    const match = AUTHORIZATION.exec(request.headers.authorization ?? "");
    if (!match)
      return error(
        400,
        "InvalidHTTPAuthHeader",
        "The HTTP authorization header is invalid. Consult the service documentation for details.",
      );
    const [, accessKeyId = "", date = "", expires = "", signedHeaders = "", sent = ""] = match;
    const secretAccessKey = keys.get(accessKeyId);
    if (secretAccessKey === undefined)
      return error(403, "InvalidAccessKeyId", "The Access Key ID you provided does not exist in our records.");
    const names = signedHeaders.split(";").filter(Boolean);
    if (!names.includes("host"))
      return error(
        400,
        "InvalidHTTPAuthHeader",
        "The HTTP authorization header is invalid. Consult the service documentation for details.",
      );
    const headers = Object.fromEntries(names.map((name) => [name, request.headers[name] ?? ""]));
    const expected = bceAuthorization(
      { method: request.method, path: decodeURIComponent(request.path), query: request.query, headers },
      { accessKeyId, secretAccessKey },
      new Date(date),
      Number(expires),
    );
    if (Date.now() > Date.parse(date) + Number(expires) * 1000)
      return error(400, "RequestExpired", "Request has expired.");
    return expected.endsWith(`/${sent}`)
      ? null
      : error(
          400,
          "SignatureDoesNotMatch",
          "The request signature we calculated does not match the signature you provided.",
        );
  }

  /** Marker paging as Baidu does it: the marker is the id of the first item of the page. */
  function page<T extends { id: string }>(items: T[], request: LoggedRequest, field: string): Response {
    const maxKeys = Math.min(Math.max(Number(request.query.maxKeys ?? PAGE_LIMIT) || PAGE_LIMIT, 1), PAGE_LIMIT);
    const start =
      request.query.marker === undefined
        ? 0
        : Math.max(
            items.findIndex((i) => i.id === request.query.marker),
            0,
          );
    const slice = items.slice(start, start + maxKeys);
    const truncated = start + maxKeys < items.length;
    return json(200, {
      marker: request.query.marker ?? "",
      isTruncated: truncated,
      ...(truncated ? { nextMarker: items[start + maxKeys]!.id } : {}),
      maxKeys,
      [field]: slice,
    });
  }

  function invalid(type: string, value: unknown, ttl: unknown): Response | null {
    const valid =
      typeof value === "string" &&
      ((type === "A" && isIPv4(value)) || (type === "AAAA" && isIPv6(value)) || (type === "TXT" && value !== ""));
    if (!valid) {
      return error(400, "InappropriateJSON", `The value ${String(value)} is not a valid ${type} record value.`);
    }
    if (ttl !== undefined && (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < fake.minTtl)) {
      return error(400, "InappropriateJSON", `The ttl must be an integer no less than ${fake.minTtl}.`);
    }
    return null;
  }

  function route(request: LoggedRequest): Response {
    const refused = authenticate(request);
    if (refused) return refused;
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] !== "v1" || segments[1] !== "dns" || segments[2] !== "zone")
      return error(400, "InvalidURI", "Could not parse the specified URI.");

    if (segments.length === 3 && request.method === "GET") {
      const name = request.query.name;
      const listed = [...zones.keys()]
        .filter((zone) => name === undefined || zone.includes(name))
        .sort()
        .map((zone, i) => ({
          id: `zone-${String(i).padStart(6, "0")}`,
          name: zone,
          status: "running",
          productVersion: "free",
          createTime: "2024-01-01T00:00:00Z",
          expireTime: null,
          tags: [],
        }));
      return page(listed, request, "zones");
    }

    const zone = segments[3] ?? "";
    const records = zones.get(zone);
    if (!records) return error(404, "NoSuchZone", `The zone ${zone} does not exist.`);
    if (segments[4] !== "record") return error(400, "InvalidURI", "Could not parse the specified URI.");
    const fields =
      typeof request.body === "object" && request.body !== null && !Array.isArray(request.body)
        ? (request.body as Record<string, unknown>)
        : {};

    if (segments.length === 5 && request.method === "GET") {
      // The rr filter matches part of a host record.
      const rr = request.query.rr;
      return page(
        records.filter((r) => rr === undefined || r.rr.includes(rr)),
        request,
        "records",
      );
    }

    if (segments.length === 5 && request.method === "POST") {
      const type = String(fields.type ?? "");
      const rr = typeof fields.rr === "string" ? fields.rr : "";
      if (rr === "") return error(400, "InappropriateJSON", "rr is required.");
      const refusal = invalid(type, fields.value, fields.ttl);
      if (refusal) return refusal;
      if (records.some((r) => r.rr === rr && r.type === type && r.value === fields.value))
        return error(400, "RecordConflict", "The record already exists.");
      addRecord(zone, {
        rr,
        type,
        value: fields.value as string,
        ttl: typeof fields.ttl === "number" ? fields.ttl : BAIDU_DEFAULT_TTL,
        ...(typeof fields.line === "string" ? { line: fields.line } : {}),
        ...(typeof fields.description === "string" ? { description: fields.description } : {}),
      });
      return new Response(null, { status: 200 });
    }

    if (segments.length === 6 && request.method === "DELETE") {
      const at = records.findIndex((r) => r.id === segments[5]);
      if (at < 0) return error(404, "NoSuchRecord", `The record ${segments[5]} does not exist.`);
      records.splice(at, 1);
      return new Response(null, { status: 200 });
    }
    if (segments.length === 6 && request.method === "PUT") {
      const record = records.find((r) => r.id === segments[5]);
      if (!record) return error(404, "NoSuchRecord", `The record ${segments[5]} does not exist.`);
      const type = String(fields.type ?? "");
      if (typeof fields.rr !== "string" || fields.rr === "" || type === "")
        return error(400, "InappropriateJSON", "rr, type and value are required.");
      const refusal = invalid(type, fields.value, fields.ttl);
      if (refusal) return refusal;
      // The PUT replaces what it names; a TTL it is not sent becomes the plan's default, the line stays.
      Object.assign(record, {
        rr: fields.rr,
        type,
        value: fields.value,
        ttl: typeof fields.ttl === "number" ? fields.ttl : BAIDU_DEFAULT_TTL,
        description: typeof fields.description === "string" ? fields.description : "",
      });
      return new Response(null, { status: 200 });
    }
    return error(400, "InvalidURI", "Could not parse the specified URI.");
  }

  const server = startFakeServer<BaiduFault>({
    prefix: "",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      return error(
        mode.status,
        mode.code,
        mode.message ??
          (mode.status === 429
            ? "Too many requests, please slow down."
            : "We encountered an internal error. Please try again."),
      );
    },
  });

  const fake: BaiduFake = Object.assign(server, {
    keys,
    zones,
    minTtl: 1,
    addZone(name: string) {
      if (!zones.has(name)) zones.set(name, []);
    },
    addRecord,
    records: (zone: string, rr: string, type: string) =>
      (zones.get(zone) ?? []).filter((r) => r.rr === rr && r.type === type),
    reset() {
      zones.clear();
      keys.clear();
      keys.set(BAIDU_FAKE_AK, BAIDU_FAKE_SK);
      fake.minTtl = 1;
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}
