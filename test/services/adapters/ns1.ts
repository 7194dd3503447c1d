import { NS1_FAKE_KEY, type Ns1Fake, startNs1Fake } from "../../fakes/ns1";
import { apiUrl, define, inZone, noOptions, writeMethod, type ZoneAccess } from "../adapter";

const ns1Zone: ZoneAccess<Ns1Fake> = {
  addZone(fake, zone) {
    if (!fake.zones.has(zone)) fake.addZone(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { domain: hostname, type, answers: [ip], ttl }),
  addSet: (fake, zone, hostname, type, ips, ttl) =>
    void fake.addRecord(zone, { domain: hostname, type, answers: [...ips], ttl }),
  readAll: (fake, zone, hostname, type) =>
    (fake.record(zone, hostname, type)?.answers ?? []).map((answer) => String(answer.answer[0])),
  read(fake, zone, hostname, type) {
    const record = fake.record(zone, hostname, type);
    const [only] = record?.answers ?? [];
    return record && record.answers.length === 1 && only ? { ip: only.answer[0]!, ttl: record.ttl } : undefined;
  },
  ttl: 1800,
  txt: {
    add(fake, zone, name, value) {
      const held = fake.record(zone, name, "TXT");
      if (held) held.answers.push({ id: "foreign", answer: [value] });
      else fake.addRecord(zone, { domain: name, type: "TXT", answers: [value], ttl: 3600 });
    },
    values: (fake, zone, name) => (fake.record(zone, name, "TXT")?.answers ?? []).map((a) => a.answer.join("")),
  },
};

export const adapter = define<Ns1Fake>({
  type: "ns1",
  start: startNs1Fake,
  reset: (fake) => fake.reset(),
  env: apiUrl("ns1"),
  options: noOptions,
  credentials: { api_key: NS1_FAKE_KEY },
  badCredentials: { api_key: "wrongns1key012345678" },
  badCredentialsWords: /^NS1: Unauthorized \(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(ns1Zone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 400, message: "zone is locked" }),
    words: /^NS1: zone is locked \(HTTP 400\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 85 }),
    words: /^NS1: rate limit exceeded \(HTTP 429\); pausing 85 s$/,
    pauseSeconds: 85,
  },
  verifyRefusal: /^NS1: Unauthorized/,
});
