import {
  startTencentFake,
  TENCENT_FAKE_SECRET_ID,
  TENCENT_FAKE_SECRET_KEY,
  type TencentFake,
} from "../../fakes/tencentcloud";
import { apiUrl, define, inZone, noOptions, relative, type ZoneAccess } from "../adapter";

const tencentZone: ZoneAccess<TencentFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { name: relative(hostname, zone, "@"), type, value: ip, ttl }),
  readAll: (fake, zone, hostname, type) => fake.records(zone, relative(hostname, zone, "@"), type).map((r) => r.Value),
  read(fake, zone, hostname, type) {
    const records = fake.records(zone, relative(hostname, zone, "@"), type);
    return records.length === 1 ? { ip: records[0]!.Value, ttl: records[0]!.TTL } : undefined;
  },
  ttl: 1800,
  txt: {
    add: (fake, zone, name, value) =>
      void fake.addRecord(zone, { name: relative(name, zone, "@"), type: "TXT", value, ttl: 600 }),
    values: (fake, zone, name) => fake.records(zone, relative(name, zone, "@"), "TXT").map((r) => r.Value),
  },
};

const WRITE_ACTIONS = new Set(["ModifyRecord", "CreateRecord", "DeleteRecord"]);

export const adapter = define<TencentFake>({
  type: "tencentcloud",
  start: () => startTencentFake(),
  reset: (fake) => fake.reset(),
  env: apiUrl("tencentcloud"),
  options: noOptions,
  credentials: { secret_id: TENCENT_FAKE_SECRET_ID, secret_key: TENCENT_FAKE_SECRET_KEY },
  badCredentials: { secret_id: TENCENT_FAKE_SECRET_ID, secret_key: "wrongSecretKey0123456789abcdEXAMPLE" },
  badCredentialsWords:
    /^Tencent Cloud DNSPod: The provided credentials could not be validated\..*\(AuthFailure\.SignatureFailure, HTTP 200\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(tencentZone),
  // Every DNSPod call is a POST: the action says whether it changes anything.
  isWrite: (request) => WRITE_ACTIONS.has(request.headers["x-tc-action"] ?? ""),
  failure: {
    arrange: (fake) => fake.fault({ code: "InternalError", message: "DNSPod backend unavailable" }),
    words: /^Tencent Cloud DNSPod: DNSPod backend unavailable \(InternalError, HTTP 200\)/,
  },
  // RequestLimitExceeded names no wait: the first pause is the updater's minute.
  throttle: {
    arrange: (fake) => fake.fault({ code: "RequestLimitExceeded" }),
    words: /^Tencent Cloud DNSPod: Your current request times .*\(RequestLimitExceeded, HTTP 200\); pausing 60 s$/,
    pauseSeconds: 60,
  },
  verifyRefusal: /^Tencent Cloud DNSPod: .*AuthFailure\.SignatureFailure/,
});
