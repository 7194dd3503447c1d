// The container image for NASes (`bun run image`, deploy/Containerfile), built with podman into a
// private image store and loaded back from its archive the way a NAS imports it. Its config is
// checked, then its root filesystem, exported from the image, is run the way a container runtime
// runs it — a chroot with /proc and /dev mounted, as the image's user, with the image's
// environment — because this sandbox refuses real containers (their rlimits). The arm64 image
// runs the same way under qemu-aarch64-static.
//
// Needs root (chroot, mount), podman, and for arm64 qemu-user-static and libc6-arm64-cross;
// without them these tests are skipped with a message saying what to install.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { IMAGE_ARCHES, type ImageArch, imageArchive, imageTag, MAX_OVERHEAD } from "../scripts/image";
import { CLOUDFLARE_FAKE_TOKEN, type CloudflareFake, startCloudflareFake } from "./fakes/cloudflare";
import { ECHO_DEFAULT_IPV4, type EchoFake, startEchoFake } from "./fakes/echo";
import { freePort } from "./hardening/appliance";

const ROOT = join(import.meta.dir, "..");
const [AMD64, ARM64] = IMAGE_ARCHES as [ImageArch, ImageArch];
const QEMU = "/usr/bin/qemu-aarch64-static";
const HEALTHCHECK = ["/usr/local/bin/ddnsd", "healthcheck"];

function missing(arch: ImageArch): string | null {
  if (process.getuid?.() !== 0) return "not root (chroot and mount need it)";
  if (!Bun.which("podman")) return "podman is not installed (apt-get install podman)";
  if (arch === ARM64 && !existsSync(QEMU))
    return "qemu-aarch64-static is not installed (apt-get install qemu-user-static)";
  if (arch === ARM64 && !existsSync("/usr/aarch64-linux-gnu/lib")) return "libc6-arm64-cross is not installed";
  return null;
}
for (const arch of IMAGE_ARCHES) {
  const why = missing(arch);
  if (why) console.warn(`skipping the ${arch.name} container image tests: ${why}`);
}

const workDir = mkdtempSync(join(tmpdir(), "ddnsd-image-"));
const outDir = join(workDir, "out");
// A private image store, so the test neither needs nor touches the machine's; vfs works anywhere.
const storageConf = join(workDir, "storage.conf");
const podmanEnv = { ...process.env, CONTAINERS_STORAGE_CONF: storageConf };
writeFileSync(storageConf, `[storage]\ndriver = "vfs"\ngraphroot = "${workDir}/graph"\nrunroot = "${workDir}/run"\n`);
const children: Bun.Subprocess[] = [];
// Host tools, by absolute path: the runs get the image's environment, whose PATH is the image's.
const [UNSHARE, BASH, MOUNT, CHROOT] = ["unshare", "bash", "mount", "chroot"].map((tool) => Bun.which(tool) ?? tool);

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await Promise.all(children.map((child) => child.exited));
  // The runs mount /proc and /dev only inside their own mount namespaces (unshare), which end with
  // them; this is the check that nothing is left mounted under the work dir before removing it.
  const leftover = readFileSync("/proc/self/mounts", "utf8")
    .split("\n")
    .filter((line) => line.includes(workDir));
  for (const line of leftover.reverse()) Bun.spawnSync(["umount", "-l", line.split(" ")[1]!]);
  rmSync(workDir, { recursive: true, force: true });
});

function podman(...args: string[]): string {
  const child = Bun.spawnSync(["podman", ...args], {
    env: podmanEnv,
    stdout: "pipe",
    stderr: "pipe",
    timeout: 120_000,
  });
  if (child.exitCode !== 0) throw new Error(`podman ${args.join(" ")} failed: ${child.stderr.toString()}`);
  return child.stdout.toString();
}

interface ImageConfig {
  Architecture: string;
  Size: number;
  Config: {
    User: string;
    Env: string[];
    Entrypoint: string[];
    Cmd: string[];
    ExposedPorts: Record<string, object>;
    Volumes: Record<string, object>;
  };
  Healthcheck?: { Test: string[]; Interval: number; Timeout: number };
}

interface BuiltImage {
  tag: string;
  config: ImageConfig;
  binaryBytes: number;
  rootfs: string;
}

/**
 * `bun run image` for one architecture, then what a NAS does with the archive: the image is
 * removed from the store, loaded from the .tar, and its root filesystem exported.
 */
