// A Cloudflare record changed outside ddnsd (in the fake, as a person would in the dashboard): a
// forced update says what it found, and where no name server can be asked (the test app's resolvers
// are a closed port) DDNS_VERIFY_EVERY reads the record at the service once per period and puts it
// back. The name servers' own answers (drift told from lag) are in test/propagation/drift.test.ts.

import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { ECHO_DEFAULT_IPV4 } from "../fakes/echo";
import { type NotifyFake, startWebhookReceiver } from "../fakes/notify";
import {
  addDomain,
  addProvider,
  forceUpdate,
  historyOf,
  makeDue,
  NEXT_IPV4,
  OLD_IPV4,
  useRig,
  waitFor,
} from "./harness";

const rig = useRig({ env: { DDNS_VERIFY_EVERY: "1s" } });
let receiver: NotifyFake;

beforeAll(() => {
  receiver = startWebhookReceiver();
});
beforeEach(() => {
  rig().t.ctx.sqlite.exec("DELETE FROM notifications");
  receiver.clearRequests();
  receiver.delivered.length = 0;
});
afterAll(async () => {
  await receiver.stop();
});

/** A Cloudflare domain written by a forced update, a webhook for its events; its id. */
async function written(): Promise<number> {
  const { t, cf } = rig();
  cf.addZone("example.com");
  cf.addRecord("example.com", { type: "A", name: "home", content: OLD_IPV4 });
  const notification = await t.request("POST", "/api/v1/notifications", {
    body: { name: "hook", type: "webhook", options: { url: `${receiver.url}/hook` } },
  });
  expect(notification.status).toBe(200);
  const provider = await addProvider(t, "cloudflare");
  const domain = await addDomain(t, provider.id, "home.example.com");
  expect((await forceUpdate(t, domain.id)).body).toMatchObject({ ip_address: ECHO_DEFAULT_IPV4, changed: true });
  return domain.id;
}

/** Someone changes the record in Cloudflare's dashboard. */
function changeOutside(address: string): void {
  const record = rig().cf.record("home.example.com", "A");
  if (record === undefined) throw new Error("no record to change");
  record.content = address;
}

/** One scheduled check of the domain and the name servers' asks that fall due, with any repair they ask for. */
async function check(id: number): Promise<void> {
  const { t } = rig();
  makeDue(t, [id]);
  await t.ctx.scheduler.runPass();
  t.ctx.propagation.runDue();
  await t.ctx.propagation.idle();
}

/** The ip_changed notifications delivered so far. */
async function ipChanged(count: number): Promise<any[]> {
  await waitFor(() => receiver.delivered.length >= count, 10_000, "the ip_changed notification");
  return receiver.delivered.map((request) => request.body as any).filter((body) => body.event === "ip_changed");
}

test("a forced update of a record changed outside ddnsd answers changed: true with what the record held, a row and ip_changed", async () => {
  const id = await written();
  changeOutside(NEXT_IPV4);
  const response = await forceUpdate(rig().t, id);
  expect(response.status).toBe(200);
  // last_known_ip said ECHO_DEFAULT_IPV4 all along; the record held NEXT_IPV4.
  expect(response.body).toMatchObject({ ip_address: ECHO_DEFAULT_IPV4, previous_ip: NEXT_IPV4, changed: true });
  expect(response.body.message).toStartWith(`Updated home.example.com A → ${ECHO_DEFAULT_IPV4}; Cloudflare record`);
  expect(rig().cf.record("home.example.com", "A")?.content).toBe(ECHO_DEFAULT_IPV4);
  const [row] = await historyOf(rig().t, id);
  expect(row).toMatchObject({ trigger: "manual", previous_ip: NEXT_IPV4, ip_address: ECHO_DEFAULT_IPV4 });
  const events = await ipChanged(2);
  expect(events.at(-1)).toMatchObject({ previous_ip: NEXT_IPV4, ip: ECHO_DEFAULT_IPV4 });
});

