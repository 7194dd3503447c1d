// `ddnsd check` as a user runs it: `bun run src/main.ts check` on a data dir prepared through the
// API, against the fakes. One pass over every enabled domain, due or not; one line per domain; exit 1
// when any failed.

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ECHO_DEFAULT_IPV4, ECHO_DEFAULT_IPV6 } from "../fakes/echo";
import { ENCRYPTION_KEY, SECRET_KEY } from "../support";
import { addDomain, addProvider, OLD_IPV4, OLD_IPV6, type Rig, startRig } from "./harness";

const MAIN = join(import.meta.dir, "../../src/main.ts");

let dir: string;
let rig: Rig;
let ids: Record<string, number>;

/** Runs the CLI on the data dir; the fakes keep answering meanwhile (hence spawn, not spawnSync). */
async function check(): Promise<{ code: number; lines: string[]; stderr: string }> {
  const child = Bun.spawn([process.execPath, "run", MAIN, "check"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? dir,
      ...rig.env,
      DDNS_DATA_DIR: dir,
      DDNS_SECRET_KEY: SECRET_KEY,
      DDNS_ENCRYPTION_KEY: ENCRYPTION_KEY,
      DDNS_HTTP_TIMEOUT: "2s",
      DDNS_LOG_LEVEL: "warn",
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => child.kill(), 20_000);
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  clearTimeout(timer);
  return { code, lines: stdout.trim().split("\n").sort(), stderr };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ddnsd-check-"));
  rig = await startRig({ dataDir: dir });
  const { cf, dynu, t } = rig;
  cf.addZone("example.com");
  cf.addRecord("example.com", { type: "A", name: "same", content: OLD_IPV4 });
  dynu.addDomain("example.org", { ipv4Address: OLD_IPV4, ipv6Address: OLD_IPV6, ipv6: true });
  const cloudflare = await addProvider(t, "cloudflare");
  const dynuProvider = await addProvider(t, "dynu");
  const same = await addDomain(t, cloudflare.id, "same.example.com");
  // Written once already, and not due for an hour: `check` looks at it all the same.
  expect((await t.request("POST", `/api/v1/domains/${same.id}/update_ip`)).status).toBe(200);
  t.ctx.sqlite.query("UPDATE domains SET next_run_at = ? WHERE id = ?").run(Date.now() + 3_600_000, same.id);
  const fresh = await addDomain(t, cloudflare.id, "fresh.example.com");
  const apex = await addDomain(t, dynuProvider.id, "example.org", { record_type: "AAAA" });
  await addDomain(t, cloudflare.id, "off.example.com", { is_enabled: false });
  ids = { same: same.id, fresh: fresh.id, apex: apex.id };
  t.ctx.sqlite.close();
});

afterAll(async () => {
  await rig.stop();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  rig.cf.clearFaults();
  rig.dynu.clearFaults();
  rig.echo.clearFaults();
});

