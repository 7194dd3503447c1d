// Every way a provider or the echo services fail, forced and scheduled: a FAILED history row with
// the service's own reason, an honest 502 (provider) or 503 (detection), the domain marked failed,
// and the record at the provider exactly as it was.

import { beforeEach, describe, expect, test } from "bun:test";
import { CREDENTIALS_UNREADABLE } from "../../src/updater/write";
import type { CloudflareFault } from "../fakes/cloudflare";
import type { DynuFault } from "../fakes/dynu";
import { ECHO_DEFAULT_IPV4 } from "../fakes/echo";
import {
  addDomain,
  addProvider,
  domainState,
  expectDelay,
  forceUpdate,
  getDomain,
  historyOf,
  OLD_IPV4,
  type Rig,
  useRig,
} from "./harness";

interface FaultCase {
  name: string;
  provider: "cloudflare" | "dynu";
  /** Breaks the fake (a fault, a revoked credential …); returns extra domain fields. */
  arrange(rig: Rig): Record<string, unknown> | void;
  /** The provider's reason, as the history row and the 502 carry it. */
  reason: string | RegExp;
  credential?: string;
  /** A 429's pause, in seconds, that the provider must now be under. */
  pausedFor?: number;
}

const matchAll = () => true;

function cloudflareFault(fault: CloudflareFault | "timeout", match?: (path: string) => boolean) {
  return ({ cf }: Rig) => cf.fault(fault, undefined, match === undefined ? matchAll : (r) => match(r.path));
}

function dynuFault(fault: DynuFault | "timeout") {
  return ({ dynu }: Rig) => dynu.fault(fault);
}

