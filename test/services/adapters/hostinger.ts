import { HOSTINGER_FAKE_TOKEN, type HostingerFake, startHostingerFake } from "../../fakes/hostinger";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const hostingerZone: ZoneAccess<HostingerFake> = {
  addZone(fake, zone) {
    if (!fake.zones.has(zone)) fake.addZone(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addSet(zone, { name: relative(hostname, zone, "@"), type, contents: [ip], ttl }),
  addSet: (fake, zone, hostname, type, ips, ttl) =>
    void fake.addSet(zone, { name: relative(hostname, zone, "@"), type, contents: [...ips], ttl }),
  read(fake, zone, hostname, type) {
    const set = fake.set(zone, relative(hostname, zone, "@"), type);
    return set?.records.length === 1 ? { ip: set.records[0]!.content, ttl: set.ttl } : undefined;
  },
  readAll: (fake, zone, hostname, type) =>
    (fake.set(zone, relative(hostname, zone, "@"), type)?.records ?? []).map((r) => r.content),
  ttl: 1800,
  txt: {
    add(fake, zone, name, value) {
      const set = fake.set(zone, relative(name, zone, "@"), "TXT");
      if (set) set.records.push({ content: value, is_disabled: false });
      else fake.addSet(zone, { name: relative(name, zone, "@"), type: "TXT", contents: [value], ttl: 3600 });
    },
    values: (fake, zone, name) =>
      (fake.set(zone, relative(name, zone, "@"), "TXT")?.records ?? []).map((r) => r.content),
  },
};

export const adapter = define<HostingerFake>({
  type: "hostinger",
  start: startHostingerFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("hostinger"),
  options: noOptions,
  credentials: { api_token: HOSTINGER_FAKE_TOKEN },
  badCredentials: { api_token: "hostingerwrongtoken0123456789abcdefABCDE" },
  badCredentialsWords: /^Hostinger: Unauthenticated \(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(hostingerZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 422, message: "The given data was invalid." }),
    words: /^Hostinger: The given data was invalid\. \(HTTP 422\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 85 }),
    words: /^Hostinger: Too Many Attempts\. \(HTTP 429\); pausing 85 s$/,
    pauseSeconds: 85,
  },
  verifyRefusal: /^Hostinger: Unauthenticated/,
});
