import { IONOS_FAKE_API_KEY, type IonosFake, startIonosFake } from "../../fakes/ionos";
import { apiUrl, define, inZone, noOptions, writeMethod, type ZoneAccess } from "../adapter";

const ionosZone: ZoneAccess<IonosFake> = {
  addZone(fake, zone) {
    if (!fake.zones.has(zone)) fake.addZone(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { name: hostname, type, content: ip, ttl }),
  readAll: (fake, zone, hostname, type) =>
    (fake.zones.get(zone)?.records ?? []).filter((r) => r.name === hostname && r.type === type).map((r) => r.content),
  read(fake, zone, hostname, type) {
    const records = fake.zones.get(zone)?.records.filter((r) => r.name === hostname && r.type === type) ?? [];
    return records.length === 1 ? { ip: records[0]!.content, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 1800,
  txt: {
    add: (fake, zone, name, value) => void fake.addRecord(zone, { name, type: "TXT", content: value, ttl: 3600 }),
    values: (fake, zone, name) =>
      (fake.zones.get(zone)?.records ?? []).filter((r) => r.name === name && r.type === "TXT").map((r) => r.content),
  },
};

export const adapter = define<IonosFake>({
  type: "ionos",
  start: startIonosFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("ionos"),
  options: noOptions,
  credentials: { api_key: IONOS_FAKE_API_KEY },
  badCredentials: { api_key: "0a1b2c3d4e5f.wrongsecret0123456789" },
  badCredentialsWords: /^IONOS: The customer is not authorized to do this operation\. \(UNAUTHORIZED, HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(ionosZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 400, code: "INVALID_RECORD", message: "Record is invalid." }),
    words: /^IONOS: Record is invalid\. \(INVALID_RECORD, HTTP 400\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 85 }),
    words: /^IONOS: Too many requests\. \(TOO_MANY_REQUESTS, HTTP 429\); pausing 85 s$/,
    pauseSeconds: 85,
  },
  verifyRefusal: /^IONOS: The customer is not authorized/,
});
