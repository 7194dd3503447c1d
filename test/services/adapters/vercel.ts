import { startVercelFake, VERCEL_FAKE_TOKEN, type VercelFake } from "../../fakes/vercel";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const vercelZone: ZoneAccess<VercelFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { name: relative(hostname, zone, ""), type, value: ip, ttl }),
  readAll: (fake, zone, hostname, type) => fake.records(zone, relative(hostname, zone, ""), type).map((r) => r.value),
  read(fake, zone, hostname, type) {
    const records = fake.records(zone, relative(hostname, zone, ""), type);
    return records.length === 1 ? { ip: records[0]!.value, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 1800,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { name: relative(name, zone, ""), type: "TXT", value, ttl: 60 }),
    values: (fake, zone, name) => fake.records(zone, relative(name, zone, ""), "TXT").map((r) => r.value),
  },
};

export const adapter = define<VercelFake>({
  type: "vercel",
  start: startVercelFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("vercel"),
  options: noOptions,
  credentials: { token: VERCEL_FAKE_TOKEN },
  badCredentials: { token: "vercelwrongtoken0123456789ABCDE" },
  badCredentialsWords: /^Vercel: Not authorized \(forbidden, HTTP 403\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(vercelZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) =>
      fake.fault({
        status: 400,
        code: "invalid_value",
        message: "The record is managed by Vercel and cannot be changed",
      }),
    words: /^Vercel: The record is managed by Vercel and cannot be changed \(invalid_value, HTTP 400\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 85 }),
    words: /^Vercel: Rate limit exceeded \(rate_limited, HTTP 429\); pausing 85 s$/,
    pauseSeconds: 85,
  },
  verifyRefusal: /^Vercel: Not authorized/,
});
