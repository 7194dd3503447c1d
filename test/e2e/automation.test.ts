// The recipes of docs/operations.md (automation recipes), by the requests they make: ddnsd under
// /ddns behind real Caddy and nginx on loopback, each with forward auth to a tiny sign-in endpoint
// that names the user in Remote-User; the header sent straight to ddnsd from a non-proxy address
// refused; Home Assistant's sensor and rest_command with an update token, Homepage's widget with a
// read token, through each proxy.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { type Served, serve } from "../hardening/helpers";

const BASE = "/ddns";
const SSO_COOKIE = "sso=signed-in";
let s: Served;
let auth: ReturnType<typeof Bun.serve>;
let dir: string;
const proxies: Subprocess[] = [];
const front: Record<"caddy" | "nginx", string> = { caddy: "", nginx: "" };

async function freePort(): Promise<number> {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

/** Waits (bounded) until the proxy answers at all. */
async function answering(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      await Bun.sleep(50);
    }
  }
  throw new Error(`${url} never answered`);
}

beforeAll(async () => {
  s = await serve({
    DDNS_BASE_PATH: BASE,
    DDNS_TRUSTED_PROXIES: "127.0.0.1",
    DDNS_AUTH_PROXY_HEADER: "Remote-User",
  });
  // The sign-in endpoint (Authelia's part): a visitor with its cookie is "admin", anyone else 401.
  auth = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (request) =>
      (request.headers.get("cookie") ?? "").includes(SSO_COOKIE)
        ? new Response("ok", { headers: { "Remote-User": "admin" } })
        : new Response("sign in first", { status: 401 }),
  });
  dir = mkdtempSync(join(tmpdir(), "ddnsd-proxies-"));
  const upstream = `127.0.0.1:${s.port}`;
  const authAt = `127.0.0.1:${auth.port}`;

  const caddyPort = await freePort();
  writeFileSync(
    join(dir, "Caddyfile"),
    `{
  admin off
  auto_https off
  storage file_system ${dir}/caddy
}
http://127.0.0.1:${caddyPort} {
  handle /ddns/api/* {
    reverse_proxy ${upstream}
  }
  handle /ddns/* {
    forward_auth ${authAt} {
      uri /verify
      copy_headers Remote-User
    }
    reverse_proxy ${upstream}
  }
}
`,
  );
  proxies.push(
    Bun.spawn(["caddy", "run", "--config", join(dir, "Caddyfile"), "--adapter", "caddyfile"], {
      stdout: "ignore",
      stderr: "ignore",
      env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    }),
  );
  front.caddy = `http://127.0.0.1:${caddyPort}`;

  const nginxPort = await freePort();
  writeFileSync(
    join(dir, "nginx.conf"),
    `daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log;
events {}
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${nginxPort};
    location /ddns/api/ {
      proxy_set_header Host $host:$server_port;
      proxy_set_header Remote-User "";
      proxy_pass http://${upstream};
    }
    location /ddns/ {
      auth_request /auth;
      auth_request_set $user $upstream_http_remote_user;
      proxy_set_header Remote-User $user;
      proxy_set_header Host $host:$server_port;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_pass http://${upstream};
    }
    location = /auth {
      internal;
      proxy_pass http://${authAt}/verify;
      proxy_pass_request_body off;
      proxy_set_header Content-Length "";
    }
  }
}
`,
  );
  proxies.push(
    Bun.spawn(["nginx", "-c", join(dir, "nginx.conf"), "-p", dir, "-e", join(dir, "nginx-error.log")], {
      stdout: "ignore",
      stderr: "ignore",
    }),
  );
  front.nginx = `http://127.0.0.1:${nginxPort}`;
  await Promise.all([answering(front.caddy), answering(front.nginx)]);
});

afterAll(async () => {
  for (const proxy of proxies) {
    proxy.kill();
    await proxy.exited;
  }
  auth?.stop(true);
  await s?.running.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A raw request to ddnsd itself from 127.0.0.3: an address that is not the trusted proxy's. */
function fromElsewhere(path: string, headers: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port: s.port, localAddress: "127.0.0.3" }, () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\n${headers}Connection: close\r\n\r\n`),
    );
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString();
    });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe.each(["caddy", "nginx"] as const)("behind %s under /ddns", (proxy) => {
  test("the proxy's sign-in names the user; without it the proxy refuses", async () => {
    const signedIn = await fetch(`${front[proxy]}${BASE}/`, { headers: { cookie: SSO_COOKIE }, redirect: "manual" });
    expect(signedIn.status).toBe(200);
    const html = await signedIn.text();
    expect(html).toContain("Signed in as admin");
    expect(html).toContain(`href="${BASE}/domains"`);
    expect(html).not.toContain('action="/logout"');
    expect((await fetch(`${front[proxy]}${BASE}/`, { redirect: "manual" })).status).toBe(401);
  });

  test("Home Assistant: the rest sensor and the rest_command with an update token", async () => {
    const provider = await s.t.request("POST", `${BASE}/api/v1/providers`, {
      body: { name: `p-${proxy}`, type: "cloudflare", credentials: { api_token: "cf-token-secret-0123456789abcdef" } },
    });
    const domain = (
      await s.t.request("POST", `${BASE}/api/v1/domains`, {
        body: { provider_id: provider.body.id, domain_name: `${proxy}.example.com` },
      })
    ).body;
    const token = (
      await s.t.request("POST", `${BASE}/api/v1/api-tokens`, {
        body: { name: "Home Assistant", scope: "update", domain_ids: [domain.id] },
      })
    ).body.token;
    const headers = { Authorization: `Bearer ${token}` };
    const sensor = await fetch(`${front[proxy]}${BASE}/api/v1/domains/${domain.id}`, { headers });
    expect(sensor.status).toBe(200);
    const state = (await sensor.json()) as Record<string, unknown>;
    for (const attribute of ["last_known_ip", "domain_name", "last_update_status", "last_changed_at", "is_enabled"])
      expect(state).toHaveProperty(attribute);
    const forced = await fetch(`${front[proxy]}${BASE}/api/v1/domains/${domain.id}/update_ip`, {
      method: "POST",
      headers,
    });
    // Let through to the update itself (the provider is unreachable in tests: 502/503), not refused.
    expect([200, 502, 503]).toContain(forced.status);
    expect((await fetch(`${front[proxy]}${BASE}/api/v1/providers`, { headers })).status).toBe(403);
  });

  test("Homepage: the customapi widget's request with a read token", async () => {
    const token = (
      await s.t.request("POST", `${BASE}/api/v1/api-tokens`, { body: { name: "Homepage", scope: "read" } })
    ).body.token;
    const widget = await fetch(`${front[proxy]}${BASE}/api/v1/metrics/dashboard`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(widget.status).toBe(200);
    const body = (await widget.json()) as Record<string, unknown>;
    for (const field of ["active_domains", "failed_updates_24h", "success_rate_24h"])
      expect(body).toHaveProperty(field);
  });
});

test("the header sent straight to ddnsd from a non-proxy address is ignored", async () => {
  const page = await fromElsewhere(`${BASE}/`, "Remote-User: admin\r\nAccept: text/html\r\n");
  expect(page).toMatch(/^HTTP\/1\.1 303/);
  expect(page).toContain(`Location: ${BASE}/login`);
  const api = await fromElsewhere(`${BASE}/api/v1/domains`, "Remote-User: admin\r\n");
  expect(api).toMatch(/^HTTP\/1\.1 401/);
  expect(api).toContain("Not authenticated");
});
