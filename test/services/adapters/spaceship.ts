import {
  completesReplacement,
  SPACESHIP_FAKE_KEY,
  SPACESHIP_FAKE_SECRET,
  type SpaceshipFake,
  startSpaceshipFake,
} from "../../fakes/spaceship";
import { apiUrl, define, inZone, noOptions, relative, writeMethod, type ZoneAccess } from "../adapter";

const spaceshipZone: ZoneAccess<SpaceshipFake> = {
  addZone(fake, zone) {
    if (!fake.domains.has(zone)) fake.addDomain(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecord(zone, { name: relative(hostname, zone, "@"), type, address: ip, ttl }),
  read(fake, zone, hostname, type) {
    const records = fake.records(zone, relative(hostname, zone, "@"), type);
    return records.length === 1 ? { ip: records[0]!.address, ttl: records[0]!.ttl } : undefined;
  },
  ttl: 1800,
};

export const adapter = define<SpaceshipFake>({
  type: "spaceship",
  start: startSpaceshipFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("spaceship"),
  options: noOptions,
  credentials: { api_key: SPACESHIP_FAKE_KEY, api_secret: SPACESHIP_FAKE_SECRET },
  badCredentials: { api_key: SPACESHIP_FAKE_KEY, api_secret: "wrongsecret0123456789" },
  badCredentialsWords: /^Spaceship: Unauthorized \(HTTP 401\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(spaceshipZone),
  // Spaceship changes an address in two requests, the add and then the delete of the old record:
  // together they are one write; any other DELETE counts on its own.
  isWrite: (request) => writeMethod(request) && !completesReplacement(request),
  failure: {
    arrange: (fake) => fake.fault({ status: 422, detail: "The record conflicts with another record of this name." }),
    words: /^Spaceship: The record conflicts with another record of this name\. \(HTTP 422\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 85 }),
    words: /^Spaceship: Too many requests\. \(HTTP 429\); pausing 85 s$/,
    pauseSeconds: 85,
  },
  verifyRefusal: /^Spaceship: Unauthorized/,
});
