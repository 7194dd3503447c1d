import { NETCUPCLOUD_FAKE_KEY, type NetcupCloudFake, startNetcupCloudFake } from "../../fakes/netcupcloud";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const netcupCloudZone: ZoneAccess<NetcupCloudFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { name: relative(hostname, zone, "@"), type, rdata: ip, ttl }),
  readAll: (fake, zone, hostname, type) =>
    fake
      .served(zone)
      .filter((r) => r.name === relative(hostname, zone, "@") && r.type === type)
      .map((r) => r.rdata),
  read(fake, zone, hostname, type) {
    const records = fake.served(zone).filter((r) => r.name === relative(hostname, zone, "@") && r.type === type);
    return records.length === 1 ? { ip: records[0]!.rdata, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 3600,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { name: relative(name, zone, "@"), type: "TXT", rdata: value, ttl: 3600 }),
    values: (fake, zone, name) =>
      fake
        .served(zone)
        .filter((r) => r.name === relative(name, zone, "@") && r.type === "TXT")
        .map((r) => r.rdata),
  },
};

export const adapter = define<NetcupCloudFake>({
  type: "netcupcloud",
  start: startNetcupCloudFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("netcupcloud"),
  options: noOptions,
  credentials: { api_key: NETCUPCLOUD_FAKE_KEY },
  badCredentials: { api_key: "wrongKey".padEnd(64, "0") },
  badCredentialsWords: /^Netcup CloudDNS: authenticationError: .*\(HTTP 400\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(netcupCloudZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) =>
      fake.fault(
        { status: 422, code: "validationError", message: "The zone is locked." },
        undefined,
        (r) => r.method === "POST",
      ),
    words: /^Netcup CloudDNS: validationError: The zone is locked\. \(HTTP 422\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 75 }),
    words: /^Netcup CloudDNS: .*\(HTTP 429\); pausing 75 s$/,
    pauseSeconds: 75,
  },
  verifyRefusal: /^Netcup CloudDNS: authenticationError: /,
});
