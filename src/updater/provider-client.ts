// The DNS service client of a provider row: its service from the registry, its credentials opened
// for this call only, its options with the service's defaults, and a fetch paced under the
// service's rate limit that sends nothing while the service has the provider paused. The update
// path writes with it; the providers service checks credentials with it.

import type { Pacer } from "../dns/pacing";
import type { DnsProvider, TxtChange } from "../dns/provider";
import type { ServiceRegistry } from "../dns/registry";
import { optionsWithDefaults } from "../dns/rules";
import type { ServiceDescription } from "../dns/service";
import { NotSent, USER_AGENT } from "../net/http";
import { type FetchLike, sentCredentials } from "../net/outbound";
import { scrubber } from "../security/scrub";
import { openCredentials, openSecretOptions } from "../security/secrets";
import type { Store } from "../store";
import type { ProviderRow } from "../store/rows";

/** What making a client takes: the parts of the app's context it reads. */
export interface ClientParts {
  services: ServiceRegistry;
  keys: { encryptionKey: string };
  settings: { apiUrls: Record<string, string>; httpTimeoutMs: number };
  pacer: Pacer;
  fetch: FetchLike;
  store: Store;
}

/** A provider's options as its service reads them: secret ones opened, the service's defaults filled in. */
export function providerOptions(
  parts: Pick<ClientParts, "services" | "keys">,
  row: ProviderRow,
): Record<string, unknown> {
  return optionsWithDefaults(parts.services.get(row.type), openSecretOptions(row.options, parts.keys.encryptionKey));
}

/**
 * The DNS service client for a provider; throws when its credentials do not open or its type is
 * unknown. What it says (a verify's detail, a write's message) has every secret value of the
 * provider scrubbed out, whatever the service answered.
 */
export function providerClient(parts: ClientParts, row: ProviderRow): DnsProvider {
  const service = parts.services.get(row.type);
  const credentials = openCredentials(row.credentials, parts.keys.encryptionKey);
  const options = providerOptions(parts, row);
  const paced = parts.pacer.fetchFor(
    row.id,
    service.rateLimits,
    unlessPaused(parts, row.id),
    parts.settings.httpTimeoutMs,
  );
  // A session token the client derives (an OAuth access token, a login cookie, a session id) is as
  // secret as what it was given, and only the client knows it: what it sends as a credential is
  // scrubbed too.
  const sent = new Set<string>();
  const client = service.createClient(credentials, options, {
    baseUrl: parts.settings.apiUrls[service.type] ?? service.defaultApiUrl ?? "",
    fetch: (input, init) => {
      for (const value of sentCredentials(input, init)) sent.add(value);
      return paced(input, init);
    },
    timeoutMs: parts.settings.httpTimeoutMs,
    userAgent: USER_AGENT,
  });
  const given = secretValues(service, credentials, options);
  const scrub = (text: string) => scrubber([...given, ...sent])(text);
  return {
    async verify() {
      const outcome = await client.verify();
      return { ...outcome, detail: scrub(outcome.detail) };
    },
    async writeRecord(target, ip) {
      const outcome = await client.writeRecord(target, ip);
      return { ...outcome, message: scrub(outcome.message) };
    },
    ...(client.writeTxt
      ? {
          async writeTxt(change: TxtChange) {
            const outcome = await client.writeTxt!(change);
            return { ...outcome, message: scrub(outcome.message) };
          },
        }
      : {}),
    ...(client.listZones
      ? {
          async listZones() {
            const listed = await client.listZones!();
            return listed.ok ? listed : { ...listed, message: scrub(listed.message) };
          },
        }
      : {}),
    ...(client.writesBlind ? { writesBlind: true } : {}),
  };
}

/** A provider's secret values: its secret credentials, and its options of headers (a custom URL's `Authorization`). */
export function secretValues(
  service: ServiceDescription,
  credentials: Record<string, unknown>,
  options: Record<string, unknown>,
): unknown[] {
  return [
    ...service.credentials.filter((field) => field.secret).map((field) => credentials[field.key]),
    ...service.options.filter((option) => option.kind === "headers").map((option) => options[option.key]),
  ];
}

/**
 * The app's fetch for one provider, which sends nothing while the service has the provider paused:
 * a request that waited its turn in the pacer may find that one ahead of it was told "slow down".
 */
function unlessPaused(parts: ClientParts, providerId: number): FetchLike {
  return (input, init) => {
    const until = parts.store.providers.pausedUntil(providerId);
    if (until !== null && until > Date.now()) {
      return Promise.reject(
        new NotSent(`not sent: the provider is paused until ${new Date(until).toISOString()} (rate limited)`),
      );
    }
    return parts.fetch(input, init);
  };
}
