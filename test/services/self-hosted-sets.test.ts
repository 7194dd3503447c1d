// Several addresses for one name at a real BIND 9 through RFC 2136 and at a real PowerDNS through its
// API (docs/operations.md, "Several addresses for one name"): a list of two sources becomes one RRset
// of two A records with the TTL the name had; an address added beside them by another client
// (nsupdate, PowerDNS's API) stays through every change; back to one source, ddnsd's other address is
// removed and the foreign one still stands.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  dig,
  KEY_NAME,
  KEY_SECRET,
  type NameServer,
  type PowerDns,
  startBind,
  startPowerDns,
  ZONE,
} from "../servers/name-servers";
import { makeTestApp, type TestApp } from "../support";
import { lacks } from "../tools";
import { duePass, historyOf } from "../updater/harness";

const WAN1 = "81.2.69.160";
const WAN2 = "81.2.69.161";
const FOREIGN = "93.184.216.99";
const NAME = `rr.${ZONE}`;

const missing = lacks("named", "pdns_server", "dig", "nsupdate");

/** How each server is reached, and how another client adds an address beside ddnsd's. */
const SERVERS: {
  name: string;
  start: () => Promise<NameServer>;
  provider: (server: NameServer) => {
    type: string;
    credentials: Record<string, string>;
    options: Record<string, string>;
  };
  addForeign: (server: NameServer, held: readonly string[]) => Promise<void>;
}[] = [
  {
    name: "BIND 9 through RFC 2136",
    start: () => startBind({ records: ["rr 600 IN A 192.0.2.10"] }),
    provider: (server) => ({
      type: "rfc2136",
      credentials: { tsig_secret: KEY_SECRET },
      options: { server: server.address, tsig_key_name: KEY_NAME },
    }),
    addForeign: (server) => nsupdate(server, `update add ${NAME}. 600 A ${FOREIGN}`),
  },
  {
    name: "PowerDNS through its API",
    start: () => startPowerDns({ records: ["rr 600 IN A 192.0.2.10"] }),
    provider: (server) => ({
      type: "powerdns",
      credentials: { api_key: (server as PowerDns).apiKey },
      options: { server: (server as PowerDns).apiUrl },
    }),
    async addForeign(server, held) {
      const pdns = server as PowerDns;
      const answer = await fetch(`${pdns.apiUrl}/api/v1/servers/localhost/zones/${ZONE}.`, {
        method: "PATCH",
        headers: { "X-API-Key": pdns.apiKey, "Content-Type": "application/json" },
        body: JSON.stringify({
          rrsets: [
            {
              name: `${NAME}.`,
              type: "A",
              ttl: 600,
              changetype: "REPLACE",
              records: [...held, FOREIGN].map((content) => ({ content, disabled: false })),
            },
          ],
        }),
      });
      expect(answer.status).toBe(204);
    },
  },
];

async function published(server: NameServer): Promise<string[]> {
  const answer = await dig(server.port, NAME, "A");
  return answer.records
    .filter((record) => record.type === "A")
    .map((record) => `${record.data} ${record.ttl}`)
    .sort();
}

/** Another client's change to the name, signed with the same key (nsupdate from bind9-dnsutils). */
async function nsupdate(server: NameServer, line: string): Promise<void> {
  const child = Bun.spawn(["nsupdate", "-y", `hmac-sha256:${KEY_NAME}:${KEY_SECRET}`], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  child.stdin.write(`server 127.0.0.1 ${server.port}\nzone ${ZONE}\n${line}\nsend\n`);
  child.stdin.end();
  const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
  expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
}

for (const kind of SERVERS)
  describe(kind.name, () => {
    let server: NameServer;
    let t: TestApp;
    beforeAll(async () => {
      if (missing) return;
      server = await kind.start();
      t = await makeTestApp();
    });
    afterAll(async () => {
      if (missing) return;
      await t.ctx.scheduler.stop(5_000);
      await server.stop();
    });

    test.skipIf(missing)("one RRset of two A records, a foreign one beside them kept, then one removed", async () => {
      const provider = await t.request("POST", "/api/v1/providers", {
        body: { name: "own", ...kind.provider(server) },
      });
      expect(provider.status).toBe(200);
      const domain = await t.request("POST", "/api/v1/domains", {
        body: { provider_id: provider.body.id, domain_name: NAME, address_source: [`fixed:${WAN1}`, `fixed:${WAN2}`] },
      });
      expect(domain.status).toBe(200);
      const id = domain.body.id as number;

      // First write: the record the name held is taken over; the two addresses keep its TTL.
      expect((await duePass(t)).map((outcome) => outcome.result)).toEqual(["updated"]);
      expect(await published(server)).toEqual([`${WAN1} 600`, `${WAN2} 600`]);
      expect((await t.request("GET", `/api/v1/domains/${id}`)).body).toMatchObject({
        last_known_ip: WAN1,
        addresses: [WAN1, WAN2],
      });

      // Someone else adds an address; the set as wanted still stands, so nothing is written.
      await kind.addForeign(server, [WAN1, WAN2]);
      expect((await duePass(t)).map((outcome) => outcome.result)).toEqual(["unchanged"]);
      expect(await published(server)).toEqual([`${WAN1} 600`, `${WAN2} 600`, `${FOREIGN} 600`].sort());

      // Back to one source: ddnsd's second address goes, the foreign one stays, and the history says so.
      const edited = await t.request("PUT", `/api/v1/domains/${id}`, { body: { address_source: `fixed:${WAN1}` } });
      expect(edited.status).toBe(200);
      expect((await duePass(t)).map((outcome) => outcome.result)).toEqual(["updated"]);
      expect(await published(server)).toEqual([`${WAN1} 600`, `${FOREIGN} 600`].sort());
      const [row] = await historyOf(t, id);
      expect(row.message).toContain(`removed: ${WAN2}`);
      expect(row.message).toContain(`left alone: ${FOREIGN}`);
      expect((await t.request("GET", `/api/v1/domains/${id}`)).body.addresses).toEqual([WAN1]);
    });
  });
