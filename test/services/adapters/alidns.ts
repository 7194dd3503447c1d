import { ALIDNS_FAKE_ACCESS_KEY_ID, ALIDNS_FAKE_SECRET, type AlidnsFake, startAlidnsFake } from "../../fakes/alidns";
import { apiUrl, define, inZone, noOptions, relative, type ZoneAccess } from "../adapter";

const alidnsZone: ZoneAccess<AlidnsFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { rr: relative(hostname, zone, "@"), type, value: ip, ttl }),
  read(fake, zone, hostname, type) {
    const records = fake.records(zone, relative(hostname, zone, "@"), type);
    return records.length === 1 ? { ip: records[0]!.Value, ttl: records[0]!.TTL } : undefined;
  },
  readAll: (fake, zone, hostname, type) => fake.records(zone, relative(hostname, zone, "@"), type).map((r) => r.Value),
  ttl: 1800,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { rr: relative(name, zone, "@"), type: "TXT", value, ttl: 600 }),
    values: (fake, zone, name) => fake.records(zone, relative(name, zone, "@"), "TXT").map((r) => r.Value),
  },
};

const WRITE_ACTIONS = new Set(["UpdateDomainRecord", "AddDomainRecord", "DeleteDomainRecord"]);

export const adapter = define<AlidnsFake>({
  type: "alidns",
  start: () => startAlidnsFake(),
  reset: (fake) => fake.reset(),
  env: apiUrl("alidns"),
  options: noOptions,
  credentials: { access_key_id: ALIDNS_FAKE_ACCESS_KEY_ID, access_key_secret: ALIDNS_FAKE_SECRET },
  badCredentials: { access_key_id: ALIDNS_FAKE_ACCESS_KEY_ID, access_key_secret: "WrongAccessKeySecret0123456789ab" },
  badCredentialsWords: /^Alibaba Cloud DNS: Specified signature is not matched .*\(SignatureDoesNotMatch, HTTP 400\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(alidnsZone),
  // Every Alidns call is a GET: the Action says whether it changes anything.
  isWrite: (request) => WRITE_ACTIONS.has(request.query.Action ?? ""),
  failure: {
    arrange: (fake) =>
      fake.fault({
        status: 503,
        code: "ServiceUnavailable",
        message: "The request has failed due to a temporary failure of the server.",
      }),
    words:
      /^Alibaba Cloud DNS: The request has failed due to a temporary failure of the server\. \(ServiceUnavailable, HTTP 503\)/,
  },
  // Throttling.User names no wait: the first pause is the updater's minute.
  throttle: {
    arrange: (fake) => fake.fault({ status: 400, code: "Throttling.User" }),
    words:
      /^Alibaba Cloud DNS: Request was denied due to user flow control\. \(Throttling\.User, HTTP 400\); pausing 60 s$/,
    pauseSeconds: 60,
  },
  verifyRefusal: /^Alibaba Cloud DNS: Specified signature is not matched .*SignatureDoesNotMatch/,
});
