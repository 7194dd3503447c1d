import {
  ROUTE53_FAKE_ACCESS_KEY_ID,
  ROUTE53_FAKE_SECRET,
  type Route53Fake,
  startRoute53Fake,
} from "../../fakes/route53";
import { apiUrl, define, inZone, noOptions, writeMethod, type ZoneAccess } from "../adapter";

const route53Zone: ZoneAccess<Route53Fake> = {
  addZone(fake, zone) {
    if (![...fake.zones.values()].some((z) => z.name.replace(/\.$/, "") === zone)) fake.addZone(zone);
  },
  addRecord(fake, zone, hostname, type, ip, ttl) {
    const hosted = [...fake.zones.values()].find((z) => z.name.replace(/\.$/, "") === zone)!;
    fake.addSet(hosted.id, { name: hostname, type, ttl, values: [ip] });
  },
  addSet(fake, zone, hostname, type, ips, ttl) {
    const hosted = [...fake.zones.values()].find((z) => z.name.replace(/\.$/, "") === zone)!;
    fake.addSet(hosted.id, { name: hostname, type, ttl, values: [...ips] });
  },
  readAll(fake, zone, hostname, type) {
    const hosted = [...fake.zones.values()].find((z) => z.name.replace(/\.$/, "") === zone);
    const set = hosted?.sets.find((s) => s.name.replace(/\.$/, "") === hostname && s.type === type && !s.setIdentifier);
    return set ? [...set.values] : [];
  },
  read(fake, zone, hostname, type) {
    const hosted = [...fake.zones.values()].find((z) => z.name.replace(/\.$/, "") === zone);
    const set = hosted?.sets.find((s) => s.name.replace(/\.$/, "") === hostname && s.type === type && !s.setIdentifier);
    return set && set.values.length === 1 ? { ip: set.values[0]!, ttl: set.ttl ?? null } : undefined;
  },
  ttl: 1800,
  txt: {
    add(fake, zone, name, value) {
      const hosted = [...fake.zones.values()].find((z) => z.name.replace(/\.$/, "") === zone)!;
      const held = hosted.sets.find((s) => s.name.replace(/\.$/, "") === name && s.type === "TXT");
      if (held) held.values.push(`"${value}"`);
      else fake.addSet(hosted.id, { name, type: "TXT", ttl: 300, values: [`"${value}"`] });
    },
    values(fake, zone, name) {
      const hosted = [...fake.zones.values()].find((z) => z.name.replace(/\.$/, "") === zone);
      const set = hosted?.sets.find((s) => s.name.replace(/\.$/, "") === name && s.type === "TXT");
      return (set?.values ?? []).map((v) => v.replace(/^"(.*)"$/, "$1"));
    },
  },
};

export const adapter = define<Route53Fake>({
  type: "route53",
  start: startRoute53Fake,
  reset: (fake) => fake.reset(),
  env: apiUrl("route53"),
  options: noOptions,
  credentials: { access_key_id: ROUTE53_FAKE_ACCESS_KEY_ID, secret_access_key: ROUTE53_FAKE_SECRET },
  badCredentials: {
    access_key_id: ROUTE53_FAKE_ACCESS_KEY_ID,
    secret_access_key: "fake/Wrong+Key0123456789abcdefghijklmnopq",
  },
  badCredentialsWords: /^Route 53: .*SignatureDoesNotMatch/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(route53Zone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) =>
      fake.fault({ status: 400, code: "InvalidInput", message: "The request is being processed elsewhere" }),
    words: /^Route 53: The request is being processed elsewhere \(InvalidInput, HTTP 400\)/,
  },
  // Route 53's "slow down" is HTTP 400 Throttling without Retry-After; retried twice in the call, then a pause.
  throttle: {
    arrange: (fake) => fake.fault({ status: 400, code: "Throttling" }),
    words: /^Route 53: Rate exceeded \(Throttling, HTTP 400\); pausing 60 s$/,
    pauseSeconds: 60,
  },
  verifyRefusal: /^Route 53: .*SignatureDoesNotMatch/,
});
