import {
  DOMENESHOP_FAKE_SECRET,
  DOMENESHOP_FAKE_TOKEN,
  type DomeneshopFake,
  startDomeneshopFake,
} from "../../fakes/domeneshop";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const domeneshopZone: ZoneAccess<DomeneshopFake> = {
  addZone(fake, zone) {
    if (!fake.domain(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { host: relative(hostname, zone, "@"), type, data: ip, ttl }),
  read(fake, zone, hostname, type) {
    const records = fake.records(zone, relative(hostname, zone, "@"), type);
    return records.length === 1 ? { ip: records[0]!.data, ttl: records[0]!.ttl } : undefined;
  },
  readAll: (fake, zone, hostname, type) => fake.records(zone, relative(hostname, zone, "@"), type).map((r) => r.data),
  ttl: 1800,
  goneZoneId: "999999",
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { host: relative(name, zone, "@"), type: "TXT", data: value, ttl: 3600 }),
    values: (fake, zone, name) => fake.records(zone, relative(name, zone, "@"), "TXT").map((r) => r.data),
  },
};

export const adapter = define<DomeneshopFake>({
  type: "domeneshop",
  start: () => startDomeneshopFake(),
  reset: (fake) => fake.reset(),
  env: apiUrl("domeneshop"),
  options: noOptions,
  credentials: { token: DOMENESHOP_FAKE_TOKEN, secret: DOMENESHOP_FAKE_SECRET },
  badCredentials: {
    token: DOMENESHOP_FAKE_TOKEN,
    secret: "domeneshop-wrong-secret-0123456789abcdefghijklmnopqrstuvwxyz",
  },
  badCredentialsWords: /^Domeneshop: Invalid API credentials \(auth:invalid, HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(domeneshopZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 500, help: "DNS maintenance in progress" }),
    words: /^Domeneshop: DNS maintenance in progress/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 90 }),
    words: /^Domeneshop: Too many requests \(rateLimited, HTTP 429\); pausing 90 s$/,
    pauseSeconds: 90,
  },
  verifyRefusal: /^Domeneshop: Invalid API credentials/,
});
