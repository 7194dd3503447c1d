import { unquotedTxt } from "../../../src/dns/txt";
import { startVultrFake, VULTR_FAKE_API_KEY, type VultrFake } from "../../fakes/vultr";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const vultrZone: ZoneAccess<VultrFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { name: relative(hostname, zone, ""), type, data: ip, ttl }),
  read(fake, zone, hostname, type) {
    const records =
      fake.domains.get(zone)?.filter((r) => r.name === relative(hostname, zone, "") && r.type === type) ?? [];
    return records.length === 1 ? { ip: records[0]!.data, ttl: records[0]!.ttl } : undefined;
  },
  readAll: (fake, zone, hostname, type) =>
    fake.recordsNamed(zone, relative(hostname, zone, ""), type).map((record) => record.data),
  ttl: 1800,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { name: relative(name, zone, ""), type: "TXT", data: `"${value}"`, ttl: 300 }),
    values: (fake, zone, name) =>
      fake.recordsNamed(zone, relative(name, zone, ""), "TXT").map((record) => unquotedTxt(record.data)),
  },
};

export const adapter = define<VultrFake>({
  type: "vultr",
  start: startVultrFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("vultr"),
  options: noOptions,
  credentials: { api_key: VULTR_FAKE_API_KEY },
  badCredentials: { api_key: "VULTRWRONGKEY0123456789ABCDEFGHIJKLM" },
  badCredentialsWords: /^Vultr: Invalid API token\. \(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(vultrZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 500, error: "DNS backend unavailable" }),
    words: /^Vultr: DNS backend unavailable \(HTTP 500\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 65 }),
    words: /^Vultr: .*\(HTTP 429\); pausing 65 s$/,
    pauseSeconds: 65,
  },
  verifyRefusal: /^Vultr: Invalid API token/,
});
