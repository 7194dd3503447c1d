import { FREEDNS_FAKE_PASSWORD, FREEDNS_FAKE_USER, type FreednsFake, startFreednsFake } from "../../fakes/freedns";
import { apiUrl, define, noOptions } from "../adapter";

export const adapter = define<FreednsFake>({
  type: "freedns",
  start: startFreednsFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("freedns"),
  options: noOptions,
  credentials: { username: FREEDNS_FAKE_USER, password: FREEDNS_FAKE_PASSWORD },
  badCredentials: { username: FREEDNS_FAKE_USER, password: "freedns-wrong-password-0000" },
  badCredentialsWords: /^FreeDNS: ERROR: Could not authenticate\./,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.mooo.com",
  seed(fake, hostname, type, ip) {
    const record = fake.recordsOf(hostname, type)[0];
    if (record) record.address = ip;
    else fake.addRecord(hostname, type, ip);
  },
  address: (fake, hostname, type) => fake.recordsOf(hostname, type)[0]?.address || undefined,
  // FreeDNS has no zones: nothing is saved as config.zone_id.
  findsZone: false,
  // The listing reads; only a record's update URL writes.
  isWrite: (request) => request.path === "/dynamic/update.php",
  failure: {
    arrange: (fake) => fake.fault({ status: 503, body: "The server is temporarily unable to service your request" }),
    words: /^FreeDNS: unreadable answer \(HTTP 503\): "The server is temporarily unable/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 150 }),
    words: /^FreeDNS: unreadable answer \(HTTP 429\): "Too Many Requests"; pausing 150 s$/,
    pauseSeconds: 150,
  },
  verifyRefusal: /^FreeDNS: ERROR: Could not authenticate\./,
});
