// A stand-in for the public IP echo services (docs/api.md, detecting the public address): bare text, Cloudflare trace and JSON
// answers with settable addresses, a hit counter per path, and the refusals real services give.

import { type FakeServer, startFakeServer } from "./server";

/**
 * `{status}` answers with that status and a short text body (echo services answer 403/429 when
 * asked too often); `"garbage"` is a 200 whose body is no address at all.
 */
export type EchoFault = { status: number } | "garbage";

export interface EchoFake extends FakeServer<EchoFault> {
  /** What `/v4`, `/trace` and `/json` report; change it to simulate a new address. */
  ipv4: string;
  /** What `/v6`, `/trace6` and `/json6` report. */
  ipv6: string;
  /** How many requests reached `path` (e.g. "/v4"), faulted ones included. */
  hits(path: string): number;
  /** Back to the initial addresses, no faults or logged requests. */
  reset(): void;
}

/** Globally routable (so detection accepts them without allowPrivate) but owned by nobody's test. */
export const ECHO_DEFAULT_IPV4 = "185.103.110.182";
export const ECHO_DEFAULT_IPV6 = "2a01:4f8:c17:b8f::2";

export function startEchoFake(options: { ipv4?: string; ipv6?: string } = {}): EchoFake {
  const server = startFakeServer<EchoFault>({
    prefix: "",
    route(request) {
      switch (request.path) {
        case "/v4":
          return text(`${fake.ipv4}\n`);
        case "/v6":
          return text(`${fake.ipv6}\n`);
        case "/trace":
          return text(trace(fake.ipv4));
        case "/trace6":
          return text(trace(fake.ipv6));
        case "/json":
          return Response.json({ ip: fake.ipv4 });
        case "/json6":
          return Response.json({ ip: fake.ipv6 });
        default:
          return text("Not Found\n", 404);
      }
    },
    renderFault(mode) {
      if (mode === "garbage") return text("<html><body>Service temporarily rebranded</body></html>\n");
      return text(`${mode.status} error\n`, mode.status);
    },
  });

  const fake: EchoFake = Object.assign(server, {
    ipv4: options.ipv4 ?? ECHO_DEFAULT_IPV4,
    ipv6: options.ipv6 ?? ECHO_DEFAULT_IPV6,
    hits: (path: string) => server.requests.filter((r) => r.path === path).length,
    reset() {
      fake.ipv4 = options.ipv4 ?? ECHO_DEFAULT_IPV4;
      fake.ipv6 = options.ipv6 ?? ECHO_DEFAULT_IPV6;
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

function text(body: string, status = 200): Response {
  return new Response(body, { status, headers: { "Content-Type": "text/plain" } });
}

/** The `key=value` lines of https://1.1.1.1/cdn-cgi/trace, with `ip=` among them rather than first. */
function trace(ip: string): string {
  return [
    "fl=29f1",
    "h=1.1.1.1",
    `ip=${ip}`,
    `ts=${(Date.now() / 1000).toFixed(3)}`,
    "visit_scheme=https",
    "uag=ddnsd",
    "colo=AMS",
    "sliver=none",
    "http=http/1.1",
    "loc=NL",
    "tls=TLSv1.3",
    "sni=off",
    "warp=off",
    "gateway=off",
    "rbi=off",
    "kex=X25519",
    "",
  ].join("\n");
}