const cases: FaultCase[] = [
  {
    name: "Cloudflare 403 code 9109 (token no longer valid)",
    provider: "cloudflare",
    credential: "cf-token-that-was-revoked-0000",
    arrange: () => {},
    reason: "Cloudflare: Invalid access token (code 9109, HTTP 403)",
  },
  {
    name: "Cloudflare 400 code 7003 (zone id names nothing)",
    provider: "cloudflare",
    arrange(rig) {
      const zone = rig.cf.zones.values().next().value!;
      cloudflareFault(
        {
          status: 400,
          code: 7003,
          message: `Could not route to /zones/${zone.id}/dns_records, perhaps your object identifier is invalid?`,
        },
        (path) => path.includes("/dns_records"),
      )(rig);
      return { config: { zone_id: zone.id } };
    },
    reason:
      /^Cloudflare: Could not route to \/zones\/[0-9a-f]{32}\/dns_records, perhaps your object identifier is invalid\? \(code 7003, HTTP 400\)$/,
  },
  {
    name: "Cloudflare 404 code 81044 (record does not exist)",
    provider: "cloudflare",
    arrange: cloudflareFault({ status: 404, code: 81044, message: "Record does not exist." }),
    reason: "Cloudflare: Record does not exist. (code 81044, HTTP 404)",
  },
  {
    name: "Cloudflare 429 with retry-after",
    provider: "cloudflare",
    arrange: cloudflareFault({ status: 429, retryAfter: 90 }),
    reason: "Cloudflare: Please wait and consider throttling your request speed (code 971, HTTP 429); pausing 90 s",
    pausedFor: 90,
  },
  {
    name: "Cloudflare 429 asking for a day pauses an hour at most",
    provider: "cloudflare",
    arrange: cloudflareFault({ status: 429, retryAfter: 86400 }),
    reason: "Cloudflare: Please wait and consider throttling your request speed (code 971, HTTP 429); pausing 3600 s",
    pausedFor: 3600,
  },
  {
    name: "Cloudflare 429 naming no wait pauses a minute",
    provider: "cloudflare",
    arrange: cloudflareFault({ status: 429 }),
    reason: "Cloudflare: Please wait and consider throttling your request speed (code 971, HTTP 429); pausing 60 s",
    pausedFor: 60,
  },
  {
    name: "Cloudflare 500",
    provider: "cloudflare",
    arrange: cloudflareFault({ status: 500 }),
    reason: "Cloudflare: Internal Server Error (code 500, HTTP 500)",
  },
  {
    name: "Cloudflare 503 with its own code",
    provider: "cloudflare",
    arrange: cloudflareFault({ status: 503, code: 10000, message: "Service temporarily unavailable" }),
    reason: "Cloudflare: Service temporarily unavailable (code 10000, HTTP 503)",
  },
  {
    name: "Cloudflare 502 HTML page from the edge",
    provider: "cloudflare",
    arrange: cloudflareFault("html"),
    reason: 'Cloudflare: unreadable answer (HTTP 502): "<!DOCTYPE html> <html><head><title>502 Bad Gateway</title></…"',
  },
  {
    name: "Cloudflare timeout",
    provider: "cloudflare",
    arrange: cloudflareFault("timeout"),
    reason: "Cloudflare: no answer within 1s",
  },
  {
    name: "Cloudflare malformed JSON",
    provider: "cloudflare",
    arrange: cloudflareFault("malformed"),
    reason: 'Cloudflare: unreadable answer (HTTP 200): "{"success": true, "result": {"id":"',
  },
  {
    name: "Dynu 401, flat error body",
    provider: "dynu",
    credential: "dynu-key-that-was-revoked-0000",
    arrange: () => {},
    reason: "Dynu: Authentication Exception: Failed. (status 401)",
  },
  {
    name: "Dynu 401, error nested under exception",
    provider: "dynu",
    credential: "dynu-key-that-was-revoked-0000",
    arrange(rig) {
      rig.dynu.errorShape = "nested";
    },
    reason: "Dynu: Authentication Exception: Failed. (status 401)",
  },
  {
    name: "Dynu 501 Argument Exception",
    provider: "dynu",
    arrange: dynuFault({ status: 501, message: "Invalid domain." }),
    reason: /^Dynu: Argument Exception: Invalid domain\. \(status 501\)/,
  },
  {
    name: "Dynu error inside an HTTP 200",
    provider: "dynu",
    arrange: dynuFault({ status: 505, message: "Invalid IPv4 address.", inHttp200: true }),
    reason: "Dynu: Validation Exception: Invalid IPv4 address. (status 505, HTTP 200)",
  },
  {
    name: "Dynu 503 quota with retry-after",
    provider: "dynu",
    arrange: dynuFault({ status: 503, retryAfter: 45 }),
    reason: "Dynu: Quota Exception: Too many requests. (status 503); pausing 45 s",
    pausedFor: 45,
  },
  {
    name: "Dynu 500",
    provider: "dynu",
    arrange: dynuFault({ status: 500 }),
    reason: "Dynu: Server Exception: An error occurred. (status 500)",
  },
  {
    name: "Dynu timeout",
    provider: "dynu",
    arrange: dynuFault("timeout"),
    reason: "Dynu: no answer within 1s",
  },
  {
    name: "Dynu malformed JSON",
    provider: "dynu",
    arrange: dynuFault("malformed"),
    reason: 'Dynu: unreadable answer (HTTP 200): "{"success": true, "result": {"id":"',
  },
];

/** The record the domain points at, as the fake holds it, serialised to compare before and after. */
function recordSnapshot(rig: Rig, provider: "cloudflare" | "dynu"): string {
  return JSON.stringify(
    provider === "cloudflare"
      ? rig.cf.record("home.example.com", "A")
      : [rig.dynu.record("www.example.org", "A"), rig.dynu.domain("example.org")],
  );
}

