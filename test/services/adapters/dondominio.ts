import {
  DONDOMINIO_FAKE_KEY,
  DONDOMINIO_FAKE_USER,
  type DonDominioFake,
  startDonDominioFake,
} from "../../fakes/dondominio";
import { apiUrl, clear, define, everyRequest, noOptions } from "../adapter";

export const adapter = define<DonDominioFake>({
  type: "dondominio",
  start: startDonDominioFake,
  reset(fake) {
    fake.records.clear();
    clear(fake);
  },
  env: apiUrl("dondominio"),
  options: noOptions,
  credentials: { username: DONDOMINIO_FAKE_USER, key: DONDOMINIO_FAKE_KEY },
  badCredentials: { username: DONDOMINIO_FAKE_USER, key: "wrong-key" },
  badCredentialsWords: /^DonDominio: Invalid username or DonDNS key/,
  // DonDNS does not say which refusals are final: they are retried with the updater's backoff.
  stopsOnBadCredentials: false,
  recordTypes: ["A"],
  hostname: "home.example.com",
  seed(fake, hostname, _type, ip) {
    const record = fake.records.get(hostname) ?? fake.addRecord(hostname);
    record.ipv4 = ip;
  },
  address: (fake, hostname) => fake.records.get(hostname)?.ipv4 || undefined,
  findsZone: false,
  isWrite: everyRequest,
  failure: {
    arrange: (fake) => fake.fault({ body: '{"success": false, "messages": ["Temporary error"]}' }),
    words: /^DonDominio: Temporary error \(HTTP 200\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 120 }),
    words: /^DonDominio: .*HTTP 429/,
    pauseSeconds: 120,
  },
  verifyRefusal: null,
});
