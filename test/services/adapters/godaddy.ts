import { GODADDY_FAKE_KEY, GODADDY_FAKE_SECRET, type GodaddyFake, startGodaddyFake } from "../../fakes/godaddy";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const godaddyZone: ZoneAccess<GodaddyFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { name: relative(hostname, zone, "@"), type, data: ip, ttl }),
  readAll: (fake, zone, hostname, type) => fake.records(zone, relative(hostname, zone, "@"), type).map((r) => r.data),
  read(fake, zone, hostname, type) {
    const records = fake.records(zone, relative(hostname, zone, "@"), type);
    return records.length === 1 ? { ip: records[0]!.data, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 1800,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { name: relative(name, zone, "@"), type: "TXT", data: value, ttl: 3600 }),
    values: (fake, zone, name) => fake.records(zone, relative(name, zone, "@"), "TXT").map((r) => r.data),
  },
};

export const adapter = define<GodaddyFake>({
  type: "godaddy",
  start: startGodaddyFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("godaddy"),
  options: noOptions,
  credentials: { key: GODADDY_FAKE_KEY, secret: GODADDY_FAKE_SECRET },
  badCredentials: { key: GODADDY_FAKE_KEY, secret: "WrongSecret0123456789a" },
  badCredentialsWords: /^GoDaddy: Unable to authenticate user/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(godaddyZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) =>
      fake.fault({ status: 422, fields: [{ code: "INVALID_VALUE", message: "Record is locked", path: "records[0]" }] }),
    words:
      /^GoDaddy: Request body doesn't fulfill schema, see details in `fields`; records\[0\]: Record is locked \(INVALID_BODY, HTTP 422\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfterSec: 85 }),
    words: /^GoDaddy: Too many requests received within interval \(TOO_MANY_REQUESTS, HTTP 429\); pausing 85 s$/,
    pauseSeconds: 85,
  },
  verifyRefusal: /^GoDaddy: Unable to authenticate user/,
});
