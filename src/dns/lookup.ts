// Plain (unsigned) DNS queries, for asking a zone's name servers whether they serve a record
// (updater/propagation.ts) and resolvers what address they see us from (ip/dns.ts): one question
// over UDP, again over TCP when the answer comes back truncated (RFC 1035 §4.2.1, RFC 7766), with
// the wire format of wire.ts and the TCP exchange of signed-dns.ts. A server named by a host name
// is looked up for the address family asked for, so the question leaves over that family. Also
// finding a zone's name servers through recursive resolvers (an NS query, the name servers'
// addresses), and the system's resolvers from /etc/resolv.conf.

import { createSocket } from "node:dgram";
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { connectionProblem } from "../util/connection-problem";
import type { Slots } from "../util/slots";
import { exchangeTcp, newId, parseServer, type ServerAddress } from "./protocols/signed-dns";
import {
  addressText,
  CLASS,
  decodeMessage,
  encodeMessage,
  ForeignAnswer,
  type Message,
  message,
  OPCODE,
  RCODE,
  Reader,
  rcodeName,
  TYPE,
  WireError,
} from "./protocols/wire";
import type { ZoneCache } from "./zone-cache";

/** How long one question waits for its answer, per server. */
export const QUERY_TIMEOUT_MS = 3_000;

/** The answer, with its bytes (names inside records may point into them). */
export type QueryAnswer = { ok: true; message: Message; bytes: Uint8Array } | { ok: false; reason: string };

export interface QueryOptions {
  /** The recursion-desired bit: set for a resolver, clear for an authoritative server. */
  recursion: boolean;
  timeoutMs?: number;
  /** The question's class (IN unless told: Cloudflare's whoami is asked in CH). */
  qclass?: number;
  /** The address family a server named by a host name is looked up for (4 unless told). */
  family?: 4 | 6;
  /** Shared by the questions of one kind (the live checks'): each holds one while its socket is open. */
  sockets?: Slots;
}

