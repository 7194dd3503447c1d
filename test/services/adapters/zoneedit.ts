import { startZoneeditFake, ZONEEDIT_FAKE_TOKEN, ZONEEDIT_FAKE_USER, type ZoneeditFake } from "../../fakes/zoneedit";
import { ZONE, define, apiUrl, noOptions, everyRequest } from "../adapter";

export const adapter = define<ZoneeditFake>({
  type: "zoneedit",
  start: startZoneeditFake,
  reset: (fake) => fake.reset(),
  env: apiUrl("zoneedit"),
  options: noOptions,
  credentials: { username: ZONEEDIT_FAKE_USER, token: ZONEEDIT_FAKE_TOKEN },
  badCredentials: { username: ZONEEDIT_FAKE_USER, token: "ZEwrongtoken0123456789" },
  badCredentialsWords: /^ZoneEdit: Failed Login: .* \(code 708\)/,
  stopsOnBadCredentials: true,
  recordTypes: ["A"],
  hostname: "home.example.com",
  seed(fake, hostname, _type, ip) {
    if (!fake.zones.has(ZONE)) fake.addZone(ZONE);
    fake.addHost(hostname, ip);
  },
  address: (fake, hostname) => fake.hosts.get(hostname)?.ip,
  findsZone: false,
  isWrite: everyRequest,
  failure: { arrange: (fake) => fake.fault({ code: "799", text: "Temporary failure" }), words: /^ZoneEdit: Temporary failure \(code 799\)/ },
  // "Too soon": ZoneEdit wants ten minutes between updates of a host.
  throttle: {
    arrange: (fake) => fake.fault({ code: "707", text: "Duplicate updates for the same host/ip, adjust client settings" }),
    words: /^ZoneEdit: Duplicate updates .*\(code 707; .*\); pausing 600 s$/,
    pauseSeconds: 600,
  },
  verifyRefusal: null,
});
