import { GCORE_FAKE_TOKEN, type GcoreFake, startGcoreFake } from "../../fakes/gcore";
import { apiUrl, define, inZone, noOptions, writeMethod, type ZoneAccess } from "../adapter";

const gcoreZone: ZoneAccess<GcoreFake> = {
  addZone(fake, zone) {
    if (!fake.zones.has(zone)) fake.addZone(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRrset(zone, { name: hostname, type, contents: [ip], ttl }),
  addSet: (fake, zone, hostname, type, ips, ttl) =>
    void fake.addRrset(zone, { name: hostname, type, contents: [...ips], ttl }),
  readAll: (fake, zone, hostname, type) =>
    (fake.rrset(zone, hostname, type)?.resource_records ?? []).flatMap((record) => record.content.map(String)),
  read(fake, zone, hostname, type) {
    const rrset = fake.rrset(zone, hostname, type);
    return rrset && rrset.resource_records.length === 1
      ? { ip: rrset.resource_records[0]!.content[0]!, ttl: rrset.ttl }
      : undefined;
  },
  ttl: 300,
  txt: {
    add(fake, zone, name, value) {
      const held = fake.rrset(zone, name, "TXT");
      if (held) held.resource_records.push({ id: 9999, content: [value], enabled: true, meta: {} });
      else fake.addRrset(zone, { name, type: "TXT", contents: [value], ttl: 300 });
    },
    values: (fake, zone, name) =>
      (fake.rrset(zone, name, "TXT")?.resource_records ?? []).map((r) => r.content.join("")),
  },
};

export const adapter = define<GcoreFake>({
  type: "gcore",
  start: startGcoreFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("gcore"),
  options: noOptions,
  credentials: { api_token: GCORE_FAKE_TOKEN },
  badCredentials: { api_token: "7712$ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff" },
  badCredentialsWords: /^Gcore: Invalid authentication credentials \(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(gcoreZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 400, error: "rrset is locked" }, undefined, (r) => r.method !== "GET"),
    words: /^Gcore: rrset is locked \(HTTP 400\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 25 }),
    words: /^Gcore: Too Many Requests \(HTTP 429\); pausing 25 s$/,
    pauseSeconds: 25,
  },
  verifyRefusal: /^Gcore: Invalid authentication credentials/,
});