/** The server's address of `family`: itself when it is an address, else its name looked up. */
async function serverAddress(
  server: ServerAddress,
  family: 4 | 6,
): Promise<{ ok: true; server: ServerAddress } | { ok: false; reason: string }> {
  if (isIP(server.host) !== 0) return { ok: true, server };
  try {
    const found = await lookup(server.host, { family });
    return { ok: true, server: { host: found.address, port: server.port } };
  } catch (error) {
    return {
      ok: false,
      reason: `cannot look up ${server.host} over IPv${family} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    };
  }
}

type Received = { ok: true; bytes: Uint8Array } | { ok: false; reason: string };

/** One datagram to `server` and the first datagram back; a closed port is told apart from silence. */
function exchangeUdp(server: ServerAddress, request: Uint8Array, timeoutMs: number): Promise<Received> {
  return new Promise((resolve) => {
    const socket = createSocket(isIP(server.host) === 6 ? "udp6" : "udp4");
    let settled = false;
    const finish = (result: Received) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.close();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ ok: false, reason: `no answer within ${timeoutMs / 1000} s` }), timeoutMs);
    socket.unref();
    socket.on("message", (bytes: Buffer) => finish({ ok: true, bytes: new Uint8Array(bytes) }));
    socket.on("error", (error: Error & { code?: string }) =>
      finish({
        ok: false,
        // Any other failure in the words every connection failure gets, never the runtime's own text.
        reason:
          error.code === "ECONNREFUSED"
            ? "connection refused (no name server on this address)"
            : connectionProblem(error),
      }),
    );
    // Connected, so that an ICMP "port unreachable" comes back as ECONNREFUSED instead of a timeout.
    socket.connect(server.port, server.host, () => socket.send(request));
  });
}

/** Asks `server` one question; the answer as it came (any rcode), or why there is none. */
export async function query(
  named: ServerAddress,
  name: string,
  type: number,
  options: QueryOptions,
): Promise<QueryAnswer> {
  const resolved = await serverAddress(named, options.family ?? 4);
  if (!resolved.ok) return resolved;
  const server = resolved.server;
  const timeoutMs = options.timeoutMs ?? QUERY_TIMEOUT_MS;
  const request = message({
    id: newId(),
    opcode: OPCODE.QUERY,
    rd: options.recursion,
    questions: [{ name, type, class: options.qclass ?? CLASS.IN }],
  });
  const bytes = encodeMessage(request);
  const read = (received: Received): QueryAnswer => {
    if (!received.ok) return received;
    try {
      return { ok: true, message: decodeMessage(received.bytes, request), bytes: received.bytes };
    } catch (error) {
      if (error instanceof ForeignAnswer) return { ok: false, reason: error.message };
      // A truncated UDP answer (to this question: checked first) may end mid-record; its header
      // alone says to ask again over TCP.
      if (error instanceof WireError && received.bytes.length >= 4 && (received.bytes[2]! & 0x02) !== 0)
        return { ok: true, message: { ...request, tc: true, qr: true }, bytes: received.bytes };
      return { ok: false, reason: `unreadable answer (${error instanceof Error ? error.message : String(error)})` };
    }
  };
  const exchange = async () => {
    const overUdp = read(await exchangeUdp(server, bytes, timeoutMs));
    if (!overUdp.ok || !overUdp.message.tc) return overUdp;
    return read(await exchangeTcp(server, bytes, timeoutMs));
  };
  // One socket at a time: the UDP one is closed before the TCP one opens.
  return options.sockets === undefined ? exchange() : options.sockets.run(exchange);
}

/** The addresses of `type` that `answer` holds for `name`, in their canonical text form. */
export function addressesIn(answer: Message, name: string, type: number): string[] {
  const owner = name.toLowerCase().replace(/\.$/, "");
  return answer.answers
    .filter(
      (record) =>
        record.type === type && record.name === owner && (record.data.length === 4 || record.data.length === 16),
    )
    .map((record) => addressText(record.data));
}

/** The `nameserver` lines of a resolv.conf, as servers on port 53 (a scoped IPv6 address keeps its scope). */
export function resolvConfServers(text: string): ServerAddress[] {
  const servers: ServerAddress[] = [];
  for (const line of text.split("\n")) {
    const [keyword, address] = line.trim().split(/\s+/);
    if (keyword !== "nameserver" || address === undefined || isIP(address.split("%")[0] ?? "") === 0) continue;
    servers.push({ host: address, port: 53 });
  }
  return servers;
}

/** A comma list of resolvers (`host`, `host:port`, `[v6]:port`); the first entry that is not one, as a string. */
export function parseResolvers(text: string): ServerAddress[] | string {
  const servers: ServerAddress[] = [];
  for (const item of text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)) {
    const server = parseServer(item);
    if (typeof server === "string" || isIP(server.host) === 0) return item;
    servers.push(server);
  }
  return servers;
}

/**
 * The first resolver's answer to a recursive question (NOERROR or NXDOMAIN), trying each in turn.
 * Where none answered at all, the searches sharing `search.shared` do not ask them again for its hold.
 */
async function resolve(
  resolvers: readonly ServerAddress[],
  name: string,
  type: number,
  search: ZoneSearch,
): Promise<QueryAnswer> {
  const down = search.shared?.cache.resolversDown();
  if (down != null) return { ok: false, reason: down };
  let last: QueryAnswer = { ok: false, reason: "no resolver is configured (DDNS_RESOLVERS, /etc/resolv.conf)" };
  let answered = false;
  for (const resolver of resolvers) {
    const answer = await query(resolver, name, type, { recursion: true, sockets: search.sockets });
    answered ||= answer.ok;
    if (answer.ok && (answer.message.rcode === RCODE.NOERROR || answer.message.rcode === RCODE.NXDOMAIN)) {
      search.shared?.cache.resolversUp();
      return answer;
    }
    const where = `${resolver.host}${resolver.port === 53 ? "" : `:${resolver.port}`}`;
    last = answer.ok
      ? { ok: false, reason: `resolver ${where} answered ${rcodeName(answer.message.rcode)}` }
      : { ok: false, reason: `resolver ${where}: ${answer.reason}` };
  }
  if (!answered && resolvers.length > 0 && !last.ok)
    search.shared?.cache.keepResolversDown(last.reason, search.shared.holdMs);
  return last;
}

/** A name server of a zone: its name and the address it is asked at. */
export interface NameServerTarget {
  name: string;
  /** Null when the resolvers know no address for the name. */
  server: ServerAddress | null;
}

export type ZoneServers =
  | {
      ok: true;
      zone: string;
      servers: NameServerTarget[];
      /** How many names the NS set holds, when more than `servers` (at an address already listed, or past the most). */
      named?: number;
    }
  | { ok: false; reason: string };

/** A zone search that found the zone. */
export type ZoneFound = Extract<ZoneServers, { ok: true }>;

/** How far the search goes: at most `most` name servers, one per address, and the sockets it may use. */
export interface ZoneSearch {
  most: number;
  sockets?: Slots;
  /** What the searches of one kind share (zone-cache.ts): what they found, held at most `holdMs`. */
  shared?: { cache: ZoneCache<ZoneFound>; holdMs: number };
}

/**
 * The zone that holds `hostname` and its name servers, through the resolvers: the NS set of the
 * name itself or, where it has none, of the zone its negative answer's SOA names (else the next name
 * up). Each name server is asked at its IPv4 address (its IPv6 one when it has no IPv4), on port 53:
 * NS records carry no port. At most `search.most` of them, one per address, whatever the NS set holds.
 */
export async function findZoneServers(
  resolvers: readonly ServerAddress[],
  hostname: string,
  search: ZoneSearch,
): Promise<ZoneServers> {
  let name = hostname.toLowerCase().replace(/\.$/, "");
  // The hostname's own NS question is always asked (it may be a zone of its own); a zone above it
  // found moments ago by another search is taken as found.
  let own = true;
  for (;;) {
    const held = own ? undefined : search.shared?.cache.zone(name);
    if (held !== undefined) return held;
    own = false;
    const answer = await resolve(resolvers, name, TYPE.NS, search);
    if (!answer.ok) return { ok: false, reason: `the NS query for ${name} failed: ${answer.reason}` };
    const nsRecords = answer.message.answers.filter((record) => record.type === TYPE.NS && record.name === name);
    if (nsRecords.length > 0) {
      const names = [
        ...new Set(nsRecords.map((record) => new Reader(answer.bytes, record.dataOffset ?? 0).name()).filter(Boolean)),
      ].sort();
      const servers = await serverAddresses(resolvers, answer.message, names, search);
      const found = {
        ok: true as const,
        zone: name,
        servers,
        ...(names.length > servers.length ? { named: names.length } : {}),
      };
      if (search.shared !== undefined)
        search.shared.cache.keepZone(found, Math.min(...nsRecords.map((record) => record.ttl)), search.shared.holdMs);
      return found;
    }
    const soa = answer.message.authorities.find((record) => record.type === TYPE.SOA);
    if (soa !== undefined && soa.name !== name && name.endsWith(`.${soa.name}`)) {
      name = soa.name;
      continue;
    }
    const dot = name.indexOf(".");
    if (dot < 0) return { ok: false, reason: `no zone holding ${hostname} was found (no NS records up to ${name})` };
    name = name.slice(dot + 1);
  }
}

/**
 * Name servers with one address each, in the order of their names: from the answer's additional
 * section (glue), else asked for (of the first `most` names without glue only); a name at an address
 * already listed is left out, and the list ends at `most`.
 */
async function serverAddresses(
  resolvers: readonly ServerAddress[],
  answer: Message,
  names: readonly string[],
  search: ZoneSearch,
): Promise<NameServerTarget[]> {
  const glueOf = (name: string): string | undefined => {
    for (const type of [TYPE.A, TYPE.AAAA]) {
      const glue = answer.additionals.find(
        (record) => record.type === type && record.name === name && record.data.length === (type === TYPE.A ? 4 : 16),
      );
      if (glue !== undefined) return addressText(glue.data);
    }
    return undefined;
  };
  const lookedUp = async (name: string): Promise<string | undefined> => {
    for (const type of [TYPE.A, TYPE.AAAA]) {
      const found = await resolve(resolvers, name, type, search);
      const address = found.ok ? addressesIn(found.message, name, type)[0] : undefined;
      if (address !== undefined) return address;
    }
    return undefined;
  };
  const glued = names.map((name) => ({ name, address: glueOf(name) }));
  const toLookUp = glued.filter((entry) => entry.address === undefined).slice(0, search.most);
  const found = new Map(await Promise.all(toLookUp.map(async ({ name }) => [name, await lookedUp(name)] as const)));
  const servers: NameServerTarget[] = [];
  const seen = new Set<string>();
  for (const { name, address: glue } of glued) {
    if (servers.length >= search.most) break;
    if (glue === undefined && !found.has(name)) continue;
    const address = glue ?? found.get(name);
    if (address !== undefined && seen.has(address)) continue;
    if (address !== undefined) seen.add(address);
    servers.push({ name, server: address === undefined ? null : { host: address, port: 53 } });
  }
  return servers;
}
