// A bounded, seeded fuzz test against a running server (docs/api.md, limits: no request, however malformed,
// is answered 500 by ddnsd's own code). 2,400 generated requests — hostile paths, ids, queries,
// headers, bodies and content types, with and without a token, some over a raw socket with a
// malformed Host — then /healthz must still answer 200. A failure names the seed and the request;
// FUZZ_SEED=<n> bun test test/hardening/fuzz.test.ts replays it.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { createDomain, createProvider } from "../api/helpers";
import { nested, rawRequest, type Served, serve } from "./helpers";

const REQUESTS = 2_400;
const CONCURRENCY = 8;
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

/** mulberry32: a small seeded generator, so a run can be replayed exactly. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick };
}

const IDS = [
  "1",
  "2",
  "0",
  "-1",
  "0x10",
  "1e3",
  "+5",
  "5.0",
  "%205",
  "99999999999999999999",
  "%00",
  "abc",
  "%ff",
  "1;DROP TABLE domains",
  "%E2%80%AE",
  "..%2f..",
  "1%0d%0aX:1",
  "١",
];
const ROUTES = [
  "/api/v1/auth/login",
  "/api/v1/auth/logout",
  "/api/v1/providers",
  "/api/v1/providers/{id}",
  "/api/v1/providers/{id}/verify",
  "/api/v1/domains",
  "/api/v1/domains/{id}",
  "/api/v1/domains/{id}/history",
  "/api/v1/domains/{id}/update_ip",
  "/api/v1/system/status",
  "/api/v1/metrics/dashboard",
  "/api/v1/metrics/provider-stats",
  "/healthz",
  "/docs",
  "/docs/json",
  "/",
  "/login",
  "/logout",
  "/providers",
  "/providers/new",
  "/providers/{id}/edit",
  "/providers/{id}/verify",
  "/providers/credential-field",
  "/domains",
  "/domains/new",
  "/domains/{id}/edit",
  "/domains/schedule-preview",
  "/domains/provider-options",
  "/about",
  "/update-keys",
  "/update-keys/{id}/delete",
  "/notifications",
  "/notifications/new",
  "/notifications/{id}/edit",
  "/notifications/{id}/test",
  "/notifications/{id}/enabled",
  "/notifications/{id}/delete",
  "/notifications/fields",
  "/api/v1/{junk}",
  "/{junk}",
  "/assets/{junk}",
  "/docs/assets/{junk}",
  "//api//v1//providers",
  "/api/v1/providers/../domains",
];
const QUERIES = [
  "",
  "?limit=5",
  "?limit=0x10",
  "?limit=1e3",
  "?limit=-1",
  "?limit=",
  "?limit=1001",
  "?limit=5&limit=6",
  "?cascade=true",
  "?cascade=yes",
  "?cascade[]=1",
  "?page=-9",
  "?expr=*%20*%20*%20*%20*",
  "?expr=%00",
  "?type=dynu",
  "?%ff=%ff",
  "?next=//evil.example",
  "?__proto__=1",
];
const METHODS = ["GET", "GET", "GET", "POST", "POST", "POST", "PUT", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"];
const CONTENT_TYPES = [
  null,
  "application/json",
  "APPLICATION/JSON",
  "application/json; charset=utf-16",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "multipart/form-data",
  "application/vnd.api+json",
  "garbage",
  "application/json, text/plain",
  ";;;",
];
const STRINGS = [
  "",
  " ",
  "a",
  "x".repeat(1025),
  "x".repeat(5000),
  "ünïcødé",
  "\u0000",
  "\ud800",
  "<script>alert(1)</script>",
  "'; DROP TABLE users; --",
  "../../etc/passwd",
  "home.example.com",
  "*.example.com",
  "xn--",
  "-a-.com",
  "a".repeat(300) + ".com",
  "0 0 * * *",
  "* * * * * * *",
  "A",
  "AAAA",
  "TXT",
];

function jsonValue(r: ReturnType<typeof generator>, depth = 0): unknown {
  switch (r.int(depth > 3 ? 5 : 8)) {
    case 0:
      return r.pick(STRINGS);
    case 1:
      return r.pick([0, -1, 1, 1.5, 1e308, -0, 2 ** 53 + 1, NaN]);
    case 2:
      return r.pick([true, false, null]);
    case 3:
      return r.int(1000);
    case 4:
      return r.pick(["1", "0x1", "true", "null"]);
    case 5:
      return Array.from({ length: r.int(4) }, () => jsonValue(r, depth + 1));
    default: {
      const keys = [
        "name",
        "type",
        "credentials",
        "is_enabled",
        "provider_id",
        "domain_name",
        "record_type",
        "external_id",
        "config",
        "cron_schedule",
        "username",
        "password",
        "api_token",
        "api_key",
        "token",
        "zone_id",
        "ttl",
        "proxied",
        "__proto__",
        "constructor",
      ];
      return Object.fromEntries(Array.from({ length: r.int(6) }, () => [r.pick(keys), jsonValue(r, depth + 1)]));
    }
  }
}

function body(r: ReturnType<typeof generator>): string | Uint8Array<ArrayBuffer> | undefined {
  switch (r.int(10)) {
    case 0:
      return undefined;
    case 1:
      return "";
    case 2:
      return `{"a":${nested(r.pick([31, 33, 500, 5000]))}}`;
    case 3:
      return r.pick(["{", '{"a":}', "nul", "[1,2", '"unterminated', '{"a":1}{"b":2}', "\u0000\u0001", "{'a':1}"]);
    case 4:
      return crypto.getRandomValues(new Uint8Array(r.int(256)));
    case 5:
      return "username=admin&password=x&next=%2F%2Fevil&name=%00&type=dynu&credential=" + "k".repeat(r.int(3000));
    case 6:
      return JSON.stringify({
        name: r.pick(STRINGS),
        type: r.pick(["cloudflare", "dynu", "CloudFlare", "x"]),
        credentials: jsonValue(r),
      });
    case 7:
      return JSON.stringify({
        provider_id: r.pick([1, 2, "1", -1, 1e20]),
        domain_name: r.pick(STRINGS),
        record_type: r.pick(STRINGS),
        config: jsonValue(r),
        cron_schedule: r.pick(STRINGS),
      });
    default:
      return JSON.stringify(jsonValue(r));
  }
}

let s: Served;
let token: string;

beforeAll(async () => {
  s = await serve();
  token = await s.t.token();
  const provider = await createProvider(s.t);
  await createDomain(s.t, provider.id);
});
afterAll(() => s.running.stop());

test(`${REQUESTS} hostile requests (seed ${SEED}): none answered 500, every API error is {detail}, and /healthz still answers`, async () => {
  const r = generator(SEED);
  const plans = Array.from({ length: REQUESTS }, () => {
    // Half the ids are real ones, so the handlers behind the id checks are reached too.
    const route = r
      .pick(ROUTES)
      .replace("{id}", r.int(2) === 0 ? r.pick(["1", "2"]) : r.pick(IDS))
      .replace("{junk}", r.pick(IDS) + r.pick(["", "/x", "%2e%2e", "?"]));
    const method = r.pick(METHODS);
    const contentType = r.pick(CONTENT_TYPES);
    const headers: Record<string, string> = {};
    if (contentType !== null) headers["content-type"] = contentType;
    const auth = r.int(4);
    if (auth === 0) headers.authorization = `Bearer ${token}`;
    if (auth === 1)
      headers.authorization = r.pick(["Bearer", "Bearer x.y.z", "Basic YTpi", `Bearer ${token}x`, `bearer ${token}`]);
    if (r.int(3) === 0) headers.origin = r.pick(["http://localhost", "null", "http://evil.example", "%%%"]);
    if (r.int(4) === 0)
      headers.cookie = r.pick([
        `ddnsd_session=${token}`,
        "ddnsd_session=garbage",
        "ddnsd_session=",
        "ddnsd_flash=%ff",
        "a=b; ;;",
      ]);
    if (r.int(6) === 0) headers["x-forwarded-for"] = r.pick(["203.0.113.1", "garbage", ", ,", "::1, 10.0.0.1"]);
    if (r.int(8) === 0) headers["hx-request"] = "true";
    const raw =
      r.int(12) === 0
        ? r.pick(["Host: a b", "Host: [::1", "Host: x:99999", null, "Host: ", "Host: a\tb", "Host: localhost:0"])
        : undefined;
    return {
      method,
      path: route + r.pick(QUERIES),
      headers,
      body: method === "GET" || method === "HEAD" ? undefined : body(r),
      raw,
    };
  });

  const failures: string[] = [];
  const histogram: Record<number, number> = {};
  let next = 0;
  async function worker() {
    while (next < plans.length) {
      const plan = plans[next++]!;
      let status: number;
      let text: string;
      let type: string | null;
      if (plan.raw !== undefined) {
        const payload = plan.body === undefined ? "" : typeof plan.body === "string" ? plan.body : "";
        const head = [
          `${plan.method} ${plan.path} HTTP/1.${plan.raw === null ? 0 : 1}`,
          plan.raw,
          ...Object.entries(plan.headers).map(([k, v]) => `${k}: ${v}`),
          `Content-Length: ${Buffer.byteLength(payload)}`,
        ]
          .filter((l) => l !== null)
          .join("\r\n");
        const answer = await rawRequest(s.port, head, payload);
        [status, text, type] = [answer.status, answer.body, answer.headers["content-type"] ?? null];
      } else {
        const response = await fetch(`${s.base}${plan.path}`, {
          method: plan.method,
          headers: plan.headers,
          body: plan.body,
          redirect: "manual",
        });
        [status, text, type] = [response.status, await response.text(), response.headers.get("content-type")];
      }
      histogram[status] = (histogram[status] ?? 0) + 1;
      const where = `${plan.method} ${plan.path} ${JSON.stringify(plan.headers)} raw=${plan.raw} → ${status}`;
      if (status === 500 || !(status > 0)) failures.push(`${where}: ${text.slice(0, 200)}`);
      if (status >= 400 && plan.method !== "HEAD" && type?.includes("application/json")) {
        const detail = (JSON.parse(text) as { detail?: unknown }).detail;
        if (typeof detail !== "string" || detail === "") failures.push(`${where}: no detail in ${text.slice(0, 200)}`);
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  if (process.env.FUZZ_DEBUG) console.log(JSON.stringify(histogram));
  expect(failures, `seed ${SEED}`).toEqual([]);
  expect(s.t.logs.filter((line) => line.includes("unexpected error"))).toEqual([]);
  expect((await fetch(`${s.base}/healthz`)).status).toBe(200);
}, 120_000);
