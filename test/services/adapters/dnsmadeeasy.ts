import { DNSME_FAKE_KEY, DNSME_FAKE_SECRET, type DnsmeFake, startDnsmeFake } from "../../fakes/dnsmadeeasy";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const dnsmeZone: ZoneAccess<DnsmeFake> = {
  addZone(fake, zone) {
    if (![...fake.domains.values()].some((d) => d.name === zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { name: relative(hostname, zone, ""), type, value: ip, ttl }),
  read(fake, zone, hostname, type) {
    const records = fake.records(zone, relative(hostname, zone, ""), type);
    return records.length === 1 ? { ip: records[0]!.value, ttl: records[0]!.ttl } : undefined;
  },
  readAll: (fake, zone, hostname, type) => fake.records(zone, relative(hostname, zone, ""), type).map((r) => r.value),
  ttl: 1800,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { name: relative(name, zone, ""), type: "TXT", value: `"${value}"`, ttl: 1800 }),
    values: (fake, zone, name) =>
      fake.records(zone, relative(name, zone, ""), "TXT").map((r) => r.value.replace(/^"(.*)"$/, "$1")),
  },
};

export const adapter = define<DnsmeFake>({
  type: "dnsmadeeasy",
  start: startDnsmeFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("dnsmadeeasy"),
  options: noOptions,
  credentials: { api_key: DNSME_FAKE_KEY, secret_key: DNSME_FAKE_SECRET },
  badCredentials: { api_key: DNSME_FAKE_KEY, secret_key: "wrong-secret-0123456789" },
  badCredentialsWords: /^DNS Made Easy: Invalid HMAC \(HTTP 403\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(dnsmeZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 400, error: "Record is locked by a pending action." }),
    words: /^DNS Made Easy: Record is locked by a pending action\. \(HTTP 400\)/,
  },
  throttle: {
    // DNS Made Easy's "slow down" is a 400 naming no wait: the default pause.
    arrange: (fake) => fake.fault({ status: 400, error: "Rate limit exceeded" }),
    words: /^DNS Made Easy: Rate limit exceeded \(HTTP 400\); pausing 60 s$/,
    pauseSeconds: 60,
  },
  verifyRefusal: /^DNS Made Easy: Invalid HMAC/,
});
