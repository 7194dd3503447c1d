import { MYADDR_FAKE_KEY, type MyaddrFake, startMyaddrFake } from "../../fakes/myaddr";
import { apiUrl, clear, define, everyRequest, noOptions } from "../adapter";

/** `home` for `home.myaddr.tools`. */
const nameOf = (hostname: string) =>
  hostname
    .replace(/\.myaddr\.(tools|dev|io)$/, "")
    .split(".")
    .at(-1) ?? "";

export const adapter = define<MyaddrFake>({
  type: "myaddr",
  start: startMyaddrFake,
  reset(fake) {
    fake.names.clear();
    clear(fake);
  },
  env: apiUrl("myaddr"),
  options: noOptions,
  credentials: { key: MYADDR_FAKE_KEY },
  badCredentials: { key: "nosuchkey0123456789" },
  badCredentialsWords: /^myaddr: not found — the key is wrong/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.myaddr.tools",
  seed(fake, hostname, type, ip) {
    const entry = fake.names.get(nameOf(hostname)) ?? fake.claim(nameOf(hostname));
    entry[type === "A" ? "ipv4" : "ipv6"] = ip;
  },
  address: (fake, hostname, type) => fake.names.get(nameOf(hostname))?.[type === "A" ? "ipv4" : "ipv6"] || undefined,
  findsZone: false,
  isWrite: everyRequest,
  failure: {
    arrange: (fake) => fake.fault({ status: 500, body: "internal error" }),
    words: /^myaddr: unreadable answer \(HTTP 500\): "internal error"/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 120 }),
    words: /^myaddr: .*HTTP 429/,
    pauseSeconds: 120,
  },
  verifyRefusal: null,
});
