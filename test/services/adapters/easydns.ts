import { EASYDNS_FAKE_KEY, EASYDNS_FAKE_TOKEN, type EasydnsFake, startEasydnsFake } from "../../fakes/easydns";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const easydnsZone: ZoneAccess<EasydnsFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { host: relative(hostname, zone, "@"), type, rdata: ip, ttl }),
  readAll: (fake, zone, hostname, type) => fake.records(zone, relative(hostname, zone, "@"), type).map((r) => r.rdata),
  read(fake, zone, hostname, type) {
    const records = fake.records(zone, relative(hostname, zone, "@"), type);
    return records.length === 1 ? { ip: records[0]!.rdata, ttl: Number(records[0]!.ttl) } : undefined;
  },
  ttl: 3600,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { host: relative(name, zone, "@"), type: "TXT", rdata: value, ttl: 3600 }),
    values: (fake, zone, name) => fake.records(zone, relative(name, zone, "@"), "TXT").map((r) => r.rdata),
  },
};

export const adapter = define<EasydnsFake>({
  type: "easydns",
  start: startEasydnsFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("easydns"),
  options: noOptions,
  credentials: { token: EASYDNS_FAKE_TOKEN, key: EASYDNS_FAKE_KEY },
  badCredentials: { token: EASYDNS_FAKE_TOKEN, key: "easydnsWrongKey0123456789abcdef" },
  badCredentialsWords: /^easyDNS: Unauthorized: .*\(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(easydnsZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 500, message: "Backend unavailable" }),
    words: /^easyDNS: Backend unavailable \(HTTP 500\)/,
  },
  // easyDNS names no wait: the default first pause.
  throttle: {
    arrange: (fake) => fake.fault("calm"),
    words: /^easyDNS: Enhance Your Calm\..*\(code 420, HTTP 420\); pausing 60 s$/,
    pauseSeconds: 60,
  },
  verifyRefusal: null,
});
