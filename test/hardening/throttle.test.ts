// Sign-in throttling (docs/api.md, limits): after 5 failed sign-ins in a row for one username from one
// address, that pair is refused for 1 s, doubling up to 15 minutes, with 429 and Retry-After; 20
// failures from one address within 15 minutes refuse it for every username; a refused attempt checks
// no password; a success resets that username's count only; the API login and the admin sign-in
// page share the counts; the client is the socket's address, or X-Forwarded-For's first entry only
// from a trusted proxy.

import { afterAll, afterEach, beforeAll, describe, expect, setSystemTime, spyOn, test } from "bun:test";
import { inNetworks, parseNetwork } from "../../src/net/address";
import { setPassword } from "../../src/security/users";
import { settingsInEffect } from "../../src/ui/settings";
import { makeTestApp, TEST_PASSWORD, type TestApp } from "../support";
import { ORIGIN } from "../ui/helpers";
import { rawRequest, type Served, serve } from "./helpers";

const LOGIN = "/api/v1/auth/login";
let t: TestApp;

beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(() => t.ctx.sqlite.close());
afterEach(() => setSystemTime());

const login = (peer: string, password: string, headers: Record<string, string> = {}, username = "admin") =>
  t.request("POST", LOGIN, { token: null, peer, headers, body: { username, password } });

/** The admin sign-in page's post, as a browser sends it. */
const signInPage = (peer: string, password: string, username = "admin") =>
  t.request("POST", "/login", {
    token: null,
    peer,
    headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" },
    body: new URLSearchParams({ username, password }).toString(),
  });

async function failTimes(peer: string, times: number) {
  for (let i = 0; i < times; i++) expect((await login(peer, "wrong password")).status).toBe(401);
}

test("the sixth attempt after five failures → 429 with Retry-After, and checks no password", async () => {
  const peer = "198.51.100.10";
  await failTimes(peer, 5);
  const verify = spyOn(Bun.password, "verify");
  try {
    const refused = await login(peer, TEST_PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: "Too many failed sign-ins; try again in 1 s" });
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(verify).not.toHaveBeenCalled();
  } finally {
    verify.mockRestore();
  }
  // Another address is not affected.
  expect((await login("198.51.100.11", TEST_PASSWORD)).status).toBe(200);
});

test("the pause doubles with each further failure, up to 15 minutes; a success resets the count", async () => {
  const peer = "198.51.100.20";
  let now = Date.now();
  setSystemTime(now);
  await failTimes(peer, 5);
  const expected = [2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900];
  for (const seconds of [1, ...expected.slice(0, -1)]) {
    now += seconds * 1000;
    setSystemTime(now);
    expect((await login(peer, "wrong again")).status).toBe(401);
    const refused = await login(peer, "wrong again");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe(String(expected[[1, ...expected].indexOf(seconds)]));
  }
  now += 900_000;
  setSystemTime(now);
  expect((await login(peer, TEST_PASSWORD)).status).toBe(200);
  await failTimes(peer, 5); // five free failures again after the success
  expect((await login(peer, TEST_PASSWORD)).status).toBe(429);
});

