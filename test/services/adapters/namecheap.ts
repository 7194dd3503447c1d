import { NAMECHEAP_FAKE_PASSWORD, type NamecheapFake, startNamecheapFake } from "../../fakes/namecheap";
import { apiUrl, clear, define, everyRequest, noOptions, relative, ZONE } from "../adapter";

export const adapter = define<NamecheapFake>({
  type: "namecheap",
  start: startNamecheapFake,
  reset(fake) {
    fake.domains.clear();
    clear(fake);
  },
  env: apiUrl("namecheap"),
  options: noOptions,
  credentials: { password: NAMECHEAP_FAKE_PASSWORD },
  badCredentials: { password: "ffffffffffffffffffffffffffffffff" },
  badCredentialsWords: /^Namecheap: Passwords do not match/,
  stopsOnBadCredentials: true,
  recordTypes: ["A"],
  hostname: "home.example.com",
  seed(fake, hostname, _type, ip) {
    const domain = fake.domains.get(ZONE) ?? fake.addDomain(ZONE, {});
    domain.hosts.set(relative(hostname, ZONE, "@"), ip);
  },
  address: (fake, hostname) => fake.domains.get(ZONE)?.hosts.get(relative(hostname, ZONE, "@")),
  findsZone: true,
  isWrite: everyRequest,
  failure: {
    arrange: (fake) =>
      fake.fault({
        xml: '<?xml version="1.0"?><interface-response><ErrCount>1</ErrCount><errors><Err1>Service is temporarily unavailable</Err1></errors><Done>true</Done></interface-response>',
      }),
    words: /^Namecheap: Service is temporarily unavailable/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 120 }),
    words: /^Namecheap: .*HTTP 429/,
    pauseSeconds: 120,
  },
  verifyRefusal: null,
});
