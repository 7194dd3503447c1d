// The views on their own: sample data in, HTML out. Escaping of hostile names, masked
// credentials, badges, the charts' bars, form errors tied to their fields, values kept, and the
// small formatting helpers.

import { describe, expect, test } from "bun:test";
import { SERVICES } from "../../../src/dns/registry";
import { defineService, type ServiceDescription } from "../../../src/dns/service";
import type { DomainView } from "../../../src/modules/domains/service";
import type { DashboardMetrics, HourlyUpdates } from "../../../src/modules/metrics/service";
import type { ProviderView } from "../../../src/modules/providers/service";
import { upcomingRuns } from "../../../src/updater/schedule";
import { NO_ERRORS } from "../../../views/components";
import { bytes, duration, every, relative, shortTime } from "../../../views/format";
import { IpChangesChart, UpdatesChart } from "../../../views/fragments/charts";
import { ServiceFields, serviceFor } from "../../../views/fragments/credential-field";
import { DomainRow, type UpdateResult, updateSentence } from "../../../views/fragments/domain-row";
import { ProviderOptions } from "../../../views/fragments/provider-options";
import { ProviderRow, VerifyResult } from "../../../views/fragments/provider-row";
import { SchedulePreview } from "../../../views/fragments/schedule-preview";
import { AboutPage } from "../../../views/pages/about";
import { DashboardPage } from "../../../views/pages/dashboard";
import { DomainFormPage, type DomainFormValues } from "../../../views/pages/domain-form";
import { HistoryPage, type HistoryRowView } from "../../../views/pages/history";
import { LoginPage } from "../../../views/pages/login";
import { ProviderFormPage } from "../../../views/pages/provider-form";
import { ProvidersPage } from "../../../views/pages/providers";
import { attributeValues, count, elementCount } from "../../ui/helpers";

/** The script elements every page has, and no others: client.js's words (data), client.js, local-time.js and htmx. */
const LAYOUT_SCRIPTS = 4;

const HOSTILE = `<script>alert("x")</script>`;
const ESCAPED = "&lt;script&gt;";
/** 14:00 local time on a fixed day, so clock times in the output are known. */
const NOW = new Date(2026, 10, 21, 14, 0, 0).getTime();

function provider(fields: Partial<ProviderView> = {}): ProviderView {
  return {
    id: 1,
    name: "Home Cloudflare",
    type: "cloudflare",
    is_enabled: true,
    credentials: { api_token: "••••3f9a" },
    options: {},
    domain_count: 2,
    created_at: "2026-11-01T10:00:00.000Z",
    updated_at: "2026-11-01T10:00:00.000Z",
    ...fields,
  };
}

function domain(fields: Partial<DomainView> = {}): DomainView {
  return {
    id: 7,
    provider_id: 1,
    provider_name: "Home Cloudflare",
    domain_name: "home.example.com",
    record_type: "A",
    external_id: null,
    config: {},
    cron_schedule: null,
    is_enabled: true,
    address_source: null,
    pushed_ip: null,
    pushed_at: null,
    last_known_ip: "203.0.113.7",
    addresses: ["203.0.113.7"],
    last_update_status: "SUCCESS",
    last_checked_at: new Date(NOW - 60_000).toISOString(),
    last_changed_at: new Date(NOW - 3 * 3_600_000).toISOString(),
    next_run_at: new Date(NOW + 240_000).toISOString(),
    created_at: "2026-11-01T10:00:00.000Z",
    updated_at: "2026-11-01T10:00:00.000Z",
    propagation: { state: "unknown", servers: [], checked_at: null, served_after_ms: null, detail: null },
    ...fields,
  };
}

/** The domain form's address-source choices: the echo services in effect, one answer, one interface. */
const SOURCES = {
  system: { ipv4: "web", ipv6: "web" },
  answers: { "4 web": { ip: "81.2.69.160", error: null } },
  interfaces: [{ name: "wan0", ipv4: ["81.2.69.10"], ipv6: [] }],
  pushedIp: null,
  asked: null,
  now: NOW,
};

function formValues(fields: Partial<DomainFormValues> = {}): DomainFormValues {
  return {
    address_source: "",
    fixed_address: "",
    more_sources: "",
    addresses_mode: "all",
    provider_id: "1",
    domain_name: "home.example.com",
    record_type: "A",
    cron_schedule: "",
    ttl: "",
    proxied: "",
    create_if_missing: true,
    is_enabled: true,
    zone_id: "",
    external_id: "",
    ipv6_suffix: "",
    ipv6_prefix_length: "",
    ...fields,
  };
}

