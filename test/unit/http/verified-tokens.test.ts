// The cache of tokens whose signature was checked: an expired token is not served from it, and a
// flood of distinct tokens keeps it bounded (the oldest go first).

import { describe, expect, test } from "bun:test";
import { VerifiedTokens } from "../../../src/http/verified-tokens";

const claims = (expiresAt: number) => ({ subject: "admin", jti: crypto.randomUUID(), issuedAt: 1, expiresAt });

describe("VerifiedTokens", () => {
  test("a remembered token is served until its expiry, then forgotten", () => {
    const tokens = new VerifiedTokens();
    const remembered = claims(10_000);
    tokens.remember("t", remembered);
    expect(tokens.get("t", 9_999)).toBe(remembered);
    expect(tokens.get("t", 10_000)).toBeUndefined();
    expect(tokens.get("t", 0)).toBeUndefined();
  });

  test("keeps at most 256 tokens, dropping the oldest", () => {
    const tokens = new VerifiedTokens();
    for (let i = 0; i < 300; i++) tokens.remember(`t${i}`, claims(Infinity));
    expect(tokens.get("t0", 0)).toBeUndefined();
    expect(tokens.get("t43", 0)).toBeUndefined();
    expect(tokens.get("t44", 0)).toBeDefined();
    expect(tokens.get("t299", 0)).toBeDefined();
  });
});