describe("counted per address and username", () => {
  const VICTIM_PASSWORD = "the victim's own password";
  beforeAll(() => setPassword(t.ctx, "victim", VICTIM_PASSWORD));

  // The probe's input: 5 rounds of 4 wrong passwords for `victim`, each followed by a correct
  // sign-in as `admin` from the same address. A success used to clear the whole address's count, so
  // all 20 guesses were checked and none was refused.
  const rounds = [
    {
      name: "the API",
      send: (peer: string, username: string, password: string) => login(peer, password, {}, username),
      wrong: 401,
      signedIn: 200,
    },
    {
      name: "the sign-in page",
      send: (peer: string, username: string, password: string) => signInPage(peer, password, username),
      wrong: 200,
      signedIn: 303,
    },
  ];
  for (const { name, send, wrong, signedIn } of rounds) {
    test(`${name}: wrong passwords for one user between sign-ins to another are refused at the fifth`, async () => {
      setSystemTime(Date.now()); // the clock stands still: a pause cannot run out between two requests
      const peer = name === "the API" ? "198.51.100.60" : "198.51.100.61";
      const statuses: number[] = [];
      for (let round = 0; round < 5; round++) {
        for (let i = 0; i < 4; i++) statuses.push((await send(peer, "victim", `guess ${round}.${i}`)).status);
        expect((await send(peer, "admin", TEST_PASSWORD)).status).toBe(signedIn);
      }
      // Four free guesses, the fifth starts the pause, and every later one is refused unchecked.
      expect(statuses.slice(0, 5)).toEqual([wrong, wrong, wrong, wrong, wrong]);
      expect(statuses.slice(5)).toEqual(Array(15).fill(429));
      // The victim's own correct password is refused too until the pause ends; admin was never refused.
      expect((await send(peer, "victim", VICTIM_PASSWORD)).status).toBe(429);
    });
  }

  test("a success clears only its own username's count", async () => {
    setSystemTime(Date.now());
    const peer = "198.51.100.62";
    for (let i = 0; i < 4; i++) expect((await login(peer, "wrong", {}, "victim")).status).toBe(401);
    for (let i = 0; i < 4; i++) expect((await login(peer, "wrong")).status).toBe(401);
    expect((await login(peer, TEST_PASSWORD)).status).toBe(200);
    // admin has four free failures again; victim has one left.
    expect((await login(peer, "wrong", {}, "victim")).status).toBe(401);
    expect((await login(peer, VICTIM_PASSWORD, {}, "victim")).status).toBe(429);
    for (let i = 0; i < 4; i++) expect((await login(peer, "wrong")).status).toBe(401);
    expect((await login(peer, TEST_PASSWORD)).status).toBe(200);
  });

  test("20 failures from one address within 15 minutes refuse it for every username until the oldest ages out", async () => {
    let now = Date.now();
    setSystemTime(now);
    const peer = "2001:db8:99:1::1";
    // Two failures each for ten usernames, a minute apart: each stays far below its own limit.
    for (let i = 0; i < 10; i++) {
      for (const guess of ["a", "b"]) expect((await login(peer, guess, {}, `user${i}`)).status).toBe(401);
      // Successes in between change nothing; the twentieth failure refuses the address at once.
      expect((await login(peer, TEST_PASSWORD)).status).toBe(i < 9 ? 200 : 429);
      now += 60_000;
      setSystemTime(now);
    }
    // The first failure was ten minutes ago: the address waits until it is fifteen minutes old.
    const refused = await login("2001:db8:99:1:ffff::2", TEST_PASSWORD); // the same /64
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("300");
    expect((await signInPage(peer, VICTIM_PASSWORD, "victim")).status).toBe(429);
    expect((await login("2001:db8:99:2::1", TEST_PASSWORD)).status).toBe(200); // another /64 is not affected
    now += 300_000;
    setSystemTime(now);
    // The two oldest failures aged out: two more attempts, and the address is refused again.
    expect((await login(peer, TEST_PASSWORD)).status).toBe(200);
    expect((await login(peer, "c", {}, "user0")).status).toBe(401);
    expect((await login(peer, "d", {}, "user0")).status).toBe(401);
    expect((await login(peer, TEST_PASSWORD)).status).toBe(429);
  });
});

