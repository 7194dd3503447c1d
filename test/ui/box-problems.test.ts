// The appliance's own problems said once over HTTP: with every live check unreachable for one reason
// (the resolvers do not answer) or an address source failing, the dashboard and the Domains page
// carry one banner with the cause and the next step, and the rows link to it instead of repeating
// it; the right advice for an interface without its address; a provider card keeps the credentials
// its service refused while detection fails.

import { afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { HistoryInsert } from "../../src/db/disk";
import { UPDATABLE } from "../../views/components";
import { boxProblems, liveCheckCause } from "../../views/fragments/box-problems";
import { createDomain, createProvider, resetData } from "../api/helpers";
import { makeTestApp, type TestApp } from "../support";
import { count, elementCount, page, signIn } from "./helpers";

let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await makeTestApp();
  cookie = await signIn(t);
});

beforeEach(() => resetData(t));
afterEach(() => {
  t.ctx.publicIp.failures.ipv4 = null;
});

/** An attempt of a domain as the updater records it, and the domain's state as it leaves it. */
function attempt(domainId: number, cause: HistoryInsert["failureCause"] | "ok", message: string): void {
  t.ctx.store.history.append(
    {
      domainId,
      ipAddress: cause === "ok" ? "203.0.113.7" : null,
      previousIp: null,
      status: cause === "ok" ? "SUCCESS" : "FAILED",
      failureCause: cause === "ok" ? null : cause,
      message,
      trigger: "schedule",
      durationMs: 40,
      timestamp: Date.now(),
    },
    100,
  );
  if (cause === "ok")
    t.ctx.sqlite.run("UPDATE domains SET last_update_status = 'SUCCESS', last_known_ip = '203.0.113.7' WHERE id = ?", [
      domainId,
    ]);
  else if (cause !== "detection")
    t.ctx.sqlite.run("UPDATE domains SET last_update_status = 'FAILED' WHERE id = ?", [domainId]);
}

/** `n` domains written fine, whose live check then runs: the test app's resolver (127.0.0.1:9) refuses every question. */
async function checkedDomains(n: number): Promise<number[]> {
  const provider = await createProvider(t, { name: "Home" });
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const domain = await createDomain(t, provider.id, { domain_name: `host${i}.example.com` });
    attempt(domain.id, "ok", "Updated");
    ids.push(domain.id);
  }
  t.ctx.propagation.held(t.ctx.store.domains.list().filter((row) => ids.includes(row.id)));
  t.ctx.propagation.runDue();
  await t.ctx.propagation.idle();
  return ids;
}

describe("every live check unreachable for one reason", () => {
  const CAUSE = "resolver 127.0.0.1:9";

  for (const path of ["/", "/domains"]) {
    test(`${path}: the resolvers' failure is said once with its next step; each row says the check is paused`, async () => {
      const ids = await checkedDomains(6);
      const html = (await page(t, path, { cookie })).text;
      expect(elementCount(html, ".box-problem")).toBe(1);
      expect(count(html, CAUSE)).toBe(1);
      expect(html).toContain("DNS resolvers do not answer");
      expect(html).toContain("DDNS_RESOLVERS");
      expect(html).toContain("6 records affected");
      // No row repeats the words, nor shows a red "Unreachable" beside its "OK".
      expect(count(html, "name servers were not found")).toBe(0);
      expect(count(html, "the NS query for")).toBe(0);
      expect(elementCount(html, '[data-propagation="unreachable"]')).toBe(0);
      for (const id of ids) {
        const row = rowHtml(html, id);
        expect(row).toContain("Live check paused");
        expect(row).toContain('href="#box-live-check-0"');
      }
    });
  }

  test("a record's own failure is no box problem: a zone not found, or one name's name servers apart", () => {
    const unreachable = { state: "unreachable" as const, checked_at: null, served_after_ms: null };
    const zoneless = {
      ...unreachable,
      servers: [],
      detail:
        "the zone's name servers were not found: no zone holding a.example was found (no NS records up to example)",
    };
    expect(liveCheckCause(zoneless)).toBeNull();
    const server = (error: string | null) => ({
      name: "ns1.example.com",
      address: "192.0.2.53",
      answer: [],
      ok: false,
      error,
    });
    const oneName = { ...unreachable, servers: [server("REFUSED")], detail: null };
    expect(liveCheckCause(oneName)).toEqual({ words: "REFUSED", resolvers: false });
    const domains = [1, 2].map((id) => ({
      id,
      domain_name: "one.example.com",
      is_enabled: true,
      propagation: oneName,
    }));
    const box = boxProblems(domains as never, () => UPDATABLE);
    // A and AAAA of one name whose name servers refuse: that zone's, said in its rows.
    expect(box.problems).toEqual([]);
    const two = [...domains, { id: 3, domain_name: "two.example.com", is_enabled: true, propagation: oneName }];
    expect(boxProblems(two as never, () => UPDATABLE).problems.map((p) => p.title)).toEqual([
      "The live check cannot reach the name servers",
    ]);
  });
});

describe("an address source failing", () => {
  test("an interface without its address: one banner with the interface's advice, not the internet connection's", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const domain = await createDomain(t, provider.id, { domain_name: `wan${i}.example.com` });
      attempt(domain.id, "ok", "Updated");
      ids.push(domain.id);
    }
    const error = "IPv4 detection failed: interface:eth9: no global IPv4 address";
    t.ctx.publicIp.failures.ipv4 = { since: Date.now() - 120_000, error };
    for (const id of ids) attempt(id, "detection", error);
    for (const path of ["/", "/domains"]) {
      const html = (await page(t, path, { cookie })).text;
      expect(elementCount(html, ".box-problem")).toBe(1);
      expect(html).toContain("Interface eth9 has no usable IPv4 address");
      expect(count(html, "no global IPv4 address")).toBe(1);
      expect(html).toContain("Check that interface eth9 is up");
      expect(html).not.toContain("internet connection");
      for (const id of ids) expect(rowHtml(html, id)).toContain("Address not detected");
    }
  });

  test("the provider card keeps the credentials its service refused while detection fails", async () => {
    const provider = await createProvider(t, { name: "Revoked" });
    const domain = await createDomain(t, provider.id, { domain_name: "cam.example.com" });
    attempt(domain.id, "credentials", "Cloudflare: Invalid API Token (code 1000)");
    const error = "IPv4 detection failed: http://127.0.0.1:9/unused: connection refused";
    t.ctx.publicIp.failures.ipv4 = { since: Date.now(), error };
    attempt(domain.id, "detection", error);
    const html = (await page(t, "/providers", { cookie })).text;
    expect(html).toContain("Revoked refused the credentials: Invalid API Token (code 1000)");
    // The web source's failure is the machine's connection, and said so.
    const dashboard = (await page(t, "/", { cookie })).text;
    expect(dashboard).toContain("The public IPv4 address cannot be detected");
    expect(dashboard).toContain("internet connection");
  });
});

/** The markup of domain `id`'s row. */
function rowHtml(html: string, id: number): string {
  const start = html.indexOf(`<tr id="domain-${id}"`);
  expect(start).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf("</tr>", start));
}
