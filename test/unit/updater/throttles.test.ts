// How long a provider that said "slow down" is paused: the wait it named, else a minute doubled for
// each "slow down" in a row, never more than an hour; any other answer ends the streak.

import { describe, expect, test } from "bun:test";
import { ProviderThrottles } from "../../../src/updater/pauses";

describe("provider pauses", () => {
  test("no named wait: 60 s, doubling for each one in a row, capped at an hour", () => {
    const throttles = new ProviderThrottles();
    const pauses = Array.from({ length: 8 }, () => throttles.pauseSeconds(1, undefined));
    expect(pauses).toEqual([60, 120, 240, 480, 960, 1920, 3600, 3600]);
  });

  test("a named wait is honoured up to an hour", () => {
    const throttles = new ProviderThrottles();
    expect(throttles.pauseSeconds(1, 7)).toBe(7);
    expect(throttles.pauseSeconds(1, 86400)).toBe(3600);
    expect(throttles.pauseSeconds(1, 0)).toBe(1);
  });

  test("any other answer ends the streak; providers count apart", () => {
    const throttles = new ProviderThrottles();
    throttles.pauseSeconds(1, undefined);
    throttles.pauseSeconds(1, undefined);
    expect(throttles.pauseSeconds(2, undefined)).toBe(60);
    throttles.settle(1);
    expect(throttles.pauseSeconds(1, undefined)).toBe(60);
  });

  test("a long streak never overflows the cap", () => {
    const throttles = new ProviderThrottles();
    for (let i = 0; i < 2000; i++) throttles.pauseSeconds(1, undefined);
    expect(throttles.pauseSeconds(1, undefined)).toBe(3600);
  });
});
