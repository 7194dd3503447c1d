import { NAMESILO_FAKE_API_KEY, type NamesiloFake, startNamesiloFake } from "../../fakes/namesilo";
import { apiUrl, define, inZone, noOptions, relative, type ZoneAccess } from "../adapter";

const namesiloZone: ZoneAccess<NamesiloFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { host: relative(hostname, zone, ""), type, value: ip, ttl }),
  readAll: (fake, zone, hostname, type) =>
    (fake.domains.get(zone) ?? []).filter((r) => r.host === hostname && r.type === type).map((r) => r.value),
  read(fake, zone, hostname, type) {
    const records = fake.domains.get(zone)?.filter((r) => r.host === hostname && r.type === type) ?? [];
    return records.length === 1 ? { ip: records[0]!.value, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 86400,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { host: relative(name, zone, ""), type: "TXT", value, ttl: 3600 }),
    values: (fake, zone, name) =>
      (fake.domains.get(zone) ?? []).filter((r) => r.host === name && r.type === "TXT").map((r) => r.value),
  },
};

export const adapter = define<NamesiloFake>({
  type: "namesilo",
  start: startNamesiloFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("namesilo"),
  options: noOptions,
  credentials: { api_key: NAMESILO_FAKE_API_KEY },
  badCredentials: { api_key: "wrongwrongwrongwrongwrong" },
  badCredentialsWords: /^NameSilo: Invalid API Key \(code 110, HTTP 200\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(namesiloZone),
  // Every NameSilo operation is a GET: the writes are the operations that change records.
  isWrite: (request) => /^\/dns(Add|Update|Delete)Record$/.test(request.path),
  failure: {
    arrange: (fake) => fake.fault({ code: 280, detail: "DNS modification error" }),
    words: /^NameSilo: DNS modification error \(code 280, HTTP 200\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 85 }),
    words: /^NameSilo: Too many requests \(code 429, HTTP 429\); pausing 85 s$/,
    pauseSeconds: 85,
  },
  verifyRefusal: /^NameSilo: Invalid API Key/,
});
