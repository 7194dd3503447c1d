// The provider world of the benchmarks, all on 127.0.0.1: the Cloudflare fake with one zone of N
// A records, the IP echo fake, optionally an HTTPS front for the Cloudflare fake (ddclient only
// speaks https to Cloudflare), and seeding a running appliance with those N domains.

import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { addressData, encodeName, TYPE } from "../../src/dns/protocols/wire";
import { CLOUDFLARE_FAKE_TOKEN, type CloudflareFake, startCloudflareFake } from "../../test/fakes/cloudflare";
import { answerWith, startTestNameServer, type TestNameServer } from "../../test/fakes/dns-server";
import { type EchoFake, startEchoFake } from "../../test/fakes/echo";
import { api } from "./common";

export const ZONE = "example.com";
/** Where the records point before the first update (TEST-NET-1, so obviously not the echo's answer). */
export const INITIAL_CONTENT = "192.0.2.1";

export const hostname = (i: number) => `host${String(i).padStart(3, "0")}.${ZONE}`;

/**
 * The zone's name server as the usual appliance has it: one authoritative server on `host`, port 53
 * (NS records carry no port), also the resolver (`DDNS_RESOLVERS`), answering every record of the
 * zone with `ipv4`, so each write's live check ends at its first ask. Its NS set names itself (glue
 * at `host`); a name below the zone has no NS of its own (the zone's SOA in the authority section).
 */
export async function startZoneNameServer(host: string, ipv4: string): Promise<TestNameServer> {
  const soa = new Uint8Array([
    ...encodeName(`ns1.${ZONE}`),
    ...encodeName(`hostmaster.${ZONE}`),
    ...new Uint8Array(20),
  ]);
  const authority = [{ name: ZONE, type: TYPE.SOA, class: 1, ttl: 300, data: soa }];
  return startTestNameServer(
    (request) => {
      const { name, type } = request.questions[0]!;
      if (type === TYPE.NS && name === ZONE)
        return answerWith(request, {
          answers: [{ name, type, class: 1, ttl: 300, data: encodeName(`ns1.${ZONE}`) }],
          additionals: [{ name: `ns1.${ZONE}`, type: TYPE.A, class: 1, ttl: 300, data: addressData(host) }],
        });
      if (type === TYPE.A && name.endsWith(`.${ZONE}`))
        return answerWith(request, { answers: [{ name, type, class: 1, ttl: 60, data: addressData(ipv4) }] });
      return answerWith(request, { authorities: authority });
    },
    { host, port: 53 },
  );
}

export interface ProviderWorld {
  cloudflare: CloudflareFake;
  echo: EchoFake;
  /** The Cloudflare API base to configure: the fake itself, or its HTTPS front. */
  cloudflareUrl: string;
  echoV4Url: string;
  /** The self-signed certificate of the HTTPS front (trust it with NODE_EXTRA_CA_CERTS / ssl_ca_file). */
  caFile: string | null;
  stop(): Promise<void>;
}

export async function startProviderWorld(options: { records: number; httpsIn?: string }): Promise<ProviderWorld> {
  const cloudflare = startCloudflareFake();
  const echo = startEchoFake();
  cloudflare.addZone(ZONE);
  for (let i = 1; i <= options.records; i++) {
    cloudflare.addRecord(ZONE, { type: "A", name: hostname(i), content: INITIAL_CONTENT });
  }
  let front: ReturnType<typeof Bun.serve> | undefined;
  let caFile: string | null = null;
  let cloudflareUrl = cloudflare.url;
  if (options.httpsIn !== undefined) {
    const tls = selfSignedCertificate(options.httpsIn);
    caFile = tls.certFile;
    const plain = new URL(cloudflare.url);
    front = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      tls: { cert: Bun.file(tls.certFile), key: Bun.file(tls.keyFile) },
      async fetch(request) {
        const url = new URL(request.url);
        const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
        const answer = await fetch(`${plain.origin}${url.pathname}${url.search}`, {
          method: request.method,
          headers: request.headers,
          body,
        });
        return new Response(await answer.arrayBuffer(), { status: answer.status, headers: answer.headers });
      },
    });
    cloudflareUrl = `https://127.0.0.1:${front.port}${plain.pathname}`;
  }
  return {
    cloudflare,
    echo,
    cloudflareUrl,
    echoV4Url: `${echo.url}/v4`,
    caFile,
    async stop() {
      await front?.stop(true);
      await cloudflare.stop();
      await echo.stop();
    },
  };
}

/** A throwaway self-signed certificate for 127.0.0.1, made with the openssl command. */
function selfSignedCertificate(dir: string): { certFile: string; keyFile: string } {
  const certFile = join(dir, "fake-cloudflare.crt");
  const keyFile = join(dir, "fake-cloudflare.key");
  if (!existsSync(certFile)) {
    const made = Bun.spawnSync(
      [
        "openssl",
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        keyFile,
        "-out",
        certFile,
        "-days",
        "2",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1,DNS:localhost",
      ],
      { stdout: "pipe", stderr: "pipe" },
    );
    if (made.exitCode !== 0) throw new Error(`openssl failed: ${made.stderr.toString()}`);
  }
  return { certFile, keyFile };
}

/** Writes the JSON bodies of a map to a file (for the bare server's process). */
export function writeJson(file: string, value: unknown): void {
  writeFileSync(file, JSON.stringify(value));
}

/**
 * Through the API: a Cloudflare provider with `count` domains (one per fake record) and an idle
 * Dynu provider; then waits until the scheduler's first pass has written every record, so the
 * domains carry what a running appliance shows (zone and record ids, last IP, one history row each).
 */
export async function seedAppliance(url: string, token: string, world: ProviderWorld, count: number): Promise<void> {
  const cloudflare = await api<{ id: number }>(url, token, "POST", "/providers", {
    name: "Cloudflare (bench)",
    type: "cloudflare",
    credentials: { api_token: CLOUDFLARE_FAKE_TOKEN },
  });
  await api(url, token, "POST", "/providers", {
    name: "Dynu (bench, no domains)",
    type: "dynu",
    credentials: { api_key: "dynu-bench-key-0123456789" },
  });
  for (let i = 1; i <= count; i++) {
    await api(url, token, "POST", "/domains", {
      provider_id: cloudflare.id,
      domain_name: hostname(i),
      record_type: "A",
    });
  }
  const deadline = Date.now() + 60_000;
  for (;;) {
    const domains = await api<{ last_update_status: string | null }[]>(url, token, "GET", "/domains");
    const done = domains.filter((d) => d.last_update_status === "SUCCESS").length;
    if (done === count) break;
    if (Date.now() > deadline) throw new Error(`seeding: only ${done} of ${count} domains were updated within 60 s`);
    await Bun.sleep(200);
  }
  const wrong = [...world.cloudflare.records.values()].filter((r) => r.content !== world.echo.ipv4);
  if (wrong.length > 0) throw new Error(`seeding: ${wrong.length} records do not point at ${world.echo.ipv4}`);
}
