import { BAIDU_FAKE_AK, BAIDU_FAKE_SK, type BaiduFake, startBaiduFake } from "../../fakes/baiducloud";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const baiduZone: ZoneAccess<BaiduFake> = {
  addZone: (fake, zone) => fake.addZone(zone),
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { rr: relative(hostname, zone, "@"), type, value: ip, ttl }),
  readAll: (fake, zone, hostname, type) => fake.records(zone, relative(hostname, zone, "@"), type).map((r) => r.value),
  read(fake, zone, hostname, type) {
    const records = fake.records(zone, relative(hostname, zone, "@"), type);
    return records.length === 1 ? { ip: records[0]!.value, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 600,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { rr: relative(name, zone, "@"), type: "TXT", value, ttl: 600 }),
    values: (fake, zone, name) => fake.records(zone, relative(name, zone, "@"), "TXT").map((r) => r.value),
  },
};

export const adapter = define<BaiduFake>({
  type: "baiducloud",
  start: () => startBaiduFake(),
  reset: (fake) => fake.reset(),
  env: apiUrl("baiducloud"),
  options: noOptions,
  credentials: { access_key_id: BAIDU_FAKE_AK, secret_access_key: BAIDU_FAKE_SK },
  badCredentials: { access_key_id: BAIDU_FAKE_AK, secret_access_key: "wrongSecretKey0123456789abcdef012" },
  badCredentialsWords:
    /^Baidu Cloud DNS: The request signature we calculated does not match the signature you provided\. \(SignatureDoesNotMatch, HTTP 400\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(baiduZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ status: 500, code: "InternalError" }),
    words: /^Baidu Cloud DNS: We encountered an internal error\. Please try again\. \(InternalError, HTTP 500\)/,
  },
  // Baidu names no wait: the first pause is the updater's minute.
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, code: "RequestRateLimitExceeded" }),
    words:
      /^Baidu Cloud DNS: Too many requests, please slow down\. \(RequestRateLimitExceeded, HTTP 429\); pausing 60 s$/,
    pauseSeconds: 60,
  },
  verifyRefusal: /^Baidu Cloud DNS: .*SignatureDoesNotMatch/,
});
