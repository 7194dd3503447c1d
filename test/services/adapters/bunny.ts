import { BUNNY_FAKE_API_KEY, type BunnyFake, startBunnyFake } from "../../fakes/bunny";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const bunnyZone: ZoneAccess<BunnyFake> = {
  addZone(fake, zone) {
    if (!fake.zone(zone)) fake.addZone(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { name: relative(hostname, zone, ""), type, value: ip, ttl }),
  read(fake, zone, hostname, type) {
    const records =
      fake
        .zone(zone)
        ?.Records.filter((r) => r.Name === relative(hostname, zone, "") && r.Type === (type === "A" ? 0 : 1)) ?? [];
    return records.length === 1 ? { ip: records[0]!.Value, ttl: records[0]!.Ttl } : undefined;
  },
  readAll: (fake, zone, hostname, type) =>
    fake.recordsNamed(zone, relative(hostname, zone, ""), type).map((record) => record.Value),
  ttl: 1800,
  goneZoneId: "999999",
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { name: relative(name, zone, ""), type: "TXT", value, ttl: 300 }),
    values: (fake, zone, name) =>
      fake.recordsNamed(zone, relative(name, zone, ""), "TXT").map((record) => record.Value),
  },
};

export const adapter = define<BunnyFake>({
  type: "bunny",
  start: startBunnyFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("bunny"),
  options: noOptions,
  credentials: { api_key: BUNNY_FAKE_API_KEY },
  badCredentials: { api_key: "bunny-wrong-0123-4567-89ab-cdef01234567-0123-456" },
  badCredentialsWords: /^Bunny: Authorization has been denied for this request\. \(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(bunnyZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) =>
      fake.fault({ status: 500, errorKey: "dnszone.unavailable", message: "DNS is under maintenance" }),
    words: /^Bunny: DNS is under maintenance \(dnszone\.unavailable, HTTP 500\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 75 }),
    words: /^Bunny: .*\(error_429, HTTP 429\); pausing 75 s$/,
    pauseSeconds: 75,
  },
  verifyRefusal: /^Bunny: Authorization has been denied/,
});
