// Public IP detection against the echo fake: every answer format, family checks, the global-address
// filter, and falling through sources with each reason kept. The address parser and filter as
// tables are in test/unit/net/address.test.ts.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { type DetectOptions, detectPublicIp } from "../../src/ip/detect";
import { ECHO_DEFAULT_IPV4, ECHO_DEFAULT_IPV6, type EchoFake, startEchoFake } from "../fakes/echo";

let echo: EchoFake;

beforeEach(() => {
  echo = startEchoFake();
});

afterEach(async () => {
  await echo.stop();
});

function options(paths: string[], overrides: Partial<DetectOptions> = {}): DetectOptions {
  return { urls: paths.map((p) => echo.url + p), fetch, timeoutMs: 2000, allowPrivate: false, ...overrides };
}

describe("answer formats", () => {
  const cases: { name: string; family: 4 | 6; path: string; ip: string }[] = [
    { name: "bare IPv4 with a newline", family: 4, path: "/v4", ip: ECHO_DEFAULT_IPV4 },
    { name: "Cloudflare trace, IPv4", family: 4, path: "/trace", ip: ECHO_DEFAULT_IPV4 },
    { name: "JSON, IPv4", family: 4, path: "/json", ip: ECHO_DEFAULT_IPV4 },
    { name: "bare IPv6", family: 6, path: "/v6", ip: ECHO_DEFAULT_IPV6 },
    { name: "Cloudflare trace, IPv6", family: 6, path: "/trace6", ip: ECHO_DEFAULT_IPV6 },
    { name: "JSON, IPv6", family: 6, path: "/json6", ip: ECHO_DEFAULT_IPV6 },
  ];
  for (const { name, family, path, ip } of cases) {
    test(name, async () => {
      expect(await detectPublicIp(family, options([path]))).toEqual({ ok: true, ip, source: echo.url + path });
      expect(echo.hits(path)).toBe(1);
    });
  }

  test("IPv6 is reported in canonical compressed lowercase form", async () => {
    echo.ipv6 = "2A01:04F8:0C17:0B8F:0000:0000:0000:0002";
    expect(await detectPublicIp(6, options(["/v6"]))).toMatchObject({ ok: true, ip: "2a01:4f8:c17:b8f::2" });
  });
});

describe("rejections", () => {
  test("the wrong family is not accepted", async () => {
    const url = `${echo.url}/v4`;
    expect(await detectPublicIp(6, options(["/v4"]))).toEqual({
      ok: false,
      error: `IPv6 detection failed: ${url}: not an IPv6 address: "${ECHO_DEFAULT_IPV4}"`,
    });
  });

  test("a private address is refused…", async () => {
    echo.ipv4 = "192.168.1.10";
    expect(await detectPublicIp(4, options(["/v4"]))).toEqual({
      ok: false,
      error: `IPv4 detection failed: ${echo.url}/v4: 192.168.1.10 is not a globally routable address`,
    });
  });

  test("…unless private addresses are allowed", async () => {
    echo.ipv4 = "192.168.1.10";
    expect(await detectPublicIp(4, options(["/v4"], { allowPrivate: true }))).toMatchObject({
      ok: true,
      ip: "192.168.1.10",
    });
  });

  test("a non-global IPv6 address is refused", async () => {
    echo.ipv6 = "fe80::1";
    expect(await detectPublicIp(6, options(["/v6"]))).toMatchObject({ ok: false });
  });
});

describe("several sources", () => {
  test("falls through to the next source; the first is asked once", async () => {
    echo.fault({ status: 429 }, 1, "/v4");
    expect(await detectPublicIp(4, options(["/v4", "/trace"]))).toEqual({
      ok: true,
      ip: ECHO_DEFAULT_IPV4,
      source: `${echo.url}/trace`,
    });
    expect(echo.hits("/v4")).toBe(1);
    expect(echo.hits("/trace")).toBe(1);
  });

  test("stops at the first good answer", async () => {
    await detectPublicIp(4, options(["/v4", "/trace", "/json"]));
    expect(echo.requests.map((r) => r.path)).toEqual(["/v4"]);
  });

  test("all failing: every source tried, each reason kept in order", async () => {
    echo.fault({ status: 429 }, 1, "/v4");
    echo.fault("garbage", 1, "/json");
    echo.fault({ status: 403 }, 1, "/trace");
    echo.fault("timeout", 1, "/v6");
    const detection = await detectPublicIp(4, options(["/v4", "/json", "/trace", "/v6"], { timeoutMs: 1000 }));
    expect(detection).toEqual({
      ok: false,
      error:
        `IPv4 detection failed: ${echo.url}/v4: HTTP 429; ` +
        `${echo.url}/json: not an IPv4 address: "<html><body>Service temporarily rebranded</body></html>"; ` +
        `${echo.url}/trace: HTTP 403; ` +
        `${echo.url}/v6: no answer within 1s`,
    });
  });

  test("a 500 and an unreachable source are reasons too", async () => {
    const gone = startEchoFake();
    const goneUrl = `${gone.url}/v4`;
    await gone.stop();
    echo.fault({ status: 500 });
    const detection = await detectPublicIp(4, { ...options(["/v4"]), urls: [`${echo.url}/v4`, goneUrl] });
    expect(detection.ok).toBe(false);
    if (detection.ok) return;
    expect(detection.error).toStartWith(
      `IPv4 detection failed: ${echo.url}/v4: HTTP 500; ${goneUrl}: request failed: `,
    );
  });

  test("no sources configured", async () => {
    expect(await detectPublicIp(6, options([]))).toEqual({
      ok: false,
      error: "IPv6 detection failed: no sources configured",
    });
  });
});
