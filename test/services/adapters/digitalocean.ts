import { DIGITALOCEAN_FAKE_TOKEN, type DigitalOceanFake, startDigitalOceanFake } from "../../fakes/digitalocean";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const digitalOceanZone: ZoneAccess<DigitalOceanFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { type, name: relative(hostname, zone, "@"), data: ip, ttl }),
  read(fake, zone, hostname, type) {
    const record = fake.record(zone, relative(hostname, zone, "@"), type);
    return record && { ip: record.data, ttl: record.ttl };
  },
  readAll: (fake, zone, hostname, type) =>
    fake.recordsNamed(zone, relative(hostname, zone, "@"), type).map((record) => record.data),
  ttl: 1800,
  goneZoneId: null,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { type: "TXT", name: relative(name, zone, "@"), data: value, ttl: 1800 }),
    values: (fake, zone, name) =>
      fake.recordsNamed(zone, relative(name, zone, "@"), "TXT").map((record) => record.data),
  },
};

export const adapter = define<DigitalOceanFake>({
  type: "digitalocean",
  start: startDigitalOceanFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("digitalocean"),
  options: noOptions,
  credentials: { token: DIGITALOCEAN_FAKE_TOKEN },
  badCredentials: { token: "dop_v1_wrong0123456789abcdef0123456789abcdef" },
  badCredentialsWords: /^DigitalOcean: Unable to authenticate you/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(digitalOceanZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) =>
      fake.fault({ status: 500, id: "server_error", message: "Server was unable to give you a response." }),
    words: /^DigitalOcean: Server was unable to give you a response\./,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 75 }),
    words: /^DigitalOcean: .*\(too_many_requests, HTTP 429\); pausing 75 s$/,
    pauseSeconds: 75,
  },
  verifyRefusal: /^DigitalOcean: Unable to authenticate you/,
});
