// Keep-alive (docs/operations.md, "Keep-alive"): a domain at a one-shot service with
// `config.refresh_every` is sent its unchanged address again once its record was last written longer
// ago, a `refresh` row; never before, never where it is not set, never at a zone service, which
// refuses the field. Through the whole app against the dyndns2 fake; time moves with the test's own
// clock (setSystemTime), never by waiting.

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, setSystemTime, test } from "bun:test";
import { DYNDNS2_FAKE_PASSWORD, DYNDNS2_FAKE_USER, type Dyndns2Fake, startDyndns2Fake } from "../fakes/dyndns2";
import { page, signIn } from "../ui/helpers";
import { addDomain, addProvider, duePass, OLD_IPV4, type Rig, useRig } from "./harness";

const DAY_MS = 86_400_000;

let fake: Dyndns2Fake;
beforeAll(() => {
  fake = startDyndns2Fake();
});
afterAll(async () => {
  await fake.stop();
});

describe("config.refresh_every", () => {
  const current = useRig();
  let rig: Rig;
  beforeEach(() => {
    rig = current();
    fake.hosts.clear();
    fake.clearFaults();
    fake.clearRequests();
  });
  afterEach(() => {
    setSystemTime();
  });

  async function dyndns2Provider(): Promise<number> {
    const response = await rig.t.request("POST", "/api/v1/providers", {
      body: {
        name: `dyn-${crypto.randomUUID().slice(0, 6)}`,
        type: "dyndns2",
        credentials: { username: DYNDNS2_FAKE_USER, password: DYNDNS2_FAKE_PASSWORD },
        options: { server: fake.url },
      },
    });
    expect(response.status).toBe(200);
    return response.body.id;
  }

  /** The domain's rows, newest first, read from the store (the API's token would not outlive the moved clock). */
  const rows = (id: number) => rig.t.ctx.store.history.list(id, 20);

  /** Moves the clock to `days` after `start` and runs a pass with every domain due. */
  async function passAt(start: number, days: number): Promise<void> {
    setSystemTime(new Date(start + days * DAY_MS));
    await duePass(rig.t);
  }

  /** home.example.com at the fake, a domain for it with this refresh_every, written by a first pass; when that pass ran. */
  async function writtenOnce(refreshEvery: string): Promise<{ id: number; start: number }> {
    fake.addHost("home.example.com", { username: DYNDNS2_FAKE_USER, ipv4: OLD_IPV4 });
    const domain = await addDomain(rig.t, await dyndns2Provider(), "home.example.com", {
      config: { refresh_every: refreshEvery },
    });
    const start = Date.now();
    await duePass(rig.t);
    return { id: domain.id, start };
  }

  test("an unchanged record is sent again once refresh_every has passed since it was last written, a refresh row; not before", async () => {
    const { id, start } = await writtenOnce("25d");
    expect(fake.updates()).toBe(1);
    expect(fake.hosts.get("home.example.com")!.ipv4).toBe(rig.echo.ipv4);

    // Checked every interval for 24 days: the address is current, nothing is sent.
    await passAt(start, 1);
    await passAt(start, 24.9);
    expect(fake.updates()).toBe(1);
    expect(rows(id).map((row) => row.trigger)).toEqual(["schedule"]);

    await passAt(start, 25.01);
    expect(fake.updates()).toBe(2);
    const [refreshed] = rows(id);
    expect(refreshed).toMatchObject({
      trigger: "refresh",
      status: "SUCCESS",
      ipAddress: rig.echo.ipv4,
      previousIp: rig.echo.ipv4,
    });
    expect(refreshed!.message).toStartWith(
      `Refreshed home.example.com A → ${rig.echo.ipv4} (sent again unchanged, last written over 25d ago`,
    );

    // Counted from that resend: the next comes 25 days after it, not at every check past the first period.
    await passAt(start, 26);
    await passAt(start, 49.9);
    expect(fake.updates()).toBe(2);
    await passAt(start, 50.1);
    expect(fake.updates()).toBe(3);
    expect(rows(id).map((row) => row.trigger)).toEqual(["refresh", "refresh", "schedule"]);
    // The API and the OpenAPI enum carry the trigger.
    setSystemTime();
    const history = await rig.t.request("GET", `/api/v1/domains/${id}/history`);
    expect(history.body[0].trigger).toBe("refresh");
    const shown = await page(rig.t, `/domains/${id}/history`, { cookie: await signIn(rig.t) });
    expect(shown.text).toContain('<td data-label="Trigger">Refresh (kept alive)</td>');
  });

  test('without refresh_every (no default for this server) or with "0", an unchanged record is never sent again', async () => {
    const provider = await dyndns2Provider();
    fake.addHost("plain.example.com", { username: DYNDNS2_FAKE_USER, ipv4: OLD_IPV4 });
    fake.addHost("off.example.com", { username: DYNDNS2_FAKE_USER, ipv4: OLD_IPV4 });
    const plain = await addDomain(rig.t, provider, "plain.example.com");
    const off = await addDomain(rig.t, provider, "off.example.com", { config: { refresh_every: "0" } });
    const start = Date.now();
    await duePass(rig.t);
    expect(fake.updates()).toBe(2);
    await passAt(start, 100);
    expect(fake.updates()).toBe(2);
    expect(rows(plain.id)).toHaveLength(1);
    expect(rows(off.id)).toHaveLength(1);
  });

  test("a failed resend is a failed refresh row; the next check writes again as any failed record", async () => {
    const { id, start } = await writtenOnce("2d");
    fake.fault({ body: "maintenance", status: 500 }, 1);
    await passAt(start, 2.1);
    expect(rows(id)[0]).toMatchObject({ trigger: "refresh", status: "FAILED" });
    await passAt(start, 2.2);
    expect(rows(id)[0]).toMatchObject({ trigger: "schedule", status: "SUCCESS" });
    expect(fake.updates()).toBe(3);
  });

  test("a zone service refuses it, bad durations are refused, naming config.refresh_every; nothing is stored", async () => {
    const cloudflare = await addProvider(rig.t, "cloudflare");
    const zone = await rig.t.request("POST", "/api/v1/domains", {
      body: { provider_id: cloudflare.id, domain_name: "home.example.com", config: { refresh_every: "25d" } },
    });
    expect(zone.status).toBe(422);
    expect(zone.body.errors).toEqual([
      {
        field: "config.refresh_every",
        message:
          "cannot be set: Cloudflare keeps its records whether they are written or not; only one-shot update services retire idle hosts",
      },
    ]);
    const provider = await dyndns2Provider();
    for (const value of ["25 days", "1.5d", 25, "", "12h"]) {
      const response = await rig.t.request("POST", "/api/v1/domains", {
        body: { provider_id: provider, domain_name: "home.example.com", config: { refresh_every: value } },
      });
      expect(response.status).toBe(422);
      expect(response.body.errors.map((error: { field: string }) => error.field)).toEqual(["config.refresh_every"]);
    }
    expect((await rig.t.request("GET", "/api/v1/domains")).body).toEqual([]);

    const domain = await addDomain(rig.t, provider, "home.example.com", { config: { refresh_every: "600h" } });
    const edited = await rig.t.request("PUT", `/api/v1/domains/${domain.id}`, {
      body: { config: { refresh_every: "1h" } },
    });
    expect(edited.status).toBe(422);
    // Moved to a zone service without a new config: the setting it cannot use is dropped, the rest kept.
    const moved = await rig.t.request("PUT", `/api/v1/domains/${domain.id}`, { body: { provider_id: cloudflare.id } });
    expect(moved.status).toBe(200);
    expect(moved.body.config).toEqual({});
  });
});
