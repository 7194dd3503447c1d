import { startYdnsFake, YDNS_FAKE_PASSWORD, YDNS_FAKE_USER, type YdnsFake } from "../../fakes/ydns";
import { apiUrl, define, everyRequest, noOptions } from "../adapter";

export const adapter = define<YdnsFake>({
  type: "ydns",
  start: startYdnsFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("ydns"),
  options: noOptions,
  credentials: { username: YDNS_FAKE_USER, password: YDNS_FAKE_PASSWORD },
  badCredentials: { username: YDNS_FAKE_USER, password: "ydns-wrong-api-password-0000" },
  badCredentialsWords: /^YDNS: badauth — the API username or password is wrong \(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.ydns.eu",
  seed(fake, hostname, type, ip) {
    const host = fake.hosts.get(hostname) ?? {};
    host[type] = ip;
    fake.hosts.set(hostname, host);
  },
  address: (fake, hostname, type) => fake.hosts.get(hostname)?.[type],
  findsZone: false,
  isWrite: everyRequest,
  failure: {
    arrange: (fake) => fake.fault({ status: 500, body: "Internal Server Error" }),
    words: /^YDNS: unreadable answer \(HTTP 500\): "Internal Server Error"/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 120 }),
    words: /^YDNS: unreadable answer \(HTTP 429\): "Too Many Requests"; pausing 120 s$/,
    pauseSeconds: 120,
  },
  verifyRefusal: null,
});
