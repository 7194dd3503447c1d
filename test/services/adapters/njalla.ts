import { njallaTtl } from "../../../src/dns/services/njalla";
import { NJALLA_FAKE_TOKEN, type NjallaFake, startNjallaFake } from "../../fakes/njalla";
import { apiUrl, define, inZone, noOptions, relative, type ZoneAccess } from "../adapter";

const njallaZone: ZoneAccess<NjallaFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { name: relative(hostname, zone, "@"), type, content: ip, ttl }),
  readAll: (fake, zone, hostname, type) =>
    fake.records(zone, relative(hostname, zone, "@"), type).map((r) => r.content),
  read(fake, zone, hostname, type) {
    const records = fake.records(zone, relative(hostname, zone, "@"), type);
    return records.length === 1 ? { ip: records[0]!.content, ttl: records[0]!.ttl } : undefined;
  },
  // One of the TTLs Njalla offers.
  ttl: 900,
  storedTtl: njallaTtl,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { name: relative(name, zone, "@"), type: "TXT", content: value, ttl: 900 }),
    values: (fake, zone, name) => fake.records(zone, relative(name, zone, "@"), "TXT").map((r) => r.content),
  },
};

export const adapter = define<NjallaFake>({
  type: "njalla",
  start: () => startNjallaFake(),
  reset: (fake) => fake.reset(),
  env: apiUrl("njalla"),
  options: noOptions,
  credentials: { token: NJALLA_FAKE_TOKEN },
  badCredentials: { token: "fedcba9876543210fedcba9876543210fedcba98" },
  badCredentialsWords: /^Njalla: Invalid token\. \(code 403\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(njallaZone),
  // Every call is a POST: only the methods that change a record write.
  isWrite: (request) => {
    const method = (request.body as { method?: unknown } | undefined)?.method;
    return method === "add-record" || method === "edit-record" || method === "remove-record";
  },
  failure: {
    arrange: (fake) => fake.fault({ code: 500, message: "Backend unavailable, try again later." }),
    words: /^Njalla: Backend unavailable, try again later\. \(code 500\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 65 }),
    words: /^Njalla: unreadable answer \(HTTP 429\).*; pausing 65 s$/,
    pauseSeconds: 65,
  },
  verifyRefusal: /^Njalla: Invalid token\./,
});
