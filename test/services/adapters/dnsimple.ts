import { DNSIMPLE_FAKE_ACCOUNT, DNSIMPLE_FAKE_TOKEN, type DnsimpleFake, startDnsimpleFake } from "../../fakes/dnsimple";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const named = (fake: DnsimpleFake, zone: string, hostname: string, type: string) =>
  fake.zones.get(zone)?.records.filter((r) => r.name === relative(hostname, zone, "") && r.type === type) ?? [];

const dnsimpleZone: ZoneAccess<DnsimpleFake> = {
  addZone(fake, zone) {
    if (!fake.zones.has(zone)) fake.addZone(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { name: relative(hostname, zone, ""), type, content: ip, ttl }),
  read(fake, zone, hostname, type) {
    const records = named(fake, zone, hostname, type);
    return records.length === 1 ? { ip: records[0]!.content, ttl: records[0]!.ttl } : undefined;
  },
  readAll: (fake, zone, hostname, type) => named(fake, zone, hostname, type).map((r) => r.content),
  ttl: 1800,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { name: relative(name, zone, ""), type: "TXT", content: `"${value}"`, ttl: 3600 }),
    values: (fake, zone, name) => named(fake, zone, name, "TXT").map((r) => r.content.replace(/^"(.*)"$/, "$1")),
  },
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
