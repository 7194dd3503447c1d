// A one-shot service (one request to an update URL; its client writes blind) never creates a
// record, so the domain form never offers to; every zone service does. The client and the form each
// take this from the one-shot policy, and this checks the two agree for every registered service.

import { describe, expect, test } from "bun:test";
import { SERVICES } from "../../../src/dns/registry";
import { optionsWithDefaults } from "../../../src/dns/rules";
import type { OptionField, ServiceDescription } from "../../../src/dns/service";
import { NO_ERRORS } from "../../../views/components";
import { ProviderOptions } from "../../../views/fragments/provider-options";

const CREATE_OFFER = "Create the record if it doesn't exist";

/** A value of the option's kind: the client is only built, never called. */
function sample(field: OptionField): unknown {
  if (field.kind === "choice") return field.choices?.[0];
  if (field.kind === "headers") return {};
  if (field.kind === "url") return "http://127.0.0.1:9/update?hostname={hostname}&ip={ip}";
  if (field.kind === "host") return "127.0.0.1";
  return field.default ?? "example";
}

/** The client a provider row of this service gets (built, never called). */
function clientOf(service: ServiceDescription) {
  const credentials = Object.fromEntries(service.credentials.map((field) => [field.key, "c2VjcmV0"]));
  const options = optionsWithDefaults(
    service,
    Object.fromEntries(service.options.filter((field) => field.required).map((field) => [field.key, sample(field)])),
  );
  const context = { baseUrl: "http://127.0.0.1:9", fetch, timeoutMs: 1000, userAgent: "ddnsd-test" };
  return service.createClient(credentials, options, context);
}

/** Whether the service's client writes blind: the one-shot policy's mark on every client it makes. */
function writesBlind(service: ServiceDescription): boolean {
  return clientOf(service).writesBlind === true;
}

function domainForm(service: ServiceDescription): string {
  return String(
    ProviderOptions({ service, values: { ttl: "", proxied: "", create_if_missing: true }, errors: NO_ERRORS }),
  );
}

describe("one-shot services and creating a missing record", () => {
  test("a one-shot service never offers to create the record; every zone service does", () => {
    const oneShot: string[] = SERVICES.filter(writesBlind).map((service) => service.type);
    // The nine services that send one request to an update URL (dyndns2's presets are its options).
    expect(oneShot.sort()).toEqual(
      ["custom", "dd24", "dondominio", "duckdns", "dyndns2", "goip", "myaddr", "namecheap", "ydns"].sort(),
    );
    const offering = SERVICES.filter((service) => domainForm(service).includes(CREATE_OFFER)).map((s) => s.type);
    expect(offering.length).toBeGreaterThan(0);
    expect(offering.filter((type) => oneShot.includes(type))).toEqual([]);
    expect(SERVICES.length - offering.length).toBe(oneShot.length);
  });
});

describe("keep-alive (config.refresh_every)", () => {
  test("offered by exactly the one-shot services; zone services keep their records and have none", () => {
    const keepsAlive = SERVICES.filter((service) => service.keepAlive !== undefined).map((service) => service.type);
    expect(keepsAlive.sort()).toEqual(
      SERVICES.filter(writesBlind)
        .map((service) => service.type)
        .sort(),
    );
  });

  test("a default only for Dyn, whose documentation lets a host be touched every 28 days to keep it: 25 days", () => {
    const dyndns2 = SERVICES.find((service) => service.type === "dyndns2")!;
    const byDefault = (server: string) => dyndns2.keepAlive!.byDefault(optionsWithDefaults(dyndns2, { server }));
    expect(byDefault("https://members.dyndns.org")).toBe(25 * 86400);
    expect(byDefault("https://members.dyndns.org/nic/update")).toBe(25 * 86400);
    // No-IP keeps a free host by the account holder's confirmation, which no update gives.
    expect(byDefault("https://dynupdate.no-ip.com")).toBeNull();
    expect(byDefault("https://updates.example.net")).toBeNull();
    const others = SERVICES.filter((service) => service.keepAlive !== undefined && service.type !== "dyndns2");
    for (const service of others) expect(service.keepAlive!.byDefault({})).toBeNull();
  });
});

describe("services that hold several addresses for one name", () => {
  test("the description says so exactly where the client writes address sets; never a one-shot service", () => {
    for (const service of SERVICES) {
      expect({ type: service.type, sets: clientOf(service).writesAddressSets === true }).toEqual({
        type: service.type,
        sets: service.holdsAddressSets === true,
      });
      if (writesBlind(service)) expect(service.holdsAddressSets).toBeUndefined();
    }
  });
});
