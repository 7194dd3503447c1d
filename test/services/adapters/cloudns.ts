import { cloudnsTtl } from "../../../src/dns/services/cloudns";
import {
  CLOUDNS_FAKE_PASSWORD,
  CLOUDNS_FAKE_SUB_AUTH_ID,
  type CloudnsFake,
  startCloudnsFake,
} from "../../fakes/cloudns";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const cloudnsZone: ZoneAccess<CloudnsFake> = {
  addZone(fake, zone) {
    if (!fake.zones.has(zone)) fake.addZone(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { host: relative(hostname, zone, ""), type, record: ip, ttl }),
  readAll: (fake, zone, hostname, type) =>
    (fake.zones.get(zone) ?? [])
      .filter((r) => r.host === relative(hostname, zone, "") && r.type === type)
      .map((r) => r.record),
  read(fake, zone, hostname, type) {
    const records =
      fake.zones.get(zone)?.filter((r) => r.host === relative(hostname, zone, "") && r.type === type) ?? [];
    return records.length === 1 ? { ip: records[0]!.record, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 1800,
  storedTtl: cloudnsTtl,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { host: relative(name, zone, ""), type: "TXT", record: value, ttl: 3600 }),
    values: (fake, zone, name) =>
      (fake.zones.get(zone) ?? [])
        .filter((r) => r.host === relative(name, zone, "") && r.type === "TXT")
        .map((r) => r.record),
  },
};

export const adapter = define<CloudnsFake>({
  type: "cloudns",
  start: startCloudnsFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("cloudns"),
  options: noOptions,
  credentials: { auth_id: CLOUDNS_FAKE_SUB_AUTH_ID, auth_password: CLOUDNS_FAKE_PASSWORD },
  badCredentials: { auth_id: CLOUDNS_FAKE_SUB_AUTH_ID, auth_password: "wrong-password-0123456789" },
  badCredentialsWords: /^ClouDNS: Invalid authentication, incorrect auth-id or auth-password\. \(HTTP 200\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(cloudnsZone),
  isWrite: writeMethod,
  // While it looks for the zone, a refusal means "not this zone": the failure is arranged for the writes.
  failure: {
    arrange: (fake) => fake.fault({ failed: "The record is locked." }, undefined, (r) => r.method === "POST"),
    words: /^ClouDNS: The record is locked\. \(HTTP 200\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 85 }),
    words: /^ClouDNS: Too many requests\. \(HTTP 429\); pausing 85 s$/,
    pauseSeconds: 85,
  },
  verifyRefusal: /^ClouDNS: Invalid authentication/,
});
