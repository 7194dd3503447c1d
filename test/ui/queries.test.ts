// The queries added for the pages: updates per hour and IP changes per day (computed in SQL from
// the history table's millisecond timestamps), a record's address timeline, the database size.

import { beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { ipTimeline } from "../../src/modules/domains/service";
import { ipChangesPerDay, updatesPerHour } from "../../src/modules/metrics/service";
import { databaseSizeBytes } from "../../src/modules/system/service";
import { createDomain, createProvider, insertHistory, resetData } from "../api/helpers";
import { makeTestApp, type TestApp } from "../support";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** 14:30 local time: half an hour into the current bucket. */
const NOW = new Date(2026, 10, 21, 14, 30, 0).getTime();

let t: TestApp;
let domainId: number;

beforeAll(async () => {
  t = await makeTestApp();
});

beforeEach(async () => {
  resetData(t);
  const provider = await createProvider(t);
  domainId = (await createDomain(t, provider.id)).id;
});

describe("updates per hour", () => {
  test("24 local clock hours, oldest first, the current hour last", () => {
    const hours = updatesPerHour(t.ctx, NOW);
    expect(hours).toHaveLength(24);
    expect(new Date(hours[23]!.start)).toEqual(new Date(2026, 10, 21, 14, 0, 0));
    expect(hours[23]!.start - hours[0]!.start).toBe(23 * HOUR);
    expect(hours.every((h) => h.success === 0 && h.failed === 0)).toBe(true);
  });

  test("each update counts in the hour it happened, successes and failures apart", () => {
    insertHistory(t, domainId, { status: "SUCCESS", ageMs: 10 * 60_000 }, NOW); // 14:20
    insertHistory(t, domainId, { status: "FAILED", ageMs: 25 * 60_000 }, NOW); // 14:05
    insertHistory(t, domainId, { status: "SUCCESS", ageMs: 31 * 60_000 }, NOW); // 13:59
    insertHistory(t, domainId, { status: "SUCCESS", ageMs: 23 * HOUR + 30 * 60_000 }, NOW); // 15:00 yesterday: the first bucket
    insertHistory(t, domainId, { status: "FAILED", ageMs: 23 * HOUR + 31 * 60_000 }, NOW); // 14:59 yesterday: too old
    const hours = updatesPerHour(t.ctx, NOW);
    expect(hours[23]).toMatchObject({ success: 1, failed: 1 });
    expect(hours[22]).toMatchObject({ success: 1, failed: 0 });
    expect(hours[0]).toMatchObject({ success: 1, failed: 0 });
    expect(hours.reduce((sum, h) => sum + h.success + h.failed, 0)).toBe(4);
  });
});

describe("IP changes per day", () => {
  test("7 local days, today last, counting successful writes of a new address", () => {
    insertHistory(t, domainId, { ip: "203.0.113.7", previousIp: null, ageMs: HOUR }, NOW); // first address: a change
    insertHistory(t, domainId, { ip: "203.0.113.7", previousIp: "203.0.113.7", ageMs: 30 * 60_000 }, NOW); // same: no change
    insertHistory(
      t,
      domainId,
      { status: "FAILED", ip: "203.0.113.8", previousIp: "203.0.113.7", ageMs: 20 * 60_000 },
      NOW,
    ); // failed: no change
    insertHistory(t, domainId, { ip: "198.51.100.2", previousIp: "203.0.113.9", ageMs: 2 * DAY }, NOW);
    insertHistory(t, domainId, { ip: "198.51.100.3", previousIp: "198.51.100.2", ageMs: 7 * DAY }, NOW); // too old
    const days = ipChangesPerDay(t.ctx, NOW);
    expect(days).toHaveLength(7);
    expect(new Date(days[6]!.start)).toEqual(new Date(2026, 10, 21));
    expect(new Date(days[0]!.start)).toEqual(new Date(2026, 10, 15));
    expect(days.map((d) => d.changes)).toEqual([0, 0, 0, 0, 1, 0, 1]);
  });
});

describe("address timeline", () => {
  test("one period per address held, newest first, from successful writes only", () => {
    const now = Date.now();
    insertHistory(t, domainId, { ip: "198.51.100.2", ageMs: 5 * HOUR }, now);
    insertHistory(t, domainId, { ip: "198.51.100.2", ageMs: 4 * HOUR }, now);
    insertHistory(t, domainId, { status: "FAILED", ip: "203.0.113.7", ageMs: 3 * HOUR }, now);
    insertHistory(t, domainId, { ip: "203.0.113.7", ageMs: 2 * HOUR }, now);
    insertHistory(t, domainId, { status: "FAILED", ip: null, ageMs: HOUR }, now);
    insertHistory(t, domainId, { ip: "198.51.100.2", ageMs: 30 * 60_000 }, now);
    expect(ipTimeline(t.ctx, domainId)).toEqual([
      { ip: "198.51.100.2", from: new Date(now - 30 * 60_000).toISOString(), until: null },
      {
        ip: "203.0.113.7",
        from: new Date(now - 2 * HOUR).toISOString(),
        until: new Date(now - 30 * 60_000).toISOString(),
      },
      {
        ip: "198.51.100.2",
        from: new Date(now - 5 * HOUR).toISOString(),
        until: new Date(now - 2 * HOUR).toISOString(),
      },
    ]);
  });

  test("an unknown domain is the usual 404", () => {
    expect(() => ipTimeline(t.ctx, 999)).toThrow("Domain not found");
  });
});

test("the database size is a positive number of whole pages", () => {
  const size = databaseSizeBytes(t.ctx);
  expect(size).toBeGreaterThan(0);
  expect(size % 4096 === 0 || size % 1024 === 0).toBe(true);
});
