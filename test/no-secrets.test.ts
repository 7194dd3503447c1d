// No secret leaks: a full run over real HTTP (login, providers with long distinctive credentials,
// domains, forced updates that succeed and fail, verify, scheduler passes, password changes, bad
// requests that carry secrets) with JSON and with text logs — then no access token, credential,
// password or key appears in any log line, any API answer, or any byte of the data dir.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setPassword } from "../src/security/users";
import { startServer } from "../src/server";
import { startCloudflareFake } from "./fakes/cloudflare";
import { startDynuFake } from "./fakes/dynu";
import { startEchoFake } from "./fakes/echo";
import { ENCRYPTION_KEY, makeTestApp, SECRET_KEY, TEST_PASSWORD } from "./support";

const MAIN = join(import.meta.dir, "../src/main.ts");

function distinctive(label: string): string {
  return `${label}-${crypto.randomUUID().replaceAll("-", "")}${crypto.randomUUID().replaceAll("-", "")}`;
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The secrets of `secrets` that occur in `haystack` (text, or a file's bytes read as latin1 so any byte sequence matches). */
function leaked(haystack: string, secrets: Record<string, string>): string[] {
  return Object.entries(secrets)
    .filter(([, secret]) => haystack.includes(secret))
    .map(([name]) => name);
}

for (const format of ["json", "text"] as const) {
  describe(`with ${format} logs`, () => {
    test("no token, credential, password or key appears in logs, answers or the data dir", async () => {
      const secrets = {
        cloudflareToken: distinctive("cfTOKEN"),
        cloudflareRotated: distinctive("cfROTATED"),
        cloudflareRevoked: distinctive("cfREVOKED"),
        dynuKey: distinctive("dynuKEY"),
        dynuWrongKey: distinctive("dynuWRONG"),
        adminPassword: TEST_PASSWORD,
        newPassword: distinctive("newPASSWORD"),
        cliPassword: distinctive("cliPASSWORD"),
        wrongPassword: distinctive("wrongPASSWORD"),
        secretKey: SECRET_KEY,
        encryptionKey: ENCRYPTION_KEY,
      };
      const cf = startCloudflareFake({ tokens: [secrets.cloudflareToken, secrets.cloudflareRotated] });
      const dynu = startDynuFake({ apiKeys: [secrets.dynuKey] });
      const echo = startEchoFake();
      const dir = mkdtempSync(join(tmpdir(), "ddnsd-secrets-"));
      const env = {
        DDNS_CLOUDFLARE_API_URL: cf.url,
        DDNS_DYNU_API_URL: dynu.url,
        DDNS_IPV4_URLS: `${echo.url}/v4`,
        DDNS_IPV6_URLS: `${echo.url}/v6`,
        DDNS_LOG_FORMAT: format,
        DDNS_LOG_LEVEL: "debug",
        DDNS_HTTP_TIMEOUT: "1s",
        DDNS_HOST: "127.0.0.1",
        DDNS_PORT: "0",
      };
      const t = await makeTestApp(env, dir);
      const running = startServer(t.ctx, t.app);
      const answers: string[] = [];
      const tokens: string[] = [];
      const cliOutput: string[] = [];

      /** One API call over HTTP; every answer (status line, headers, body) is kept for the scan. */
      async function call(
        method: string,
        path: string,
        options: { token?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
      ) {
        const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
        const token = options.token === undefined ? tokens[0] : options.token;
        if (token) headers.authorization = `Bearer ${token}`;
        const response = await fetch(new URL(path, running.url), {
          method,
          headers,
          body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
        });
        const text = await response.text();
        answers.push(`${method} ${path} ${response.status} ${JSON.stringify([...response.headers])} ${text}`);
        return {
          status: response.status,
          body: text.startsWith("{") || text.startsWith("[") ? JSON.parse(text) : text,
        };
      }

      async function login(password: string) {
        const response = await call("POST", "/api/v1/auth/login", {
          token: null,
          body: { username: "admin", password },
        });
        if (response.status === 200) tokens.push(response.body.access_token);
        // The one answer that must carry a token is the login's own; it is scanned for everything else.
        answers.pop();
        answers.push(JSON.stringify({ ...response.body, access_token: "<login answer>" }));
        return response;
      }

      try {
        expect((await login(secrets.adminPassword)).status).toBe(200);
        expect((await login(secrets.wrongPassword)).status).toBe(401);
        cf.addZone("example.com");
        cf.addRecord("example.com", { type: "A", name: "home", content: "198.51.100.1" });
        dynu.addDomain("x.freeddns.org", { ipv4Address: "198.51.100.1" });

        const providers = {
          cloudflare: await call("POST", "/api/v1/providers", {
            body: { name: "CF", type: "cloudflare", credentials: { api_token: secrets.cloudflareToken } },
          }),
          revoked: await call("POST", "/api/v1/providers", {
            body: { name: "CF old", type: "cloudflare", credentials: { token: secrets.cloudflareRevoked } },
          }),
          dynu: await call("POST", "/api/v1/providers", {
            body: { name: "Dynu", type: "dynu", credentials: { api_key: secrets.dynuKey } },
          }),
          wrong: await call("POST", "/api/v1/providers", {
            body: { name: "Dynu old", type: "dynu", credentials: { api_key: secrets.dynuWrongKey } },
          }),
        };
        for (const created of Object.values(providers)) expect(created.status).toBe(200);
        expect(providers.cloudflare.body.credentials.api_token).toBe(`••••${secrets.cloudflareToken.slice(-4)}`);
        // Refused requests that carry secrets.
        expect(
          (
            await call("POST", "/api/v1/providers", {
              body: { name: "x", type: "route53", credentials: { api_token: secrets.cloudflareToken } },
            })
          ).status,
        ).toBe(422);
        expect(
          (
            await call("POST", "/api/v1/providers", {
              raw: `{"name": "x", "credentials": {"api_token": "${secrets.cloudflareToken}"`,
            })
          ).status,
        ).toBe(422);
        expect((await call("GET", "/api/v1/providers", { token: secrets.cloudflareToken })).status).toBe(401);
        expect(
          (await call("GET", "/api/v1/providers", { token: null, headers: { authorization: secrets.dynuKey } })).status,
        ).toBe(401);

        const domain = async (providerId: number, name: string) =>
          (await call("POST", "/api/v1/domains", { body: { provider_id: providerId, domain_name: name } })).body
            .id as number;
        const home = await domain(providers.cloudflare.body.id, "home.example.com");
        const revokedHome = await domain(providers.revoked.body.id, "other.example.com");
        const ddns = await domain(providers.dynu.body.id, "x.freeddns.org");
        const wrongDdns = await domain(providers.wrong.body.id, "y.freeddns.org");

        expect((await call("POST", `/api/v1/domains/${home}/update_ip`)).status).toBe(200);
        expect((await call("POST", `/api/v1/domains/${ddns}/update_ip`)).status).toBe(200);
        expect((await call("POST", `/api/v1/domains/${revokedHome}/update_ip`)).status).toBe(502);
        expect((await call("POST", `/api/v1/domains/${wrongDdns}/update_ip`)).status).toBe(502);
        for (const fault of [
          { status: 500 },
          { status: 429, retryAfter: 1 },
          "malformed",
          "html",
          { status: 400, code: 6003, message: "Invalid request headers" },
        ] as const) {
          cf.fault(fault, 1);
          await call("POST", `/api/v1/domains/${home}/update_ip`);
          t.ctx.sqlite.query("UPDATE providers SET paused_until = NULL").run();
        }
        dynu.fault({ status: 401, inHttp200: true }, 1);
        expect((await call("POST", `/api/v1/domains/${ddns}/update_ip`)).status).toBe(502);
        dynu.fault("timeout", 1);
        expect((await call("POST", `/api/v1/domains/${ddns}/update_ip`)).status).toBe(502);
        echo.fault({ status: 500 }, 1);
        expect((await call("POST", `/api/v1/domains/${ddns}/update_ip`)).status).toBe(503);

        for (const provider of Object.values(providers)) {
          expect((await call("POST", `/api/v1/providers/${provider.body.id}/verify`)).status).toBe(200);
        }
        // Rotating a credential.
        expect(
          (
            await call("PUT", `/api/v1/providers/${providers.cloudflare.body.id}`, {
              body: { credentials: { api_token: secrets.cloudflareRotated } },
            })
          ).status,
        ).toBe(200);
        echo.ipv4 = "185.103.110.202";
        t.ctx.sqlite.query("UPDATE domains SET next_run_at = 0").run();
        const outcomes = await t.ctx.scheduler.runPass();
        expect(
          outcomes
            .filter((o) => o.result === "updated")
            .map((o) => o.hostname)
            .sort(),
        ).toEqual(["home.example.com", "x.freeddns.org"]);

        for (const path of [
          "/api/v1/providers",
          `/api/v1/providers/${providers.cloudflare.body.id}`,
          "/api/v1/domains",
          `/api/v1/domains/${home}`,
          `/api/v1/domains/${home}/history?limit=100`,
          `/api/v1/domains/${wrongDdns}/history`,
          "/api/v1/system/status",
          "/api/v1/metrics/dashboard",
          "/api/v1/metrics/provider-stats",
          "/docs/json",
          "/healthz",
        ]) {
          expect((await call("GET", path)).status).toBe(200);
        }

        // The admin's password changed in the app, and with the CLI.
        await setPassword(t.ctx, "admin", secrets.newPassword);
        expect((await login(secrets.newPassword)).status).toBe(200);
        const cli = Bun.spawn([process.execPath, "run", MAIN, "admin", "set-password", "admin"], {
          env: {
            PATH: process.env.PATH ?? "",
            DDNS_DATA_DIR: dir,
            DDNS_SECRET_KEY: SECRET_KEY,
            DDNS_ENCRYPTION_KEY: ENCRYPTION_KEY,
            DDNS_LOG_FORMAT: format,
            DDNS_LOG_LEVEL: "debug",
          },
          stdin: new TextEncoder().encode(`${secrets.cliPassword}\n`),
          stdout: "pipe",
          stderr: "pipe",
        });
        const [out, err, code] = await Promise.all([
          new Response(cli.stdout).text(),
          new Response(cli.stderr).text(),
          cli.exited,
        ]);
        cliOutput.push(out, err);
        expect(code).toBe(0);
        expect((await login(secrets.cliPassword)).status).toBe(200);
        expect((await login(secrets.newPassword)).status).toBe(401);
        expect(tokens.length).toBe(3);

        const everything = { ...secrets, ...Object.fromEntries(tokens.map((token, i) => [`accessToken${i}`, token])) };
        expect(t.logs.length).toBeGreaterThan(30);
        const logLeaks = t.logs.flatMap((line) =>
          leaked(line, everything).map((name) => `${name} in log line: ${line}`),
        );
        expect(logLeaks).toEqual([]);
        const answerLeaks = answers.flatMap((answer) =>
          leaked(answer, everything).map((name) => `${name} in answer: ${answer.slice(0, 200)}`),
        );
        expect(answerLeaks).toEqual([]);
        expect(cliOutput.flatMap((text) => leaked(text, everything))).toEqual([]);

        // The data dir while the database is open (WAL and shared-memory files included), then after it is closed.
        const scanDataDir = () =>
          filesUnder(dir).flatMap((file) =>
            leaked(readFileSync(file).toString("latin1"), everything).map((name) => `${name} in ${file}`),
          );
        expect(filesUnder(dir).some((file) => file.endsWith("-wal"))).toBe(true);
        expect(scanDataDir()).toEqual([]);
        await running.stop();
        expect(scanDataDir()).toEqual([]);
        // The scan can see secrets: the history really holds the provider's messages it looked through
        // (in the database file, or still in its WAL when a loaded machine's stop left no checkpoint).
        expect(
          filesUnder(dir)
            .map((file) => readFileSync(file).toString("latin1"))
            .join(""),
        ).toContain("Invalid access token");
      } finally {
        await running.stop();
        await Promise.all([cf.stop(), dynu.stop(), echo.stop()]);
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
