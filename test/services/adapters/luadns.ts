import { LUADNS_FAKE_EMAIL, LUADNS_FAKE_KEY, type LuadnsFake, startLuadnsFake } from "../../fakes/luadns";
import { apiUrl, define, inZone, noOptions, writeMethod, type ZoneAccess } from "../adapter";

const luadnsZone: ZoneAccess<LuadnsFake> = {
  addZone(fake, zone) {
    if (!fake.zoneNamed(zone)) fake.addZone(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) => void fake.addRecord(zone, { hostname, type, content: ip, ttl }),
  readAll: (fake, zone, hostname, type) => fake.recordsOf(zone, hostname, type).map((r) => r.content),
  read(fake, zone, hostname, type) {
    const records = fake.recordsOf(zone, hostname, type);
    return records.length === 1 ? { ip: records[0]!.content, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 600,
  goneZoneId: "999999",
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { hostname: name, type: "TXT", content: value, ttl: 600 }),
    values: (fake, zone, name) => fake.recordsOf(zone, name, "TXT").map((r) => r.content),
  },
};

export const adapter = define<LuadnsFake>({
  type: "luadns",
  start: startLuadnsFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("luadns"),
  options: noOptions,
  credentials: { email: LUADNS_FAKE_EMAIL, api_key: LUADNS_FAKE_KEY },
  badCredentials: { email: LUADNS_FAKE_EMAIL, api_key: "luadns-wrong-api-key-0000000000000" },
  badCredentialsWords: /^LuaDNS: Invalid API Key \(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(luadnsZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 500, message: "Internal Server Error" }),
    words: /^LuaDNS: Internal Server Error \(HTTP 500\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 300 }),
    words: /^LuaDNS: Too Many Requests \(HTTP 429\); pausing 300 s$/,
    pauseSeconds: 300,
  },
  verifyRefusal: /^LuaDNS: Invalid API Key \(HTTP 401\)/,
});