const METRICS: DashboardMetrics = {
  total_domains: 3,
  active_domains: 2,
  total_providers: 2,
  active_providers: 1,
  total_updates_24h: 40,
  failed_updates_24h: 4,
  success_rate_24h: 90,
  unique_ips_24h: 2,
  last_update_time: null,
  providers_stats: [],
};

function hours(values: [number, number][] = []): HourlyUpdates[] {
  return Array.from({ length: 24 }, (_, i) => ({
    start: NOW - (23 - i) * 3_600_000,
    success: values[i]?.[0] ?? 0,
    failed: values[i]?.[1] ?? 0,
  }));
}

const DAYS = Array.from({ length: 7 }, (_, i) => ({ start: NOW - (6 - i) * 86_400_000, changes: i % 3 }));

describe("escaping", () => {
  test("a hostile provider name is text everywhere it appears, attributes included", () => {
    const html = String(
      ProvidersPage({
        user: "admin",
        now: NOW,
        providers: [provider({ name: HOSTILE })],
        stats: [],
        verifications: new Map(),
      }),
    );
    // The only script elements are the app's own two.
    expect(elementCount(html, "script")).toBe(LAYOUT_SCRIPTS);
    expect(html).toContain(`<a href="/providers/1/edit">${ESCAPED}alert(&quot;x&quot;)&lt;/script&gt;</a>`);
    // In attributes the name stays inside its quotes, and reads back exactly as it was.
    expect(attributeValues(html, "form[hx-confirm]", "hx-confirm")[0]).toStartWith(`Delete the provider "${HOSTILE}"?`);
    expect(attributeValues(html, "button[role=switch]", "aria-label")).toEqual([`Provider ${HOSTILE}`]);
  });

  test("hostile domain, provider and message text in a row, the history and a flash", () => {
    const row = String(
      DomainRow({
        domain: domain({ provider_name: HOSTILE, last_known_ip: HOSTILE }),
        view: "list",
        now: NOW,
        intervalSeconds: 300,
        result: { ok: false, failure: "refused", detail: HOSTILE },
      }),
    );
    expect(elementCount(row, "script")).toBe(0);
    // Provider name, address and message as text.
    expect(count(row, ESCAPED)).toBe(3);

    const historyRow: HistoryRowView = {
      id: 1,
      domain_id: 7,
      ip_address: "203.0.113.7",
      addresses: ["203.0.113.7"],
      previous_ip: null,
      status: "FAILED",
      message: HOSTILE,
      failure_cause: null,
      trigger: "schedule",
      duration_ms: 120,
      repeat_count: 1,
      first_timestamp: null,
      timestamp: new Date(NOW - 60_000).toISOString(),
    };
    const history = String(
      HistoryPage({
        user: HOSTILE,
        now: NOW,
        intervalSeconds: 300,
        domain: domain({ cron_schedule: HOSTILE }),
        rows: [historyRow],
        timeline: [],
        page: 1,
        pages: 1,
        total: 1,
      }),
    );
    expect(elementCount(history, "script")).toBe(LAYOUT_SCRIPTS);
    expect(history).toContain(`<p class="muted small" lang="en">${ESCAPED}`);

    const dashboard = String(
      DashboardPage({
        user: "admin",
        flash: { tone: "ok", text: HOSTILE },
        now: NOW,
        publicIp: {
          ipv4: "203.0.113.7",
          ipv6: null,
          checkedAt: NOW,
          failures: { ipv4: null, ipv6: null },
          answers: new Map(),
        },
        metrics: METRICS,
        scheduler: "running",
        lastCheckAt: null,
        hourly: hours(),
        daily: DAYS,
        domains: [domain({ domain_name: HOSTILE })],
        intervalSeconds: 300,
      }),
    );
    expect(elementCount(dashboard, "script")).toBe(LAYOUT_SCRIPTS);
    expect(dashboard).toContain(`<span>${ESCAPED}alert(&quot;x&quot;)&lt;/script&gt;</span>`);
  });

  test("values typed into a form come back as attribute text", () => {
    const html = String(
      DomainFormPage({
        user: "admin",
        providers: [provider({ name: HOSTILE })],
        values: formValues({ domain_name: `"><script>x</script>` }),
        errors: NO_ERRORS,
        schedule: { kind: "invalid", problem: HOSTILE },
        sources: SOURCES,
      }),
    );
    expect(elementCount(html, "script")).toBe(LAYOUT_SCRIPTS);
    expect(attributeValues(html, "#f-domain_name", "value")).toEqual([`"><script>x</script>`]);
  });
});

