import { INWX_FAKE_PASSWORD, INWX_FAKE_USER, type InwxFake, inwxMethod, startInwxFake } from "../../fakes/inwx";
import { apiUrl, define, inZone, noOptions, type ZoneAccess } from "../adapter";

const inwxZone: ZoneAccess<InwxFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  // INWX names records by their full host name.
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { name: hostname, type, content: ip, ttl }),
  readAll: (fake, zone, hostname, type) => fake.records(zone, hostname, type).map((r) => r.content),
  read(fake, zone, hostname, type) {
    const records = fake.records(zone, hostname, type);
    return records.length === 1 ? { ip: records[0]!.content, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 3600,
  txt: {
    add: (fake, zone, name, value) => void fake.addRecord(zone, { name, type: "TXT", content: value, ttl: 3600 }),
    values: (fake, zone, name) => fake.records(zone, name, "TXT").map((r) => r.content),
  },
};

const WRITES = new Set(["nameserver.updateRecord", "nameserver.createRecord", "nameserver.deleteRecord"]);

export const adapter = define<InwxFake>({
  type: "inwx",
  start: startInwxFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("inwx"),
  options: noOptions,
  credentials: { username: INWX_FAKE_USER, password: INWX_FAKE_PASSWORD },
  badCredentials: { username: INWX_FAKE_USER, password: "inwxWrongPassword0123456789" },
  badCredentialsWords: /^INWX: account\.login: Authentication error \(code 2200\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(inwxZone),
  // Every INWX call is a POST to one address; only these change anything.
  isWrite: (request) => WRITES.has(inwxMethod(request)),
  failure: {
    arrange: (fake) =>
      fake.fault(
        { code: 2400, msg: "Command failed", reason: "Zone is being transferred" },
        undefined,
        (r) => inwxMethod(r) === "nameserver.updateRecord",
      ),
    words: /^INWX: nameserver\.updateRecord: Command failed: Zone is being transferred \(code 2400\)/,
  },
  // INWX names no wait: the default first pause.
  throttle: {
    arrange: (fake) => fake.fault({ code: 2502, msg: "Session limit exceeded" }),
    words: /^INWX: account\.login: Session limit exceeded \(code 2502\); pausing 60 s$/,
    pauseSeconds: 60,
  },
  verifyRefusal: /^INWX: account\.login: Authentication error \(code 2200\)/,
});
