import { NAMECOM_FAKE_TOKEN, NAMECOM_FAKE_USERNAME, type NamecomFake, startNamecomFake } from "../../fakes/namecom";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const namecomZone: ZoneAccess<NamecomFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { host: relative(hostname, zone, ""), type, answer: ip, ttl }),
  readAll: (fake, zone, hostname, type) =>
    (fake.domains.get(zone) ?? [])
      .filter((r) => r.host === relative(hostname, zone, "") && r.type === type)
      .map((r) => r.answer),
  read(fake, zone, hostname, type) {
    const records =
      fake.domains.get(zone)?.filter((r) => r.host === relative(hostname, zone, "") && r.type === type) ?? [];
    return records.length === 1 ? { ip: records[0]!.answer, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 1800,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { host: relative(name, zone, ""), type: "TXT", answer: value, ttl: 300 }),
    values: (fake, zone, name) =>
      (fake.domains.get(zone) ?? [])
        .filter((r) => r.host === relative(name, zone, "") && r.type === "TXT")
        .map((r) => r.answer),
  },
};

export const adapter = define<NamecomFake>({
  type: "namecom",
  start: startNamecomFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("namecom"),
  options: noOptions,
  credentials: { username: NAMECOM_FAKE_USERNAME, token: NAMECOM_FAKE_TOKEN },
  badCredentials: { username: NAMECOM_FAKE_USERNAME, token: "namecomwrongtoken0123456789abcdef0123456" },
  badCredentialsWords: /^Name\.com: Permission Denied: Authentication Error/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(namecomZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 400, message: "Invalid Argument", details: "Domain is locked" }),
    words: /^Name\.com: Invalid Argument: Domain is locked \(HTTP 400\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 85 }),
    words: /^Name\.com: Too Many Requests \(HTTP 429\); pausing 85 s$/,
    pauseSeconds: 85,
  },
  verifyRefusal: /^Name\.com: Permission Denied/,
});