describe("providers", () => {
  test("the domain form's provider options follow the service: its hostname rule, its TTL rule or none", () => {
    const values = { ttl: "", proxied: "", create_if_missing: true };
    const options = (service: ServiceDescription | null) =>
      String(ProviderOptions({ service, values, errors: NO_ERRORS }));
    expect(options(serviceFor("cloudflare"))).toContain("Seconds (60–86400), or 1 for automatic.");
    expect(options(serviceFor("dynu"))).toContain("Seconds (30–86400).");
    // The proxy switch where the service has a proxy, with the service's own words.
    expect(options(serviceFor("cloudflare"))).toContain(
      '<label for="f-proxied"><span lang="en">Cloudflare proxy</span></label>',
    );
    expect(options(serviceFor("dynu"))).not.toContain('name="proxied"');
    const duck = defineService({
      ...SERVICES[0],
      type: "duck",
      label: "Duck",
      ttl: null,
      proxy: undefined,
      hostname: { suffix: ".duck.test", message: "must end in .duck.test" },
    });
    const html = options(duck);
    expect(html).toContain("Duck: the hostname must end in .duck.test.");
    expect(html).toContain("Duck sets the TTL itself.");
    expect(html).not.toContain('name="ttl"');
    expect(html).not.toContain('name="proxied"');
    // Creating a missing record only where the service can: DuckDNS updates names it holds.
    expect(options(serviceFor("cloudflare"))).toContain('name="create_if_missing"');
    expect(options(serviceFor("duckdns"))).not.toContain('name="create_if_missing"');
  });

  test("a verify result the service could not check says so, neither verified nor refused", () => {
    const html = String(
      VerifyResult({
        outcome: { ok: null, detail: "DuckDNS has no way to check a token" },
        providerName: "Duck",
        type: "duckdns",
      }),
    );
    expect(html).toContain('<span class="badge badge-info">Not checkable</span>');
    expect(html).toContain("DuckDNS has no way to check a token");
  });

  test("a row shows the masked credential, never more, and the type's badge", () => {
    const html = String(ProviderRow({ provider: provider(), now: NOW }));
    expect(html).toContain("API token");
    expect(html).toContain("<code>••••3f9a</code>");
    expect(html).toContain('<span class="badge badge-idle">Cloudflare</span>');
    expect(html).toContain('aria-checked="true"');
    expect(html).toContain("2 domains");
    expect(html).toContain("Its 2 domains and their history will be deleted too");
  });

  test("a provider never verified whose updates succeed says its credentials are in use, not that they were never checked", () => {
    const stats = (updates: number, failed: number) => ({
      provider_id: 3,
      provider_name: "Home",
      provider_type: "cloudflare",
      is_enabled: true,
      total_domains: 2,
      updates_24h: updates,
      successful_updates_24h: updates - failed,
      failed_updates_24h: failed,
      success_rate_24h: null,
      avg_duration_ms_24h: null,
      last_update_time: null,
    });
    const working = String(ProviderRow({ provider: provider(), now: NOW, stats: stats(6, 0) }));
    expect(working).toContain("6 updates, all OK");
    expect(working).toContain("credentials in use: its updates succeed");
    expect(working).not.toContain("never verified");
    expect(String(ProviderRow({ provider: provider(), now: NOW, stats: stats(6, 2) }))).toContain("never verified");
    expect(String(ProviderRow({ provider: provider(), now: NOW }))).toContain("never verified");
  });

  test("the credential field follows the type, with help on where to find the secret", () => {
    const none = { credentials: {}, options: {} };
    const cloudflare = String(ServiceFields({ service: serviceFor("cloudflare"), values: none, errors: NO_ERRORS }));
    expect(cloudflare).toContain(">API token</span></label>");
    expect(cloudflare).toContain("My Profile → API Tokens");
    expect(cloudflare).toContain("Zone : DNS : Edit");
    const dynu = String(ServiceFields({ service: serviceFor("dynu"), values: none, errors: NO_ERRORS }));
    expect(dynu).toContain(">API key</span></label>");
    expect(dynu).toContain("Control Panel → API Credentials");
  });

  test("one field per credential and option of the description: public values shown, secrets never, presets as a datalist", () => {
    const service = defineService({
      ...SERVICES[0],
      type: "fake",
      label: "Fake",
      credentials: [
        { key: "username", label: "Username", help: "The account.", secret: false },
        { key: "password", label: "Password", help: "The account's password.", secret: true },
      ],
      options: [
        {
          key: "server",
          label: "Update server",
          help: "Where updates go.",
          kind: "url",
          required: true,
          presets: [{ label: "No-IP", value: "https://dynupdate.no-ip.com" }],
        },
        {
          key: "method",
          label: "Method",
          help: "HTTP method.",
          kind: "choice",
          choices: ["GET", "POST"],
          default: "GET",
        },
      ],
    });
    const html = String(
      ServiceFields({
        service,
        values: { credentials: {}, options: { server: "https://members.dyndns.org", method: "POST" } },
        errors: NO_ERRORS,
        stored: { type: "fake", credentials: { username: "alice", password: "••••3f9a" } },
      }),
    );
    expect(html).toMatch(/<input type="text"[^>]*value="alice"[^>]*name="credential_username"/);
    expect(html).toMatch(/<input type="password"[^>]*placeholder="unchanged"[^>]*name="credential_password"/);
    expect(html).toContain("Stored: <code>••••3f9a</code>");
    expect(html).toMatch(
      /<input type="url"[^>]*value="https:\/\/members.dyndns.org" list="f-option_server-presets"[^>]*name="option_server"/,
    );
    expect(html).toContain(
      '<datalist id="f-option_server-presets"><option value="https://dynupdate.no-ip.com">No-IP</option></datalist>',
    );
    expect(html).toContain('<option value="POST" selected>POST</option>');
    expect(html).toContain('<span lang="en">Method</span> (optional)');
    expect(html).toContain("Default: GET.");
  });

  test("on edit the stored credential shows masked and may be left empty", () => {
    const html = String(
      ProviderFormPage({
        user: "admin",
        services: SERVICES,
        provider: provider(),
        values: { name: "Home Cloudflare", type: "cloudflare", credentials: {}, options: {}, is_enabled: true },
        errors: NO_ERRORS,
      }),
    );
    expect(html).toContain("Stored: <code>••••3f9a</code>. Leave empty to keep it.");
    expect(html).not.toMatch(/<input type="password"[^>]*required/);
    expect(html).toContain("Can't change while it has 2 domains.");
  });

  test("an error sits next to its field, tied to it, with the values kept but the secret", () => {
    const html = String(
      ProviderFormPage({
        user: "admin",
        services: SERVICES,
        values: {
          name: "x".repeat(120),
          type: "dynu",
          credentials: { api_key: "typed-key" },
          options: {},
          is_enabled: false,
        },
        errors: { fields: { name: "must be 1 to 100 characters" } },
      }),
    );
    expect(html).toMatch(
      /<input [^>]*value="x{120}"[^>]*id="f-name" name="name" aria-invalid="true" aria-describedby="f-name-help f-name-error" autofocus/,
    );
    expect(html).toContain('<p class="field-error" id="f-name-error">must be 1 to 100 characters</p>');
    expect(html).toContain('<input type="hidden" name="type" value="dynu"/>');
    expect(html).not.toContain("typed-key"); // a secret never comes back, even one just typed
    expect(html).toMatch(/<input type="checkbox" value="on" id="f-is_enabled"/);
  });

  test("a conflict is shown above the form", () => {
    const html = String(
      ProviderFormPage({
        user: "admin",
        services: SERVICES,
        values: { name: "a", type: "cloudflare", credentials: {}, options: {}, is_enabled: true },
        errors: { fields: {}, form: 'A provider named "a" already exists' },
      }),
    );
    expect(html).toContain(
      '<div class="notice notice-fail" role="alert"><span>A provider named &quot;a&quot; already exists</span></div>',
    );
  });
});

