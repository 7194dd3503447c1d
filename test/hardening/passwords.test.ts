// Password hashing is bounded (docs/api.md, limits): argon2id m=19 MiB, t=2, p=1; a hash made with other
// parameters is re-hashed at the next successful login; at most two hashes run at once.

import { afterAll, beforeAll, expect, spyOn, test } from "bun:test";
import { hashPassword, needsRehash, verifyPassword } from "../../src/security/passwords";
import { makeTestApp, TEST_PASSWORD, type TestApp } from "../support";

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(() => t.ctx.sqlite.close());

const storedHash = () =>
  t.ctx.sqlite.query<{ h: string }, []>("SELECT password_hash AS h FROM users WHERE username = 'admin'").get()!.h;

test("hashes are argon2id with m=19456 KiB, t=2, p=1", async () => {
  expect(await hashPassword("some password")).toStartWith("$argon2id$v=19$m=19456,t=2,p=1$");
  expect(storedHash()).toStartWith("$argon2id$v=19$m=19456,t=2,p=1$");
});

test("a hash with Bun's default parameters (64 MiB) is re-hashed at the next successful login, not at a failed one", async () => {
  const old = await Bun.password.hash(TEST_PASSWORD, { algorithm: "argon2id" });
  expect(needsRehash(old)).toBe(true);
  t.ctx.sqlite.query("UPDATE users SET password_hash = ? WHERE username = 'admin'").run(old);
  const login = (password: string) =>
    t.request("POST", "/api/v1/auth/login", { token: null, body: { username: "admin", password } });
  expect((await login("wrong password")).status).toBe(401);
  expect(storedHash()).toBe(old);
  expect((await login(TEST_PASSWORD)).status).toBe(200);
  expect(storedHash()).toStartWith("$argon2id$v=19$m=19456,t=2,p=1$");
  expect((await login(TEST_PASSWORD)).status).toBe(200);
  expect(t.logs.filter((line) => line.includes("re-hashed"))).toHaveLength(1);
});

test("at most two hashes run at once; the others wait their turn and all finish", async () => {
  const hash = await hashPassword("p");
  let running = 0;
  let most = 0;
  const original = Bun.password.verify.bind(Bun.password);
  const spy = spyOn(Bun.password, "verify").mockImplementation(async (password, stored) => {
    most = Math.max(most, ++running);
    try {
      return await original(password, stored);
    } finally {
      running--;
    }
  });
  try {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => verifyPassword(i % 2 ? "p" : "q", hash)));
    expect(results.filter(Boolean)).toHaveLength(4);
    expect(most).toBe(2);
  } finally {
    spy.mockRestore();
  }
});
