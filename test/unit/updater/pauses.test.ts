// A provider's pause, on its own: held back while paused, a "slow down" pauses the provider (never
// shortening a longer pause, and one that arrived meanwhile is reused, not doubled), and any other
// answer ends the streak of "slow down"s.

import { describe, expect, test } from "bun:test";
import { DiskState } from "../../../src/db/disk";
import { createLogger } from "../../../src/log";
import { afterAnswer, heldBack, ProviderThrottles } from "../../../src/updater/pauses";
import { memoryStore } from "../store/support";

function rig() {
  const memory = memoryStore();
  const id = memory.provider("home");
  const parts = {
    store: memory.store,
    updater: { throttles: new ProviderThrottles() },
    disk: new DiskState(createLogger({ level: "error", format: "json", write: () => {} })),
  };
  return { parts, id, row: () => memory.store.providers.find(id)! };
}

const SLOW_DOWN = { ok: false, message: "429 Too Many Requests", cause: "throttled" } as const;

describe("a provider's pause", () => {
  test("heldBack: nothing while not paused; a throttled refusal naming the end while paused", () => {
    const { parts, id, row } = rig();
    expect(heldBack(parts, row())).toBeNull();
    const until = Date.now() + 60_000;
    parts.store.providers.pause(id, until);
    const held = heldBack(parts, row());
    expect(held?.pausedUntil).toBe(until);
    expect(held?.write).toMatchObject({ ok: false, cause: "throttled" });
    expect(held?.write.message).toContain(`home asked to wait until ${new Date(until).toISOString()}`);
  });

  test("a slow down names its wait: the provider is paused that long, and the message says so", () => {
    const { parts, id } = rig();
    const before = Date.now();
    const answer = afterAnswer(parts, id, { ...SLOW_DOWN, retryAfterSeconds: 30 });
    expect(answer.write.message).toBe("429 Too Many Requests; pausing 30 s");
    expect(answer.pausedUntil).toBeGreaterThanOrEqual(before + 30_000);
    expect(parts.store.providers.pausedUntil(id)).toBe(answer.pausedUntil);
  });

  test("a slow down while already paused keeps that pause instead of doubling it", () => {
    const { parts, id } = rig();
    const until = Date.now() + 90_000;
    parts.store.providers.pause(id, until);
    const answer = afterAnswer(parts, id, { ...SLOW_DOWN, retryAfterSeconds: 5 });
    expect(answer.pausedUntil).toBe(until);
    expect(parts.store.providers.pausedUntil(id)).toBe(until);
  });

  test("slow downs without a named wait grow; any other answer ends the streak", () => {
    const { parts, id } = rig();
    const seconds = (message: string) => Number(/pausing (\d+) s/.exec(message)?.[1]);
    const clear = () => parts.store.providers.cutPauses(0);
    const first = seconds(afterAnswer(parts, id, SLOW_DOWN).write.message);
    clear();
    const second = seconds(afterAnswer(parts, id, SLOW_DOWN).write.message);
    expect(second).toBe(first * 2);
    clear();
    const settled = afterAnswer(parts, id, { ok: false, message: "down", cause: "unreachable" });
    expect(settled).toEqual({ write: { ok: false, message: "down", cause: "unreachable" }, pausedUntil: null });
    expect(seconds(afterAnswer(parts, id, SLOW_DOWN).write.message)).toBe(first);
  });
});