function buildAndImport(arch: ImageArch): BuiltImage {
  const build = Bun.spawnSync(["bun", "run", "image", `--out=${outDir}`, `--arch=${arch.name}`], {
    cwd: ROOT,
    env: podmanEnv,
    stdout: "pipe",
    stderr: "pipe",
    timeout: 240_000,
  });
  if (build.exitCode !== 0) throw new Error(`bun run image failed: ${build.stderr.toString()}`);
  const tag = imageTag(arch);
  expect(build.stdout.toString()).toContain(`${tag} (${arch.name}): image `);
  podman("rmi", tag);
  expect(podman("load", `--input=${imageArchive(outDir, arch)}`)).toContain(tag);
  const [config] = JSON.parse(podman("image", "inspect", tag)) as ImageConfig[];
  const rootfs = join(workDir, `rootfs-${arch.name}`);
  mkdirSync(rootfs);
  const container = podman("create", "--no-healthcheck", tag).trim();
  const exported = join(workDir, `rootfs-${arch.name}.tar`);
  podman("export", `--output=${exported}`, container);
  podman("rm", container);
  const untar = Bun.spawnSync(["tar", "-xpf", exported, "-C", rootfs, "--numeric-owner"], { stderr: "pipe" });
  if (untar.exitCode !== 0) throw new Error(`tar failed: ${untar.stderr.toString()}`);
  rmSync(exported);
  // A runtime creates these mount points in every container.
  for (const dir of ["proc", "dev"]) mkdirSync(join(rootfs, dir), { recursive: true });
  return { tag, config: config!, binaryBytes: statSync(join(outDir, `ddnsd-${arch.target}`)).size, rootfs };
}

type ImageRun = Bun.Subprocess<Blob, "pipe", "pipe">;

/**
 * Runs `args` (the image's entrypoint and command by default) from the root filesystem as the
 * image's user (or `user`, like `--user`) with the image's environment plus `env`: in a mount
 * namespace of its own, where /proc and /dev are mounted, so the mounts end with the process.
 * `emulator` (qemu) is copied in and put before the program, as binfmt_misc would.
 */
function runInImage(
  image: BuiltImage,
  options: { env?: Record<string, string>; args?: string[]; emulator?: string; user?: string; stdin?: string } = {},
): ImageRun {
  const { Config } = image.config;
  const command = options.args ?? [...Config.Entrypoint, ...Config.Cmd];
  const emulator = options.emulator && `/${basename(options.emulator)}`;
  if (emulator && !existsSync(join(image.rootfs, emulator)))
    copyFileSync(options.emulator!, join(image.rootfs, emulator));
  const imageEnv = Object.fromEntries(
    Config.Env.map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
  );
  const script = `${MOUNT} -t proc proc "$0/proc" && ${MOUNT} --rbind /dev "$0/dev" && exec ${CHROOT} --userspec="$1" "$0" "\${@:2}"`;
  const child = Bun.spawn(
    [
      UNSHARE!,
      "--mount",
      "--propagation=private",
      "--",
      BASH!,
      "-c",
      script,
      image.rootfs,
      options.user ?? Config.User,
      ...(emulator ? [emulator] : []),
      ...command,
    ],
    {
      env: { ...imageEnv, ...options.env },
      stdin: new Blob([options.stdin ?? ""]),
      stdout: "pipe",
      stderr: "pipe",
      timeout: 120_000,
      killSignal: "SIGKILL",
    },
  );
  children.push(child);
  return child;
}

async function outputOf(child: ImageRun) {
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { stdout, stderr, code };
}

/** Reads the server's stderr in the background; resolves with everything logged up to its "listening" line. */
async function waitForListening(child: ImageRun, log: { text: string }, deadlineMs: number): Promise<void> {
  void (async () => {
    const decoder = new TextDecoder();
    const reader = child.stderr.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      log.text += decoder.decode(chunk.value);
  })();
  const deadline = Date.now() + deadlineMs;
  while (!/listening url=/.test(log.text)) {
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`ddnsd did not start in the image:\n${log.text}`);
    await Bun.sleep(50);
  }
}

test("compose.yaml runs the release's image on port 8001 with /data as a volume, and names the tags `bun run image` loads as", async () => {
  const text = await Bun.file(join(ROOT, "compose.yaml")).text();
  const { services } = Bun.YAML.parse(text) as { services: Record<string, Record<string, unknown>> };
  expect(services.ddnsd).toMatchObject({
    restart: "unless-stopped",
    ports: ["8001:8001"],
    volumes: ["ddnsd-data:/data"],
  });
  expect(text).toContain(imageTag(AMD64, "<version>"));
  expect(text).toContain(imageTag(ARM64, "<version>"));
});

