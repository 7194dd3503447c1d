import { IPV64_FAKE_API_KEY, type Ipv64Fake, startIpv64Fake } from "../../fakes/ipv64";
import { apiUrl, define, inZone, noOptions, relative, type ZoneAccess } from "../adapter";

const ipv64Zone: ZoneAccess<Ipv64Fake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { praefix: relative(hostname, zone, ""), type, content: ip, ttl }),
  read(fake, zone, hostname, type) {
    const records = fake.recordsOf(zone, relative(hostname, zone, ""), type);
    return records.length === 1 ? { ip: records[0]!.content, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 60,
  goneZoneId: null,
};

export const adapter = define<Ipv64Fake>({
  type: "ipv64",
  start: startIpv64Fake,
  reset: (fake) => fake.reset(),
  env: apiUrl("ipv64"),
  options: noOptions,
  credentials: { api_key: IPV64_FAKE_API_KEY },
  badCredentials: { api_key: "ipv64wrongapikey0000000000000000" },
  badCredentialsWords: /^IPv64: Unauthorized \(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(ipv64Zone),
  // The listing reads; the update URL and add_record write.
  isWrite: (request) => request.path === "/nic/update" || request.method === "POST",
  failure: {
    arrange: (fake) => fake.fault({ status: 500, body: "Internal Server Error" }),
    words: /^IPv64: Internal Server Error \(HTTP 500\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 10 }),
    words: /^IPv64: Too Many Requests \(HTTP 429\); pausing 10 s$/,
    pauseSeconds: 10,
  },
  verifyRefusal: /^IPv64: Unauthorized \(HTTP 401\)/,
});