test("no name server answers: DDNS_VERIFY_EVERY reads the record once per period and writes it back, a repair row and ip_changed", async () => {
  const { t, cf } = rig();
  const id = await written();
  changeOutside(NEXT_IPV4);
  cf.clearRequests();
  // Checks until the period since the write has passed: the first read finds the change and repairs it.
  const started = performance.now();
  for (;;) {
    await check(id);
    if ((await historyOf(t, id)).some((row) => row.trigger === "repair")) break;
    if (performance.now() - started > 30_000) throw new Error("no repair within 30 s");
    await Bun.sleep(100);
  }
  // However many checks ran, the record was read once and written once.
  const home = cf.record("home.example.com", "A")!;
  expect(cf.requests.map((r) => `${r.method} ${r.path.replace(/\/zones\/\w+/, "")}`)).toEqual([
    "GET /dns_records",
    `PATCH /dns_records/${home.id}`,
  ]);
  expect(home.content).toBe(ECHO_DEFAULT_IPV4);
  const [row] = await historyOf(t, id);
  expect(row).toMatchObject({
    trigger: "repair",
    status: "SUCCESS",
    previous_ip: NEXT_IPV4,
    ip_address: ECHO_DEFAULT_IPV4,
  });
  expect(row.message).toStartWith(
    `Updated home.example.com A → ${ECHO_DEFAULT_IPV4} (the record held ${NEXT_IPV4}: changed outside ddnsd); Cloudflare record`,
  );
  const events = await ipChanged(2);
  expect(events.at(-1)).toMatchObject({
    previous_ip: NEXT_IPV4,
    ip: ECHO_DEFAULT_IPV4,
    message: `home.example.com now points at ${ECHO_DEFAULT_IPV4} (was ${NEXT_IPV4}); it had been changed outside ddnsd`,
  });

  // The next read comes a period after the repair's write at the earliest, and finds nothing to write.
  const repairedAt = performance.now();
  cf.clearRequests();
  for (;;) {
    await check(id);
    if (cf.requests.length > 0) break;
    if (performance.now() - repairedAt > 30_000) throw new Error("no second read within 30 s");
    await Bun.sleep(100);
  }
  expect(performance.now() - repairedAt).toBeGreaterThanOrEqual(1_000);
  expect(cf.requests.map((r) => r.method)).toEqual(["GET"]);
  expect(await historyOf(t, id)).toHaveLength(2);
});

test("DDNS_VERIFY_EVERY=0: a record no name server answers for is never read", async () => {
  const { t, cf } = rig();
  cf.addZone("example.com");
  cf.addRecord("example.com", { type: "A", name: "home", content: NEXT_IPV4 });
  const provider = await addProvider(t, "cloudflare");
  const domain = await addDomain(t, provider.id, "home.example.com");
  // Written by an earlier run: this one has not read it yet, so its first check would.
  t.ctx.sqlite
    .query("UPDATE domains SET last_known_ip = ?, last_update_status = 'SUCCESS' WHERE id = ?")
    .run(ECHO_DEFAULT_IPV4, domain.id);
  t.ctx.settings.verifyEverySeconds = 0;
  try {
    await check(domain.id);
  } finally {
    t.ctx.settings.verifyEverySeconds = 1;
  }
  expect(cf.requests).toEqual([]);
  expect(cf.record("home.example.com", "A")?.content).toBe(NEXT_IPV4);
});

test("a set changed outside ddnsd: the repair puts ddnsd's address back and never removes the one someone else put there", async () => {
  const { t, cf } = rig();
  const [WAN1, WAN2, FOREIGN] = ["81.2.69.160", "81.2.69.161", "93.184.216.99"];
  cf.addZone("example.com");
  cf.addRecord("example.com", { type: "A", name: "rr", content: OLD_IPV4 });
  const provider = await addProvider(t, "cloudflare");
  const domain = await addDomain(t, provider.id, "rr.example.com", {
    address_source: [`fixed:${WAN1}`, `fixed:${WAN2}`],
  });
  expect((await forceUpdate(t, domain.id)).status).toBe(200);
  const held = () =>
    [...cf.records.values()]
      .filter((record) => record.name === "rr.example.com" && record.type === "A")
      .map((record) => record.content)
      .sort();
  expect(held()).toEqual([WAN1, WAN2]);
  // Someone edits the record of WAN2 in the dashboard to an address of their own.
  const edited = [...cf.records.values()].find((record) => record.content === WAN2)!;
  edited.content = FOREIGN;
  const started = performance.now();
  for (;;) {
    await check(domain.id);
    if ((await historyOf(t, domain.id)).some((row) => row.trigger === "repair")) break;
    if (performance.now() - started > 30_000) throw new Error("no repair within 30 s");
    await Bun.sleep(100);
  }
  expect(held()).toEqual([WAN1, WAN2, FOREIGN].sort());
  const [row] = await historyOf(t, domain.id);
  expect(row).toMatchObject({ trigger: "repair", status: "SUCCESS", addresses: [WAN1, WAN2] });
  expect(row.message).toContain(`left alone: ${FOREIGN}`);
});
