import { startTransipFake, TRANSIP_FAKE_LOGIN, TRANSIP_FAKE_PRIVATE_KEY, type TransipFake } from "../../fakes/transip";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const transipZone: ZoneAccess<TransipFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addEntry(zone, { name: relative(hostname, zone, "@"), type, content: ip, expire: ttl }),
  readAll: (fake, zone, hostname, type) =>
    (fake.domains.get(zone) ?? [])
      .filter((e) => e.name === relative(hostname, zone, "@") && e.type === type)
      .map((e) => e.content),
  read(fake, zone, hostname, type) {
    const entries =
      fake.domains.get(zone)?.filter((e) => e.name === relative(hostname, zone, "@") && e.type === type) ?? [];
    return entries.length === 1 ? { ip: entries[0]!.content, ttl: entries[0]!.expire } : undefined;
  },
  ttl: 3600,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addEntry(zone, { name: relative(name, zone, "@"), type: "TXT", content: value, expire: 3600 }),
    values: (fake, zone, name) =>
      (fake.domains.get(zone) ?? [])
        .filter((e) => e.name === relative(name, zone, "@") && e.type === "TXT")
        .map((e) => e.content),
  },
};

export const adapter = define<TransipFake>({
  type: "transip",
  start: startTransipFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("transip"),
  options: noOptions,
  credentials: { login: TRANSIP_FAKE_LOGIN, private_key: TRANSIP_FAKE_PRIVATE_KEY },
  badCredentials: { login: "someone-else", private_key: TRANSIP_FAKE_PRIVATE_KEY },
  badCredentialsWords: /^TransIP: Signature validation failed/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(transipZone),
  // The login is a POST that changes nothing at the zone.
  isWrite: (request) => writeMethod(request) && request.path !== "/auth",
  failure: {
    arrange: (fake) =>
      fake.fault(
        { status: 406, error: "Domain is locked" },
        undefined,
        (r) => r.path !== "/auth" && r.method !== "GET",
      ),
    words: /^TransIP: Domain is locked \(HTTP 406\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 85 }),
    words: /^TransIP: Rate limit exceeded \(HTTP 429\); pausing 85 s$/,
    pauseSeconds: 85,
  },
  verifyRefusal: /^TransIP: Signature validation failed/,
});
