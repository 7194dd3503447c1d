import { DUCKDNS_FAKE_TOKEN, type DuckDnsFake, startDuckDnsFake } from "../../fakes/duckdns";
import { apiUrl, clear, define, everyRequest, noOptions } from "../adapter";

export const adapter = define<DuckDnsFake>({
  type: "duckdns",
  start: startDuckDnsFake,
  reset(fake) {
    fake.domains.clear();
    clear(fake);
  },
  env: apiUrl("duckdns"),
  options: noOptions,
  credentials: { token: DUCKDNS_FAKE_TOKEN },
  badCredentials: { token: "00000000-0000-4000-8000-000000000000" },
  badCredentialsWords: /^DuckDNS: KO — the token is wrong/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.duckdns.org",
  seed(fake, hostname, type, ip) {
    const name = hostname.replace(/\.duckdns\.org$/, "");
    const domain = fake.domains.get(name) ?? fake.addDomain(name);
    domain[type === "A" ? "ipv4" : "ipv6"] = ip;
  },
  address(fake, hostname, type) {
    return fake.domains.get(hostname.replace(/\.duckdns\.org$/, ""))?.[type === "A" ? "ipv4" : "ipv6"] || undefined;
  },
  findsZone: false,
  isWrite: everyRequest,
  failure: { arrange: (fake) => fake.fault("html"), words: /^DuckDNS: unreadable answer \(HTTP 502\)/ },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 120 }),
    words: /^DuckDNS: .*HTTP 429/,
    pauseSeconds: 120,
  },
  verifyRefusal: null,
});
