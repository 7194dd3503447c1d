// GET /metrics (docs/api.md, prometheus): the text exposition parsed as Prometheus would read it, the figures
// after real updates against the fakes, and who may read it.

import { beforeEach, describe, expect, test } from "bun:test";
import { addDomain, addProvider, duePass, forceUpdate, type Rig, useRig } from "../updater/harness";

const current = useRig();
let rig: Rig;
beforeEach(() => {
  rig = current();
  rig.t.ctx.settings.metricsToken = null;
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the text format strictly: every sample belongs to a family declared by # TYPE before it. */
function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  expect(text.endsWith("\n")).toBe(true);
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.trimEnd().split("\n")) {
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    if (line.startsWith("# HELP ")) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+]+|\+Inf|NaN)$/.exec(line);
    if (!sample) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (sample[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[name!] = value!.replace(/\\(.)/g, (_, c) => (c === "n" ? "\n" : c));
    const name = sample[1]!;
    const family = name.replace(/_(bucket|sum|count)$/, "");
    if (!types.has(name) && !(types.get(family) === "histogram"))
      throw new Error(`${name} has no # TYPE line before it`);
    samples.push({ name, labels, value: Number(sample[3]) });
  }
  return { samples, types };
}

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

async function scrape(authorization?: string | null) {
  const headers: Record<string, string> = {};
  const token = authorization === undefined ? `Bearer ${await rig.t.token()}` : authorization;
  if (token !== null) headers.authorization = token;
  const response = await rig.t.app.handle(new Request("http://localhost/metrics", { headers }));
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() };
}

describe("exposition", () => {
  test("after updates: counters by provider type, result and trigger; the histogram; changes; failures; domains; last success", async () => {
    rig.cf.addZone("example.com");
    rig.cf.addRecord("example.com", { type: "A", name: "home", content: "81.2.69.142" });
    const provider = await addProvider(rig.t, "cloudflare");
    const ok = await addDomain(rig.t, provider.id, "home.example.com");
    const failing = await addDomain(rig.t, provider.id, "gone.example.com", { config: { create_if_missing: false } });
    await addDomain(rig.t, provider.id, "off.example.com", { is_enabled: false });
    expect((await forceUpdate(rig.t, ok.id)).status).toBe(200);
    expect((await forceUpdate(rig.t, failing.id)).status).toBe(502);
    rig.echo.fault({ status: 503 }, 1);
    await duePass(rig.t);

    const answer = await scrape();
    expect(answer.status).toBe(200);
    expect(answer.type).toBe("text/plain; version=0.0.4; charset=utf-8");
    const { samples, types } = parseExposition(answer.text);
    expect(types.get("ddnsd_updates_total")).toBe("counter");
    expect(types.get("ddnsd_update_duration_seconds")).toBe("histogram");
    expect(value(samples, "ddnsd_build_info")).toBe(1);
    expect(samples.find((s) => s.name === "ddnsd_build_info")!.labels.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(
      value(samples, "ddnsd_updates_total", { provider_type: "cloudflare", result: "success", trigger: "manual" }),
    ).toBe(1);
    expect(
      value(samples, "ddnsd_updates_total", { provider_type: "cloudflare", result: "failure", trigger: "manual" }),
    ).toBe(1);
    expect(value(samples, "ddnsd_update_duration_seconds_count", { provider_type: "cloudflare" })).toBe(2);
    expect(value(samples, "ddnsd_update_duration_seconds_bucket", { provider_type: "cloudflare", le: "+Inf" })).toBe(2);
    const buckets = samples.filter((s) => s.name === "ddnsd_update_duration_seconds_bucket").map((s) => s.value);
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    expect(value(samples, "ddnsd_ip_changes_total", { family: "ipv4" })).toBe(1);
    expect(value(samples, "ddnsd_ip_changes_total", { family: "ipv6" })).toBe(0);
    expect(value(samples, "ddnsd_detection_failures_total", { family: "ipv4" })).toBe(1);
    expect(value(samples, "ddnsd_domains", { state: "ok" })).toBe(1);
    expect(value(samples, "ddnsd_domains", { state: "failing" })).toBe(1);
    expect(value(samples, "ddnsd_domains", { state: "disabled" })).toBe(1);
    const lastSuccess = value(samples, "ddnsd_record_last_success_timestamp_seconds", {
      domain: "home.example.com",
      record_type: "A",
    })!;
    expect(Math.abs(lastSuccess - Date.now() / 1000)).toBeLessThan(60);
    expect(
      value(samples, "ddnsd_record_last_success_timestamp_seconds", { domain: "gone.example.com" }),
    ).toBeUndefined();
    expect(value(samples, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(value(samples, "process_cpu_seconds_total")).toBeGreaterThan(0);
  });

  test("a pushed update counts with trigger push", async () => {
    rig.cf.addZone("example.com");
    rig.cf.addRecord("example.com", { type: "A", name: "home", content: "81.2.69.142" });
    await addDomain(rig.t, (await addProvider(rig.t, "cloudflare")).id, "home.example.com");
    const { key } = (await rig.t.request("POST", "/api/v1/update-keys", { body: { name: "r" } })).body;
    const before =
      value(parseExposition((await scrape()).text).samples, "ddnsd_updates_total", { trigger: "push" }) ?? 0;
    await rig.t.app.handle(
      new Request(`http://localhost/nic/update?hostname=home.example.com&myip=81.2.69.160&password=${key}`),
    );
    expect(
      value(parseExposition((await scrape()).text).samples, "ddnsd_updates_total", {
        result: "success",
        trigger: "push",
      }),
    ).toBe(before + 1);
  });
});

describe("access", () => {
  test("no token or a wrong one → 401 with the API's detail", async () => {
    expect((await scrape(null)).status).toBe(401);
    const wrong = await scrape("Bearer not-a-token");
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.text)).toEqual({ detail: "Could not validate credentials" });
  });

  test("DDNS_METRICS_TOKEN opens it when set, and an API token still does", async () => {
    rig.t.ctx.settings.metricsToken = "metrics-token-0123456789abcdef0123456789";
    expect((await scrape("Bearer metrics-token-0123456789abcdef0123456789")).status).toBe(200);
    expect((await scrape("Bearer metrics-token-0123456789abcdef012345678X")).status).toBe(401);
    expect((await scrape()).status).toBe(200);
  });
});
