// The custom-URL client against a recording endpoint: placeholders filled (URL-encoded in the URL,
// as they are in body and headers), methods and content types as documented, any 2xx is success,
// everything else quotes the status and the body's start, 429 pauses, and the secret never appears
// in a message, even when the endpoint echoes the request back.

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { RecordTarget, RecordType } from "../../src/dns/provider";
import { type CustomRequestOptions, createCustomClient, custom } from "../../src/dns/services/custom";
import { type CustomFake, type CustomFault, startCustomFake } from "../fakes/custom";
import { makeTestApp, type TestApp } from "../support";

const NEW_V4 = "203.0.113.7";
const NEW_V6 = "2a01:4f8::7";
/** Characters that must be encoded in a URL and kept as they are elsewhere. */
const SECRET = "s3cr&t/+ key=1";
const USER_AGENT = "ddnsd/1.2.3";

let fake: CustomFake;
let service: string;

beforeEach(() => {
  fake = startCustomFake();
  service = `Custom URL ${new URL(fake.url).host}`;
});

afterEach(async () => {
  await fake.stop();
});

function client(request: Partial<CustomRequestOptions> = {}, options: { secret?: string; timeoutMs?: number } = {}) {
  return createCustomClient(
    options.secret ?? SECRET,
    {
      url: `${fake.url}/update?key={secret}&host={domain}&ip={ip}&type={record_type}`,
      method: "GET",
      headers: {},
      ...request,
    },
    { baseUrl: "", fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: USER_AGENT },
  );
}

function target(hostname = "home.example.net", recordType: RecordType = "A"): RecordTarget {
  return { hostname, recordType, externalId: null, config: {} };
}

describe("the description", () => {
  test("createClient reads the options, without a secret too", async () => {
    const built = custom.createClient(
      {},
      { url: `${fake.url}/u?ip={ip}&key={secret}`, method: "POST", body: "{ip}", headers: { "X-Host": "{domain}" } },
      { baseUrl: "", fetch, timeoutMs: 2000, userAgent: USER_AGENT },
    );
    expect((await built.writeRecord(target(), NEW_V4)).ok).toBe(true);
    expect(fake.requests[0]).toMatchObject({ method: "POST", query: { ip: NEW_V4, key: "" }, body: NEW_V4 });
    expect(fake.requests[0]?.headers["x-host"]).toBe("home.example.net");
  });
});

describe("the request", () => {
  test("GET: placeholders URL-encoded in the URL; ddnsd's User-Agent; one request", async () => {
    const outcome = await client().writeRecord(target(), NEW_V4);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: "home.example.net",
      zoneId: "",
      message: `${service} answered HTTP 200`,
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({
      method: "GET",
      path: "/update",
      query: { host: "home.example.net", ip: NEW_V4, type: "A", key: SECRET },
      body: undefined,
    });
    expect(fake.requests[0]?.headers["user-agent"]).toBe(USER_AGENT);
  });

  test("AAAA: the IPv6 and the type fill in the same way", async () => {
    await client().writeRecord(target("home.example.net", "AAAA"), NEW_V6);
    expect(fake.requests[0]?.query).toMatchObject({ ip: NEW_V6, type: "AAAA" });
  });

  const bodies: {
    name: string;
    method: "POST" | "PUT";
    body: string;
    headers?: Record<string, string>;
    sent: unknown;
    contentType: string;
  }[] = [
    {
      name: "POST with a JSON body",
      method: "POST",
      body: '{"name": "{domain}", "type": "{record_type}", "content": "{ip}", "key": "{secret}"}',
      sent: { name: "home.example.net", type: "A", content: NEW_V4, key: SECRET },
      contentType: "application/json",
    },
    {
      name: "PUT with a text body",
      method: "PUT",
      body: "{domain}={ip}",
      sent: `home.example.net=${NEW_V4}`,
      contentType: "text/plain; charset=utf-8",
    },
    {
      name: "POST with a form body and its own Content-Type",
      method: "POST",
      body: "hostname={domain}&myip={ip}",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      sent: `hostname=home.example.net&myip=${NEW_V4}`,
      contentType: "application/x-www-form-urlencoded",
    },
  ];
  for (const c of bodies) {
    test(`${c.name}: raw placeholders in the body`, async () => {
      const outcome = await client({
        url: `${fake.url}/records`,
        method: c.method,
        body: c.body,
        headers: c.headers ?? {},
      }).writeRecord(target(), NEW_V4);
      expect(outcome.ok).toBe(true);
      expect(fake.requests[0]?.method).toBe(c.method);
      expect(fake.requests[0]?.body).toEqual(c.sent);
      expect(fake.requests[0]?.headers["content-type"]).toBe(c.contentType);
    });
  }

  test("headers: placeholders raw; a header may replace the User-Agent", async () => {
    await client({
      headers: { Authorization: "Bearer {secret}", "X-Record": "{record_type} {domain}", "user-agent": "my-router/2" },
    }).writeRecord(target(), NEW_V4);
    expect(fake.requests[0]?.headers).toMatchObject({
      authorization: `Bearer ${SECRET}`,
      "x-record": "A home.example.net",
      "user-agent": "my-router/2",
    });
  });

  test("GET sends no body even when one is configured", async () => {
    await client({ body: "{ip}" }).writeRecord(target(), NEW_V4);
    expect(fake.requests[0]?.body).toBeUndefined();
  });

  test("other braces (a JSON body's own) are left alone", async () => {
    await client({ url: `${fake.url}/x`, method: "POST", body: '{"a": {"b": "{unknown}"}, "ip": "{ip}"}' }).writeRecord(
      target(),
      NEW_V4,
    );
    expect(fake.requests[0]?.body).toEqual({ a: { b: "{unknown}" }, ip: NEW_V4 });
  });

  const successes = [200, 201, 204];
  for (const status of successes) {
    test(`HTTP ${status} is success`, async () => {
      fake.answer = { status, body: status === 204 ? "" : "done" };
      expect(await client().writeRecord(target(), NEW_V4)).toMatchObject({
        ok: true,
        message: `${service} answered HTTP ${status}`,
      });
    });
  }
});

