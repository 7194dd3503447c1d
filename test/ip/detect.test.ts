// Public IP detection against the echo fake: every answer format, family checks, the global-address
// filter, falling through sources with each reason kept, and the address parser and filter as tables.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { type DetectOptions, detectPublicIp, isGlobalAddress, parseIpAddress } from "../../src/ip/detect";
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
    expect(await detectPublicIp(4, options(["/v4"], { allowPrivate: true }))).toMatchObject({ ok: true, ip: "192.168.1.10" });
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
    const detection = await detectPublicIp(4, options(["/v4", "/json", "/trace", "/v6"], { timeoutMs: 200 }));
    expect(detection).toEqual({
      ok: false,
      error:
        `IPv4 detection failed: ${echo.url}/v4: HTTP 429; ` +
        `${echo.url}/json: not an IPv4 address: "<html><body>Service temporarily rebranded</body></html>"; ` +
        `${echo.url}/trace: HTTP 403; ` +
        `${echo.url}/v6: no answer within 200ms`,
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
    expect(detection.error).toStartWith(`IPv4 detection failed: ${echo.url}/v4: HTTP 500; ${goneUrl}: request failed: `);
  });

  test("no sources configured", async () => {
    expect(await detectPublicIp(6, options([]))).toEqual({ ok: false, error: "IPv6 detection failed: no sources configured" });
  });
});

describe("parseIpAddress", () => {
  const cases: { text: string; family: 4 | 6; parsed: string | null }[] = [
    { text: "185.103.110.182", family: 4, parsed: "185.103.110.182" },
    { text: "  8.8.8.8\n", family: 4, parsed: "8.8.8.8" },
    { text: "0.0.0.0", family: 4, parsed: "0.0.0.0" },
    { text: "256.1.1.1", family: 4, parsed: null },
    { text: "01.2.3.4", family: 4, parsed: null },
    { text: "1.2.3", family: 4, parsed: null },
    { text: "1.2.3.4.5", family: 4, parsed: null },
    { text: "2001:db8::1", family: 4, parsed: null },
    { text: "1.2.3.4", family: 6, parsed: null },
    { text: "2001:0DB8:0000:0000:0000:0000:0000:0001", family: 6, parsed: "2001:db8::1" },
    { text: "2001:db8:0:1:0:0:0:1", family: 6, parsed: "2001:db8:0:1::1" },
    { text: "2001:db8:0:0:1:0:0:0", family: 6, parsed: "2001:db8:0:0:1::" },
    { text: "2001:db8:0:1:1:1:1:1", family: 6, parsed: "2001:db8:0:1:1:1:1:1" },
    { text: "::", family: 6, parsed: "::" },
    { text: "::1", family: 6, parsed: "::1" },
    { text: "::ffff:192.0.2.1", family: 6, parsed: "::ffff:c000:201" },
    { text: "1:2:3:4:5:6:7:8:9", family: 6, parsed: null },
    { text: "1::2::3", family: 6, parsed: null },
    { text: "fe80::1%eth0", family: 6, parsed: null },
    { text: "12345::1", family: 6, parsed: null },
    { text: "garbage", family: 6, parsed: null },
  ];
  for (const { text, family, parsed } of cases) {
    test(`${JSON.stringify(text)} as IPv${family} → ${parsed}`, () => {
      expect(parseIpAddress(text, family)).toBe(parsed);
    });
  }
});

describe("isGlobalAddress", () => {
  const cases: { ip: string; global: boolean; why: string }[] = [
    { ip: "185.103.110.182", global: true, why: "public IPv4" },
    { ip: "8.8.8.8", global: true, why: "public IPv4" },
    { ip: "0.1.2.3", global: false, why: "this network" },
    { ip: "10.0.0.1", global: false, why: "private" },
    { ip: "100.64.0.1", global: false, why: "CGNAT" },
    { ip: "100.127.255.255", global: false, why: "CGNAT, last" },
    { ip: "100.128.0.1", global: true, why: "just past CGNAT" },
    { ip: "127.0.0.1", global: false, why: "loopback" },
    { ip: "169.254.1.1", global: false, why: "link-local" },
    { ip: "172.16.0.1", global: false, why: "private" },
    { ip: "172.31.255.255", global: false, why: "private, last" },
    { ip: "172.32.0.1", global: true, why: "just past private" },
    { ip: "192.0.0.8", global: false, why: "IETF protocol assignments" },
    { ip: "192.0.2.1", global: false, why: "TEST-NET-1" },
    { ip: "192.168.1.1", global: false, why: "private" },
    { ip: "198.18.0.1", global: false, why: "benchmarking" },
    { ip: "198.19.255.255", global: false, why: "benchmarking, last" },
    { ip: "198.51.100.1", global: false, why: "TEST-NET-2" },
    { ip: "203.0.113.1", global: false, why: "TEST-NET-3" },
    { ip: "224.0.0.1", global: false, why: "multicast" },
    { ip: "240.0.0.1", global: false, why: "reserved" },
    { ip: "255.255.255.255", global: false, why: "broadcast" },
    { ip: "2a01:4f8:c17:b8f::2", global: true, why: "public IPv6" },
    { ip: "2606:4700:4700::1111", global: true, why: "public IPv6" },
    { ip: "::", global: false, why: "unspecified" },
    { ip: "::1", global: false, why: "loopback" },
    { ip: "::ffff:8.8.8.8", global: false, why: "IPv4-mapped" },
    { ip: "64:ff9b::808:808", global: false, why: "NAT64" },
    { ip: "100::1", global: false, why: "discard" },
    { ip: "2001::1", global: false, why: "Teredo (2001::/23)" },
    { ip: "2001:1ff::1", global: false, why: "end of 2001::/23" },
    { ip: "2001:200::1", global: true, why: "just past 2001::/23" },
    { ip: "2001:db8::1", global: false, why: "documentation" },
    { ip: "3fff::1", global: false, why: "documentation (RFC 9637)" },
    { ip: "fc00::1", global: false, why: "unique local" },
    { ip: "fd12:3456::1", global: false, why: "unique local" },
    { ip: "fe80::1", global: false, why: "link-local" },
    { ip: "ff02::1", global: false, why: "multicast" },
    { ip: "4000::1", global: false, why: "outside 2000::/3" },
    { ip: "not an ip", global: false, why: "not an address" },
  ];
  for (const { ip, global, why } of cases) {
    test(`${ip} (${why}) → ${global ? "global" : "not global"}`, () => {
      expect(isGlobalAddress(ip)).toBe(global);
    });
  }
});
