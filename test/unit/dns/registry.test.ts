// The service registry: every description is complete and consistent (a table over SERVICES, so a
// new service module is checked the moment its registry line is added), the registry refuses
// clashing or unusable type names, each service gets its `DDNS_<TYPE>_API_URL` setting, and the
// pacer spaces a provider's requests under every window of its service's limits at once.

import { describe, expect, test } from "bun:test";
import { loadSettings, SettingsError } from "../../../src/config";
import { Pacer } from "../../../src/dns/pacing";
import { apiUrlSetting, PROVIDER_TYPES, SERVICES, ServiceRegistry } from "../../../src/dns/registry";
import { defineService } from "../../../src/dns/service";

describe("every registered service", () => {
  for (const service of SERVICES) {
    test(`${service.type}: a complete, consistent description`, () => {
      expect(service.type).toMatch(/^[a-z][a-z0-9]*$/);
      expect(service.label.length).toBeGreaterThan(0);
      expect(service.summary.length).toBeGreaterThan(0);
      const keys = [
        ...service.credentials.flatMap((c) => [c.key, ...(c.aliases ?? [])]),
        ...service.options.map((o) => o.key),
      ];
      expect(new Set(keys).size).toBe(keys.length);
      for (const field of [...service.credentials, ...service.options])
        expect([field.key, field.label.length > 0, field.help.length > 0]).toEqual([field.key, true, true]);
      for (const option of service.options) {
        if (option.kind === "choice") expect(option.choices?.length ?? 0).toBeGreaterThan(0);
        if (option.default !== undefined && option.choices) expect(option.choices).toContain(option.default);
      }
      expect(service.recordTypes.length).toBeGreaterThan(0);
      if (service.ttl) {
        expect(service.ttl.min).toBeLessThanOrEqual(service.ttl.max);
        expect(service.ttl.help.length).toBeGreaterThan(0);
      }
      if (!service.canVerify) expect(service.verifyUnavailable?.length ?? 0).toBeGreaterThan(0);
      if (service.defaultApiUrl === undefined) {
        // Its address is one of its options: a required URL (or name server) option says where to send updates.
        expect(
          service.options.some((option) => option.required && ["url", "template", "host"].includes(option.kind)),
        ).toBe(true);
      } else {
        expect(service.defaultApiUrl).toMatch(/^https:\/\/[^/]+/);
        expect(service.defaultApiUrl).not.toEndWith("/");
        // A hosted service's form links the page of its own where the credentials are made.
        expect(service.credentials.some((field) => field.url?.startsWith("https://"))).toBe(true);
      }
      for (const limit of service.rateLimits ?? [])
        expect([limit.requests > 0, limit.perSeconds > 0]).toEqual([true, true]);
    });
  }

  test("whether a service holds TXT is one fact: its client writes TXT exactly where its description says holdsTxt", () => {
    // Certificate keys are refused for a domain whose service's description lacks holdsTxt; the
    // client built from the same description must agree, so neither can say more than the other.
    const context = { baseUrl: "http://127.0.0.1:9", fetch, timeoutMs: 1, userAgent: "ddnsd/test" };
    const disagreeing = SERVICES.filter((service) => {
      const credentials = Object.fromEntries(service.credentials.map((field) => [field.key, "x"]));
      const options = Object.fromEntries(
        service.options.map((option) => [
          option.key,
          option.default ?? (option.kind === "url" ? "http://127.0.0.1:9" : "x"),
        ]),
      );
      const client = service.createClient(credentials, options, context);
      return (service.holdsTxt === true) !== (client.writeTxt !== undefined);
    }).map((service) => service.type);
    expect(disagreeing).toEqual([]);
    expect(SERVICES.filter((service) => service.holdsTxt).length).toBeGreaterThan(0);
  });

  test("the types are the registry's, in its order", () => {
    expect(PROVIDER_TYPES).toEqual(SERVICES.map((s) => s.type));
    expect(new ServiceRegistry().types).toEqual([...PROVIDER_TYPES]);
  });

  test("the TTL rules the admin form used to misstate: Cloudflare 1 or 60–86400, Dynu 30–86400", () => {
    const registry = new ServiceRegistry();
    expect(registry.get("cloudflare").ttl).toMatchObject({ min: 60, max: 86400, automatic: 1 });
    expect(registry.get("cloudflare").ttl?.help).toContain("60–86400");
    expect(registry.get("dynu").ttl).toMatchObject({ min: 30, max: 86400 });
  });

  test("a TTL rule's help is worded from its own range, so the two cannot disagree", () => {
    const registry = new ServiceRegistry();
    expect(registry.get("vultr").ttl).toEqual({
      min: 60,
      max: 86400,
      help: "60–86400 seconds; empty keeps the record's TTL (300 for a new record)",
    });
    expect(registry.get("hetzner").ttl?.help).toBe(
      "60–2147483647 seconds; empty keeps the record's TTL (the zone's default for a new record)",
    );
  });
});

describe("ServiceRegistry", () => {
  const base = SERVICES[0];
  test("refuses a type registered twice, or one no setting name can hold", () => {
    expect(() => new ServiceRegistry([base, base])).toThrow("registered twice");
    expect(() => new ServiceRegistry([defineService({ ...base, type: "my-dns" })])).toThrow(
      "lowercase letters and digits",
    );
  });

  test("find answers undefined for an unknown type; get (for stored rows) throws", () => {
    const registry = new ServiceRegistry();
    expect(registry.find("nosuch")).toBeUndefined();
    expect(() => registry.get("nosuch")).toThrow(`no DNS service of type "nosuch"`);
  });
});

