// Picks the client for a provider type, so callers hold a `DnsProvider` and never branch on the service.

import { createCloudflareClient } from "./cloudflare";
import { createDynuClient } from "./dynu";
import type { DnsProvider, FetchLike, ProviderType } from "./provider";

export interface ProviderClientFactoryOptions {
  /** Without a trailing slash: the settings loader (config.ts `url()`) guarantees it. */
  cloudflareApiUrl: string;
  /** Without a trailing slash, as `cloudflareApiUrl`. */
  dynuApiUrl: string;
  fetch: FetchLike;
  timeoutMs: number;
}

/**
 * `credentials` arrive normalised (cloudflare `{api_token}`, dynu `{api_key}`); a missing key is sent
 * empty, so the service itself rejects it and the outcome carries its reason.
 */
export function createProviderClient(
  type: ProviderType,
  credentials: Record<string, string>,
  options: ProviderClientFactoryOptions,
): DnsProvider {
  const common = { fetch: options.fetch, timeoutMs: options.timeoutMs };
  switch (type) {
    case "cloudflare":
      return createCloudflareClient(
        { api_token: credentials.api_token ?? "" },
        { ...common, baseUrl: options.cloudflareApiUrl },
      );
    case "dynu":
      return createDynuClient(
        { api_key: credentials.api_key ?? "" },
        { ...common, baseUrl: options.dynuApiUrl },
      );
  }
}
