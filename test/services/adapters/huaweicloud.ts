import { HUAWEI_FAKE_AK, HUAWEI_FAKE_SK, type HuaweiFake, startHuaweiFake } from "../../fakes/huaweicloud";
import { apiUrl, define, inZone, noOptions, writeMethod, type ZoneAccess } from "../adapter";

const huaweiZone: ZoneAccess<HuaweiFake> = {
  addZone(fake, zone) {
    if (!fake.zoneNamed(zone)) fake.addZone(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecordSet(zone, { name: hostname, type, records: [ip], ttl }),
  addSet: (fake, zone, hostname, type, ips, ttl) =>
    void fake.addRecordSet(zone, { name: hostname, type, records: [...ips], ttl }),
  readAll: (fake, zone, hostname, type) => fake.recordSets(zone, hostname, type).flatMap((set) => set.records),
  read(fake, zone, hostname, type) {
    const sets = fake.recordSets(zone, hostname, type);
    return sets.length === 1 && sets[0]!.records.length === 1
      ? { ip: sets[0]!.records[0]!, ttl: sets[0]!.ttl }
      : undefined;
  },
  ttl: 1800,
  txt: {
    add(fake, zone, name, value) {
      const [held] = fake.recordSets(zone, name, "TXT");
      if (held) held.records.push(`"${value}"`);
      else fake.addRecordSet(zone, { name, type: "TXT", records: [`"${value}"`], ttl: 300 });
    },
    values: (fake, zone, name) =>
      fake.recordSets(zone, name, "TXT").flatMap((set) => set.records.map((r) => r.replace(/^"(.*)"$/, "$1"))),
  },
};

export const adapter = define<HuaweiFake>({
  type: "huaweicloud",
  start: () => startHuaweiFake(),
  reset: (fake) => fake.reset(),
  env: apiUrl("huaweicloud"),
  options: noOptions,
  credentials: { access_key_id: HUAWEI_FAKE_AK, secret_access_key: HUAWEI_FAKE_SK },
  badCredentials: { access_key_id: HUAWEI_FAKE_AK, secret_access_key: "wrongSecretKey0123456789abcdefghijklmnop" },
  badCredentialsWords:
    /^Huawei Cloud DNS: Incorrect IAM authentication information: verify aksk signature fail \(APIGW\.0301, HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(huaweiZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 500, code: "DNS.0001", message: "Internal error." }),
    words: /^Huawei Cloud DNS: Internal error\. \(DNS\.0001, HTTP 500\)/,
  },
  // APIGW.0308 names no wait: the first pause is the updater's minute.
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, gateway: "APIGW.0308" }),
    words: /^Huawei Cloud DNS: The throttling threshold has been reached.*\(APIGW\.0308, HTTP 429\); pausing 60 s$/,
    pauseSeconds: 60,
  },
  verifyRefusal: /^Huawei Cloud DNS: .*APIGW\.0301/,
});