describe("failures quote the status and the body, never the secret", () => {
  const cases: {
    name: string;
    fault: CustomFault;
    message: string | RegExp;
    retryAfterSeconds?: number;
  }[] = [
    { name: "401 with a reason", fault: { status: 401, body: "invalid key" }, message: 'HTTP 401 "invalid key"' },
    { name: "500 with an empty body", fault: { status: 500 }, message: "HTTP 500" },
    {
      name: "a long body is cut",
      fault: { status: 400, body: `error ${"x".repeat(200)}` },
      message: /^.*: HTTP 400 "error x{54}…"$/,
    },
    {
      name: "an echo of the request URL",
      fault: "echo",
      message: /^.*: HTTP 400 "Bad request: GET \/update\?key=••••&host=home\.example\.net&ip=/,
    },
    {
      name: "a redirect is not followed",
      fault: { status: 302, location: "https://login.example.org/" },
      message: 'HTTP 302 redirects to "https://login.example.org/"',
    },
    {
      name: "429 with Retry-After",
      fault: { status: 429, body: "slow down", retryAfter: 90 },
      message: 'HTTP 429 "slow down"',
      retryAfterSeconds: 90,
    },
    {
      name: "429 without Retry-After: no wait invented (the updater decides)",
      fault: { status: 429 },
      message: "HTTP 429",
    },
    {
      name: "429 asking for a day: the wait named, which the updater caps",
      fault: { status: 429, retryAfter: 86400 },
      message: "HTTP 429",
      retryAfterSeconds: 86400,
    },
    { name: "502 HTML page", fault: "html", message: /^.*: HTTP 502 "<!DOCTYPE html>/ },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      fake.fault(c.fault);
      const outcome = await client({}, { timeoutMs: 1000 }).writeRecord(target(), NEW_V4);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      if (typeof c.message === "string") expect(outcome.message).toBe(`${service}: ${c.message}`);
      else expect(outcome.message).toMatch(c.message);
      expect(outcome.retryAfterSeconds).toBe(c.retryAfterSeconds);
      expect(outcome.stopRetrying).toBeUndefined();
      expect(outcome.message).not.toContain(SECRET);
      expect(outcome.message).not.toContain(encodeURIComponent(SECRET));
      expect(fake.requests).toHaveLength(1);
    });
  }

  test("the secret echoed in a redirect's Location is masked", async () => {
    fake.fault({ status: 301, location: `https://elsewhere.example/?key=${encodeURIComponent(SECRET)}` });
    const outcome = await client().writeRecord(target(), NEW_V4);
    expect(outcome).toEqual({
      ok: false,
      message: `${service}: HTTP 301 redirects to "https://elsewhere.example/?key=••••"`,
      cause: "refused",
    });
  });

  const badUrls: { name: string; url: string }[] = [
    { name: "not a URL", url: "dyn.example.net/update?ip={ip}" },
    { name: "not http(s)", url: "ftp://dyn.example.net/{ip}" },
  ];
  for (const { name, url } of badUrls) {
    test(`a url that is ${name} is refused without a request`, async () => {
      const outcome = await client({ url }).writeRecord(target(), NEW_V4);
      expect(outcome).toEqual({
        ok: false,
        message: `Custom URL: ${JSON.stringify(url)} is not an http(s) URL once filled in`,
        cause: "refused",
        stopRetrying: true,
      });
      expect(fake.requests).toHaveLength(0);
    });
  }

  test("a header value the secret makes invalid fails without showing it", async () => {
    const outcome = await client({ headers: { "X-Key": "{secret}" } }, { secret: "line\nbreak-s3cret" }).writeRecord(
      target(),
      NEW_V4,
    );
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.message).toStartWith(`${service}: request failed: `);
    expect(outcome.message).not.toContain("s3cret");
  });
});

describe("the url option when saved", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(() => t.ctx.sqlite.close());

  function save(url: string) {
    return t.request("POST", "/api/v1/providers", {
      body: { name: `custom ${url}`, type: "custom", credentials: {}, options: { url } },
    });
  }

  for (const url of [
    "not a url",
    "ftp://dyn.example.net/update?ip={ip}",
    "dyn.example.net/update?ip={ip}",
    "https://",
  ]) {
    test(`${JSON.stringify(url)} → 422 naming options.url, and nothing stored`, async () => {
      const response = await save(url);
      expect(response.status).toBe(422);
      expect(response.body.detail).toBe("options.url: must be an http:// or https:// URL");
      expect(response.body.errors[0].field).toBe("options.url");
      expect((await t.request("GET", "/api/v1/providers")).body).toEqual([]);
    });
  }

  test("an http(s) template is taken, placeholders anywhere, even in the host", async () => {
    for (const url of [
      "https://dyn.example.net/update?host={domain}&ip={ip}",
      "http://{domain}:8080/set/{record_type}/{ip}",
    ]) {
      const response = await save(url);
      expect(response.status).toBe(200);
      expect(response.body.options.url).toBe(url);
    }
  });
});
