// install.sh against a scratch root: DESTDIR is a fresh temp dir, the binary is a small shell
// script, and useradd/chown/systemctl & co. are stubs that record any call — a DESTDIR run must
// never touch the real system, also when the tests run as root.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const SCRIPT = path.resolve(import.meta.dir, "../install.sh");
// Each distinct shell once (on Debian `sh` is dash); bash reads a piped script line by line,
// which is what catches a command that swallows stdin.
const SHELLS = [...new Map(
  ["sh", "dash", "bash"].flatMap((shell) => {
    const found = Bun.which(shell);
    return found === null ? [] : [[fs.realpathSync(found), shell] as const];
  }),
).values()];
const LIVE_SYSTEM_TOOLS = [
  "useradd", "adduser", "addgroup", "userdel", "deluser", "groupdel", "delgroup", "chown", "systemctl",
];
const PASSWORD = "correct-horse-battery";

const HARDENING = [
  "NoNewPrivileges=true",
  "ProtectSystem=strict",
  "ReadWritePaths=/var/lib/ddnsd",
  "PrivateTmp=true",
  "ProtectHome=true",
  "CapabilityBoundingSet=",
  "AmbientCapabilities=",
  "PrivateDevices=true",
  "ProtectKernelTunables=true",
  "ProtectKernelModules=true",
  "ProtectControlGroups=true",
  "RestrictSUIDSGID=true",
  "LockPersonality=true",
  "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX",
];

interface Scratch {
  dir: string;
  root: string;
  binary: string;
  passwordFile: string;
  callLog: string;
  stubs: string;
}

function fakeBinary(file: string, version: string): string {
  fs.writeFileSync(file, `#!/bin/sh\necho "ddnsd ${version}"\n`, { mode: 0o755 });
  return file;
}

