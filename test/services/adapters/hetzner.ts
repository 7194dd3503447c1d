import { unquotedTxt } from "../../../src/dns/txt";
import { HETZNER_FAKE_TOKEN, type HetznerFake, startHetznerFake } from "../../fakes/hetzner";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const hetznerZone: ZoneAccess<HetznerFake> = {
  addZone(fake, zone) {
    if (![...fake.zones.values()].some((z) => z.name === zone)) fake.addZone(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRrset(zone, { name: relative(hostname, zone, "@"), type, values: [ip], ttl }),
  addSet: (fake, zone, hostname, type, ips, ttl) =>
    void fake.addRrset(zone, { name: relative(hostname, zone, "@"), type, values: [...ips], ttl }),
  read(fake, zone, hostname, type) {
    const rrset = fake.rrset(zone, relative(hostname, zone, "@"), type);
    return rrset && rrset.records.length === 1 ? { ip: rrset.records[0]!.value, ttl: rrset.ttl } : undefined;
  },
  readAll: (fake, zone, hostname, type) =>
    (fake.rrset(zone, relative(hostname, zone, "@"), type)?.records ?? []).map((record) => record.value),
  ttl: 1800,
  txt: {
    add(fake, zone, name, value) {
      const rrset = fake.rrset(zone, relative(name, zone, "@"), "TXT");
      if (rrset) rrset.records.push({ value: `"${value}"` });
      else fake.addRrset(zone, { name: relative(name, zone, "@"), type: "TXT", values: [`"${value}"`], ttl: 300 });
    },
    values: (fake, zone, name) =>
      (fake.rrset(zone, relative(name, zone, "@"), "TXT")?.records ?? []).map((record) => unquotedTxt(record.value)),
  },
};

export const adapter = define<HetznerFake>({
  type: "hetzner",
  start() {
    const fake = startHetznerFake();
    // Actions end at once: the client's polling is the client tests' business, and each look costs 500 ms.
    fake.actionLooks = 0;
    return fake;
  },
  reset(fake) {
    fake.reset();
    fake.actionLooks = 0;
  },
  env: apiUrl("hetzner"),
  options: noOptions,
  credentials: { token: HETZNER_FAKE_TOKEN },
  badCredentials: { token: "hcloud-wrong-token-0123456789abcdef" },
  badCredentialsWords: /^Hetzner: .*\(unauthorized, HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(hetznerZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) =>
      fake.fault({ status: 503, code: "maintenance", message: "cannot perform operation due to maintenance" }),
    words: /^Hetzner: cannot perform operation due to maintenance \(maintenance, HTTP 503\)/,
  },
  throttle: {
    arrange: (fake) =>
      fake.fault({
        status: 429,
        code: "rate_limit_exceeded",
        message: "limit of 3600 requests per hour reached",
        resetInSeconds: 300,
      }),
    words: /^Hetzner: limit of 3600 requests per hour reached \(rate_limit_exceeded, HTTP 429\); pausing (29\d|300) s$/,
    pauseSeconds: 250,
  },
  verifyRefusal: /^Hetzner: .*\(unauthorized, HTTP 401\)/,
});
