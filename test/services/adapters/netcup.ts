import {
  NETCUP_FAKE_API_KEY,
  NETCUP_FAKE_API_PASSWORD,
  NETCUP_FAKE_CUSTOMER,
  NETCUP_ZONE_TTL,
  type NetcupFake,
  startNetcupFake,
} from "../../fakes/netcup";
import { apiUrl, define, inZone, noOptions, relative, type ZoneAccess } from "../adapter";

const netcupZone: ZoneAccess<NetcupFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  // Netcup records have no TTL of their own: every record has its zone's.
  addRecord: (fake, zone, hostname, type, ip) =>
    void fake.addRecord(zone, { hostname: relative(hostname, zone, "@"), type, destination: ip }),
  readAll: (fake, zone, hostname, type) =>
    (fake.domains.get(zone)?.records ?? [])
      .filter((r) => r.hostname === relative(hostname, zone, "@") && r.type === type)
      .map((r) => r.destination),
  read(fake, zone, hostname, type) {
    const domain = fake.domains.get(zone);
    const records =
      domain?.records.filter((r) => r.hostname === relative(hostname, zone, "@") && r.type === type) ?? [];
    return records.length === 1 ? { ip: records[0]!.destination, ttl: domain!.ttl } : undefined;
  },
  ttl: NETCUP_ZONE_TTL,
  goneZoneId: null,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { hostname: relative(name, zone, "@"), type: "TXT", destination: value }),
    values: (fake, zone, name) =>
      (fake.domains.get(zone)?.records ?? [])
        .filter((r) => r.hostname === relative(name, zone, "@") && r.type === "TXT")
        .map((r) => r.destination),
  },
};

export const adapter = define<NetcupFake>({
  type: "netcup",
  start: startNetcupFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("netcup"),
  options: noOptions,
  credentials: {
    customer_number: NETCUP_FAKE_CUSTOMER,
    api_key: NETCUP_FAKE_API_KEY,
    api_password: NETCUP_FAKE_API_PASSWORD,
  },
  badCredentials: {
    customer_number: NETCUP_FAKE_CUSTOMER,
    api_key: NETCUP_FAKE_API_KEY,
    api_password: "netcupWrongApiPassword0123456789abcdef",
  },
  badCredentialsWords: /^Netcup: Validation Error\. The login failed\./,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(netcupZone),
  // Every Netcup action is a POST to one address; only this one changes anything.
  isWrite: (request) => (request.body as { action?: unknown } | undefined)?.action === "updateDnsRecords",
  failure: {
    arrange: (fake) =>
      fake.fault(
        { statuscode: 4013, shortmessage: "Validation Error.", longmessage: "Domain is locked." },
        undefined,
        (r) => (r.body as { action?: unknown }).action === "updateDnsRecords",
      ),
    words: /^Netcup: Validation Error\. Domain is locked\. \(statuscode 4013\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ httpStatus: 429, retryAfter: 85 }),
    words: /^Netcup: Too Many Requests \(HTTP 429\); pausing 85 s$/,
    pauseSeconds: 85,
  },
  verifyRefusal: /^Netcup: Validation Error\. The login failed\./,
});
