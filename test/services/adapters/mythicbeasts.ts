import {
  MYTHICBEASTS_FAKE_KEY,
  MYTHICBEASTS_FAKE_SECRET,
  type MythicBeastsFake,
  startMythicBeastsFake,
} from "../../fakes/mythicbeasts";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const mythicBeastsZone: ZoneAccess<MythicBeastsFake> = {
  addZone(fake, zone) {
    if (!fake.zones.has(zone)) fake.addZone(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { host: relative(hostname, zone, "@"), type, data: ip, ttl }),
  readAll: (fake, zone, hostname, type) => fake.records(zone, relative(hostname, zone, "@"), type).map((r) => r.data),
  read(fake, zone, hostname, type) {
    const records = fake.records(zone, relative(hostname, zone, "@"), type);
    return records.length === 1 ? { ip: records[0]!.data, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 1800,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { host: relative(name, zone, "@"), type: "TXT", data: value, ttl: 3600 }),
    values: (fake, zone, name) =>
      (fake.zones.get(zone) ?? [])
        .filter((r) => r.host === relative(name, zone, "@") && r.type === "TXT")
        .map((r) => r.data),
  },
};

export const adapter = define<MythicBeastsFake>({
  type: "mythicbeasts",
  start: startMythicBeastsFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("mythicbeasts"),
  options: noOptions,
  credentials: { key_id: MYTHICBEASTS_FAKE_KEY, secret: MYTHICBEASTS_FAKE_SECRET },
  badCredentials: { key_id: MYTHICBEASTS_FAKE_KEY, secret: "wrongsecret0123456789" },
  badCredentialsWords: /^Mythic Beasts: Authentication failed \(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(mythicBeastsZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 400, error: "Zone is locked for maintenance" }),
    words: /^Mythic Beasts: Zone is locked for maintenance \(HTTP 400\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 85 }),
    words: /^Mythic Beasts: Rate limited \(HTTP 429\); pausing 85 s$/,
    pauseSeconds: 85,
  },
  verifyRefusal: /^Mythic Beasts: Authentication failed/,
});
