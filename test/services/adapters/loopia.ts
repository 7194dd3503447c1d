import {
  LOOPIA_CHANGES,
  LOOPIA_FAKE_PASSWORD,
  LOOPIA_FAKE_USER,
  type LoopiaFake,
  loopiaMethod,
  startLoopiaFake,
} from "../../fakes/loopia";
import { apiUrl, define, inZone, noOptions, relative, type ZoneAccess } from "../adapter";

const loopiaZone: ZoneAccess<LoopiaFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, relative(hostname, zone, "@"), { type, rdata: ip, ttl }),
  read(fake, zone, hostname, type) {
    const records = fake.records(zone, relative(hostname, zone, "@"), type);
    return records.length === 1 ? { ip: records[0]!.rdata, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 3600,
  goneZoneId: null,
};

export const adapter = define<LoopiaFake>({
  type: "loopia",
  start: startLoopiaFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("loopia"),
  options: noOptions,
  credentials: { username: LOOPIA_FAKE_USER, password: LOOPIA_FAKE_PASSWORD },
  badCredentials: { username: LOOPIA_FAKE_USER, password: "loopiaWrongApiPassword0123456789" },
  badCredentialsWords: /^Loopia: \w+: AUTH_ERROR/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(loopiaZone),
  // Every Loopia call is a POST to one address; only these methods change anything.
  isWrite: (request) => LOOPIA_CHANGES.has(loopiaMethod(request)),
  failure: {
    arrange: (fake) =>
      fake.fault({ status: "UNKNOWN_ERROR" }, undefined, (r) => loopiaMethod(r) === "updateZoneRecord"),
    words: /^Loopia: updateZoneRecord: UNKNOWN_ERROR/,
  },
  // Loopia names no wait: the default first pause.
  throttle: {
    arrange: (fake) => fake.fault({ status: "RATE_LIMITED" }),
    words: /^Loopia: \w+: RATE_LIMITED .*; pausing 60 s$/,
    pauseSeconds: 60,
  },
  verifyRefusal: /^Loopia: getDomains: AUTH_ERROR/,
});
