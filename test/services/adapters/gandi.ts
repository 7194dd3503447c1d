import { GANDI_FAKE_TOKEN, type GandiFake, startGandiFake } from "../../fakes/gandi";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const gandiZone: ZoneAccess<GandiFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRrset(zone, { name: relative(hostname, zone, "@"), type, values: [ip], ttl }),
  addSet: (fake, zone, hostname, type, ips, ttl) =>
    void fake.addRrset(zone, { name: relative(hostname, zone, "@"), type, values: [...ips], ttl }),
  readAll: (fake, zone, hostname, type) => [
    ...(fake.rrset(zone, relative(hostname, zone, "@"), type)?.rrset_values ?? []),
  ],
  read(fake, zone, hostname, type) {
    const rrset = fake.rrset(zone, relative(hostname, zone, "@"), type);
    return rrset && rrset.rrset_values.length === 1 ? { ip: rrset.rrset_values[0]!, ttl: rrset.rrset_ttl } : undefined;
  },
  ttl: 1800,
  txt: {
    add(fake, zone, name, value) {
      const held = fake.rrset(zone, relative(name, zone, "@"), "TXT")?.rrset_values ?? [];
      fake.addRrset(zone, { name: relative(name, zone, "@"), type: "TXT", values: [...held, `"${value}"`], ttl: 3600 });
    },
    values: (fake, zone, name) =>
      (fake.rrset(zone, relative(name, zone, "@"), "TXT")?.rrset_values ?? []).map((v) => v.replace(/^"(.*)"$/, "$1")),
  },
};

export const adapter = define<GandiFake>({
  type: "gandi",
  start: () => startGandiFake(),
  reset: (fake) => fake.reset(),
  env: apiUrl("gandi"),
  options: noOptions,
  credentials: { token: GANDI_FAKE_TOKEN },
  badCredentials: { token: "gandi-wrong-pat-0123456789abcdef" },
  badCredentialsWords: /^Gandi: .*\(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(gandiZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 500, message: "LiveDNS backend unavailable" }),
    words: /^Gandi: LiveDNS backend unavailable/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 80 }),
    words: /^Gandi: .*\(HTTP 429\); pausing 80 s$/,
    pauseSeconds: 80,
  },
  verifyRefusal: /^Gandi: .*\(HTTP 401\)/,
});
