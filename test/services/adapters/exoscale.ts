import { EXOSCALE_FAKE_KEY, EXOSCALE_FAKE_SECRET, type ExoscaleFake, startExoscaleFake } from "../../fakes/exoscale";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const exoscaleZone: ZoneAccess<ExoscaleFake> = {
  addZone(fake, zone) {
    if (fake.domainId(zone) === undefined) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { name: relative(hostname, zone, ""), type, content: ip, ttl }),
  read(fake, zone, hostname, type) {
    const records = fake.records(zone, relative(hostname, zone, ""), type);
    return records.length === 1 ? { ip: records[0]!.content, ttl: records[0]!.ttl } : undefined;
  },
  readAll: (fake, zone, hostname, type) => fake.records(zone, relative(hostname, zone, ""), type).map((r) => r.content),
  ttl: 300,
  goneZoneId: "00000000-0000-0000-0000-000000000000",
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { name: relative(name, zone, ""), type: "TXT", content: value, ttl: 3600 }),
    values: (fake, zone, name) => fake.records(zone, relative(name, zone, ""), "TXT").map((r) => r.content),
  },
};

export const adapter = define<ExoscaleFake>({
  type: "exoscale",
  start: startExoscaleFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("exoscale"),
  options: noOptions,
  credentials: { api_key: EXOSCALE_FAKE_KEY, api_secret: EXOSCALE_FAKE_SECRET },
  badCredentials: { api_key: EXOSCALE_FAKE_KEY, api_secret: "wrongExoscaleSecret-0123456789abcdefghijklm" },
  badCredentialsWords: /^Exoscale: Invalid request signature \(HTTP 403\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(exoscaleZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) =>
      fake.fault(
        { status: 409, message: "Record conflicts with an existing one" },
        undefined,
        (r) => r.method !== "GET",
      ),
    words: /^Exoscale: Record conflicts with an existing one \(HTTP 409\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 33 }),
    words: /^Exoscale: Too many requests \(HTTP 429\); pausing 33 s$/,
    pauseSeconds: 33,
  },
  verifyRefusal: /^Exoscale: Invalid request signature/,
});
