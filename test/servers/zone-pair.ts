// A zone served the way real zones are, for the tests of whether a record is live: a BIND primary
// and a BIND secondary, each on a loopback address of its own on port 53 (a zone's NS records carry
// no port), the secondary fed by NOTIFY and zone transfers. Addresses in 127.31.0.0/24, which no
// other test uses (the other name servers listen on 127.0.0.1, on free ports). named listens only on
// addresses an interface holds, so each address is added to `lo` for the test (and removed after);
// that and port 53 need root (named keeps the capability to bind it when it drops to the bind user).
//
// - live.test: NS ns1 (the primary) and ns2 (the secondary); `home` A 192.0.2.2. The primary
//   notifies the secondary of every change, so both serve a new address within a second or so.
// - lag.test: the same two name servers, but the primary sends no NOTIFY and the secondary's refresh
//   is an hour: after a change the secondary keeps answering the old address (a lagging secondary).
//
// The TSIG key `ddnsd-key` (name-servers.ts) may change A and AAAA records in both zones on the primary.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { KEY_NAME, KEY_SECRET, launch, ready, workDir } from "./name-servers";

export const LIVE_ZONE = "live.test";
export const LAG_ZONE = "lag.test";
export const PRIMARY = "127.31.0.1";
export const SECONDARY = "127.31.0.2";
/** Where the PowerDNS of these tests answers (its zone's NS record names it). */
export const POWERDNS_ADDRESS = "127.31.0.3";

/** The addresses of one primary and its secondary: a test file of its own takes a pair no other file uses. */
export interface PairAddresses {
  primary: string;
  secondary: string;
}

const LIVE_PAIR: PairAddresses = { primary: PRIMARY, secondary: SECONDARY };

/**
 * Adds the addresses to the loopback interface where they are missing; the returned function
 * removes the ones it added.
 */
export function loopbackAddresses(addresses: readonly string[]): () => void {
  const added: string[] = [];
  for (const address of addresses) {
    const shown = Bun.spawnSync(["ip", "-4", "addr", "show", "dev", "lo"]).stdout.toString();
    if (shown.includes(`inet ${address}/`)) continue;
    const result = Bun.spawnSync(["ip", "addr", "add", `${address}/32`, "dev", "lo"]);
    if (result.exitCode !== 0)
      throw new Error(
        `Cannot add ${address} to the loopback interface (the test needs root): ${result.stderr.toString()}`,
      );
    added.push(address);
  }
  return () => {
    for (const address of added) Bun.spawnSync(["ip", "addr", "del", `${address}/32`, "dev", "lo"]);
  };
}

function zoneFile(zone: string, pair: PairAddresses): string {
  return `$ORIGIN ${zone}.
@ 3600 IN SOA ns1.${zone}. hostmaster.${zone}. 1 3600 900 604800 300
@ 3600 IN NS ns1.${zone}.
@ 3600 IN NS ns2.${zone}.
ns1 3600 IN A ${pair.primary}
ns2 3600 IN A ${pair.secondary}
home 300 IN A 192.0.2.2
`;
}

export interface ZoneServer {
  address: string;
  log(): Promise<string>;
  stop(): Promise<void>;
}

function namedConf(dir: string, address: string, zones: string): string {
  return `options {
  directory "${dir}";
  pid-file "${dir}/named.pid";
  session-keyfile "${dir}/session.key";
  managed-keys-directory "${dir}";
  listen-on port 53 { ${address}; };
  listen-on-v6 { none; };
  recursion no;
  dnssec-validation no;
  notify-source ${address};
  transfer-source ${address};
};
controls { };
key "${KEY_NAME}" { algorithm hmac-sha256; secret "${KEY_SECRET}"; };
${zones}
`;
}

async function startNamed(address: string, pair: PairAddresses, zones: (dir: string) => string): Promise<ZoneServer> {
  const work = workDir("bind");
  const { dir } = work;
  writeFileSync(join(dir, "named.conf"), namedConf(dir, address, zones(dir)));
  for (const zone of [LIVE_ZONE, LAG_ZONE]) writeFileSync(join(dir, `${zone}.zone`), zoneFile(zone, pair));
  work.own();
  const started = launch(
    ["named", "-g", "-4", "-n", "1", "-c", join(dir, "named.conf"), ...(work.runAs ? ["-u", "bind"] : [])],
    dir,
  );
  for (const zone of [LIVE_ZONE, LAG_ZONE]) await ready(53, started, zone, address);
  return { address, ...started };
}

/** The primary: updates signed with the key, NOTIFY to the secondary for live.test only. */
export function startPrimary(pair = LIVE_PAIR): Promise<ZoneServer> {
  return startNamed(pair.primary, pair, (dir) =>
    [
      `zone "${LIVE_ZONE}" { type primary; file "${dir}/${LIVE_ZONE}.zone"; update-policy { grant ${KEY_NAME} zonesub A AAAA; }; notify explicit; also-notify { ${pair.secondary}; }; allow-transfer { any; }; };`,
      `zone "${LAG_ZONE}" { type primary; file "${dir}/${LAG_ZONE}.zone"; update-policy { grant ${KEY_NAME} zonesub A AAAA; }; notify no; allow-transfer { any; }; };`,
    ].join("\n"),
  );
}

/** The secondary: both zones transferred from the primary at start; live.test again on each NOTIFY. */
export function startSecondary(pair = LIVE_PAIR): Promise<ZoneServer> {
  return startNamed(pair.secondary, pair, (dir) =>
    [LIVE_ZONE, LAG_ZONE]
      .map(
        (zone) =>
          `zone "${zone}" { type secondary; file "${dir}/${zone}.copy"; primaries { ${pair.primary}; }; allow-notify { ${pair.primary}; }; };`,
      )
      .join("\n"),
  );
}
