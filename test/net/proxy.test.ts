// Outbound requests honour HTTPS_PROXY / HTTP_PROXY / NO_PROXY (and their lowercase forms): address
// detection, the DNS service and a notification each go through a real forward proxy on loopback
// (CONNECT for https://, absolute-form requests for http://), and what NO_PROXY names goes direct.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Server } from "bun";
import { loadSettings, SettingsError } from "../../src/config";
import type { FetchLike } from "../../src/net/outbound";
import { type ProxySettings, parseNoProxy, proxyFor } from "../../src/net/proxy";
import { DUCKDNS_FAKE_TOKEN, type DuckDnsFake, startDuckDnsFake } from "../fakes/duckdns";
import { ECHO_DEFAULT_IPV4 } from "../fakes/echo";
import { type NotifyFake, startWebhookReceiver } from "../fakes/notify";
import { type ProxyFake, startProxyFake } from "../fakes/proxy";
import { makeTestApp } from "../support";

const DETECTED = ECHO_DEFAULT_IPV4;

describe("proxyFor", () => {
  const settings = (noProxy: string): ProxySettings => ({
    https: "http://proxy:3128",
    http: "http://plain-proxy:3128",
    noProxy: parseNoProxy(noProxy).rules,
  });
  const CASES: { url: string; noProxy: string; proxy: string | null }[] = [
    { url: "https://api.cloudflare.com/client/v4", noProxy: "", proxy: "http://proxy:3128" },
    { url: "http://router.lan/nic/update", noProxy: "", proxy: "http://plain-proxy:3128" },
    { url: "https://api.cloudflare.com/", noProxy: "cloudflare.com", proxy: null },
    { url: "https://api.cloudflare.com/", noProxy: ".cloudflare.com", proxy: null },
    { url: "https://api.cloudflare.com/", noProxy: "*.cloudflare.com", proxy: null },
    { url: "https://notcloudflare.com/", noProxy: "cloudflare.com", proxy: "http://proxy:3128" },
    { url: "https://ntfy.lan:8443/topic", noProxy: "ntfy.lan:443", proxy: "http://proxy:3128" },
    { url: "https://ntfy.lan:8443/topic", noProxy: "ntfy.lan:8443", proxy: null },
    { url: "http://192.168.1.10/hook", noProxy: "localhost, 192.168.0.0/16", proxy: null },
    { url: "http://[fd00::5]/hook", noProxy: "fd00::/8", proxy: null },
    { url: "http://127.0.0.1/hook", noProxy: "", proxy: "http://plain-proxy:3128" },
    { url: "https://anything.example/", noProxy: "*", proxy: null },
  ];
  for (const { url, noProxy, proxy } of CASES) {
    test(`${url} with NO_PROXY="${noProxy}" → ${proxy ?? "direct"}`, () => {
      expect(proxyFor(new URL(url), settings(noProxy))).toBe(proxy);
    });
  }

  test("without a proxy for the scheme, requests go direct", () => {
    expect(proxyFor(new URL("http://router.lan/"), { https: "http://proxy:3128", http: null, noProxy: [] })).toBeNull();
  });
});

describe("the settings", () => {
  test("read in either case, the lowercase one first; a bare host:port is an http proxy", () => {
    const settings = loadSettings({
      HTTPS_PROXY: "http://upper:1",
      https_proxy: "proxy.lan:3128",
      HTTP_PROXY: "http://plain:8080",
      NO_PROXY: "lan, 10.0.0.0/8",
    });
    expect(settings.proxy.https).toBe("http://proxy.lan:3128");
    expect(settings.proxy.http).toBe("http://plain:8080");
    expect(settings.proxy.noProxy).toHaveLength(2);
  });

  test("none set: no proxy", () => {
    expect(loadSettings({}).proxy).toEqual({ https: null, http: null, noProxy: [] });
  });

  test("a proxy that is not an http(s) URL, or a NO_PROXY entry that is no host, stops the start naming the variable", () => {
    expect(() => loadSettings({ HTTPS_PROXY: "socks5://proxy:1080" })).toThrow(
      new SettingsError(
        'Invalid setting HTTPS_PROXY: expected the proxy\'s http(s) URL, e.g. http://proxy.lan:3128, got "socks5://proxy:1080"',
      ),
    );
    expect(() => loadSettings({ no_proxy: "good.lan, bad/host" })).toThrow(/^Invalid setting no_proxy: .*"bad\/host"/);
  });

  test("the error never repeats a password the refused value carries", () => {
    expect(() => loadSettings({ HTTPS_PROXY: "socks5://me:s3cret-pw@proxy:1080" })).toThrow(
      new SettingsError(
        'Invalid setting HTTPS_PROXY: expected the proxy\'s http(s) URL, e.g. http://proxy.lan:3128, got "socks5://••••@proxy:1080"',
      ),
    );
  });
});

