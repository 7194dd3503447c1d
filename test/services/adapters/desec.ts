import { DESEC_FAKE_TOKEN, type DesecFake, startDesecFake } from "../../fakes/desec";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const desecZone: ZoneAccess<DesecFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRRset(zone, { subname: relative(hostname, zone, ""), type, records: [ip], ttl }),
  addSet: (fake, zone, hostname, type, ips, ttl) =>
    void fake.addRRset(zone, { subname: relative(hostname, zone, ""), type, records: [...ips], ttl }),
  readAll: (fake, zone, hostname, type) => [...(fake.rrset(zone, relative(hostname, zone, ""), type)?.records ?? [])],
  read(fake, zone, hostname, type) {
    const rrset = fake.rrset(zone, relative(hostname, zone, ""), type);
    return rrset && rrset.records.length === 1 ? { ip: rrset.records[0]!, ttl: rrset.ttl } : undefined;
  },
  ttl: 3600,
  goneZoneId: null,
  txt: {
    add(fake, zone, name, value) {
      const subname = relative(name, zone, "");
      const held = fake.rrset(zone, subname, "TXT")?.records ?? [];
      fake.addRRset(zone, { subname, type: "TXT", records: [...held, `"${value}"`], ttl: 3600 });
    },
    values: (fake, zone, name) =>
      (fake.rrset(zone, relative(name, zone, ""), "TXT")?.records ?? []).map((r) => r.replace(/^"(.*)"$/, "$1")),
  },
};

export const adapter = define<DesecFake>({
  type: "desec",
  start: startDesecFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("desec"),
  options: noOptions,
  credentials: { token: DESEC_FAKE_TOKEN },
  badCredentials: { token: "desec-wrong-token-0123456789abcdef" },
  badCredentialsWords: /^deSEC: Invalid token/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(desecZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 500, detail: "The database is being migrated." }),
    words: /^deSEC: The database is being migrated\./,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 90 }),
    words: /^deSEC: .*\(HTTP 429\); pausing 90 s$/,
    pauseSeconds: 90,
  },
  verifyRefusal: /^deSEC: Invalid token/,
});
