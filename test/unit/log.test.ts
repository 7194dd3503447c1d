// One line per event, text or JSON, with level and time; fields that could hold a secret are redacted.

import { describe, expect, test } from "bun:test";
import { createLogger } from "../../src/log";

const fixedNow = () => new Date("2026-11-21T13:05:09.123Z");

function collect(format: "text" | "json", level: "debug" | "info" | "warn" | "error" = "info") {
  const lines: string[] = [];
  return { lines, log: createLogger({ level, format, now: fixedNow, write: (line) => lines.push(line) }) };
}

describe("logger", () => {
  test("text lines carry time, level, message and fields", () => {
    const { lines, log } = collect("text");
    log.info("request", { method: "GET", path: "/api/v1/domains", status: 200, duration_ms: 1.5 });
    expect(lines).toEqual([
      "2026-11-21T13:05:09.123Z INFO  request method=GET path=/api/v1/domains status=200 duration_ms=1.5",
    ]);
  });

  test("text values with spaces or quotes are quoted", () => {
    const { lines, log } = collect("text");
    log.warn("update failed", { reason: 'Cloudflare: "bad" thing' });
    expect(lines[0]).toEndWith('reason="Cloudflare: \\"bad\\" thing"');
  });

  test("JSON lines are one object each", () => {
    const { lines, log } = collect("json");
    log.error("unexpected error", { request_id: "abc" });
    expect(JSON.parse(lines[0]!)).toEqual({
      time: "2026-11-21T13:05:09.123Z",
      level: "error",
      msg: "unexpected error",
      request_id: "abc",
    });
  });

  test.each([
    ["debug", 4],
    ["info", 3],
    ["warn", 2],
    ["error", 1],
  ] as const)("level %s keeps %d of 4 lines", (level, kept) => {
    const { lines, log } = collect("text", level);
    log.debug("d");
    log.info("i");
    log.warn("w");
    log.error("e");
    expect(lines).toHaveLength(kept);
  });

  test.each(["password", "api_token", "secret", "authorization", "credentials", "api_key", "cookie"])(
    "a field named %s is redacted",
    (field) => {
      const { lines, log } = collect("json");
      log.info("event", { [field]: "hunter2-plaintext" });
      expect(lines[0]).not.toContain("hunter2-plaintext");
      expect(JSON.parse(lines[0]!)[field]).toBe("[redacted]");
    },
  );

  test("the message and each text field are cut to 2,000 characters, whatever they quote (1,000 lagging name servers)", () => {
    const { lines, log } = collect("json");
    const words = Array.from(
      { length: 1000 },
      (_, i) => `ns${i}.example.com (81.2.3.${i % 250}) answers 192.0.2.1`,
    ).join("; ");
    log.warn(words, { detail: words, count: 1000 });
    const line = JSON.parse(lines[0]!);
    expect(line.msg).toHaveLength(2000);
    expect(line.detail).toHaveLength(2000);
    expect(line.detail).toEndWith("…");
    expect(line.count).toBe(1000);
    const text = collect("text");
    text.log.warn(words);
    expect(text.lines[0]!.length).toBeLessThan(2100);
  });
});