describe("provider failures", () => {
  const current = useRig({ env: { DDNS_HTTP_TIMEOUT: "1s" } });
  let rig: Rig;
  beforeEach(() => {
    rig = current();
    rig.cf.addZone("example.com");
    rig.cf.addRecord("example.com", { type: "A", name: "home", content: OLD_IPV4, proxied: true, ttl: 300 });
    rig.dynu.addDomain("example.org", { ipv4Address: OLD_IPV4 });
    rig.dynu.addRecord("example.org", { nodeName: "www", recordType: "A", ipv4Address: OLD_IPV4, ttl: 600 });
  });

  for (const trigger of ["manual", "schedule"] as const) {
    describe(trigger === "manual" ? "forced (update_ip → 502)" : "scheduled pass", () => {
      for (const c of cases) {
        test(c.name, async () => {
          const provider = await addProvider(
            rig.t,
            c.provider,
            c.credential === undefined ? {} : { credential: c.credential },
          );
          const hostname = c.provider === "cloudflare" ? "home.example.com" : "www.example.org";
          const extra = c.arrange(rig) ?? {};
          const domain = await addDomain(rig.t, provider.id, hostname, extra);
          const before = recordSnapshot(rig, c.provider);
          const started = Date.now();

          let message: string;
          if (trigger === "manual") {
            const response = await forceUpdate(rig.t, domain.id);
            expect(response.status).toBe(502);
            expect(Object.keys(response.body)).toEqual(["detail"]);
            message = response.body.detail;
          } else {
            const outcomes = await rig.t.ctx.scheduler.runPass();
            expect(outcomes).toHaveLength(1);
            expect(outcomes[0]).toMatchObject({ result: "failed", failure: "provider", ip: ECHO_DEFAULT_IPV4 });
            message = outcomes[0]!.message;
          }
          const finished = Date.now();
          if (typeof c.reason === "string") expect(message).toBe(c.reason);
          else expect(message).toMatch(c.reason);

          const rows = await historyOf(rig.t, domain.id);
          expect(rows).toHaveLength(1);
          expect(rows[0]).toMatchObject({
            status: "FAILED",
            trigger,
            ip_address: ECHO_DEFAULT_IPV4,
            previous_ip: null,
            message,
          });
          expect(await getDomain(rig.t, domain.id)).toMatchObject({
            last_update_status: "FAILED",
            last_known_ip: null,
          });
          expect(recordSnapshot(rig, c.provider)).toBe(before);

          const paused = rig.t.ctx.sqlite
            .query<{ paused_until: number | null }, [number]>("SELECT paused_until FROM providers WHERE id = ?")
            .get(provider.id)!.paused_until;
          if (c.pausedFor === undefined) expect(paused).toBeNull();
          else {
            // Retry-After counts from the provider's answer, which came between `started` and `finished`:
            // bounded by those clock readings, not a fixed slack a slow machine could overrun.
            expect(paused!).toBeGreaterThanOrEqual(started + c.pausedFor * 1000);
            expect(paused!).toBeLessThanOrEqual(finished + c.pausedFor * 1000);
          }
        });
      }
    });
  }
});

describe("detection failures", () => {
  // One answer is enough here (DDNS_ECHO_AGREE=1): these tests are about sources failing, not disagreeing.
  const current = useRig({
    env: ({ echo }) => ({
      DDNS_IPV4_URLS: `${echo.url}/v4,${echo.url}/json`,
      DDNS_HTTP_TIMEOUT: "1s",
      DDNS_ECHO_AGREE: "1",
    }),
  });
  let rig: Rig;
  beforeEach(() => {
    rig = current();
    rig.cf.addZone("example.com");
    rig.cf.addRecord("example.com", { type: "A", name: "home", content: OLD_IPV4 });
  });

  test("every echo source failing is a 503, a FAILED row without an address, and no provider call", async () => {
    rig.echo.fault({ status: 429 }, undefined, "/v4");
    rig.echo.fault("garbage", undefined, "/json");
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "home.example.com");

    const response = await forceUpdate(rig.t, domain.id);
    expect(response.status).toBe(503);
    expect(response.body.detail).toBe(
      `IPv4 detection failed: ${rig.echo.url}/v4: HTTP 429; ${rig.echo.url}/json: not an IPv4 address: "<html><body>Service temporarily rebranded</body></html>"`,
    );
    expect(rig.echo.hits("/v4")).toBe(1);
    expect(rig.echo.hits("/json")).toBe(1);
    expect(rig.cf.requests).toHaveLength(0);
    const rows = await historyOf(rig.t, domain.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: "FAILED",
      ip_address: null,
      trigger: "manual",
      message: response.body.detail,
    });
    expect(rig.cf.record("home.example.com", "A")?.content).toBe(OLD_IPV4);
  });

  test("the first source failing falls through to the next, which counts", async () => {
    rig.echo.fault("timeout", undefined, "/v4");
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "home.example.com");
    const response = await forceUpdate(rig.t, domain.id);
    expect(response.status).toBe(200);
    expect(response.body.ip_address).toBe(ECHO_DEFAULT_IPV4);
  });

  test("a scheduled pass whose detection fails writes a FAILED row per due domain and never calls the provider", async () => {
    rig.echo.fault({ status: 500 });
    const provider = await addProvider(rig.t, "cloudflare");
    const first = await addDomain(rig.t, provider.id, "home.example.com");
    const second = await addDomain(rig.t, provider.id, "other.example.com");
    const outcomes = await rig.t.ctx.scheduler.runPass();
    expect(outcomes.map((o) => [o.result, o.failure, o.ip])).toEqual([
      ["failed", "detection", null],
      ["failed", "detection", null],
    ]);
    // One detection for the pass, both sources tried once.
    expect(rig.echo.requests.map((r) => r.path)).toEqual(["/v4", "/json"]);
    expect(rig.cf.requests).toHaveLength(0);
    for (const id of [first.id, second.id]) {
      const rows = await historyOf(rig.t, id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: "FAILED", ip_address: null, trigger: "schedule" });
      expect(rows[0].message).toStartWith("IPv4 detection failed: ");
    }
  });
});