describe("ddnsd check", () => {
  test("every enabled domain, due or not, one line each; exit 0 when none failed", async () => {
    const result = await check();
    expect(result.lines).toEqual([
      `example.org AAAA updated ${ECHO_DEFAULT_IPV6}`,
      `fresh.example.com A updated ${ECHO_DEFAULT_IPV4}`,
      `same.example.com A unchanged ${ECHO_DEFAULT_IPV4}`,
    ]);
    expect(result.code).toBe(0);
    expect(rig.cf.record("fresh.example.com", "A")?.content).toBe(ECHO_DEFAULT_IPV4);
    expect(rig.dynu.domain("example.org")).toMatchObject({ ipv4Address: OLD_IPV4, ipv6Address: ECHO_DEFAULT_IPV6 });
    expect(rig.cf.record("off.example.com", "A")).toBeUndefined();

    // Run again: everything is current now.
    const again = await check();
    expect(again.lines.map((line) => line.split(" ")[2])).toEqual(["unchanged", "unchanged", "unchanged"]);
    expect(again.code).toBe(0);
  });

  test("a provider failure is a failed line with the provider's reason and exit 1", async () => {
    rig.echo.ipv4 = "185.103.110.201";
    rig.cf.fault({ status: 403, code: 9109, message: "Invalid access token" });
    try {
      const result = await check();
      expect(result.lines).toEqual([
        `example.org AAAA unchanged ${ECHO_DEFAULT_IPV6}`,
        "fresh.example.com A failed 185.103.110.201: Cloudflare: Invalid access token (code 9109, HTTP 403)",
        "same.example.com A failed 185.103.110.201: Cloudflare: Invalid access token (code 9109, HTTP 403)",
      ]);
      expect(result.code).toBe(1);
      // What the check did is in the database the appliance reads.
      const db = new Database(join(dir, "ddnsd.db"), { readonly: true });
      try {
        const row = db
          .query<{ status: string; message: string }, [number]>(
            "SELECT status, message FROM history WHERE domain_id = ? ORDER BY id DESC",
          )
          .get(ids.fresh!);
        expect(row).toEqual({ status: "FAILED", message: "Cloudflare: Invalid access token (code 9109, HTTP 403)" });
      } finally {
        db.close();
      }
    } finally {
      rig.echo.ipv4 = ECHO_DEFAULT_IPV4;
    }
  });

  test("a detection failure fails the domains of that family and exits 1", async () => {
    rig.echo.fault({ status: 503 }, undefined, "/v4");
    const result = await check();
    const failed = `IPv4 detection failed: ${rig.echo.url}/v4: HTTP 503`;
    expect(result.lines).toEqual([
      expect.stringMatching(/^example\.org AAAA (updated|unchanged) /),
      `fresh.example.com A failed -: ${failed}`,
      `same.example.com A failed -: ${failed}`,
    ]);
    expect(result.code).toBe(1);
  });
});

test("with no enabled domains, check says so and exits 0", async () => {
  const empty = mkdtempSync(join(tmpdir(), "ddnsd-check-empty-"));
  try {
    const child = Bun.spawn([process.execPath, "run", MAIN, "check"], {
      env: { PATH: process.env.PATH ?? "", DDNS_DATA_DIR: empty, DDNS_LOG_LEVEL: "warn" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
    expect(stdout).toBe("no enabled domains\n");
    expect(code).toBe(0);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

test("a push-only domain has its line (its last push, its live state), and a stale one exits 1", async () => {
  const [mainDir, mainRig] = [dir, rig];
  dir = mkdtempSync(join(tmpdir(), "ddnsd-check-push-"));
  rig = await startRig({ dataDir: dir });
  try {
    rig.cf.addZone("example.com");
    rig.cf.addRecord("example.com", { type: "A", name: "router", content: OLD_IPV4 });
    const cloudflare = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, cloudflare.id, "router.example.com", { address_source: "push" });
    const pushedAt = Date.now() - 3_600_000;
    const db = rig.t.ctx.sqlite;
    db.query("UPDATE domains SET pushed_ip = ?, pushed_at = ?, last_known_ip = ? WHERE id = ?").run(
      OLD_IPV4,
      pushedAt,
      OLD_IPV4,
      domain.id,
    );
    db.close();
    const fresh = await check();
    expect(fresh.lines).toEqual([
      `router.example.com A push ${OLD_IPV4}: last push ${new Date(pushedAt).toISOString()}, live unknown`,
    ]);
    expect(fresh.code).toBe(0);
    // Pushed two days ago: past DDNS_PUSH_STALE_AFTER (24 h).
    const stale = Date.now() - 2 * 86_400_000;
    const reopened = new Database(join(dir, "ddnsd.db"));
    reopened.query("UPDATE domains SET pushed_at = ? WHERE id = ?").run(stale, domain.id);
    reopened.close();
    const late = await check();
    expect(late.lines).toEqual([
      `router.example.com A push ${OLD_IPV4}: last push ${new Date(stale).toISOString()} (stale), live unknown`,
    ]);
    expect(late.code).toBe(1);
    // No provider call for it: the schedule never writes a push-only record.
    expect(rig.cf.requests.filter((r) => r.method !== "GET")).toHaveLength(0);
  } finally {
    await rig.stop();
    rmSync(dir, { recursive: true, force: true });
    [dir, rig] = [mainDir, mainRig];
  }
});
