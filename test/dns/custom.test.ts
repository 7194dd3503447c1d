// The custom-URL client against a recording endpoint: placeholders filled (URL-encoded in the URL,
// as they are in body and headers), methods and content types as documented, any 2xx is success,
// everything else quotes the status and the body's start, 429 pauses, and the secret never appears
// in a message, even when the endpoint echoes the request back.

import { describe, expect, test } from "bun:test";
import { type CustomFault, startCustomFake } from "../fakes/custom";
import { makeTestApp } from "../support";
import { fails, failureTests, serviceClient, target, useFake, waits } from "./support";

const HOST = "home.example.net";
const NEW_V4 = "203.0.113.7";
const NEW_V6 = "2a01:4f8::7";
/** Characters that must be encoded in a URL and kept as they are elsewhere. */
const SECRET = "s3cr&t/+ key=1";

const fake = useFake(startCustomFake);
/** How messages name the endpoint: `Custom URL 127.0.0.1:<port>`. */
const service = () => `Custom URL ${new URL(fake.url).host}`;
/** A provider row's client: the request its options describe (a GET of the URL below unless given), the secret (null: none). */
const client = (options: Record<string, unknown> = {}, secret: string | null = SECRET) =>
  serviceClient("custom", "", secret === null ? {} : { secret }, {
    url: `${fake.url}/update?key={secret}&host={domain}&ip={ip}&type={record_type}`,
    method: "GET",
    ...options,
  });