describe("domains", () => {
  const STATUSES: { name: string; fields: Partial<DomainView>; badge: string }[] = [
    {
      name: "last update succeeded",
      fields: { last_update_status: "SUCCESS" },
      badge: '<span class="badge badge-ok">OK</span>',
    },
    {
      name: "last update failed",
      fields: { last_update_status: "FAILED" },
      badge: '<span class="badge badge-fail">Failed</span>',
    },
    {
      name: "never updated",
      fields: { last_update_status: null },
      badge: '<span class="badge badge-info">Pending</span>',
    },
    {
      name: "disabled",
      fields: { is_enabled: false, last_update_status: "SUCCESS" },
      badge: '<span class="badge badge-idle">Disabled</span>',
    },
  ];
  for (const { name, fields, badge } of STATUSES) {
    test(`status badge: ${name}`, () => {
      expect(
        String(DomainRow({ domain: domain(fields), view: "dashboard", now: NOW, intervalSeconds: 300 })),
      ).toContain(badge);
    });
  }

  test("a dashboard row: address, last change, next run and Update now", () => {
    const html = String(DomainRow({ domain: domain(), view: "dashboard", now: NOW, intervalSeconds: 300 }));
    expect(html).toContain('<tr id="domain-7">');
    expect(html).toContain('<code class="ip ip4">203.0.113.7</code>');
    expect(html).toContain(">3 h ago</time>");
    expect(html).toContain(">in 4 min</time>");
    // A real form (works without JavaScript) that htmx posts and swaps the row with.
    expect(attributeValues(html, "form[hx-post]", "action")).toEqual(["/domains/7/update"]);
    expect(attributeValues(html, "form[hx-post] input[name=view]", "value")).toEqual(["dashboard"]);
    expect(attributeValues(html, "form[hx-post] button", "aria-label")).toEqual(["Update now: home.example.com (A)"]);
  });

  test("whether the record is live: served, not yet served naming the lagging name server, unreachable naming the silent one; nothing before it was asked", () => {
    const server = (name: string, fields: { answer?: string[]; ok?: boolean; error?: string | null } = {}) => ({
      name,
      address: "192.0.2.53",
      answer: ["203.0.113.7"],
      ok: true,
      error: null,
      ...fields,
    });
    const row = (propagation: Partial<DomainView["propagation"]>) =>
      String(
        DomainRow({
          domain: domain({
            propagation: {
              state: "served",
              servers: [],
              checked_at: null,
              served_after_ms: null,
              detail: null,
              ...propagation,
            },
          }),
          view: "dashboard",
          now: NOW,
          intervalSeconds: 300,
        }),
      );
    expect(row({ state: "served", servers: [server("ns1.example.com"), server("ns2.example.com")] })).toContain(
      '<span class="badge badge-ok">Served</span>',
    );
    const pending = row({
      state: "pending",
      servers: [server("ns1.example.com"), server("ns2.example.com", { answer: ["203.0.113.1"], ok: false })],
    });
    expect(pending).toContain('<span class="badge badge-warn">Not yet served</span>');
    expect(pending).toContain("ns2.example.com still answers 203.0.113.1");
    const unreachable = row({
      state: "unreachable",
      servers: [server("ns1.example.com"), server(HOSTILE, { answer: [], ok: false, error: "REFUSED" })],
    });
    expect(unreachable).toContain('<span class="badge badge-fail">Unreachable</span>');
    expect(unreachable).toContain(`${ESCAPED}alert(&quot;x&quot;)&lt;/script&gt; does not answer (REFUSED)`);
    expect(unreachable).not.toContain(HOSTILE);
    expect(row({ state: "unknown" })).not.toContain("data-propagation");
  });

  test("a disabled domain can't be updated now", () => {
    const html = String(
      DomainRow({ domain: domain({ is_enabled: false }), view: "list", now: NOW, intervalSeconds: 300 }),
    );
    expect(html).toMatch(/id="update-7"[^>]*disabled/);
    expect(html).toContain('aria-checked="false"');
  });

  test("the update's outcome shows in the row", () => {
    const result = (r: UpdateResult) =>
      String(DomainRow({ domain: domain(), view: "list", now: NOW, intervalSeconds: 300, result: r }));
    expect(
      result({ ok: true, changed: true, ip: "203.0.113.7", previousIp: "198.51.100.2", durationMs: 84 }),
    ).toContain(
      '<p class="update-result update-result-ok" role="status"><span>Now points at 203.0.113.7 (was 198.51.100.2).</span><span class="muted"> (84 ms)</span>',
    );
    expect(
      result({ ok: true, changed: false, ip: "203.0.113.7", previousIp: "203.0.113.7", durationMs: 84 }),
    ).toContain("Already pointed at 203.0.113.7; nothing to change.");
    // The cause in the service's own words, what to do, and a link to the history.
    const failed = result({
      ok: false,
      failure: "provider",
      detail: "Cloudflare: Authentication error (code 10000, status 403)",
    });
    expect(failed).toContain(
      "Home Cloudflare did not accept the update: Cloudflare: Authentication error (code 10000, status 403). Its history has the details.",
    );
    expect(failed).toContain(
      '<a href="/domains/7/history" aria-label="See the history of home.example.com (A)">See the history</a>',
    );
    expect(
      result({ ok: false, failure: "refused", detail: "The domain is disabled; enable it to update it" }),
    ).toContain("The domain is disabled; enable it to update it.");
  });

  test("the schedule preview in plain words", () => {
    const runs = upcomingRuns(null, NOW, 300, 3);
    const preview = String(
      SchedulePreview({ preview: { kind: "runs", defaultInterval: 300, runs, seconds: false, now: NOW } }),
    );
    expect(preview).toContain("every 5 minutes (default)");
    expect(preview).toContain("next: 14:05, 14:10, 14:15");
    const cron = String(
      SchedulePreview({
        preview: {
          kind: "runs",
          defaultInterval: null,
          runs: upcomingRuns("*/10 * * * *", NOW, 300, 3),
          seconds: false,
          now: NOW,
        },
      }),
    );
    expect(cron).toContain("next: 14:10, 14:20, 14:30");
    expect(cron).not.toContain("default");
    const invalid = String(SchedulePreview({ preview: { kind: "invalid", problem: "expected 5 fields" } }));
    expect(invalid).toContain('<p class="field-error" id="f-cron_schedule-error">expected 5 fields</p>');
  });

  test("the form: proxy only for Cloudflare, TTL for both, errors beside their fields", () => {
    const cloudflare = String(
      DomainFormPage({
        user: "admin",
        providers: [provider()],
        values: formValues({ ttl: "abc", cron_schedule: "every day" }),
        errors: { fields: { ttl: "must be 1 (automatic) or a whole number of seconds from 30 to 86400" } },
        schedule: { kind: "invalid", problem: "expected 5 fields" },
        sources: SOURCES,
      }),
    );
    expect(cloudflare).toContain("Cloudflare proxy");
    expect(cloudflare).toMatch(
      /value="abc"[^>]*id="f-ttl" name="ttl" aria-invalid="true" aria-describedby="f-ttl-help f-ttl-error"/,
    );
    expect(cloudflare).toContain('id="f-ttl-error">must be 1 (automatic)');
    expect(cloudflare).toContain('value="every day"');

    const dynu = String(
      DomainFormPage({
        user: "admin",
        providers: [provider({ type: "dynu" })],
        values: formValues(),
        errors: NO_ERRORS,
        schedule: { kind: "invalid", problem: "x" },
        sources: SOURCES,
      }),
    );
    expect(dynu).not.toContain("Cloudflare proxy");
    expect(dynu).toContain("Dynu&#x27;s default for a new record");
  });

  test("without providers the form points to adding one", () => {
    const html = String(
      DomainFormPage({
        user: "admin",
        providers: [],
        values: formValues(),
        errors: NO_ERRORS,
        schedule: { kind: "invalid", problem: "x" },
        sources: SOURCES,
      }),
    );
    expect(html).toContain('<a href="/providers/new">Add a provider</a> first');
    expect(html).not.toContain('<form method="post" action="/domains"');
  });
});

