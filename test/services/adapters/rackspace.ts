import { apiUrlSetting } from "../../../src/dns/registry";
import { RACKSPACE_FAKE_KEY, RACKSPACE_FAKE_USER, type RackspaceFake, startRackspaceFake } from "../../fakes/rackspace";
import { define, inZone, noOptions, writeMethod, type ZoneAccess } from "../adapter";

const rackspaceZone: ZoneAccess<RackspaceFake> = {
  addZone(fake, zone) {
    if (!fake.domainNamed(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { name: hostname, type, data: ip, ttl }),
  read(fake, zone, hostname, type) {
    const records = fake.records(zone, hostname, type);
    return records.length === 1 ? { ip: records[0]!.data, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 600,
};

const dnsRequest = (request: { path: string }) => request.path.startsWith("/dns");

export const adapter = define<RackspaceFake>({
  type: "rackspace",
  start: () => startRackspaceFake(),
  reset: (fake) => fake.reset(),
  // The login's address; the DNS endpoint comes from its service catalog.
  env: (fake) => ({ [apiUrlSetting("rackspace")]: fake.identityUrl }),
  options: noOptions,
  credentials: { username: RACKSPACE_FAKE_USER, api_key: RACKSPACE_FAKE_KEY },
  badCredentials: { username: RACKSPACE_FAKE_USER, api_key: "fedcba9876543210fedcba9876543210" },
  badCredentialsWords: /^Rackspace Cloud DNS: Username or api key is invalid\. \(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(rackspaceZone),
  // The login is a POST that changes nothing.
  isWrite: (request) => writeMethod(request) && dnsRequest(request),
  failure: {
    arrange: (fake) =>
      fake.fault(
        { status: 500, body: { message: "The DNS service has experienced a fault.", code: 500, details: "" } },
        undefined,
        dnsRequest,
      ),
    words: /^Rackspace Cloud DNS: The DNS service has experienced a fault\. \(HTTP 500\)/,
  },
  throttle: {
    arrange: (fake) =>
      fake.fault(
        {
          status: 413,
          body: { overLimit: { code: 413, message: "OverLimit Retry...", details: "Error Details..." } },
          retryAfter: 45,
        },
        undefined,
        dnsRequest,
      ),
    words: /^Rackspace Cloud DNS: OverLimit Retry\.\.\.; Error Details\.\.\. \(HTTP 413\); pausing 45 s$/,
    pauseSeconds: 45,
  },
  verifyRefusal: /^Rackspace Cloud DNS: Username or api key is invalid\. \(HTTP 401\)/,
});