describe.skipIf(missing(AMD64) !== null)("the amd64 image", () => {
  let image: BuiltImage;
  let cloudflare: CloudflareFake;
  let echo: EchoFake;
  let server: ImageRun;
  const log = { text: "" };
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  let token = "";
  let providerId = 0;

  beforeAll(async () => {
    image = buildAndImport(AMD64);
    cloudflare = startCloudflareFake();
    echo = startEchoFake();
    server = runInImage(image, {
      env: {
        DDNS_HOST: "127.0.0.1",
        DDNS_PORT: String(port),
        DDNS_CLOUDFLARE_API_URL: cloudflare.url,
        DDNS_IPV4_URLS: `${echo.url}/v4`,
        DDNS_IPV6_URLS: `${echo.url}/v6`,
        // Written records' name servers are asked through no resolver: nothing leaves this machine.
        DDNS_RESOLVERS: "127.0.0.1:9",
        DDNS_HTTP_TIMEOUT: "5s",
        TZ: "Asia/Tokyo",
      },
    });
    await waitForListening(server, log, 30_000);
  }, 240_000);

  afterAll(async () => {
    server?.kill("SIGKILL");
    await cloudflare?.stop();
    await echo?.stop();
  });

  test("runs as the non-root ddnsd user with /data as its volume, port 8001 and a health check", () => {
    const { Architecture, Config, Healthcheck } = image.config;
    expect(Architecture).toBe("amd64");
    expect(Config.User).toBe("1000:1000");
    expect(Config.Env).toContain("DDNS_DATA_DIR=/data");
    expect(Config.Env).toContain("DDNS_PORT=8001");
    expect(Object.keys(Config.Volumes)).toEqual(["/data"]);
    expect(Object.keys(Config.ExposedPorts)).toEqual(["8001/tcp"]);
    expect([...Config.Entrypoint, ...Config.Cmd]).toEqual(["/usr/local/bin/ddnsd", "serve"]);
    // Survived the archive: an OCI archive would have dropped it.
    expect(Healthcheck?.Test).toEqual(["CMD", "/usr/local/bin/ddnsd", "healthcheck"]);
  });

  test(`is at most ${MAX_OVERHEAD * 100}% larger than the binary`, () => {
    expect(image.config.Size).toBeGreaterThan(image.binaryBytes);
    expect(image.config.Size).toBeLessThanOrEqual(image.binaryBytes * (1 + MAX_OVERHEAD));
  });

  test("holds the binary, its libraries, certificates, time zones and the ddnsd user, and no shell", () => {
    const at = (path: string) => join(image.rootfs, path);
    for (const path of [
      "/usr/local/bin/ddnsd",
      "/lib64/ld-linux-x86-64.so.2",
      "/lib/x86_64-linux-gnu/libc.so.6",
      "/etc/ssl/certs/ca-certificates.crt",
      "/usr/share/zoneinfo/Europe/Berlin",
    ]) {
      expect(existsSync(at(path))).toBe(true);
    }
    expect(existsSync(at("/bin/sh"))).toBe(false);
    expect(readFileSync(at("/etc/passwd"), "utf8")).toContain("ddnsd:x:1000:1000:");
    expect(readFileSync(at("/etc/group"), "utf8")).toContain("ddnsd:x:1000:");
  });

  test("carries the baseline x64 build (CPUs without AVX2, the NASes' Celerons) and serves its docs at /help", async () => {
    const version = await outputOf(runInImage(image, { args: ["/usr/local/bin/ddnsd", "version"] }));
    expect(version.code).toBe(0);
    expect(version.stdout).toContain("(linux-x64-baseline, bun ");
    expect((await fetch(`${base}/help/nas`)).status).toBe(200);
  });

  test("answers /healthz and serves /docs", async () => {
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    expect(await (await fetch(`${base}/docs`)).text()).toContain("/docs/assets/swagger-ui-bundle.js");
  });

  test("logs the first admin's generated password once, and it signs in", async () => {
    const passwords = [...log.text.matchAll(/first admin created: username admin, password (\S+)/g)].map(
      (match) => match[1]!,
    );
    expect(passwords).toHaveLength(1);
    const login = await fetch(`${base}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password: passwords[0] }),
    });
    expect(login.status).toBe(200);
    token = ((await login.json()) as { access_token: string }).access_token;
  });

  async function api(method: string, path: string, body?: unknown) {
    const response = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  test("a forced update writes the detected address to Cloudflare", async () => {
    cloudflare.addZone("example.com");
    cloudflare.addRecord("example.com", { type: "A", name: "home", content: "198.51.100.7" });
    const provider = await api("POST", "/providers", {
      name: "Cloudflare",
      type: "cloudflare",
      credentials: { api_token: CLOUDFLARE_FAKE_TOKEN },
    });
    expect(provider.status).toBe(200);
    providerId = provider.body.id;
    const domain = await api("POST", "/domains", { provider_id: providerId, domain_name: "home.example.com" });
    expect(domain.status).toBe(200);
    const update = await api("POST", `/domains/${domain.body.id}/update_ip`);
    expect(update.status).toBe(200);
    expect(cloudflare.record("home.example.com", "A")?.content).toBe(ECHO_DEFAULT_IPV4);
  });

  test("TZ sets the time zone of cron schedules", async () => {
    const domain = await api("POST", "/domains", {
      provider_id: providerId,
      domain_name: "cron.example.com",
      cron_schedule: "0 3 * * *",
    });
    expect(domain.status).toBe(200);
    // After an update, the next run is the schedule's.
    expect((await api("POST", `/domains/${domain.body.id}/update_ip`)).status).toBe(200);
    const updated = await api("GET", `/domains/${domain.body.id}`);
    // 03:00 in Tokyo (UTC+9, no daylight saving) is 18:00 UTC.
    expect(new Date(updated.body.next_run_at).getUTCHours()).toBe(18);
  });

  test("keeps its database and keys in /data, owned by uid 1000, keys with mode 0600", () => {
    for (const file of ["ddnsd.db", "secret.key", "encryption.key"]) {
      expect(statSync(join(image.rootfs, "data", file)).uid).toBe(1000);
    }
    for (const key of ["secret.key", "encryption.key"]) {
      expect(statSync(join(image.rootfs, "data", key)).mode & 0o777).toBe(0o600);
    }
  });

  test("`ddnsd healthcheck` in the image exits 0 while ddnsd answers, 1 with a reason when not", async () => {
    const healthy = await outputOf(runInImage(image, { env: { DDNS_PORT: String(port) }, args: HEALTHCHECK }));
    expect(healthy).toEqual({ stdout: "", stderr: "", code: 0 });
    const wrongPort = freePort();
    const unhealthy = await outputOf(runInImage(image, { env: { DDNS_PORT: String(wrongPort) }, args: HEALTHCHECK }));
    expect(unhealthy.code).toBe(1);
    expect(unhealthy.stderr).toStartWith(`ddnsd healthcheck: cannot reach http://127.0.0.1:${wrongPort}/healthz: `);
  });

  test("stops cleanly on SIGTERM, and the health check then fails", async () => {
    server.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    const after = await outputOf(runInImage(image, { env: { DDNS_PORT: String(port) }, args: HEALTHCHECK }));
    expect(after.code).toBe(1);
  });

  test("as another --user, a data folder it cannot write stops the start with a line naming DDNS_DATA_DIR", async () => {
    const { stdout, stderr, code } = await outputOf(
      runInImage(image, { env: { DDNS_PORT: String(freePort()) }, user: "1026:100" }),
    );
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toStartWith("ddnsd: Invalid setting DDNS_DATA_DIR: cannot write /data/ddnsd.lock: ");
  });

  test("a one-off `admin set-password` run on the stopped container's volume sets the password", async () => {
    const { stdout, code } = await outputOf(
      runInImage(image, {
        args: [...image.config.Config.Entrypoint, "admin", "set-password", "admin"],
        stdin: "a-new-long-password\n",
      }),
    );
    expect(code).toBe(0);
    expect(stdout.trim()).toBe("Password changed for admin.");
  });
});

describe.skipIf(missing(ARM64) !== null)("the arm64 image under qemu", () => {
  let image: BuiltImage;

  beforeAll(() => {
    image = buildAndImport(ARM64);
  }, 240_000);

  test("is an arm64 image of the same shape, within the size bound", () => {
    expect(image.config.Architecture).toBe("arm64");
    expect(image.config.Config.User).toBe("1000:1000");
    expect(image.config.Healthcheck?.Test).toEqual(["CMD", "/usr/local/bin/ddnsd", "healthcheck"]);
    expect(image.config.Size).toBeLessThanOrEqual(image.binaryBytes * (1 + MAX_OVERHEAD));
  });

  test("prints its version, serves /healthz, and its health check agrees", async () => {
    const version = await outputOf(runInImage(image, { args: ["/usr/local/bin/ddnsd", "version"], emulator: QEMU }));
    expect(version.code).toBe(0);
    expect(version.stdout).toStartWith("ddnsd ");

    const port = freePort();
    const env = { DDNS_HOST: "127.0.0.1", DDNS_PORT: String(port), DDNS_ADMIN_PASSWORD: "arm64-image-password" };
    const server = runInImage(image, { env, emulator: QEMU });
    await waitForListening(server, { text: "" }, 90_000);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    const check = await outputOf(runInImage(image, { env, args: HEALTHCHECK, emulator: QEMU }));
    expect(check).toEqual({ stdout: "", stderr: "", code: 0 });
    server.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  }, 180_000);
});
