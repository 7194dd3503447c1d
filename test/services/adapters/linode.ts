import { LINODE_FAKE_TOKEN, type LinodeFake, linodeTtl, startLinodeFake } from "../../fakes/linode";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const linodeZone: ZoneAccess<LinodeFake> = {
  addZone(fake, zone) {
    if (!fake.domain(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { name: relative(hostname, zone, ""), type, target: ip, ttl }),
  read(fake, zone, hostname, type) {
    const records =
      fake.domain(zone)?.records.filter((r) => r.name === relative(hostname, zone, "") && r.type === type) ?? [];
    return records.length === 1 ? { ip: records[0]!.target, ttl: records[0]!.ttl_sec } : undefined;
  },
  readAll: (fake, zone, hostname, type) =>
    fake.recordsNamed(zone, relative(hostname, zone, ""), type).map((record) => record.target),
  // One of Linode's own values: others are rounded.
  ttl: 3600,
  goneZoneId: "999999",
  storedTtl: linodeTtl,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { name: relative(name, zone, ""), type: "TXT", target: value, ttl: 300 }),
    values: (fake, zone, name) =>
      fake.recordsNamed(zone, relative(name, zone, ""), "TXT").map((record) => record.target),
  },
};

export const adapter = define<LinodeFake>({
  type: "linode",
  start: startLinodeFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("linode"),
  options: noOptions,
  credentials: { token: LINODE_FAKE_TOKEN },
  badCredentials: { token: "linode-wrong-token-0123456789abcdef" },
  badCredentialsWords: /^Linode: Invalid Token \(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(linodeZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 400, reason: "Domain is in edit mode" }),
    words: /^Linode: Domain is in edit mode \(HTTP 400\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 70 }),
    words: /^Linode: Too Many Requests \(HTTP 429\); pausing 70 s$/,
    pauseSeconds: 70,
  },
  verifyRefusal: /^Linode: Invalid Token/,
});
