import { type CustomFake, startCustomFake } from "../../fakes/custom";
import type { LoggedRequest } from "../../fakes/server";
import { clear, define, everyRequest } from "../adapter";

const CUSTOM_SECRET = "custom-secret-0123456789";
/** The requests a custom endpoint answered with an error: what they said was not taken. */
const refused = new WeakSet<LoggedRequest>();
function refusing(match: (request: LoggedRequest) => boolean): (request: LoggedRequest) => boolean {
  return (request) => {
    if (!match(request)) return false;
    refused.add(request);
    return true;
  };
}

export const adapter = define<CustomFake>({
  type: "custom",
  start: startCustomFake,
  reset(fake) {
    fake.answer = { status: 200, body: "ok" };
    clear(fake);
    // The endpoint checks the key it is given, as a real one would.
    fake.fault(
      { status: 401, body: "wrong key" },
      Infinity,
      refusing((request) => request.query.key !== CUSTOM_SECRET),
    );
  },
  env: () => ({}),
  options: (fake) => ({ url: `${fake.url}/update?host={domain}&type={record_type}&ip={ip}&key={secret}` }),
  credentials: { secret: CUSTOM_SECRET },
  badCredentials: { secret: "wrong-secret" },
  // What the endpoint says is all ddnsd knows: it keeps trying (a custom service's codes mean nothing to it).
  badCredentialsWords: /^Custom URL 127\.0\.0\.1:\d+: HTTP 401 "wrong key"/,
  stopsOnBadCredentials: false,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  // The endpoint holds nothing of its own: what it last took for a name and type is the "record".
  seed() {},
  address(fake, hostname, type) {
    const told = fake.requests.filter((r) => r.query.host === hostname && r.query.type === type && !refused.has(r));
    return told.at(-1)?.query.ip;
  },
  findsZone: false,
  isWrite: everyRequest,
  failure: {
    arrange: (fake) =>
      fake.fault(
        { status: 500, body: "database is locked" },
        Infinity,
        refusing(() => true),
      ),
    words: /^Custom URL 127\.0\.0\.1:\d+: HTTP 500 "database is locked"/,
  },
  throttle: {
    arrange: (fake) =>
      fake.fault(
        { status: 429, retryAfter: 120 },
        Infinity,
        refusing(() => true),
      ),
    words: /^Custom URL 127\.0\.0\.1:\d+: HTTP 429/,
    pauseSeconds: 120,
  },
  verifyRefusal: null,
});
