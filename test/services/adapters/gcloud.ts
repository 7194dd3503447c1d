import { apiUrlSetting } from "../../../src/dns/registry";
import {
  GCLOUD_FAKE_KEY,
  GCLOUD_FAKE_WRONG_KEY,
  type GcloudFake,
  serviceAccountKeyJson,
  startGcloudFake,
  zoneNameFor,
} from "../../fakes/gcloud";
import { define, inZone, writeMethod, type ZoneAccess } from "../adapter";

const gcloudZone: ZoneAccess<GcloudFake> = {
  addZone(fake, zone) {
    if (!fake.zones.has(zoneNameFor(zone))) fake.addZone(zoneNameFor(zone), zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRrset(zoneNameFor(zone), { name: `${hostname}.`, type, rrdatas: [ip], ttl }),
  addSet: (fake, zone, hostname, type, ips, ttl) =>
    void fake.addRrset(zoneNameFor(zone), { name: `${hostname}.`, type, rrdatas: [...ips], ttl }),
  readAll: (fake, zone, hostname, type) => [...(fake.rrset(zoneNameFor(zone), `${hostname}.`, type)?.rrdatas ?? [])],
  read(fake, zone, hostname, type) {
    const rrset = fake.rrset(zoneNameFor(zone), `${hostname}.`, type);
    return rrset && rrset.rrdatas.length === 1 ? { ip: rrset.rrdatas[0]!, ttl: rrset.ttl } : undefined;
  },
  ttl: 300,
  txt: {
    add(fake, zone, name, value) {
      const held = fake.rrset(zoneNameFor(zone), `${name}.`, "TXT");
      if (held) held.rrdatas.push(`"${value}"`);
      else fake.addRrset(zoneNameFor(zone), { name: `${name}.`, type: "TXT", rrdatas: [`"${value}"`], ttl: 300 });
    },
    values: (fake, zone, name) =>
      (fake.rrset(zoneNameFor(zone), `${name}.`, "TXT")?.rrdatas ?? []).map((v) => v.replace(/^"(.*)"$/, "$1")),
  },
};

export const adapter = define<GcloudFake>({
  type: "gcloud",
  start: startGcloudFake,
  reset: (fake) => fake.reset(),
  env: (fake) => ({ [apiUrlSetting("gcloud")]: fake.apiUrl }),
  // The key names Google's token endpoint; the option points it at the fake.
  options: (fake) => ({ token_url: fake.tokenUrl }),
  credentials: { service_account_key: serviceAccountKeyJson(GCLOUD_FAKE_KEY.privatePem) },
  badCredentials: { service_account_key: serviceAccountKeyJson(GCLOUD_FAKE_WRONG_KEY.privatePem) },
  badCredentialsWords: /^Google Cloud DNS: Invalid JWT Signature\. \(invalid_grant, HTTP 400\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(gcloudZone),
  // The token request is a POST that changes nothing.
  isWrite: (request) => writeMethod(request) && request.path.startsWith("/dns/v1"),
  failure: {
    arrange: (fake) =>
      fake.fault(
        { status: 409, reason: "conflict", message: "The change conflicts with a change in progress." },
        undefined,
        (r) => r.path.endsWith("/changes"),
      ),
    words: /^Google Cloud DNS: The change conflicts with a change in progress\. \(conflict, HTTP 409\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 42 }, undefined, (r) => r.path.startsWith("/dns/v1")),
    words: /^Google Cloud DNS: Quota exceeded .* \(rateLimitExceeded, HTTP 429\); pausing 42 s$/,
    pauseSeconds: 42,
  },
  verifyRefusal: /^Google Cloud DNS: Invalid JWT Signature/,
});
