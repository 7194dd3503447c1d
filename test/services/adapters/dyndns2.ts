import { DYNDNS2_FAKE_PASSWORD, DYNDNS2_FAKE_USER, type Dyndns2Fake, startDyndns2Fake } from "../../fakes/dyndns2";
import { clear, define, everyRequest } from "../adapter";

export const adapter = define<Dyndns2Fake>({
  type: "dyndns2",
  start: () => startDyndns2Fake(),
  reset(fake) {
    fake.hosts.clear();
    fake.style = "noip";
    fake.dualStackAnswers = false;
    clear(fake);
  },
  env: () => ({}),
  options: (fake) => ({ server: fake.url }),
  credentials: { username: DYNDNS2_FAKE_USER, password: DYNDNS2_FAKE_PASSWORD },
  badCredentials: { username: DYNDNS2_FAKE_USER, password: "not-the-password-0123" },
  badCredentialsWords: /^dyndns2 .*: badauth — .*\(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  seed(fake, hostname, type, ip) {
    const host = fake.hosts.get(hostname) ?? fake.addHost(hostname);
    host[type === "A" ? "ipv4" : "ipv6"] = ip;
  },
  address: (fake, hostname, type) => fake.hosts.get(hostname)?.[type === "A" ? "ipv4" : "ipv6"] || undefined,
  findsZone: false,
  isWrite: everyRequest,
  // (`dnserr` pauses the provider: see the dyndns2 answers in end-to-end.test.ts.)
  failure: {
    arrange: (fake) => fake.fault({ body: "maintenance", status: 500 }),
    words: /: unreadable answer \(HTTP 500\): "maintenance"/,
  },
  // `911`: the service is down; no sooner than 30 minutes (docs/services/README.md).
  throttle: {
    arrange: (fake) => fake.fault({ body: "911" }),
    words: /: 911 — the service is down or in maintenance/,
    pauseSeconds: 1800,
  },
  verifyRefusal: null,
});
