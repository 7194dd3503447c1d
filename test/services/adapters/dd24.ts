import { DD24_FAKE_PASSWORD, type Dd24Fake, keySystemsResponse, startDd24Fake } from "../../fakes/dd24";
import { apiUrl, clear, define, everyRequest, noOptions } from "../adapter";

export const adapter = define<Dd24Fake>({
  type: "dd24",
  start: startDd24Fake,
  reset(fake) {
    fake.hosts.clear();
    fake.holdSeconds = 0;
    clear(fake);
  },
  env: apiUrl("dd24"),
  options: noOptions,
  credentials: { password: DD24_FAKE_PASSWORD },
  badCredentials: { password: "wrong-password-0000" },
  badCredentialsWords: /^Domain Discount24: Authorization failed/,
  stopsOnBadCredentials: true,
  recordTypes: ["A"],
  hostname: "home.example.com",
  seed(fake, hostname, _type, ip) {
    const host = fake.hosts.get(hostname) ?? fake.addHost(hostname);
    host.ipv4 = ip;
  },
  address: (fake, hostname) => fake.hosts.get(hostname)?.ipv4 || undefined,
  findsZone: false,
  isWrite: everyRequest,
  failure: {
    arrange: (fake) => fake.fault({ body: keySystemsResponse(549, "Command failed; update denied, try again later") }),
    words: /^Domain Discount24: Command failed; update denied, try again later \(code 549\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 120 }),
    words: /^Domain Discount24: .*HTTP 429/,
    pauseSeconds: 120,
  },
  verifyRefusal: null,
});