test("a burst of guesses from one address: only five passwords are checked", async () => {
  const peer = "198.51.100.30";
  const verify = spyOn(Bun.password, "verify");
  try {
    const answers = await Promise.all(Array.from({ length: 20 }, () => login(peer, "guess")));
    expect(answers.filter((a) => a.status === 401)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(15);
    expect(verify).toHaveBeenCalledTimes(5);
  } finally {
    verify.mockRestore();
  }
});

test("the admin sign-in page shares the count: failures there refuse the API, and the page answers 429", async () => {
  const peer = "198.51.100.40";
  const page = (password: string) =>
    t.request("POST", "/login", {
      token: null,
      peer,
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" },
      body: `username=admin&password=${encodeURIComponent(password)}`,
    });
  for (let i = 0; i < 5; i++) expect((await page("wrong")).status).toBe(200);
  expect((await login(peer, TEST_PASSWORD)).status).toBe(429);
  const refused = await page(TEST_PASSWORD);
  expect(refused.status).toBe(429);
  expect(refused.headers.get("retry-after")).toBe("1");
  expect(String(refused.body)).toContain("Too many failed sign-ins; try again in 1 s");
});

describe("the client address", () => {
  test("X-Forwarded-For is ignored from an untrusted socket: rotating it does not escape the pause", async () => {
    const peer = "198.51.100.50";
    for (let i = 0; i < 5; i++)
      expect((await login(peer, "wrong", { "x-forwarded-for": `203.0.113.${i}` })).status).toBe(401);
    expect((await login(peer, TEST_PASSWORD, { "x-forwarded-for": "203.0.113.99" })).status).toBe(429);
  });

  test("behind a trusted proxy, the first X-Forwarded-For entry is the client", async () => {
    const proxied = await makeTestApp({ DDNS_TRUSTED_PROXIES: "10.0.0.0/8, 192.0.2.7" });
    const via = (peer: string, client: string, password: string) =>
      proxied.request("POST", LOGIN, {
        token: null,
        peer,
        headers: { "x-forwarded-for": `${client}, 10.9.9.9` },
        body: { username: "admin", password },
      });
    for (let i = 0; i < 5; i++) expect((await via("10.1.2.3", "203.0.113.5", "wrong")).status).toBe(401);
    expect((await via("192.0.2.7", "203.0.113.5", TEST_PASSWORD)).status).toBe(429); // same client via the other proxy
    expect((await via("10.1.2.3", "203.0.113.6", TEST_PASSWORD)).status).toBe(200); // another client, same proxy
    // The About page lists the setting as it was written.
    expect(settingsInEffect(proxied.ctx.settings)).toContainEqual({
      name: "DDNS_TRUSTED_PROXIES",
      value: "10.0.0.0/8, 192.0.2.7",
    });
    proxied.ctx.sqlite.close();
  });

  test("trusted proxies: IPv4 and IPv6 blocks, IPv4-mapped socket addresses", () => {
    const networks = ["2001:db8::/32", "127.0.0.1", "10.0.0.0/8"].map((text) => parseNetwork(text)!);
    expect(inNetworks("2001:db8::5", networks)).toBe(true);
    expect(inNetworks("2001:db9::5", networks)).toBe(false);
    expect(inNetworks("::ffff:127.0.0.1", networks)).toBe(true);
    expect(inNetworks("127.0.0.2", networks)).toBe(false);
    expect(inNetworks("10.255.0.1", networks)).toBe(true);
    expect(inNetworks("unknown", networks)).toBe(false);
    for (const bad of ["10.0.0.0/33", "::/129", "1.2.3.4/", "1.2.3.4/8/8", "proxy.lan", "010.0.0.1"])
      expect(parseNetwork(bad)).toBeNull();
  });

  test("DDNS_TRUSTED_PROXIES must be addresses or CIDR blocks", async () => {
    await expect(makeTestApp({ DDNS_TRUSTED_PROXIES: "10.0.0.0/8, proxy.lan" })).rejects.toThrow(
      'Invalid setting DDNS_TRUSTED_PROXIES: expected comma-separated IP addresses or CIDR blocks, got "proxy.lan"',
    );
  });
});

describe("over a real socket", () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve({ DDNS_TRUSTED_PROXIES: "127.0.0.1" });
  });
  afterAll(() => s.running.stop());

  test("the socket's address is the client; from a trusted proxy, X-Forwarded-For", async () => {
    const body = JSON.stringify({ username: "admin", password: "wrong" });
    const send = (client: string) =>
      rawRequest(
        s.port,
        `POST ${LOGIN} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nX-Forwarded-For: ${client}`,
        body,
      );
    for (let i = 0; i < 5; i++) expect((await send("203.0.113.77")).status).toBe(401);
    expect((await send("203.0.113.77")).status).toBe(429);
    expect((await send("203.0.113.78")).status).toBe(401);
    expect(s.t.logs.some((line) => line.includes("sign-ins paused") && line.includes("203.0.113.77"))).toBe(true);
  });

  test("the session cookie is Secure only when a trusted proxy says the visitor uses HTTPS", async () => {
    const form = `username=admin&password=${encodeURIComponent(TEST_PASSWORD)}`;
    const signIn = (proto: string | null) =>
      rawRequest(
        s.port,
        [
          `POST /login HTTP/1.1`,
          "Host: localhost",
          "Origin: http://localhost",
          "Content-Type: application/x-www-form-urlencoded",
          `Content-Length: ${form.length}`,
          ...(proto ? [`X-Forwarded-Proto: ${proto}`] : []),
        ].join("\r\n"),
        form,
      );
    const secure = await signIn("https");
    expect(secure.status).toBe(303);
    expect(secure.headers["set-cookie"]).toMatch(/ddnsd_session=[^;]+;.*Secure/i);
    const plain = await signIn(null);
    expect(plain.headers["set-cookie"]).not.toMatch(/Secure/i);
  });
});

