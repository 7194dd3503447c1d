import {
  OVH_FAKE_APPLICATION_KEY,
  OVH_FAKE_APPLICATION_SECRET,
  OVH_FAKE_CONSUMER_KEY,
  type OvhFake,
  startOvhFake,
} from "../../fakes/ovh";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const ovhZone: ZoneAccess<OvhFake> = {
  addZone(fake, zone) {
    if (!fake.zones.has(zone)) fake.addZone(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { subDomain: relative(hostname, zone, ""), fieldType: type, target: ip, ttl }),
  readAll: (fake, zone, hostname, type) =>
    (fake.zones.get(zone) ?? [])
      .filter((r) => r.subDomain === relative(hostname, zone, "") && r.fieldType === type)
      .map((r) => r.target),
  read(fake, zone, hostname, type) {
    const records =
      fake.zones.get(zone)?.filter((r) => r.subDomain === relative(hostname, zone, "") && r.fieldType === type) ?? [];
    return records.length === 1 ? { ip: records[0]!.target, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 3600,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { subDomain: relative(name, zone, ""), fieldType: "TXT", target: value, ttl: 3600 }),
    values: (fake, zone, name) =>
      (fake.zones.get(zone) ?? [])
        .filter((r) => r.subDomain === relative(name, zone, "") && r.fieldType === "TXT")
        .map((r) => r.target),
  },
};

export const adapter = define<OvhFake>({
  type: "ovh",
  start: startOvhFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("ovh"),
  options: noOptions,
  credentials: {
    application_key: OVH_FAKE_APPLICATION_KEY,
    application_secret: OVH_FAKE_APPLICATION_SECRET,
    consumer_key: OVH_FAKE_CONSUMER_KEY,
  },
  badCredentials: {
    application_key: OVH_FAKE_APPLICATION_KEY,
    application_secret: OVH_FAKE_APPLICATION_SECRET,
    consumer_key: "revokedConsumerKey0123456789abcd",
  },
  badCredentialsWords: /^OVH: This credential does not exist/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(ovhZone),
  // The zone refresh that publishes a change is a POST, not a record write.
  isWrite: (request) => writeMethod(request) && !request.path.endsWith("/refresh"),
  failure: {
    arrange: (fake) =>
      fake.fault(
        { status: 400, message: "Invalid target" },
        undefined,
        (r) => r.method === "PUT" || r.method === "POST",
      ),
    words: /^OVH: Invalid target \(HTTP 400\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 85 }, undefined, (r) => r.path !== "/auth/time"),
    words: /^OVH: Too many requests \(HTTP 429\); pausing 85 s$/,
    pauseSeconds: 85,
  },
  verifyRefusal: /^OVH: This credential does not exist/,
});
