import { apiUrlSetting } from "../../../src/dns/registry";
import {
  AZURE_FAKE_CLIENT_ID,
  AZURE_FAKE_CLIENT_SECRET,
  AZURE_FAKE_SUBSCRIPTION,
  AZURE_FAKE_TENANT,
  type AzureFake,
  startAzureFake,
} from "../../fakes/azure";
import { define, inZone, relative, writeMethod, type ZoneAccess } from "../adapter";

const azureZone: ZoneAccess<AzureFake> = {
  addZone(fake, zone) {
    if (!fake.zones.has(zone)) fake.addZone(zone);
  },
  addRecord: (fake, zone, hostname, type, ip, ttl) =>
    void fake.addRecordSet(zone, { name: relative(hostname, zone, "@"), type, addresses: [ip], ttl }),
  addSet: (fake, zone, hostname, type, ips, ttl) =>
    void fake.addRecordSet(zone, { name: relative(hostname, zone, "@"), type, addresses: [...ips], ttl }),
  readAll: (fake, zone, hostname, type) => [
    ...(fake.recordSet(zone, relative(hostname, zone, "@"), type)?.addresses ?? []),
  ],
  read(fake, zone, hostname, type) {
    const set = fake.recordSet(zone, relative(hostname, zone, "@"), type);
    return set && set.addresses.length === 1 ? { ip: set.addresses[0]!, ttl: set.ttl } : undefined;
  },
  ttl: 300,
  goneZoneId: "old-rg/example.com",
  txt: {
    add(fake, zone, name, value) {
      const set = fake.recordSet(zone, relative(name, zone, "@"), "TXT");
      if (set) set.addresses.push(value);
      else fake.addRecordSet(zone, { name: relative(name, zone, "@"), type: "TXT", addresses: [value], ttl: 300 });
    },
    values: (fake, zone, name) => [...(fake.recordSet(zone, relative(name, zone, "@"), "TXT")?.addresses ?? [])],
  },
};

export const adapter = define<AzureFake>({
  type: "azure",
  start: startAzureFake,
  reset: (fake) => fake.reset(),
  env: (fake) => ({ [apiUrlSetting("azure")]: fake.armUrl }),
  options: (fake) => ({ login_url: fake.loginUrl }),
  credentials: {
    tenant_id: AZURE_FAKE_TENANT,
    client_id: AZURE_FAKE_CLIENT_ID,
    client_secret: AZURE_FAKE_CLIENT_SECRET,
    subscription_id: AZURE_FAKE_SUBSCRIPTION,
  },
  badCredentials: {
    tenant_id: AZURE_FAKE_TENANT,
    client_id: AZURE_FAKE_CLIENT_ID,
    client_secret: "azureWrongClientSecret~0123456789abcd",
    subscription_id: AZURE_FAKE_SUBSCRIPTION,
  },
  badCredentialsWords: /^Azure DNS: AADSTS7000215: Invalid client secret provided\./,
  stopsOnBadCredentials: true,
  recordTypes: ["A", "AAAA"],
  hostname: "home.example.com",
  ...inZone(azureZone),
  // The token request is a POST that changes nothing.
  isWrite: (request) => writeMethod(request) && request.path.startsWith("/arm"),
  failure: {
    arrange: (fake) =>
      fake.fault(
        { status: 409, code: "Conflict", message: "The zone is locked." },
        undefined,
        (r) => r.path.startsWith("/arm") && r.method !== "GET",
      ),
    words: /^Azure DNS: The zone is locked\. \(Conflict, HTTP 409\)/,
  },
  throttle: {
    arrange: (fake) => fake.fault({ status: 429, retryAfter: 85 }, undefined, (r) => r.path.startsWith("/arm")),
    words: /^Azure DNS: The request is being throttled\. \(TooManyRequests, HTTP 429\); pausing 85 s$/,
    pauseSeconds: 85,
  },
  verifyRefusal: /^Azure DNS: AADSTS7000215/,
});