test("from an untrusted address, X-Forwarded-Proto does not make the cookie Secure", async () => {
  const s = await serve();
  try {
    const form = `username=admin&password=${encodeURIComponent(TEST_PASSWORD)}`;
    const answer = await rawRequest(
      s.port,
      [
        "POST /login HTTP/1.1",
        "Host: localhost",
        "Origin: http://localhost",
        "Content-Type: application/x-www-form-urlencoded",
        `Content-Length: ${form.length}`,
        "X-Forwarded-Proto: https",
      ].join("\r\n"),
      form,
    );
    expect(answer.status).toBe(303);
    expect(answer.headers["set-cookie"]).not.toMatch(/Secure/i);
  } finally {
    await s.running.stop();
  }
});

test("an IPv6 /64 is one client: stepping through its addresses gains no guesses", async () => {
  for (let i = 1; i <= 5; i++) expect((await login(`2001:db8:77:1::${i}`, "wrong password")).status).toBe(401);
  expect((await login("2001:db8:77:1:abcd::1", TEST_PASSWORD)).status).toBe(429);
  expect((await login("::ffff:198.51.100.77", TEST_PASSWORD)).status).toBe(200);
  // The next /64 is another client.
  expect((await login("2001:db8:77:2::1", TEST_PASSWORD)).status).toBe(200);
});

test("the current-password check of a password change is throttled with sign-ins", async () => {
  const own = await makeTestApp();
  const signedIn = await own.app.handle(
    new Request(`${ORIGIN}/login`, {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: "username=admin&password=" + encodeURIComponent(TEST_PASSWORD),
    }),
  );
  const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
  const peer = "203.0.113.77";
  const change = async (current: string) => {
    const request = new Request(`${ORIGIN}/account/password`, {
      method: "POST",
      headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        current_password: current,
        new_password: "a-new-password",
        confirm_password: "a-new-password",
      }).toString(),
    });
    own.ctx.signIns.rememberPeer(request, peer);
    const response = await own.app.handle(request);
    return { status: response.status, text: await response.text(), retryAfter: response.headers.get("retry-after") };
  };
  for (let i = 0; i < 5; i++) expect((await change(`guess ${i}`)).text).toContain("This is not your current password.");
  const refused = await change(TEST_PASSWORD);
  expect(refused.status).toBe(429);
  expect(refused.retryAfter).toBe("1");
  expect(refused.text).toContain("Too many failed sign-ins; try again in 1 s");
  // Sign-ins from that address are refused too: one count for both.
  expect(
    (await own.request("POST", LOGIN, { token: null, peer, body: { username: "admin", password: TEST_PASSWORD } }))
      .status,
  ).toBe(429);
  own.ctx.sqlite.close();
});
