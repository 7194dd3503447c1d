import { GOIP_FAKE_PASSWORD, GOIP_FAKE_USERNAME, type GoipFake, startGoipFake } from "../../fakes/goip";
import { apiUrl, clear, define, everyRequest, noOptions } from "../adapter";

export const adapter = define<GoipFake>({
  type: "goip",
  start: startGoipFake,
  reset(fake) {
    fake.subdomains.clear();
    clear(fake);
  },
  env: apiUrl("goip"),
  options: noOptions,
  credentials: { username: GOIP_FAKE_USERNAME, password: GOIP_FAKE_PASSWORD },
  badCredentials: { username: GOIP_FAKE_USERNAME, password: "wrong-password" },
  badCredentialsWords: /^GoIP: Zugriff verweigert/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.goip.de",
  seed(fake, hostname, type, ip) {
    const subdomain = fake.subdomains.get(hostname) ?? fake.addSubdomain(hostname);
    subdomain[type === "A" ? "ipv4" : "ipv6"] = ip;
  },
  address: (fake, hostname, type) => fake.subdomains.get(hostname)?.[type === "A" ? "ipv4" : "ipv6"] || undefined,
  findsZone: false,
  isWrite: everyRequest,
  failure: {
    arrange: (fake) => fake.fault({ body: "Wartungsarbeiten" }),
    words: /^GoIP: unreadable answer \(HTTP 200\): "Wartungsarbeiten"/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 120 }),
    words: /^GoIP: .*HTTP 429/,
    pauseSeconds: 120,
  },
  verifyRefusal: null,
});