describe("what to do when the address is not detected", () => {
  const advice = (detail: string) =>
    updateSentence({ ok: false, failure: "detection", detail }, "Home").replace(
      "The public address could not be detected. ",
      "",
    );

  test("by the source that failed: an interface, a fixed address and the DNS resolvers are no matter of the internet connection", () => {
    expect(advice("IPv4 detection failed: interface:eth0: no global IPv4 address")).toBe(
      "Check that interface eth0 is up and has its public address (a WAN that is down, or an interface renamed); nothing is written until the address is detected again.",
    );
    expect(advice("IPv4 detection failed: fixed:2001:db8::1 is not an IPv4 address")).toBe(
      "Correct the fixed address in the domain's settings; nothing is written until then.",
    );
    expect(advice("IPv4 detection failed: dns:myip.example.test/A@127.0.0.1:53: REFUSED")).toStartWith(
      "Check that this machine reaches the DNS resolvers",
    );
    expect(advice("IPv4 detection failed: http://echo.example/v4: HTTP 503")).toBe(
      "Check this machine's internet connection; nothing is written until the address is detected again.",
    );
  });
});

describe("dashboard", () => {
  const props = {
    user: "admin",
    now: NOW,
    publicIp: {
      ipv4: "203.0.113.7",
      ipv6: "2001:db8::7",
      checkedAt: NOW - 30_000,
      failures: { ipv4: null, ipv6: null },
      answers: new Map(),
    },
    metrics: METRICS,
    scheduler: "running" as const,
    lastCheckAt: new Date(NOW - 2_000).toISOString(),
    hourly: hours([[3, 1]]),
    daily: DAYS,
    domains: [domain(), domain({ id: 8, domain_name: "nas.example.com", last_update_status: "FAILED" })],
    intervalSeconds: 300,
  };

  test("addresses, cards, charts and one row per domain", () => {
    const html = String(DashboardPage(props));
    expect(html).toContain('<span class="address-value"><code class="ip ip4">203.0.113.7</code></span>');
    // IPv6 breaks only between groups on a narrow screen.
    expect(html).toContain('<code class="ip">2001:<wbr>db8:<wbr>:<wbr>7</code>');
    expect(html).toContain("Checked <time");
    expect(html).toContain('<div class="stat-value">90%</div>');
    // The rate says what it counts: attempts, retries among them.
    expect(html).toContain("Attempts OK (24 h)");
    expect(html).toContain("36 of 40 attempts, retries included");
    expect(html).toContain('<div class="stat-value">4</div>');
    expect(html).toContain('<div class="stat-value">Running</div>');
    expect(count(html, '<svg class="chart"')).toBe(2);
    expect(count(html, '<tr id="domain-')).toBe(2);
  });

  test("the first line answers whether everything is OK, leading to what needs a person", () => {
    const failing = String(DashboardPage(props));
    // Before the address card: the first thing a phone shows.
    expect(failing.indexOf('id="at-a-glance"')).toBeLessThan(failing.indexOf("Public address"));
    expect(failing).toContain('<strong>1 of 2 records OK</strong> · <a href="/domains?status=failed">1 needs you</a>');
    const fine = String(
      DashboardPage({ ...props, domains: [domain(), domain({ id: 8, domain_name: "nas.example.com" })] }),
    );
    expect(fine).toContain('class="at-a-glance at-a-glance-ok"');
    expect(fine).toContain("<strong>All 2 records OK</strong>");
    expect(fine).not.toContain("need");
    // A switched-off record is not one ddnsd keeps; one never updated is waiting, not failing.
    const mixed = String(
      DashboardPage({
        ...props,
        domains: [
          domain(),
          domain({ id: 8, domain_name: "nas.example.com", is_enabled: false }),
          domain({ id: 9, domain_name: "new.example.com", last_update_status: null }),
        ],
      }),
    );
    expect(mixed).toContain("<strong>1 of 2 records OK</strong> · 1 waiting");
  });

  test("a low rate of attempts is red only while a domain is failing: retries that succeeded are not a failure now", () => {
    const recovered = String(DashboardPage({ ...props, domains: [domain()] }));
    expect(recovered).toContain(
      '<div class="card stat"><div class="stat-label">Attempts OK (24 h)</div><div class="stat-value">90%</div>',
    );
    const failing = String(DashboardPage(props));
    expect(failing).toContain('<div class="card stat stat-fail"><div class="stat-label">Attempts OK (24 h)</div>');
  });

  test("the hourly chart: 24 bars, each a success and a failure part, scaled to the busiest hour", () => {
    const html = String(
      UpdatesChart({
        hours: hours([
          [3, 1],
          [0, 0],
          [1, 0],
        ]),
      }),
    );
    expect(count(html, '<g class="bar">')).toBe(24);
    expect(count(html, 'class="bar-ok"')).toBe(24);
    expect(count(html, 'class="bar-fail"')).toBe(24);
    // The busiest hour has 4 updates, so the scale tops at 5 and a plot of 115 units gives 23 per
    // update: 3 successes stacked under 1 failure.
    expect(html).toContain(">5</text>");
    expect(html).toContain('class="bar-ok" x="30.8" y="56.0" width="13.1" height="69.0"');
    expect(html).toContain('class="bar-fail" x="30.8" y="33.0" width="13.1" height="23.0"');
    expect(html).toContain("Updates per hour over the last 24 hours: 4 succeeded, 1 failed");
  });

  test("the IP-change chart: 7 bars with weekday labels", () => {
    const html = String(IpChangesChart({ days: DAYS }));
    expect(count(html, '<g class="bar">')).toBe(7);
    expect(html).toContain(">Sat</text>");
    expect(html).toContain("IP changes per day over the last 7 days: 6 in all");
  });

  test("nothing to show yet", () => {
    const html = String(
      DashboardPage({
        ...props,
        domains: [],
        publicIp: { ipv4: null, ipv6: null, checkedAt: null, failures: { ipv4: null, ipv6: null }, answers: new Map() },
        metrics: { ...METRICS, success_rate_24h: null },
        hourly: hours(),
      }),
    );
    expect(html).toContain("detecting…");
    // First steps come first, and no empty figures or charts below them.
    expect(html.indexOf("First steps")).toBeLessThan(html.indexOf("Public address"));
    expect(html).toContain('<a href="/domains/new">Add a domain</a>');
    expect(html).not.toContain('<svg class="chart"');
    expect(html).not.toContain("Attempts OK");
    expect(html).not.toContain('id="at-a-glance"');
  });
});

