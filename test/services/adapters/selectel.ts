import { apiUrlSetting } from "../../../src/dns/registry";
import {
  SELECTEL_FAKE_ACCOUNT,
  SELECTEL_FAKE_PASSWORD,
  SELECTEL_FAKE_PROJECT,
  SELECTEL_FAKE_USER,
  type SelectelFake,
  startSelectelFake,
} from "../../fakes/selectel";
import { define, inZone, writeMethod, type ZoneAccess } from "../adapter";

const selectelZone: ZoneAccess<SelectelFake> = {
  addZone(fake, zone) {
    if (!fake.zoneNamed(zone)) fake.addZone(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRrset(zone, { name: hostname, type, contents: [ip], ttl }),
  addSet: (fake, zone, hostname, type, ips, ttl) =>
    void fake.addRrset(zone, { name: hostname, type, contents: [...ips], ttl }),
  readAll: (fake, zone, hostname, type) =>
    fake.rrsets(zone, hostname, type).flatMap((set) => set.records.map((record) => record.content)),
  read(fake, zone, hostname, type) {
    const sets = fake.rrsets(zone, hostname, type);
    return sets.length === 1 && sets[0]!.records.length === 1
      ? { ip: sets[0]!.records[0]!.content, ttl: sets[0]!.ttl }
      : undefined;
  },
  ttl: 600,
  txt: {
    add(fake, zone, name, value) {
      const [held] = fake.rrsets(zone, name, "TXT");
      if (held) held.records.push({ content: `"${value}"`, disabled: false });
      else fake.addRrset(zone, { name, type: "TXT", contents: [`"${value}"`], ttl: 3600 });
    },
    values: (fake, zone, name) =>
      fake.rrsets(zone, name, "TXT").flatMap((set) => set.records.map((r) => r.content.replace(/^"(.*)"$/, "$1"))),
  },
};

const dnsRequest = (request: { path: string }) => request.path.startsWith("/dns");

export const adapter = define<SelectelFake>({
  type: "selectel",
  start: () => startSelectelFake(),
  reset: (fake) => fake.reset(),
  env: (fake) => ({ [apiUrlSetting("selectel")]: fake.apiUrl }),
  options: (fake) => ({ identity_url: fake.identityUrl }),
  credentials: {
    account_id: SELECTEL_FAKE_ACCOUNT,
    username: SELECTEL_FAKE_USER,
    password: SELECTEL_FAKE_PASSWORD,
    project_id: SELECTEL_FAKE_PROJECT,
  },
  badCredentials: {
    account_id: SELECTEL_FAKE_ACCOUNT,
    username: SELECTEL_FAKE_USER,
    password: "selectel-wrong-password-9876543210",
    project_id: SELECTEL_FAKE_PROJECT,
  },
  badCredentialsWords: /^Selectel: The request you have made requires authentication\. \(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(selectelZone),
  // The token request is a POST that changes nothing.
  isWrite: (request) => writeMethod(request) && dnsRequest(request),
  failure: {
    arrange: (fake) =>
      fake.fault({ status: 500, error: "internal_error", description: "temporary failure" }, undefined, dnsRequest),
    words: /^Selectel: temporary failure \(internal_error, HTTP 500\)/,
  },
  // Selectel documents no wait for a 429: the first pause is the updater's minute.
  throttle: {
    arrange: (fake) =>
      fake.fault(
        { status: 429, error: "too_many_requests", description: "rate limit exceeded" },
        undefined,
        dnsRequest,
      ),
    words: /^Selectel: rate limit exceeded \(too_many_requests, HTTP 429\); pausing 60 s$/,
    pauseSeconds: 60,
  },
  verifyRefusal: /^Selectel: The request you have made requires authentication\. \(HTTP 401\)/,
});
