// Requests screened before routing (docs/api.md, limits), against a real server: a missing or malformed
// Host → 400 and nothing written; a body over 64 KiB → 413; JSON deeper than 32 levels → 422 (also
// on the login route, which needs no token); Content-Type matched ignoring case; the headers every
// answer carries.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { resetData } from "../api/helpers";
import { nested, providerCount, rawRequest, type Served, serve } from "./helpers";

let s: Served;
let token: string;

beforeAll(async () => {
  s = await serve();
  token = await s.t.token();
});
afterAll(() => s.running.stop());
beforeEach(() => resetData(s.t));

const PROVIDER = JSON.stringify({
  name: "home",
  type: "cloudflare",
  credentials: { api_token: "cf-token-0123456789abcdef" },
});

function post(path: string, body: string, headers: Record<string, string> = {}) {
  return fetch(`${s.base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
    body,
  });
}

describe("the Host header", () => {
  for (const [name, hostLine] of [
    ["a space in it", "Host: a b"],
    ["an unclosed IPv6 bracket", "Host: [::1"],
    ["a port past 65535", "Host: x:99999"],
    ["none at all (HTTP/1.0)", null],
  ] as const) {
    test(`${name} → 400, and a POST stores nothing`, async () => {
      const head = [
        `POST /api/v1/providers HTTP/1.${hostLine === null ? 0 : 1}`,
        hostLine,
        `Authorization: Bearer ${token}`,
        "Content-Type: application/json",
        `Content-Length: ${PROVIDER.length}`,
      ]
        .filter((line) => line !== null)
        .join("\r\n");
      const answer = await rawRequest(s.port, head, PROVIDER);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({ detail: "The request has no valid Host header" });
      expect(providerCount(s.t)).toBe(0);
      // The log line names the method and the path, and no fault was logged.
      expect(
        s.t.logs.some(
          (line) => line.includes("POST") && line.includes("/api/v1/providers") && line.includes("status=400"),
        ),
      ).toBe(true);
      expect(s.t.logs.some((line) => line.includes("ERROR"))).toBe(false);
    });
  }

  test("a well-formed Host (name, IPv4, IPv6, with a port) is served", async () => {
    for (const host of ["localhost", "127.0.0.1:8001", "[::1]:8001", "ddnsd.home.arpa"]) {
      const answer = await rawRequest(s.port, `GET /healthz HTTP/1.1\r\nHost: ${host}`);
      expect(answer.status).toBe(200);
    }
  });
});

describe("body size", () => {
  test("a declared body over 64 KiB → 413, nothing stored", async () => {
    const big = JSON.stringify({ name: "big", type: "cloudflare", credentials: { api_token: "x".repeat(70_000) } });
    const response = await post("/api/v1/providers", big);
    expect(response.status).toBe(413);
    expect((await response.json()).detail).toContain("64 KiB");
    expect(providerCount(s.t)).toBe(0);
  });

  test("a chunked body (no Content-Length) over 64 KiB → 413, nothing stored", async () => {
    const chunk = "x".repeat(16 * 1024);
    const body = `{"name":"big","type":"cloudflare","credentials":{"api_token":"${chunk.repeat(5)}"}}`;
    const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    const answer = await rawRequest(
      s.port,
      `POST /api/v1/providers HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked`,
      chunked,
    );
    expect(answer.status).toBe(413);
    expect(providerCount(s.t)).toBe(0);
  });

  test("a 10 MB credential never gets stored (the body limit comes first)", async () => {
    const response = await post(
      "/api/v1/providers",
      JSON.stringify({ name: "huge", type: "cloudflare", credentials: { api_token: "y".repeat(10_000_000) } }),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ detail: "The request body is larger than 64 KiB" });
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(providerCount(s.t)).toBe(0);
  });
});

describe("JSON depth", () => {
  test("5,000 levels on the login route → 422, no token needed to get it", async () => {
    const response = await fetch(`${s.base}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"username":${nested(5000)}}`,
    });
    expect(response.status).toBe(422);
    expect((await response.json()).detail).toBe("The request body is nested deeper than 32 levels");
  });

  test("a 100,000-deep config is refused (413, it is over 64 KiB; 40 levels within the size → 422); nothing stored", async () => {
    const provider = await (await post("/api/v1/providers", PROVIDER)).json();
    const body = (levels: number) =>
      `{"provider_id":${provider.id},"domain_name":"deep.example.com","config":{"x":${nested(levels)}}}`;
    expect((await post("/api/v1/domains", body(100_000))).status).toBe(413);
    const response = await post("/api/v1/domains", body(40));
    expect(response.status).toBe(422);
    expect((await response.json()).detail).toBe("The request body is nested deeper than 32 levels");
    expect(s.t.ctx.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM domains").get()!.n).toBe(0);
  });

  test("32 levels are fine; brackets inside strings do not count", async () => {
    const provider = await (await post("/api/v1/providers", PROVIDER)).json();
    // config (1) + x (31 arrays) = 32 levels below the body object: 33 in all → refused; one less passes.
    const deep = (levels: number) =>
      `{"provider_id":${provider.id},"domain_name":"d${levels}.example.com","config":{"note":"${"[".repeat(100)}","x":${nested(levels)}}}`;
    expect((await post("/api/v1/domains", deep(30))).status).toBe(200);
    expect((await post("/api/v1/domains", deep(31))).status).toBe(422);
  });
});

describe("Content-Type", () => {
  test("matched ignoring case: Application/JSON is JSON", async () => {
    const response = await post("/api/v1/providers", PROVIDER, { "content-type": "Application/JSON; Charset=UTF-8" });
    expect(response.status).toBe(200);
    expect(providerCount(s.t)).toBe(1);
  });

  test("the login form too", async () => {
    const response = await fetch(`${s.base}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "APPLICATION/X-WWW-FORM-URLENCODED" },
      body: "username=admin&password=correct+horse+battery+staple",
    });
    expect(response.status).toBe(200);
  });
});

describe("headers", () => {
  test("every answer carries X-Content-Type-Options: nosniff (JSON, errors, pages, docs)", async () => {
    for (const path of ["/healthz", "/api/v1/providers", "/nowhere", "/login", "/docs", "/docs/json"]) {
      const response = await fetch(`${s.base}${path}`);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  test("/docs cannot be framed and has a CSP", async () => {
    const response = await fetch(`${s.base}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});
