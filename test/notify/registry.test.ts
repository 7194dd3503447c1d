// The channel registry: each channel described once (type, options with their secrets, form text,
// sender), and everything that lists channels — the API's enum, the option checks, the form — follows it.

import { describe, expect, test } from "bun:test";
import { CHANNELS, NOTIFICATION_TYPES } from "../../src/notify/registry";
import { NO_ERRORS } from "../../views/components";
import { NOTIFICATION_TYPE_OPTIONS, NotificationFields } from "../../views/fragments/notification-fields";
import { makeTestApp } from "../support";

describe("the channel registry", () => {
  test("types are unique names fit for the API, option keys unique within a channel", () => {
    expect(new Set(NOTIFICATION_TYPES).size).toBe(NOTIFICATION_TYPES.length);
    for (const channel of CHANNELS) {
      expect(channel.type).toMatch(/^[a-z][a-z0-9_]*$/);
      const keys = channel.options.map((option) => option.key);
      expect(new Set(keys).size).toBe(keys.length);
      expect(channel.options.some((option) => option.required)).toBe(true);
    }
  });

  test("the heartbeat channels are there, with their URL secret", () => {
    for (const type of ["healthchecks", "uptime_kuma"]) {
      const channel = CHANNELS.find((entry) => entry.type === type)!;
      expect(channel.kind).toBe("heartbeat");
      expect(channel.options.map((option) => [option.key, option.required, option.secret])).toEqual([
        ["url", true, true],
      ]);
    }
  });

  test("the form offers every channel, with one field per option and the secret ones as password inputs", () => {
    expect(NOTIFICATION_TYPE_OPTIONS.map((option) => option.value)).toEqual([...NOTIFICATION_TYPES]);
    for (const channel of CHANNELS) {
      const html = String(NotificationFields({ type: channel.type, values: {}, errors: NO_ERRORS }));
      for (const option of channel.options) {
        const input = new RegExp(`<(input|textarea)[^>]*name="option_${option.key}"[^>]*>`).exec(html)?.[0];
        expect([channel.type, option.key, input !== undefined]).toEqual([channel.type, option.key, true]);
        // A secret is never rendered: a password input, or (secret headers) an empty text area.
        if (option.secret && option.kind === "headers")
          expect(html).toMatch(new RegExp(`name="option_${option.key}"[^>]*>\\s*</textarea>`));
        else if (option.secret) expect(input).toContain('type="password"');
      }
      expect(html).toContain(channel.summary.slice(0, 30));
    }
  });

  test("the API takes every registered type and refuses another", async () => {
    const t = await makeTestApp();
    const refused = await t.request("POST", "/api/v1/notifications", {
      body: { name: "x", type: "pager", options: {} },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].message).toBe(`must be one of: ${NOTIFICATION_TYPES.join(", ")}`);
  });
});
