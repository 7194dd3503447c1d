// Waiting until the zone's name servers serve a challenge value (docs/certificates.md): many
// certificate clients ask the CA to validate as soon as the hook returns, without looking at DNS
// themselves, so `present` and `update` answer only once the value is served, or after 60 s.
// The name servers asked are the live check's (updater/propagation.ts): the zone's NS set through
// the resolvers, and the server the provider writes to (RFC 2136's, PowerDNS's).

import { parseServer, type ServerAddress } from "../../dns/protocols/signed-dns";
import { TYPE, txtText } from "../../dns/protocols/wire";
import { type Lookups, MOST_SERVERS, MOST_SOCKETS, mayAskNameServer } from "../../updater/propagation";
import { Slots } from "../../util/slots";

/** The longest a present or update waits for the value to be served. */
export const SERVED_WITHIN_MS = 60_000;
/** Between two rounds of questions. */
const ROUND_MS = 1_000;

/** The waits' sockets, together: bounded as the live check's are, however many clients present at once. */
const SOCKETS = new Slots(MOST_SOCKETS);

export interface ServedParts {
  /** `allowPrivateIps`: name servers at internal addresses are asked although the provider has no server of its own (`mayAskNameServer`). */
  settings: { readonly resolvers: readonly ServerAddress[]; readonly allowPrivateIps: boolean };
  lookups: Lookups;
  /** Monotonic ms. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** How the wait ended, for the log and the history: served, or why the answer did not wait longer. */
export type Served = { served: true; afterMs: number } | { served: false; why: string };

/**
 * Asks every name server of the zone (and `nameServer`, the provider's own) for `name` TXT until each
 * that answers holds `value`, at most `withinMs`. No server to ask (none found, none given): it does not wait.
 */
export async function waitUntilServed(
  parts: ServedParts,
  name: string,
  value: string,
  nameServer: string | null,
  withinMs = SERVED_WITHIN_MS,
): Promise<Served> {
  const now = parts.now ?? (() => performance.now());
  const sleep = parts.sleep ?? ((ms: number) => Bun.sleep(ms));
  const started = now();
  const servers: ServerAddress[] = [];
  const own = nameServer === null ? null : parseServer(nameServer);
  if (own !== null && typeof own !== "string") servers.push(own);
  const zone = await parts.lookups.findZoneServers(parts.settings.resolvers, name, {
    most: MOST_SERVERS,
    sockets: SOCKETS,
  });
  if (zone.ok)
    for (const target of zone.servers)
      if (
        target.server &&
        mayAskNameServer(target.server.host, nameServer, parts.settings.allowPrivateIps) &&
        !servers.some((s) => s.host === target.server?.host && s.port === target.server.port)
      )
        servers.push(target.server);
  if (servers.length === 0)
    return { served: false, why: zone.ok ? "the zone's name servers have no address" : zone.reason };
  for (let round = 0; round < Math.ceil(withinMs / ROUND_MS) + 1; round++) {
    const answers = await Promise.all(
      servers.map((server) => parts.lookups.query(server, name, TYPE.TXT, { recursion: false, sockets: SOCKETS })),
    );
    const reached = answers.filter((answer) => answer.ok);
    const holding = reached.filter((answer) =>
      answer.message.answers.some(
        (record) => record.type === TYPE.TXT && record.name === name && txtText(record.data) === value,
      ),
    );
    if (reached.length > 0 && holding.length === reached.length) return { served: true, afterMs: now() - started };
    if (now() - started + ROUND_MS > withinMs) break;
    await sleep(ROUND_MS);
  }
  return { served: false, why: `not served by every name server within ${Math.round(withinMs / 1000)} s` };
}