describe("the request", () => {
  test("GET: placeholders URL-encoded in the URL, one request; an AAAA's address and type alike", async () => {
    expect(await client().writeRecord(target(HOST), NEW_V4)).toEqual({
      ok: true,
      action: "updated",
      externalId: HOST,
      zoneId: "",
      message: `${service()} answered HTTP 200`,
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({
      method: "GET",
      path: "/update",
      query: { host: HOST, ip: NEW_V4, type: "A", key: SECRET },
      body: undefined,
    });
    await client().writeRecord(target(HOST, {}, { recordType: "AAAA" }), NEW_V6);
    expect(fake.requests[1]?.query).toMatchObject({ ip: NEW_V6, type: "AAAA" });
  });

  // The body as sent, with its Content-Type: placeholders raw, other braces (a JSON body's own) left
  // alone, none at all for a GET.
  const bodies: [method: "GET" | "POST" | "PUT", body: string, headers: object, sent: unknown, type?: string][] = [
    [
      "POST",
      '{"name": "{domain}", "type": "{record_type}", "content": "{ip}", "key": "{secret}"}',
      {},
      { name: HOST, type: "A", content: NEW_V4, key: SECRET },
      "application/json",
    ],
    ["PUT", "{domain}={ip}", {}, `${HOST}=${NEW_V4}`, "text/plain; charset=utf-8"],
    [
      "POST",
      "hostname={domain}&myip={ip}",
      { "content-type": "application/x-www-form-urlencoded" },
      `hostname=${HOST}&myip=${NEW_V4}`,
      "application/x-www-form-urlencoded",
    ],
    ["POST", '{"a": {"b": "{unknown}"}, "ip": "{ip}"}', {}, { a: { b: "{unknown}" }, ip: NEW_V4 }, "application/json"],
    ["GET", "{ip}", {}, undefined, undefined],
  ];
  for (const [method, body, headers, sent, type] of bodies) {
    test(`${method} with the body ${body}: sent as ${JSON.stringify(sent)} (${type})`, async () => {
      const outcome = await client({ url: `${fake.url}/records`, method, body, headers }).writeRecord(
        target(HOST),
        NEW_V4,
      );
      expect(outcome.ok).toBe(true);
      expect(fake.requests[0]?.method).toBe(method);
      expect(fake.requests[0]?.body).toEqual(sent);
      expect(fake.requests[0]?.headers["content-type"]).toBe(type);
    });
  }

  test("headers: placeholders raw; a header may replace the User-Agent; without a secret, {secret} is empty", async () => {
    const headers = {
      Authorization: "Bearer {secret}",
      "X-Record": "{record_type} {domain}",
      "user-agent": "my-router/2",
    };
    await client({ headers }).writeRecord(target(HOST), NEW_V4);
    expect(fake.requests[0]?.headers).toMatchObject({
      authorization: `Bearer ${SECRET}`,
      "x-record": "A home.example.net",
      "user-agent": "my-router/2",
    });
    await client({ url: `${fake.url}/u?ip={ip}&key={secret}` }, null).writeRecord(target(HOST), NEW_V4);
    expect(fake.requests[1]?.query).toEqual({ ip: NEW_V4, key: "" });
  });

  for (const status of [200, 201, 204]) {
    test(`HTTP ${status} is success`, async () => {
      fake.answer = { status, body: status === 204 ? "" : "done" };
      expect(await client().writeRecord(target(HOST), NEW_V4)).toMatchObject({
        ok: true,
        message: `${service()} answered HTTP ${status}`,
      });
    });
  }
});

describe("failures quote the status and the body, never the secret", () => {
  failureTests(
    [
      fails({ status: 500 }, "HTTP 500", "unreachable"),
      fails({ status: 400, body: `error ${"x".repeat(200)}` }, /^.*: HTTP 400 "error x{54}…"$/, "refused"),
      // An echo of the request URL.
      fails<CustomFault>(
        "echo",
        /^.*: HTTP 400 "Bad request: GET \/update\?key=••••&host=home\.example\.net&ip=/,
        "refused",
      ),
      // A redirect is not followed.
      fails(
        { status: 302, location: "https://login.example.org/" },
        'HTTP 302 redirects to "https://login.example.org/"',
        "refused",
      ),
      fails(
        { status: 301, location: `https://elsewhere.example/?key=${encodeURIComponent(SECRET)}` },
        'HTTP 301 redirects to "https://elsewhere.example/?key=••••"',
        "refused",
      ),
      // No wait invented: the updater decides.
      fails({ status: 429 }, "HTTP 429", "throttled"),
      // A day asked for: the wait named, which the updater caps.
      fails({ status: 429, retryAfter: 86400 }, "HTTP 429", "throttled", waits(86400)),
    ],
    async ({ arrange, message }: { arrange: CustomFault; message: string | RegExp }) => {
      fake.fault(arrange);
      const outcome = await client().writeRecord(target(HOST), NEW_V4);
      if (outcome.ok) return outcome;
      if (typeof message === "string") expect(outcome.message).toBe(`${service()}: ${message}`);
      expect(outcome.message).not.toContain(SECRET);
      expect(outcome.message).not.toContain(encodeURIComponent(SECRET));
      return outcome;
    },
    () => expect(fake.requests).toHaveLength(1),
  );

  for (const url of ["dyn.example.net/update?ip={ip}", "ftp://dyn.example.net/{ip}"]) {
    test(`a url that is not an http(s) one (${url}) is refused without a request`, async () => {
      expect(await client({ url }).writeRecord(target(HOST), NEW_V4)).toEqual({
        ok: false,
        message: `Custom URL: ${JSON.stringify(url)} is not an http(s) URL once filled in`,
        cause: "refused",
        stopRetrying: true,
      });
      expect(fake.requests).toHaveLength(0);
    });
  }

  test("a header value the secret makes invalid fails without showing it", async () => {
    const outcome = await client({ headers: { "X-Key": "{secret}" } }, "line\nbreak-s3cret").writeRecord(
      target(HOST),
      NEW_V4,
    );
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.message).toStartWith(`${service()}: request failed: `);
    expect(outcome.message).not.toContain("s3cret");
  });
});

test("the url option when saved: not an http(s) URL is refused with 422 naming it; a template with placeholders anywhere, even in the host, is taken", async () => {
  const t = await makeTestApp();
  const save = (url: string) =>
    t.request("POST", "/api/v1/providers", {
      body: { name: `custom ${url}`, type: "custom", credentials: {}, options: { url } },
    });
  for (const url of [
    "not a url",
    "ftp://dyn.example.net/update?ip={ip}",
    "dyn.example.net/update?ip={ip}",
    "https://",
  ]) {
    const response = await save(url);
    expect(response.status).toBe(422);
    expect(response.body.detail).toBe("options.url: must be an http:// or https:// URL");
    expect(response.body.errors[0].field).toBe("options.url");
  }
  expect((await t.request("GET", "/api/v1/providers")).body).toEqual([]);
  for (const url of [
    "https://dyn.example.net/update?host={domain}&ip={ip}",
    "http://{domain}:8080/set/{record_type}/{ip}",
  ]) {
    const response = await save(url);
    expect(response.status).toBe(200);
    expect(response.body.options.url).toBe(url);
  }
  t.ctx.sqlite.close();
});
