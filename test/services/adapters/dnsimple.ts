import { DNSIMPLE_FAKE_ACCOUNT, DNSIMPLE_FAKE_TOKEN, type DnsimpleFake, startDnsimpleFake } from "../../fakes/dnsimple";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const dnsimpleZone: ZoneAccess<DnsimpleFake> = {
  addZone(fake, zone) {
    if (!fake.zones.has(zone)) fake.addZone(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { name: relative(hostname, zone, ""), type, content: ip, ttl }),
  read(fake, zone, hostname, type) {
    const records =
      fake.zones.get(zone)?.records.filter((r) => r.name === relative(hostname, zone, "") && r.type === type) ?? [];
    return records.length === 1 ? { ip: records[0]!.content, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 1800,
};

export const adapter = define<DnsimpleFake>({
  type: "dnsimple",
  start: startDnsimpleFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("dnsimple"),
  options: noOptions,
  credentials: { account_id: DNSIMPLE_FAKE_ACCOUNT, token: DNSIMPLE_FAKE_TOKEN },
  badCredentials: { account_id: DNSIMPLE_FAKE_ACCOUNT, token: "dnsimplewrongtoken0123456789abcdef" },
  badCredentialsWords: /^DNSimple: Authentication failed \(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(dnsimpleZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 400, message: "Zone is locked" }),
    words: /^DNSimple: Zone is locked \(HTTP 400\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 90 }),
    words: /^DNSimple: API rate limit exceeded \(HTTP 429\); pausing 90 s$/,
    pauseSeconds: 90,
  },
  verifyRefusal: /^DNSimple: Authentication failed/,
});