function makeScratch(): Scratch {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ddnsd-install-"));
  const stubs = path.join(dir, "stubs");
  const callLog = path.join(dir, "calls.log");
  fs.mkdirSync(stubs);
  for (const tool of LIVE_SYSTEM_TOOLS) {
    fs.writeFileSync(path.join(stubs, tool), `#!/bin/sh\necho "${tool} $*" >>'${callLog}'\nexit 1\n`, { mode: 0o755 });
  }
  const passwordFile = path.join(dir, "admin-password");
  fs.writeFileSync(passwordFile, `${PASSWORD}\n`);
  return {
    dir,
    root: path.join(dir, "root"),
    binary: fakeBinary(path.join(dir, "ddnsd-fake"), "9.9.9-test"),
    passwordFile,
    callLog,
    stubs,
  };
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function runWith(shell: string, s: Scratch, args: string[], script = SCRIPT): Run {
  return spawn(s, [shell, script, ...args], "ignore");
}

function spawn(s: Scratch, command: string[], stdin: "ignore" | Buffer): Run {
  const result = Bun.spawnSync(command, {
    env: { PATH: `${s.stubs}:${process.env.PATH}`, HOME: s.dir, DESTDIR: s.root, LC_ALL: "C" },
    stdin,
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: result.exitCode ?? -1, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

const mode = (file: string) => fs.statSync(file).mode & 0o777;
const read = (file: string) => fs.readFileSync(file, "utf8");
const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe.each(SHELLS)("install.sh under %s", (shell) => {
  let s: Scratch;
  const run = (args: string[], script?: string) => runWith(shell, s, args, script);
  const at = (file: string) => path.join(s.root, file);
  const BIN = "/usr/local/bin/ddnsd";
  const ENV = "/etc/ddnsd/ddnsd.env";
  const UNIT = "/etc/systemd/system/ddnsd.service";
  const DATA = "/var/lib/ddnsd";
  const install = (...extra: string[]) =>
    run(["--binary", s.binary, "--no-start", "--admin-password-file", s.passwordFile, ...extra]);

  beforeEach(() => {
    s = makeScratch();
  });
  afterEach(() => {
    fs.rmSync(s.dir, { recursive: true, force: true });
  });

  test("passes sh -n", () => {
    expect(Bun.spawnSync([shell, "-n", SCRIPT]).exitCode).toBe(0);
  });

  test("installs binary, data dir, settings and unit with the right modes", () => {
    const result = install("--port", "8123");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);

    expect(mode(at(BIN))).toBe(0o755);
    expect(read(at(BIN))).toBe(read(s.binary));
    expect(fs.statSync(at(DATA)).isDirectory()).toBe(true);
    expect(mode(at(DATA))).toBe(0o700);
    expect(mode(at("/etc/ddnsd"))).toBe(0o750);
    expect(mode(at(ENV))).toBe(0o600);
    expect(mode(at(UNIT))).toBe(0o644);

    const env = read(at(ENV)).split("\n");
    expect(env).toContain("DDNS_PORT='8123'");
    expect(env).toContain("DDNS_HOST='0.0.0.0'");
    expect(env).toContain("DDNS_DATA_DIR='/var/lib/ddnsd'");
    expect(env).toContain("DDNS_ADMIN_USERNAME='admin'");
    expect(env).toContain(`DDNS_ADMIN_PASSWORD='${PASSWORD}'`);
    expect(env).toContain("#DDNS_LOG_FORMAT='text'");
    expect(read(at(ENV))).toContain("no user");

    const unit = read(at(UNIT)).split("\n");
    for (const line of [
      "Type=simple", "User=ddnsd", "Group=ddnsd", "EnvironmentFile=/etc/ddnsd/ddnsd.env",
      "ExecStart=/usr/local/bin/ddnsd serve", "WorkingDirectory=/var/lib/ddnsd",
      "After=network-online.target", "Wants=network-online.target", "Restart=on-failure",
      "RestartSec=5", "TimeoutStopSec=20", "KillSignal=SIGTERM", "WantedBy=multi-user.target",
      ...HARDENING,
    ]) {
      expect(unit).toContain(line);
    }

    expect(result.stdout).toContain("ddnsd 9.9.9-test");
    expect(result.stdout).toContain("ddnsd serve");
    expect(result.stdout).not.toContain(PASSWORD);
    expect(fs.existsSync(s.callLog)).toBe(false);
  });

  test("honours --prefix in the install path and in ExecStart", () => {
    expect(install("--prefix", "/opt/ddnsd").code).toBe(0);
    expect(mode(at("/opt/ddnsd/bin/ddnsd"))).toBe(0o755);
    expect(read(at(UNIT))).toContain("\nExecStart=/opt/ddnsd/bin/ddnsd serve\n");
    expect(fs.existsSync(at(BIN))).toBe(false);
  });

  test("a re-run is idempotent and keeps the settings byte for byte", () => {
    expect(install().code).toBe(0);
    const env = read(at(ENV));
    const unit = read(at(UNIT));

    const again = run(["--binary", s.binary, "--no-start"]);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe("");
    expect(again.stdout).toContain("settings: kept");
    expect(read(at(ENV))).toBe(env);
    expect(read(at(UNIT))).toBe(unit);
    expect(mode(at(ENV))).toBe(0o600);

    const settings = env.split("\n").filter((line) => line.startsWith("DDNS_"));
    expect(new Set(settings).size).toBe(settings.length);
    const directives = unit.split("\n").filter((line) => /^[A-Za-z]+=/.test(line));
    expect(new Set(directives).size).toBe(directives.length);
    for (const dir of ["/etc/ddnsd", "/etc/systemd/system", "/usr/local/bin"]) {
      expect(fs.readdirSync(at(dir)).filter((name) => name.includes(".new."))).toEqual([]);
    }
  });

  test("a password file on a re-run replaces only the password line", () => {
    expect(install().code).toBe(0);
    const before = read(at(ENV)).split("\n");
    fs.writeFileSync(s.passwordFile, "another-secret-1\n");

    const result = install();
    expect(result.code).toBe(0);
    const after = read(at(ENV)).split("\n");
    expect(after.length).toBe(before.length);
    const differing = after.filter((line, i) => line !== before[i]);
    expect(differing).toEqual(["DDNS_ADMIN_PASSWORD='another-secret-1'"]);
    expect(mode(at(ENV))).toBe(0o600);
  });

  test("an upgrade replaces the binary and leaves data and settings alone", () => {
    expect(install().code).toBe(0);
    fs.writeFileSync(at(`${DATA}/ddnsd.db`), "database");
    const env = read(at(ENV));

    const upgraded = fakeBinary(path.join(s.dir, "ddnsd-new"), "10.0.0");
    const result = run(["--binary", upgraded, "--no-start"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("ddnsd 10.0.0");
    expect(read(at(BIN))).toBe(read(upgraded));
    expect(mode(at(BIN))).toBe(0o755);
    expect(read(at(`${DATA}/ddnsd.db`))).toBe("database");
    expect(read(at(ENV))).toBe(env);
  });

  test("--uninstall keeps data and settings; --purge removes them", () => {
    expect(install().code).toBe(0);
    fs.writeFileSync(at(`${DATA}/ddnsd.db`), "database");

    const removed = run(["--uninstall"]);
    expect(removed.code).toBe(0);
    expect(fs.existsSync(at(UNIT))).toBe(false);
    expect(fs.existsSync(at(BIN))).toBe(false);
    expect(read(at(`${DATA}/ddnsd.db`))).toBe("database");
    expect(read(at(ENV))).toContain(PASSWORD);
    expect(removed.stdout).toContain("kept");

    expect(run(["--uninstall"]).code).toBe(0); // nothing left to remove: still fine

    const purged = run(["--uninstall", "--purge"]);
    expect(purged.code).toBe(0);
    expect(fs.existsSync(at(DATA))).toBe(false);
    expect(fs.existsSync(at("/etc/ddnsd"))).toBe(false);
    expect(fs.existsSync(s.callLog)).toBe(false);
  });

  test("--uninstall removes the binary the unit runs, whatever the prefix", () => {
    expect(install("--prefix", "/opt/ddnsd").code).toBe(0);
    expect(run(["--uninstall"]).code).toBe(0);
    expect(fs.existsSync(at("/opt/ddnsd/bin/ddnsd"))).toBe(false);
  });

  test("without a password file and a terminal, generates a password and prints it once", () => {
    const result = run(["--binary", s.binary, "--no-start"]);
    expect(result.code).toBe(0);
    const match = read(at(ENV)).match(/^DDNS_ADMIN_PASSWORD='([A-Za-z0-9]+)'$/m);
    expect(match).not.toBeNull();
    const generated = match![1]!;
    expect(generated.length).toBeGreaterThanOrEqual(20);
    expect(occurrences(result.stdout, generated)).toBe(1);
    expect(result.stderr).not.toContain(generated);
  });

  test("a port below 1024 gets CAP_NET_BIND_SERVICE", () => {
    expect(install("--port", "443").code).toBe(0);
    const unit = read(at(UNIT)).split("\n");
    expect(unit).toContain("CapabilityBoundingSet=CAP_NET_BIND_SERVICE");
    expect(unit).toContain("AmbientCapabilities=CAP_NET_BIND_SERVICE");
  });

  test("--help prints usage and exits 0", () => {
    const result = run(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Usage:");
    for (const option of ["--binary", "--prefix", "--port", "--admin-password-file", "--no-start", "--uninstall", "--purge"]) {
      expect(result.stdout).toContain(option);
    }
    expect(fs.existsSync(s.root)).toBe(false);
  });

  test.each([
    [["--frobnicate"], "unknown option: --frobnicate"],
    [["--port"], "option --port needs a value"],
    [["--port", "99999"], "--port must be a number from 1 to 65535"],
    [["--purge"], "--purge only goes with --uninstall"],
    [["--prefix", "relative/dir"], "--prefix must be an absolute path"],
  ])("refuses %p with a clear message", (args, message) => {
    const result = run(args);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(message);
    expect(fs.existsSync(s.root)).toBe(false);
  });

  test.each([
    ["a $ sign", "pa$$word-long"],
    ["a quote", "it's-a-password"],
    ["a backslash", "back\\slash-pass"],
    ["two lines", "first-line\nsecond-line"],
    ["fewer than 8 characters", "short"],
  ])("refuses a password file with %s, before installing anything", (_, password) => {
    fs.writeFileSync(s.passwordFile, `${password}\n`);
    const result = install();
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("admin password");
    expect(fs.existsSync(at(ENV))).toBe(false);
    expect(fs.existsSync(at(BIN))).toBe(false);
  });

  test("works when piped into the shell (curl ... | sh), without eating its own script", () => {
    const piped = spawn(s, [shell, "-s", "--", "--binary", s.binary, "--no-start"], fs.readFileSync(SCRIPT));
    expect(piped.stderr).toBe("");
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain("done: ddnsd 9.9.9-test installed");
    expect(read(at(UNIT))).toContain("WantedBy=multi-user.target");
    expect(read(at(ENV))).toMatch(/^DDNS_ADMIN_PASSWORD='[A-Za-z0-9]{20,}'$/m);
  });

  test("fails clearly when the binary does not exist", () => {
    const result = run(["--binary", path.join(s.dir, "missing"), "--no-start"]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("binary not found");
  });

  test("picks the build for this machine from dist/ next to the script, else dist/ddnsd", () => {
    const copy = path.join(s.dir, "release");
    fs.mkdirSync(path.join(copy, "dist"), { recursive: true });
    fs.copyFileSync(SCRIPT, path.join(copy, "install.sh"));
    const script = path.join(copy, "install.sh");
    const dist = (name: string) => path.join(copy, "dist", name);
    const variants = ["ddnsd-linux-x64", "ddnsd-linux-arm64", "ddnsd-linux-x64-musl", "ddnsd-linux-arm64-musl"];
    for (const name of variants) fakeBinary(dist(name), name);
    fakeBinary(dist("ddnsd"), "fallback");

    const result = run(["--no-start", "--admin-password-file", s.passwordFile], script);
    const arch = process.arch === "arm64" ? "arm64" : "x64";
    const musl = fs.readdirSync("/lib").some((name) => name.startsWith("ld-musl-"));
    const expected = `ddnsd-linux-${arch}${musl ? "-musl" : ""}`;
    if (process.arch === "x64" || process.arch === "arm64") {
      expect(result.code).toBe(0);
      expect(read(at(BIN))).toBe(read(dist(expected)));
    }

    for (const name of variants) fs.rmSync(dist(name));
    const fallback = run(["--no-start"], script);
    expect(fallback.code).toBe(0);
    expect(read(at(BIN))).toBe(read(dist("ddnsd")));

    fs.rmSync(dist("ddnsd"));
    const none = run(["--no-start"], script);
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain("bun run release");
  });
});
