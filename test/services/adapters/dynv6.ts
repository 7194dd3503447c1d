import { DYNV6_FAKE_TOKEN, type Dynv6Fake, startDynv6Fake } from "../../fakes/dynv6";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

/** dynv6 records carry no TTL of their own: this stands for the one dynv6 serves them with. */
const SERVED_TTL = 60;
const APEX_FIELD = { A: "ipv4address", AAAA: "ipv6prefix" } as const;

const dynv6Zone: ZoneAccess<Dynv6Fake> = {
  addZone(fake, zone) {
    if (!fake.zoneNamed(zone)) fake.addZone(zone);
  },
  addRecord(fake, zone, hostname, type, ip) {
    // The apex is the zone's own field, not a record.
    if (hostname === zone) fake.zoneNamed(zone)![APEX_FIELD[type]] = ip;
    else fake.addRecord(zone, { name: relative(hostname, zone, ""), type, data: ip });
  },
  read(fake, zone, hostname, type) {
    if (hostname === zone) {
      const ip = fake.zoneNamed(zone)?.[APEX_FIELD[type]];
      return ip ? { ip, ttl: SERVED_TTL } : undefined;
    }
    const records = fake.recordsOf(zone, relative(hostname, zone, ""), type);
    return records.length === 1 ? { ip: records[0]!.data, ttl: SERVED_TTL } : undefined;
  },
  readAll: (fake, zone, hostname, type) =>
    fake.recordsOf(zone, relative(hostname, zone, ""), type).map((record) => record.data),
  ttl: SERVED_TTL,
  goneZoneId: "999999",
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { name: relative(name, zone, ""), type: "TXT", data: value }),
    values: (fake, zone, name) => fake.recordsOf(zone, relative(name, zone, ""), "TXT").map((record) => record.data),
  },
};

export const adapter = define<Dynv6Fake>({
  type: "dynv6",
  start: startDynv6Fake,
  reset: (fake) => fake.reset(),
  env: apiUrl("dynv6"),
  options: noOptions,
  credentials: { token: DYNV6_FAKE_TOKEN },
  badCredentials: { token: "dynv6-wrong-http-token-000000000" },
  badCredentialsWords: /^dynv6: .*\(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(dynv6Zone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 422, message: "Validation failed" }),
    words: /^dynv6: Validation failed \(HTTP 422\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 75 }),
    words: /^dynv6: Too Many Requests \(HTTP 429\); pausing 75 s$/,
    pauseSeconds: 75,
  },
  verifyRefusal: /^dynv6: .*\(HTTP 401\)/,
});
