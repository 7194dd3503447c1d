// `ddnsd healthcheck`: the container image's HEALTHCHECK, which has no shell or curl to call.
// It asks the running appliance's /healthz on the address and port the same settings name, and
// reports healthy only on a 200; anything else comes back as one line saying why.

import type { Settings } from "./config";

/** Well inside the image's HEALTHCHECK timeout, so a hung server reads as a clear failure. */
const HEALTHCHECK_TIMEOUT_MS = 5_000;

export type HealthOutcome = { healthy: true } | { healthy: false; reason: string };

/**
 * The appliance's own /healthz: a wildcard listen address is asked on its loopback twin, an IPv6
 * literal goes in brackets, a configured certificate means https, and DDNS_BASE_PATH comes first.
 */
export function healthzUrl(
  settings: Pick<Settings, "host" | "port" | "tlsCert"> & Partial<Pick<Settings, "basePath">>,
): URL {
  const host = settings.host.replace(/^\[(.*)\]$/, "$1");
  const target = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  const authority = target.includes(":") ? `[${target}]` : target;
  return new URL(
    `${settings.tlsCert === null ? "http" : "https"}://${authority}:${settings.port}${settings.basePath ?? ""}/healthz`,
  );
}

export async function probeHealth(
  settings: Pick<Settings, "host" | "port" | "tlsCert"> & Partial<Pick<Settings, "basePath">>,
  timeoutMs = HEALTHCHECK_TIMEOUT_MS,
): Promise<HealthOutcome> {
  if (settings.port === 0) {
    return { healthy: false, reason: "DDNS_PORT is 0 (a port chosen at start), so there is no port to ask" };
  }
  const url = healthzUrl(settings);
  let response: Response;
  try {
    response = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "manual",
      // The certificate names the public hostname, not the address asked here; the probe sends
      // nothing secret and trusts only a status code from the address ddnsd itself listens on.
      tls: { rejectUnauthorized: false },
      // ddnsd itself, on this host: never through HTTP(S)_PROXY, which Bun's fetch would otherwise apply.
      proxy: false,
    });
  } catch (error) {
    if ((error as Error).name === "TimeoutError") {
      return { healthy: false, reason: `${url.href} did not answer within ${timeoutMs / 1000} s` };
    }
    return { healthy: false, reason: `cannot reach ${url.href}: ${(error as Error).message}` };
  }
  if (response.status === 200) {
    await response.body?.cancel();
    return { healthy: true };
  }
  const detail = await response
    .json()
    .then((body) => (body as { detail?: unknown }).detail)
    .catch(() => undefined);
  return {
    healthy: false,
    reason: `${url.href} answered ${response.status}${typeof detail === "string" ? `: ${detail}` : ""}`,
  };
}
