import { INFOMANIAK_FAKE_TOKEN, type InfomaniakFake, startInfomaniakFake } from "../../fakes/infomaniak";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const infomaniakZone: ZoneAccess<InfomaniakFake> = {
  addZone(fake, zone) {
    if (!fake.zones.has(zone)) fake.addZone(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { source: relative(hostname, zone, "@"), type, target: ip, ttl }),
  readAll: (fake, zone, hostname, type) => fake.records(zone, relative(hostname, zone, "@"), type).map((r) => r.target),
  read(fake, zone, hostname, type) {
    const records = fake.records(zone, relative(hostname, zone, "@"), type);
    return records.length === 1 ? { ip: records[0]!.target, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 1800,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { source: relative(name, zone, "@"), type: "TXT", target: value, ttl: 3600 }),
    values: (fake, zone, name) => fake.records(zone, relative(name, zone, "@"), "TXT").map((r) => r.target),
  },
};

export const adapter = define<InfomaniakFake>({
  type: "infomaniak",
  start: () => startInfomaniakFake(),
  reset: (fake) => fake.reset(),
  env: apiUrl("infomaniak"),
  options: noOptions,
  credentials: { token: INFOMANIAK_FAKE_TOKEN },
  badCredentials: { token: "infomaniak-wrong-token-0123456789abcdef" },
  badCredentialsWords: /^Infomaniak: Authorization required \(not_authorized, HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(infomaniakZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 500, code: "internal_error", description: "DNS backend unavailable" }),
    words: /^Infomaniak: DNS backend unavailable/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 75 }),
    words: /^Infomaniak: Too many requests \(too_many_requests, HTTP 429\); pausing 75 s$/,
    pauseSeconds: 75,
  },
  verifyRefusal: null,
});