describe("credentials that cannot be decrypted (DDNS_ENCRYPTION_KEY changed or lost)", () => {
  const current = useRig();
  let rig: Rig;
  let originalKey: string;
  beforeEach(() => {
    rig = current();
    rig.cf.addZone("example.com");
    rig.cf.addRecord("example.com", { type: "A", name: "home", content: OLD_IPV4 });
    originalKey = rig.t.ctx.keys.encryptionKey;
  });

  /** Runs `body` with the app holding another encryption key than the one that sealed the credentials. */
  async function withOtherKey(body: () => Promise<void>) {
    rig.t.ctx.keys.encryptionKey = "a-different-encryption-key-0123456789abcdef";
    try {
      await body();
    } finally {
      rig.t.ctx.keys.encryptionKey = originalKey;
    }
  }

  test("a scheduled check fails with a FAILED row and backs off, instead of the pass failing every second", async () => {
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "home.example.com");
    await withOtherKey(async () => {
      const started = Date.now();
      const outcomes = await rig.t.ctx.scheduler.runPass();
      expect(outcomes).toHaveLength(1);
      expect(outcomes[0]).toMatchObject({
        result: "failed",
        failure: "provider",
        ip: ECHO_DEFAULT_IPV4,
        message: CREDENTIALS_UNREADABLE,
      });
      const state = domainState(rig.t, domain.id);
      expect(state).toMatchObject({ failure_count: 1, last_update_status: "FAILED" });
      expectDelay(state.next_run_at, started, 30);
      // Not due again within the backoff: the next tick's pass leaves it alone.
      expect(await rig.t.ctx.scheduler.runPass()).toEqual([]);
    });
    expect(rig.cf.requests).toHaveLength(0);
    const rows = await historyOf(rig.t, domain.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: "FAILED",
      trigger: "schedule",
      ip_address: ECHO_DEFAULT_IPV4,
      message: CREDENTIALS_UNREADABLE,
    });
    expect(rig.t.logs.some((line) => line.includes("scheduler pass failed"))).toBe(false);
    expect(rig.cf.record("home.example.com", "A")?.content).toBe(OLD_IPV4);
  });

  test("a forced update is a 502 with the sentence, and its row", async () => {
    rig.dynu.addDomain("x.freeddns.org", { ipv4Address: OLD_IPV4 });
    const provider = await addProvider(rig.t, "dynu");
    const domain = await addDomain(rig.t, provider.id, "x.freeddns.org");
    await withOtherKey(async () => {
      const response = await forceUpdate(rig.t, domain.id);
      expect(response.status).toBe(502);
      expect(response.body).toEqual({ detail: CREDENTIALS_UNREADABLE });
    });
    expect(rig.dynu.requests).toHaveLength(0);
    expect((await historyOf(rig.t, domain.id))[0]).toMatchObject({
      status: "FAILED",
      trigger: "manual",
      message: CREDENTIALS_UNREADABLE,
    });
    expect(rig.dynu.domain("x.freeddns.org")?.ipv4Address).toBe(OLD_IPV4);
    // With the right key back, the next attempt works.
    expect((await forceUpdate(rig.t, domain.id)).status).toBe(200);
    expect(rig.dynu.domain("x.freeddns.org")?.ipv4Address).toBe(ECHO_DEFAULT_IPV4);
  });
});
