// Addresses of one of this host's interfaces (DDNS_IPV4_SOURCE / DDNS_IPV6_SOURCE `interface:<name>`),
// for a host that holds its public address itself (PPPoE on the box, a routed IPv6 prefix).
//
// IPv6 comes from /proc/net/if_inet6, which needs no socket at all (the systemd unit's
// RestrictAddressFamilies= stays as it is) and, unlike getifaddrs, carries each address's flags
// (linux/if_addr.h): IFA_F_TEMPORARY 0x01 (a privacy address that changes every day),
// IFA_F_TENTATIVE 0x40 (duplicate address detection not yet done), IFA_F_DEPRECATED 0x20 and
// IFA_F_DADFAILED 0x08 (not to be used). Its columns: address (32 hex digits), interface index,
// prefix length, scope, flags, name — see proc(5) "/proc/net/if_inet6" and the kernel's
// net/ipv6/addrconf.c if6_seq_show().
// IPv4 comes from os.networkInterfaces() (getifaddrs, through an AF_NETLINK socket; install.sh's
// unit allows AF_NETLINK for that reason).

import { readFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import type { IpFamily } from "../net/address";
import { ipv6Literal, isGlobalAddress } from "../net/address";
import type { Detection } from "./detect";

const IF_INET6_PATH = "/proc/net/if_inet6";

const IFA_F_TEMPORARY = 0x01;
const IFA_F_DADFAILED = 0x08;
const IFA_F_DEPRECATED = 0x20;
const IFA_F_TENTATIVE = 0x40;
const IFA_F_PERMANENT = 0x80;
const UNUSABLE = IFA_F_TEMPORARY | IFA_F_DADFAILED | IFA_F_DEPRECATED | IFA_F_TENTATIVE;

export interface Inet6Entry {
  address: string;
  prefixLength: number;
  scope: number;
  flags: number;
  name: string;
}

/** The lines of /proc/net/if_inet6; lines that do not have its shape are skipped. */
export function parseIfInet6(text: string): Inet6Entry[] {
  const entries: Inet6Entry[] = [];
  for (const line of text.split("\n")) {
    const match = /^([0-9a-f]{32})\s+[0-9a-f]+\s+([0-9a-f]{2})\s+([0-9a-f]{2})\s+([0-9a-f]{2,8})\s+(\S+)\s*$/i.exec(
      line.trim(),
    );
    if (!match) continue;
    entries.push({
      address: ipv6Literal(BigInt(`0x${match[1]}`)),
      prefixLength: parseInt(match[2]!, 16),
      scope: parseInt(match[3]!, 16),
      flags: parseInt(match[4]!, 16),
      name: match[5]!,
    });
  }
  return entries;
}

export interface InterfaceOptions {
  allowPrivate: boolean;
  /** Where to read the IPv6 table; tests hand in a fixture. */
  ifInet6Path?: string;
  /** os.networkInterfaces, or a stand-in in tests. */
  interfaces?: typeof networkInterfaces;
}

/** Not temporary, deprecated, tentative or failed, not link-local, and global unless private ones are allowed. */
function usableIpv6(entry: Inet6Entry, allowPrivate: boolean): boolean {
  return (
    (entry.flags & UNUSABLE) === 0 &&
    !entry.address.startsWith("fe80:") &&
    (allowPrivate || isGlobalAddress(entry.address))
  );
}

/**
 * The stable IPv6 address of `name` worth publishing: not temporary, deprecated, tentative or failed,
 * not link-local, and global unless private addresses are allowed. A permanent (manually set)
 * address wins over one from router advertisements; otherwise the first in the kernel's order.
 */
export function pickIpv6(entries: Inet6Entry[], name: string, allowPrivate: boolean): string | null {
  const usable = entries.filter((entry) => entry.name === name && usableIpv6(entry, allowPrivate));
  return (usable.find((entry) => entry.flags & IFA_F_PERMANENT) ?? usable[0])?.address ?? null;
}

/** The address of `family` on interface `name`, as a detection (a missing interface is a failure that says so). */
export function interfaceAddress(family: IpFamily, name: string, options: InterfaceOptions): Detection {
  const source = `interface:${name}`;
  const fail = (why: string): Detection => ({ ok: false, error: `IPv${family} detection failed: ${source}: ${why}` });
  if (family === 6) {
    let text: string;
    try {
      text = readFileSync(options.ifInet6Path ?? IF_INET6_PATH, "utf8");
    } catch (error) {
      return fail(
        `cannot read ${options.ifInet6Path ?? IF_INET6_PATH} (${(error as NodeJS.ErrnoException).code ?? "error"}); is IPv6 enabled?`,
      );
    }
    const entries = parseIfInet6(text);
    if (!entries.some((entry) => entry.name === name)) return fail("no such interface, or it has no IPv6 address");
    const ip = pickIpv6(entries, name, options.allowPrivate);
    return ip === null
      ? fail("no stable global IPv6 address (temporary, deprecated and link-local ones are not used)")
      : { ok: true, ip, source };
  }
  let table: ReturnType<typeof networkInterfaces>;
  try {
    table = (options.interfaces ?? networkInterfaces)();
  } catch (error) {
    return fail(`cannot list the interfaces: ${(error as Error).message}`);
  }
  const addresses = table[name];
  if (addresses === undefined) return fail("no such interface");
  const ip = addresses.find(
    (entry) => entry.family === "IPv4" && (options.allowPrivate || isGlobalAddress(entry.address)),
  )?.address;
  return ip === undefined ? fail("no global IPv4 address") : { ok: true, ip, source };
}

/** One of this host's interfaces, with the addresses a domain could be given from it. */
export interface HostInterface {
  name: string;
  ipv4: string[];
  /** Usable IPv6 addresses (not temporary, deprecated, tentative, failed or link-local). */
  ipv6: string[];
}

/**
 * This host's interfaces and their addresses worth publishing (global ones unless private addresses
 * are allowed), by name, for choosing a source in the admin pages. An unreadable table leaves its
 * family empty: the list is a help for choosing, the detection itself says what is wrong.
 */
export function listInterfaces(options: InterfaceOptions): HostInterface[] {
  const byName = new Map<string, HostInterface>();
  const entry = (name: string) => {
    let found = byName.get(name);
    if (found === undefined) byName.set(name, (found = { name, ipv4: [], ipv6: [] }));
    return found;
  };
  try {
    for (const [name, addresses] of Object.entries((options.interfaces ?? networkInterfaces)())) {
      const item = entry(name);
      for (const address of addresses ?? []) {
        if (address.family === "IPv4" && (options.allowPrivate || isGlobalAddress(address.address)))
          item.ipv4.push(address.address);
      }
    }
  } catch {
    // No IPv4 list; the IPv6 one may still be there.
  }
  let inet6: Inet6Entry[] = [];
  try {
    inet6 = parseIfInet6(readFileSync(options.ifInet6Path ?? IF_INET6_PATH, "utf8"));
  } catch {
    // IPv6 disabled: no IPv6 addresses to list.
  }
  for (const item of inet6) {
    const listed = entry(item.name);
    if (usableIpv6(item, options.allowPrivate)) listed.ipv6.push(item.address);
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}
