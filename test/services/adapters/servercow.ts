import {
  SERVERCOW_FAKE_PASSWORD,
  SERVERCOW_FAKE_USERNAME,
  type ServercowFake,
  startServercowFake,
} from "../../fakes/servercow";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const servercowZone: ZoneAccess<ServercowFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { name: relative(hostname, zone, ""), type, content: ip, ttl }),
  read(fake, zone, hostname, type) {
    const records = fake.records(zone, relative(hostname, zone, ""), type);
    const content = records[0]?.content;
    return records.length === 1 && typeof content === "string" ? { ip: content, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 600,
  txt: {
    add(fake, zone, name, value) {
      const [held] = fake.records(zone, relative(name, zone, ""), "TXT");
      if (held) held.content = [...(Array.isArray(held.content) ? held.content : [held.content]), value];
      else fake.addRecord(zone, { name: relative(name, zone, ""), type: "TXT", content: [value], ttl: 600 });
    },
    values: (fake, zone, name) =>
      fake
        .records(zone, relative(name, zone, ""), "TXT")
        .flatMap((r) => (Array.isArray(r.content) ? r.content : [r.content])),
  },
};

export const adapter = define<ServercowFake>({
  type: "servercow",
  start: () => startServercowFake(),
  reset: (fake) => fake.reset(),
  env: apiUrl("servercow"),
  options: noOptions,
  credentials: { username: SERVERCOW_FAKE_USERNAME, password: SERVERCOW_FAKE_PASSWORD },
  badCredentials: { username: SERVERCOW_FAKE_USERNAME, password: "servercow-wrong-password-0123456789" },
  badCredentialsWords: /^Servercow: authentication failed/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(servercowZone),
  isWrite: writeMethod,
  failure: {
    arrange: (fake) => fake.fault({ error: "DNS cluster not reachable" }),
    words: /^Servercow: DNS cluster not reachable/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 85 }),
    words: /^Servercow: unreadable answer \(HTTP 429\).*; pausing 85 s$/,
    pauseSeconds: 85,
  },
  verifyRefusal: null,
});