describe("history, about, sign in", () => {
  test("the timeline of addresses, newest first, the current one marked", () => {
    const html = String(
      HistoryPage({
        user: "admin",
        now: NOW,
        intervalSeconds: 300,
        domain: domain(),
        rows: [],
        timeline: [
          { ip: "203.0.113.7", from: new Date(NOW - 3_600_000).toISOString(), until: null },
          {
            ip: "198.51.100.2",
            from: new Date(NOW - 5 * 3_600_000).toISOString(),
            until: new Date(NOW - 3_600_000).toISOString(),
          },
        ],
        page: 2,
        pages: 3,
        total: 60,
      }),
    );
    expect(html.indexOf("203.0.113.7</code>")).toBeLessThan(html.indexOf("198.51.100.2</code>"));
    expect(html).toContain("13:00 UTC</time> → now");
    expect(html).toContain(
      '09:00 UTC</time> → <time datetime="2026-11-21T13:00:00.000Z" data-local="minutes">2026-11-21 13:00 UTC',
    );
    expect(html).toContain("4 h");
    expect(html).toContain('href="/domains/7/history?page=1" rel="prev"');
    expect(html).toContain('href="/domains/7/history?page=3" rel="next"');
    expect(html).toContain("Page 2 of 3");
  });

  test("about shows what it is given and links the API reference", () => {
    const html = String(
      AboutPage({
        user: "admin",
        version: "1.2.3",
        uptimeSeconds: 93_784,
        dataDir: "/var/lib/ddnsd",
        databasePath: "/var/lib/ddnsd/ddnsd.db",
        databaseBytes: 120_000,
        timeZone: "Europe/Amsterdam",
        addressSources: {
          ipv4: { source: "web", from: "environment" },
          ipv6: { source: "interface:eth0", from: "database" },
        },
        sourceForm: {
          values: {
            ipv4: { source: "environment", urls: "https://a.example/\nhttps://b.example/" },
            ipv6: { source: "interface:eth0", urls: "" },
          },
          environment: { ipv4: "web", ipv6: "web" },
          interfaces: [{ name: "lo", ipv4: ["127.0.0.1"], ipv6: [] }],
          errors: { fields: { ipv6_urls: "expected http(s) URLs" } },
        },
        settings: [{ name: "DDNS_PORT", value: "8001" }],
        now: NOW,
        logLines: ["2026-01-01T00:00:00.000Z INFO  record updated <b>"],
      }),
    );
    expect(html).toContain("<code>1.2.3</code>");
    // The recent log, its lines as text.
    expect(html).toContain("INFO  record updated &lt;b&gt;");
    expect(html).toContain("1 d 2 h");
    expect(html).toContain("117 KB");
    expect(html).toContain('href="/docs"');
    expect(html).toContain("<code>DDNS_PORT</code>");
    expect(html).toContain(
      'IPv4: <code>web</code> <span class="muted">(asked of the echo services on the web; the environment&#x27;s setting)</span>',
    );
    expect(html).toContain(
      'IPv6: <code>interface:eth0</code> <span class="muted">(read from the network interface eth0; chosen below)</span>',
    );
    // The source form: the environment's setting named, each interface with its addresses, a stored one that is gone kept.
    expect(html).toContain('<option value="environment" selected>The environment&#x27;s setting (web)</option>');
    expect(html).toContain('<option value="interface:lo">Interface lo — 127.0.0.1</option>');
    expect(html).toContain(
      '<option value="interface:eth0" selected>Interface eth0 — not found on this machine now</option>',
    );
    expect(html).toContain("https://a.example/\nhttps://b.example/</textarea>");
    expect(html).toContain('<p class="field-error" id="f-ipv6_urls-error">expected http(s) URLs</p>');
  });

  test("sign in: the notice, the error, the username kept", () => {
    const html = String(
      LoginPage({
        username: "admin",
        next: "/domains",
        error: "Incorrect username or password",
        notice: "Your session has expired. Please sign in again.",
      }),
    );
    expect(html).toContain("Your session has expired");
    expect(html).toContain('role="alert"');
    expect(html).toContain('value="admin"');
    expect(html).toContain('<input type="hidden" name="next" value="/domains"/>');
    expect(html).not.toContain("Sign out");
  });
});

