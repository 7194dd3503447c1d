// The one scrubber (src/security/scrub.ts): a secret value leaves a message in every form it may be
// written in, whole or cut short by an answer's excerpt, a quoted Basic credential with it, and
// nothing else in the message changes.

import { describe, expect, test } from "bun:test";
import { excerpt } from "../../../src/net/http";
import { maskSecrets, SCRUBBED } from "../../../src/security/scrub";

const TOKEN = "cf-fake-token-0123456789abcdef";

describe("scrubbing a message", () => {
  test("a secret as it is, URL-encoded, form-encoded, inside JSON or in base64", () => {
    const secret = 'p@ss word/+42 "quoted"';
    for (const form of [
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ s: secret }).toString().slice(2),
      JSON.stringify(secret).slice(1, -1),
      btoa(secret),
    ])
      expect(maskSecrets(`refused: ${form} (HTTP 401)`, [secret])).toBe(`refused: ${SCRUBBED} (HTTP 401)`);
  });

  test("a secret cut short where an excerpt of the answer ends", () => {
    // A service that quotes the request: the excerpt ends inside the token.
    const quoted = excerpt(`{"error": "GET /zones?name=home.example.com Bearer ${TOKEN}"}`);
    expect(quoted).toEndWith('Bearer cf-fake-t…"');
    expect(maskSecrets(`Cloudflare: unreadable answer (HTTP 500): ${quoted}`, [TOKEN])).toBe(
      `Cloudflare: unreadable answer (HTTP 500): "{"error": "GET /zones?name=home.example.com Bearer ${SCRUBBED}…"`,
    );
    // Its encoded forms, cut the same way.
    const encoded = encodeURIComponent("fake/Secret+Key0123456789");
    expect(maskSecrets(`key=${encoded.slice(0, 12)}…`, ["fake/Secret+Key0123456789"])).toBe(`key=${SCRUBBED}…`);
  });

  test("a quoted Basic credential, whole, encoded or cut short: its password is there in base64", () => {
    const basic = btoa("ddns-user:k3y-pa55word-0123456789");
    for (const [quoted, scrubbed] of [
      [`401: Authorization: Basic ${basic}`, `401: Authorization: Basic ${SCRUBBED}`],
      [`echo: Authorization=Basic%20${encodeURIComponent(basic)}&x=1`, `echo: Authorization=Basic%20${SCRUBBED}&x=1`],
      [`"GET /nic/update Basic ${basic.slice(0, 18)}…"`, `"GET /nic/update Basic ${SCRUBBED}…"`],
    ])
      expect(maskSecrets(quoted!, ["k3y-pa55word-0123456789"])).toBe(scrubbed!);
    // Cut before the password begins, it holds the user name, which is the secret token of some services.
    expect(maskSecrets(`"GET /nic/update Basic ${basic.slice(0, 8)}…"`, ["k3y-pa55word-0123456789"])).toBe(
      `"GET /nic/update Basic ${SCRUBBED}…"`,
    );
  });

  test("what is no secret stays as it was", () => {
    expect(maskSecrets("Basic authentication failed (HTTP 401)", [TOKEN])).toBe(
      "Basic authentication failed (HTTP 401)",
    );
    const message = 'Cloudflare: unreadable answer (HTTP 500): "zone home.example.com: cf-f is not the token…"';
    // Fewer than 4 of the secret's first characters before the cut is no part of it worth hiding.
    expect(maskSecrets('"see c…"', [TOKEN])).toBe('"see c…"');
    expect(maskSecrets(message, [TOKEN])).toBe(message);
    expect(maskSecrets("no secret here", [])).toBe("no secret here");
  });
});
