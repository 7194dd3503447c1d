import { PORKBUN_FAKE_API_KEY, PORKBUN_FAKE_SECRET, type PorkbunFake, startPorkbunFake } from "../../fakes/porkbun";
import { apiUrl, define, inZone, noOptions, relative, type ZoneAccess } from "../adapter";

const porkbunZone: ZoneAccess<PorkbunFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone, { parked: false });
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { name: relative(hostname, zone, ""), type, content: ip, ttl }),
  readAll: (fake, zone, hostname, type) =>
    (fake.domains.get(zone)?.records ?? []).filter((r) => r.name === hostname && r.type === type).map((r) => r.content),
  read(fake, zone, hostname, type) {
    const record = fake.domains.get(zone)?.records.find((r) => r.name === hostname && r.type === type);
    return record && { ip: record.content, ttl: Number(record.ttl) };
  },
  ttl: 1800,
  goneZoneId: null,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { name: relative(name, zone, ""), type: "TXT", content: value, ttl: 600 }),
    values: (fake, zone, name) =>
      (fake.domains.get(zone)?.records ?? []).filter((r) => r.name === name && r.type === "TXT").map((r) => r.content),
  },
};

export const adapter = define<PorkbunFake>({
  type: "porkbun",
  start: startPorkbunFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("porkbun"),
  options: noOptions,
  credentials: { api_key: PORKBUN_FAKE_API_KEY, secret_api_key: PORKBUN_FAKE_SECRET },
  badCredentials: { api_key: "pk1_wrong0123456789abcdef0123456789abcdef", secret_api_key: PORKBUN_FAKE_SECRET },
  badCredentialsWords: /^Porkbun: Invalid API key/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(porkbunZone),
  // Every Porkbun call is a POST; only these change anything.
  isWrite: (request) => /^\/dns\/(edit|create|delete)/.test(request.path),
  failure: {
    arrange: (fake) => fake.fault({ status: 400, message: "Domain is locked for maintenance." }),
    words: /^Porkbun: Domain is locked for maintenance\./,
  },
  // Porkbun's "slow down" is a 503 HTML page, not a 429 (docs/services/README.md).
  throttle: {
    arrange: (fake) => fake.fault("throttled"),
    words: /^Porkbun: 503 Service Temporarily Unavailable \(rate limited, HTTP 503\); pausing 60 s$/,
    pauseSeconds: 60,
  },
  verifyRefusal: /^Porkbun: Invalid API key/,
});
