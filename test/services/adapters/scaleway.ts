import { SCALEWAY_FAKE_SECRET, type ScalewayFake, startScalewayFake } from "../../fakes/scaleway";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const scalewayZone: ZoneAccess<ScalewayFake> = {
  addZone(fake, zone) {
    if (!fake.zones.has(zone)) fake.addZone(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { name: relative(hostname, zone, ""), type, data: ip, ttl }),
  readAll: (fake, zone, hostname, type) => fake.records(zone, relative(hostname, zone, ""), type).map((r) => r.data),
  read(fake, zone, hostname, type) {
    const records = fake.records(zone, relative(hostname, zone, ""), type);
    return records.length === 1 ? { ip: records[0]!.data, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 300,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { name: relative(name, zone, ""), type: "TXT", data: `"${value}"`, ttl: 300 }),
    values: (fake, zone, name) =>
      fake.records(zone, relative(name, zone, ""), "TXT").map((r) => r.data.replace(/^"(.*)"$/, "$1")),
  },
};

export const adapter = define<ScalewayFake>({
  type: "scaleway",
  start: startScalewayFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("scaleway"),
  options: noOptions,
  credentials: { secret_key: SCALEWAY_FAKE_SECRET },
  badCredentials: { secret_key: "11111111-2222-4333-8444-555555555555" },
  badCredentialsWords: /^Scaleway: authentication is denied \(denied_authentication, HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(scalewayZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) =>
      fake.fault(
        { status: 409, message: "the DNS zone is locked", type: "conflict" },
        undefined,
        (r) => r.method === "PATCH",
      ),
    words: /^Scaleway: the DNS zone is locked \(conflict, HTTP 409\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 45 }),
    words: /^Scaleway: quota exceeded, too many requests \(too_many_requests, HTTP 429\); pausing 45 s$/,
    pauseSeconds: 45,
  },
  verifyRefusal: /^Scaleway: authentication is denied/,
});