describe("formatting", () => {
  const CASES: [string, string, string][] = [
    ["duration, seconds", duration(42), "42 s"],
    ["duration, minutes", duration(300), "5 min"],
    ["duration, two units", duration(3 * 3600 + 20 * 60 + 5), "3 h 20 min"],
    ["duration, days", duration(2 * 86400 + 5 * 3600), "2 d 5 h"],
    ["relative past", relative(NOW - 90_000, NOW), "1 min ago"],
    ["relative future", relative(NOW + 240_000, NOW), "in 4 min"],
    ["relative now", relative(NOW + 2_000, NOW), "just now"],
    ["every minute", every(60), "every minute"],
    ["every 5 minutes", every(300), "every 5 minutes"],
    ["every 90 seconds", every(90), "every 90 seconds"],
    ["every 2 hours", every(7200), "every 2 hours"],
    ["bytes", bytes(2_500_000), "2.4 MB"],
    ["short time today", shortTime(NOW + 5 * 60_000, NOW), "14:05"],
    ["short time another day", shortTime(NOW + 86_400_000, NOW), "Sun 14:00"],
    ["short time with seconds", shortTime(NOW + 30_000, NOW, true), "14:00:30"],
  ];
  for (const [name, actual, expected] of CASES) {
    test(name, () => expect(actual).toBe(expected));
  }
});