describe("through the app", () => {
  let dir: string;
  let echo: Server<undefined>;
  let duckdns: DuckDnsFake;
  let receiver: NotifyFake;
  let proxy: ProxyFake;
  /** The app's fetch, trusting the test's own certificate authority for the https echo service. */
  let trusting: FetchLike;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "ddnsd-proxy-"));
    const key = join(dir, "key.pem");
    const cert = join(dir, "cert.pem");
    const openssl = Bun.spawnSync(
      [
        "openssl",
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
        "-keyout",
        key,
        "-out",
        cert,
      ],
      { stderr: "pipe" },
    );
    if (openssl.exitCode !== 0) throw new Error(`openssl failed: ${openssl.stderr.toString()}`);
    const ca = readFileSync(cert, "utf8");
    // An echo service over https, as the real ones are. It closes each connection, so every detection
    // opens a tunnel of its own that the proxy sees.
    echo = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      tls: { cert: Bun.file(cert), key: Bun.file(key) },
      fetch: () => new Response(DETECTED, { headers: { connection: "close" } }),
    });
    trusting = (input, init) => fetch(input, { ...init, tls: { ca } });
    duckdns = startDuckDnsFake();
    duckdns.addDomain("home");
    receiver = startWebhookReceiver();
    proxy = await startProxyFake();
  });

  afterAll(async () => {
    echo?.stop(true);
    await Promise.all([duckdns?.stop(), receiver?.stop(), proxy?.stop()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function appWith(env: Record<string, string>) {
    const t = await makeTestApp(
      { DDNS_IPV4_URLS: `https://127.0.0.1:${echo.port}/ip`, DDNS_DUCKDNS_API_URL: duckdns.url, ...env },
      ":memory:",
      { fetch: trusting },
    );
    const provider = await t.request("POST", "/api/v1/providers", {
      body: { name: "Duck", type: "duckdns", credentials: { token: DUCKDNS_FAKE_TOKEN } },
    });
    const domain = await t.request("POST", "/api/v1/domains", {
      body: { provider_id: provider.body.id, domain_name: "home.duckdns.org", record_type: "A" },
    });
    const notification = await t.request("POST", "/api/v1/notifications", {
      body: { name: "Hook", type: "webhook", options: { url: `${receiver.url}/hook` } },
    });
    return { t, domainId: domain.body.id as number, notificationId: notification.body.id as number };
  }

  test("detection, the DNS service and notifications all go through the proxy", async () => {
    proxy.connects.length = 0;
    proxy.requests.length = 0;
    const { t, domainId, notificationId } = await appWith({ HTTPS_PROXY: proxy.url, http_proxy: proxy.url });
    const update = await t.request("POST", `/api/v1/domains/${domainId}/update_ip`);
    expect(update.body).toMatchObject({ success: true, ip_address: DETECTED });
    expect(duckdns.domains.get("home")!.ipv4).toBe(DETECTED);
    const sent = await t.request("POST", `/api/v1/notifications/${notificationId}/test`);
    expect(sent.body.ok).toBe(true);
    await t.ctx.notifier.idle();

    // https:// through a CONNECT tunnel; http:// as absolute-form requests.
    expect(proxy.connects).toContain(`127.0.0.1:${echo.port}`);
    expect(proxy.requests.some((url) => url.startsWith(`${duckdns.url}/update?`))).toBe(true);
    expect(proxy.requests).toContain(`${receiver.url}/hook`);
  });

  test("what NO_PROXY names goes direct, the rest still through the proxy", async () => {
    proxy.connects.length = 0;
    proxy.requests.length = 0;
    const duckPort = new URL(duckdns.url).port;
    const receiverPort = new URL(receiver.url).port;
    const { t, domainId, notificationId } = await appWith({
      HTTPS_PROXY: proxy.url,
      HTTP_PROXY: proxy.url,
      NO_PROXY: `127.0.0.1:${duckPort},localhost:${receiverPort}`,
    });
    const before = duckdns.updates();
    const update = await t.request("POST", `/api/v1/domains/${domainId}/update_ip`);
    expect(update.body.success).toBe(true);
    expect(duckdns.updates()).toBe(before + 1);
    expect((await t.request("POST", `/api/v1/notifications/${notificationId}/test`)).body.ok).toBe(true);
    // The change's own notification is sent beside the answer: it is waited for, so that it goes in
    // this test's count and not in the next test's.
    await t.ctx.notifier.idle();

    expect(proxy.connects).toEqual([`127.0.0.1:${echo.port}`]);
    // The receiver is named by another name (localhost), so its 127.0.0.1 URL still went through the
    // proxy (the test message, and the change's own notification); DuckDNS did not.
    expect([...new Set(proxy.requests)]).toEqual([`${receiver.url}/hook`]);
  });

  test("without the variables, nothing goes through the proxy", async () => {
    proxy.connects.length = 0;
    proxy.requests.length = 0;
    const { t, domainId } = await appWith({});
    const update = await t.request("POST", `/api/v1/domains/${domainId}/update_ip`);
    expect(update.body.success).toBe(true);
    await t.ctx.notifier.idle();
    expect([proxy.connects, proxy.requests]).toEqual([[], []]);
  });
});