describe("DDNS_<TYPE>_API_URL", () => {
  test("one setting per registered service, defaulting to the real service, without a trailing slash", () => {
    const settings = loadSettings({ DDNS_DYNU_API_URL: "http://127.0.0.1:5/v2/" });
    const defaults = SERVICES.flatMap((s) => (s.defaultApiUrl === undefined ? [] : [[s.type, s.defaultApiUrl]]));
    expect(settings.apiUrls).toEqual({ ...Object.fromEntries(defaults), dynu: "http://127.0.0.1:5/v2" });
    expect(apiUrlSetting("cloudflare")).toBe("DDNS_CLOUDFLARE_API_URL");
  });

  test("an invalid one stops the start, naming it", () => {
    for (const service of SERVICES.filter((s) => s.defaultApiUrl !== undefined)) {
      const variable = apiUrlSetting(service.type);
      expect(() => loadSettings({ [variable]: "not a url" })).toThrow(
        new SettingsError(`Invalid setting ${variable}: expected an http(s) URL, got "not a url"`),
      );
    }
  });
});

describe("Pacer", () => {
  /**
   * A clock that stands still, recording when each sleeper would wake; with `advance`, a sleep
   * also moves the clock to that time (one request after another).
   */
  function fakeClock(advance: boolean) {
    const clock = { time: 1_000_000, wakes: [] as number[] };
    return {
      clock,
      pacer: new Pacer({
        now: () => clock.time,
        sleep: async (ms) => {
          clock.wakes.push(clock.time + ms - 1_000_000);
          if (advance) clock.time += ms;
        },
      }),
    };
  }
  const fetched = async () => new Response("ok");

  test("a burst up to the limit goes at once; the next request waits for the oldest to leave the window", async () => {
    const { clock, pacer } = fakeClock(true);
    const fetch = pacer.fetchFor(1, [{ requests: 3, perSeconds: 10 }], fetched, 10_000);
    for (let i = 0; i < 7; i++) await fetch("http://127.0.0.1/");
    // Three at 0 s; the 4th waits for 10 s, and the 5th and 6th go with it; the 7th waits for 20 s.
    expect(clock.wakes).toEqual([10_000, 20_000]);
  });

  test("every window holds at once: the long one binds after the short one allows", async () => {
    const { clock, pacer } = fakeClock(true);
    const fetch = pacer.fetchFor(
      1,
      [
        { requests: 2, perSeconds: 1 },
        { requests: 3, perSeconds: 10 },
      ],
      fetched,
      10_000,
    );
    for (let i = 0; i < 6; i++) await fetch("http://127.0.0.1/");
    // Two at 0 s; the 3rd waits for the 1 s window; the 4th, which the 1 s window lets go at 1 s,
    // waits until the 10 s window frees at 10 s; the 5th goes with it; the 6th finds both full until 11 s.
    expect(clock.wakes).toEqual([1000, 10_000, 11_000]);
  });

  test("a long window counts the requests the short one already let go", async () => {
    const { clock, pacer } = fakeClock(false);
    const limits = [
      { requests: 1, perSeconds: 2.5 },
      { requests: 200, perSeconds: 3600 },
      { requests: 600, perSeconds: 86_400 },
    ];
    const fetch = pacer.fetchFor(1, limits, fetched, 10_000);
    await Promise.all(Array.from({ length: 1000 }, () => fetch("http://127.0.0.1/")));
    const starts = [0, ...clock.wakes];
    const mostWithin = (ms: number) =>
      Math.max(...starts.map((start) => starts.filter((s) => s >= start && s < start + ms).length));
    expect([mostWithin(2500), mostWithin(3_600_000), mostWithin(86_400_000)]).toEqual([1, 200, 600]);
    // First come, first served, and nothing later than the windows make it: the 601st starts the second day.
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(starts[600]).toBe(86_400_000);
  });

  test("forgetting a provider drops its reservations in every window", async () => {
    const { clock, pacer } = fakeClock(false);
    const limits = [
      { requests: 1, perSeconds: 1 },
      { requests: 2, perSeconds: 60 },
    ];
    const fetch = pacer.fetchFor(1, limits, fetched, 10_000);
    await fetch("a");
    await fetch("b");
    pacer.forget(1);
    await fetch("c");
    expect(clock.wakes).toEqual([1000]);
  });

  test("requests of one provider queue behind each other; another provider is not held up", async () => {
    const { clock, pacer } = fakeClock(false);
    const limit = [{ requests: 1, perSeconds: 1 }];
    const one = pacer.fetchFor(1, limit, fetched, 10_000);
    const two = pacer.fetchFor(2, limit, fetched, 10_000);
    await Promise.all([one("a"), one("b"), one("c"), two("d")]);
    expect(clock.wakes).toEqual([1000, 2000]);
  });

  test("a request that waited its turn has its whole deadline from when it leaves, not from the call", async () => {
    const { pacer } = fakeClock(true);
    const signals: (AbortSignal | null | undefined)[] = [];
    const fetch = pacer.fetchFor(
      1,
      [{ requests: 1, perSeconds: 5 }],
      async (_input, init) => {
        signals.push(init?.signal);
        return new Response("ok");
      },
      10_000,
    );
    const callersDeadline = AbortSignal.timeout(10_000);
    await fetch("http://127.0.0.1/a", { signal: callersDeadline });
    // The caller's deadline ran out while the second request waited for its turn.
    await fetch("http://127.0.0.1/b", { signal: AbortSignal.abort(new DOMException("deadline", "TimeoutError")) });
    expect(signals[0]).toBe(callersDeadline);
    expect(signals[1]?.aborted).toBe(false);
  });

  test("without a limit the fetch is handed over untouched", () => {
    const { pacer } = fakeClock(false);
    expect(pacer.fetchFor(1, undefined, fetched, 10_000)).toBe(fetched);
    expect(pacer.fetchFor(1, [], fetched, 10_000)).toBe(fetched);
  });
});
