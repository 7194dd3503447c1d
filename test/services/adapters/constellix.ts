import {
  CONSTELLIX_FAKE_API_KEY,
  CONSTELLIX_FAKE_SECRET,
  type ConstellixFake,
  startConstellixFake,
} from "../../fakes/constellix";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const constellixZone: ZoneAccess<ConstellixFake> = {
  addZone(fake, zone) {
    if (!fake.domainNamed(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { type, name: relative(hostname, zone, ""), values: [ip], ttl }),
  read(fake, zone, hostname, type) {
    const records = fake.records(zone, relative(hostname, zone, ""), type);
    return records.length === 1 && records[0]!.roundRobin.length === 1
      ? { ip: records[0]!.roundRobin[0]!.value, ttl: records[0]!.ttl }
      : undefined;
  },
  ttl: 600,
  goneZoneId: "999",
};

export const adapter = define<ConstellixFake>({
  type: "constellix",
  start: () => startConstellixFake(),
  reset: (fake) => fake.reset(),
  env: apiUrl("constellix"),
  options: noOptions,
  credentials: { api_key: CONSTELLIX_FAKE_API_KEY, secret_key: CONSTELLIX_FAKE_SECRET },
  badCredentials: { api_key: CONSTELLIX_FAKE_API_KEY, secret_key: "0a0b0c0d-0000-4000-8000-wrongsecret0" },
  badCredentialsWords: /^Constellix: Unable to authenticate token \(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(constellixZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 500, errors: ["Internal server error"] }),
    words: /^Constellix: Internal server error \(HTTP 500\)/,
  },
  // Constellix names no wait: the first pause is the updater's minute.
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, errors: ["Too many requests"] }),
    words: /^Constellix: Too many requests \(HTTP 429\); pausing 60 s$/,
    pauseSeconds: 60,
  },
  verifyRefusal: /^Constellix: Unable to authenticate token \(HTTP 401\)/,
});
