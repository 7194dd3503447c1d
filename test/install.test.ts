// install.sh against a scratch root: DESTDIR is a fresh temp dir, the binary is a small shell
// script, and useradd/chown/systemctl & co. are stubs that record any call — a DESTDIR run must
// never touch the real system, also when the tests run as root. The fake binary implements
// `admin set-password <user>` by recording the user, its argv, DDNS_DATA_DIR, its umask, a
// SHA-256 of what it read on stdin (never the password itself), and whether that password was
// in the argv or the environment of any process it could see (ps), in the data dir: so that a
// test can check the call, and that no password text is stored anywhere under the scratch root.

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
const SET_PASSWORD_LOG = "fake-set-password.log";
const UNIT_DIRECTIVES = [
  "Type=simple", "User=ddnsd", "Group=ddnsd", "EnvironmentFile=/etc/ddnsd/ddnsd.env",
  "ExecStart=/usr/local/bin/ddnsd serve", "WorkingDirectory=/var/lib/ddnsd",
  "After=network-online.target", "Wants=network-online.target", "Restart=on-failure",
  "RestartSec=5", "TimeoutStopSec=20", "KillSignal=SIGTERM", "WantedBy=multi-user.target",
];

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
  "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX AF_NETLINK",
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
  fs.writeFileSync(file, `#!/bin/sh
if [ "$1" = admin ] && [ "$2" = set-password ]; then
  if [ -z "$3" ] || [ -z "\${DDNS_DATA_DIR:-}" ]; then echo "fake: no user or no DDNS_DATA_DIR" >&2; exit 2; fi
  mkdir -p "$DDNS_DATA_DIR" || exit 1
  input=$(cat; echo .)
  input=\${input%.}
  digest=$(printf '%s' "$input" | sha256sum | cut -d ' ' -f 1)
  # Every process's argv and (where readable) environment, while the installer waits on us;
  # matched with case, so that no process of ours has the password in its argv meanwhile.
  seen=$(for file in /proc/[0-9]*/cmdline /proc/[0-9]*/environ; do tr '\\0' ' ' <"$file"; echo; done 2>/dev/null)
  password=\${input%?}
  case $seen in
  *"$password"*) exposed=yes ;;
  *) exposed=no ;;
  esac
  printf 'user=%s|argc=%s|args=%s|bin=%s|data=%s|umask=%s|stdin=%s|exposed=%s\\n' "$3" "$#" "$*" "$0" \\
    "$DDNS_DATA_DIR" "$(umask)" "$digest" "$exposed" >>"$DDNS_DATA_DIR/${SET_PASSWORD_LOG}"
  : >>"$DDNS_DATA_DIR/ddnsd.db"
  echo "Password set for the new user $3."
  exit 0
fi
echo "ddnsd ${version}"
`, { mode: 0o755 });
  return file;
}

/** A binary that runs nowhere: what a staged install for another machine sees. */
function foreignBinary(file: string): string {
  fs.writeFileSync(file, "#!/bin/sh\nexit 126\n", { mode: 0o755 });
  return file;
}

const sha256 = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex");

interface SetPasswordCall {
  user: string;
  argc: string;
  args: string;
  bin: string;
  data: string;
  umask: string;
  stdin: string;
  exposed: string;
}

/** The `admin set-password` calls the fake binary recorded in the data dir `dataDir`. */
function setPasswordCalls(dataDir: string): SetPasswordCall[] {
  const log = path.join(dataDir, SET_PASSWORD_LOG);
  if (!fs.existsSync(log)) return [];
  return fs.readFileSync(log, "utf8").trim().split("\n").map((line) =>
    Object.fromEntries(line.split("|").map((field) => {
      const at = field.indexOf("=");
      return [field.slice(0, at), field.slice(at + 1)];
    })) as unknown as SetPasswordCall
  );
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return fs.lstatSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

/** The files under `dir` that hold `secret` (their bytes read as latin1, so any text matches). */
function filesHolding(dir: string, secret: string): string[] {
  return filesUnder(dir).filter((file) => fs.readFileSync(file).toString("latin1").includes(secret));
}

/** Writes an executable stub `name` into `dir` that prints `output`. */
function stub(dir: string, name: string, output: string): void {
  fs.writeFileSync(path.join(dir, name), `#!/bin/sh\necho '${output}'\n`, { mode: 0o755 });
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
  const calls = () => setPasswordCalls(at(DATA));
  /** The one call that set `password` for `user`, with the data dir under DESTDIR, nothing in argv. */
  const expectSetPassword = (call: SetPasswordCall | undefined, password: string, user = "admin") => {
    expect(call).toBeDefined();
    expect(call!.user).toBe(user);
    expect(call!.argc).toBe("3");
    expect(call!.args).toBe(`admin set-password ${user}`);
    expect(call!.data).toBe(at(DATA));
    expect(call!.stdin).toBe(sha256(`${password}\n`));
    expect(call!.exposed).toBe("no"); // in no process's argv (ps) or environment
    expect(call!.umask).toBe("0077"); // like the unit's UMask=
  };
  /** No file under the scratch root holds `password`: not the settings, not the unit, not the data dir. */
  const expectStoredNowhere = (password: string) => {
    expect(filesHolding(s.root, password)).toEqual([]);
  };
  const envLines = () => read(at(ENV)).split("\n");

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

    const env = envLines();
    expect(env).toContain("DDNS_PORT='8123'");
    expect(env).toContain("DDNS_HOST='0.0.0.0'");
    expect(env).toContain("DDNS_DATA_DIR='/var/lib/ddnsd'");
    expect(env).toContain("DDNS_ADMIN_USERNAME='admin'");
    expect(env).toContain("#DDNS_LOG_FORMAT='text'");
    expect(read(at(ENV))).not.toMatch(/^\s*DDNS_ADMIN_PASSWORD=/m);
    expect(read(at(ENV))).toContain("--reset-admin-password");

    const unit = read(at(UNIT)).split("\n");
    for (const line of [...UNIT_DIRECTIVES, ...HARDENING]) {
      expect(unit).toContain(line);
    }

    expect(result.stdout).toContain("ddnsd 9.9.9-test");
    expect(result.stdout).toContain("ddnsd serve");
    expect(result.stdout).toContain(`sign in as admin with the password from ${s.passwordFile}`);
    expect(result.stdout).toContain("--reset-admin-password");
    expect(result.stdout).not.toContain(PASSWORD);
    expect(result.stdout).not.toContain("DDNS_ADMIN_PASSWORD"); // no hint points at the settings file for it
    expect(fs.existsSync(s.callLog)).toBe(false);
  });

  test("creates the admin with ddnsd admin set-password, the password on stdin only, stored nowhere", () => {
    const result = install();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("admin: password of 'admin' set");
    const recorded = calls();
    expect(recorded.length).toBe(1);
    expectSetPassword(recorded[0], PASSWORD);
    expect(recorded[0]!.bin).toBe(at(BIN)); // the installed binary, not a staged copy
    expectStoredNowhere(PASSWORD);
    expect(envLines().filter((line) => line.includes("PASSWORD="))).toEqual([]);
  });

  test("the unit stops restarting after 5 failed starts within 120 s", () => {
    expect(install().code).toBe(0);
    const unit = read(at(UNIT));
    const section = (name: string) => unit.split(`[${name}]\n`)[1]!.split("\n[")[0]!.split("\n");
    expect(section("Unit")).toContain("StartLimitIntervalSec=120");
    expect(section("Unit")).toContain("StartLimitBurst=5");
    expect(section("Service")).toContain("Restart=on-failure");
    expect(section("Service")).toContain("RestartSec=5");
    expect(section("Service").filter((line) => line.startsWith("StartLimit"))).toEqual([]);
  });

  test("honours --prefix in the install path and in ExecStart", () => {
    expect(install("--prefix", "/opt/ddnsd").code).toBe(0);
    expect(mode(at("/opt/ddnsd/bin/ddnsd"))).toBe(0o755);
    expect(read(at(UNIT))).toContain("\nExecStart=/opt/ddnsd/bin/ddnsd serve\n");
    expect(fs.existsSync(at(BIN))).toBe(false);
    expect(calls()[0]!.bin).toBe(at("/opt/ddnsd/bin/ddnsd"));
  });

  test("a re-run is idempotent, keeps the settings byte for byte and leaves the account alone", () => {
    expect(install().code).toBe(0);
    const env = read(at(ENV));
    const unit = read(at(UNIT));

    const again = run(["--binary", s.binary, "--no-start"]);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe("");
    expect(again.stdout).toContain("settings: kept");
    expect(again.stdout).toContain("admin: kept the account 'admin'");
    expect(again.stdout).toContain("--reset-admin-password");
    expect(calls().length).toBe(1);
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

  test("a password file on a re-run sets the new password and leaves the settings alone", () => {
    expect(install().code).toBe(0);
    const env = read(at(ENV));
    fs.writeFileSync(s.passwordFile, "another-secret-1\n");

    const result = install();
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(read(at(ENV))).toBe(env);
    const recorded = calls();
    expect(recorded.length).toBe(2);
    expectSetPassword(recorded[1], "another-secret-1");
    expectStoredNowhere("another-secret-1");
    expect(result.stdout).not.toContain("another-secret-1");
  });

  test("an upgrade replaces the binary and leaves data, settings and the account alone", () => {
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
    expect(calls().length).toBe(1);
  });

  test("a re-run removes a DDNS_ADMIN_PASSWORD line of an earlier install, says so, and keeps the account", () => {
    expect(install().code).toBe(0);
    const env = read(at(ENV));
    fs.writeFileSync(at(ENV), env.replace("DDNS_ADMIN_USERNAME='admin'\n", "DDNS_ADMIN_USERNAME='admin'\nDDNS_ADMIN_PASSWORD='stale-old-password'\n"));

    const result = run(["--binary", s.binary, "--no-start"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("removed the plain-text DDNS_ADMIN_PASSWORD line");
    expect(result.stdout).not.toContain("settings: kept");
    expect(read(at(ENV))).toBe(env);
    expect(mode(at(ENV))).toBe(0o600);
    expect(calls().length).toBe(1); // the database has a user: its password stays
    expectStoredNowhere("stale-old-password");
  });

  test("without a database yet, a DDNS_ADMIN_PASSWORD line of an earlier install becomes the admin's password", () => {
    expect(install().code).toBe(0);
    const env = read(at(ENV));
    fs.writeFileSync(at(ENV), `${env}DDNS_ADMIN_PASSWORD='from-the-old-installer'\n`);
    fs.rmSync(at(DATA), { recursive: true }); // e.g. installed with --no-start, never started

    const result = run(["--binary", s.binary, "--no-start"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expectSetPassword(calls()[0], "from-the-old-installer");
    expect(calls().length).toBe(1);
    expect(result.stdout).toContain("removed the plain-text DDNS_ADMIN_PASSWORD line");
    expect(result.stdout).toContain("password of the earlier install");
    expect(result.stdout).not.toContain("from-the-old-installer");
    expect(read(at(ENV))).toBe(env);
    expectStoredNowhere("from-the-old-installer");
  });

  test("--uninstall keeps data and settings; --purge removes them", () => {
    expect(install().code).toBe(0);
    fs.writeFileSync(at(`${DATA}/ddnsd.db`), "database");

    const removed = run(["--uninstall"]);
    expect(removed.code).toBe(0);
    expect(fs.existsSync(at(UNIT))).toBe(false);
    expect(fs.existsSync(at(BIN))).toBe(false);
    expect(read(at(`${DATA}/ddnsd.db`))).toBe("database");
    expect(envLines()).toContain("DDNS_ADMIN_USERNAME='admin'");
    expect(read(at(ENV))).not.toContain(PASSWORD);
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

  test("without a password file and a terminal, generates a password, sets it and prints it once", () => {
    const result = run(["--binary", s.binary, "--no-start"]);
    expect(result.code).toBe(0);
    const match = result.stdout.match(/^ {6}([A-Za-z0-9]+)$/m);
    expect(match).not.toBeNull();
    const generated = match![1]!;
    expect(generated.length).toBeGreaterThanOrEqual(20);
    expect(occurrences(result.stdout, generated)).toBe(1);
    expect(result.stderr).not.toContain(generated);
    expect(result.stdout).toContain("sign in as admin with the password shown above");
    expect(calls().length).toBe(1);
    expectSetPassword(calls()[0], generated);
    expectStoredNowhere(generated);
    expect(read(at(ENV))).not.toMatch(/^\s*DDNS_ADMIN_PASSWORD=/m);
  });

  test("--reset-admin-password sets a new password with the installed binary and changes nothing else", () => {
    expect(install("--prefix", "/opt/ddnsd").code).toBe(0);
    const before = filesUnder(s.root).filter((file) => !file.startsWith(at(DATA))).map((file) => [file, read(file)]);
    fs.writeFileSync(s.passwordFile, "the-new-password!\n");

    const result = run(["--reset-admin-password", "--admin-password-file", s.passwordFile]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("no restart");
    const recorded = calls();
    expect(recorded.length).toBe(2);
    expectSetPassword(recorded[1], "the-new-password!");
    expect(recorded[1]!.bin).toBe(at("/opt/ddnsd/bin/ddnsd")); // found through the unit's ExecStart
    const after = filesUnder(s.root).filter((file) => !file.startsWith(at(DATA))).map((file) => [file, read(file)]);
    expect(after).toEqual(before);
    expectStoredNowhere("the-new-password!");
    expect(fs.existsSync(s.callLog)).toBe(false);
  });

  test("--reset-admin-password without a file and a terminal generates a password and prints it once", () => {
    expect(install().code).toBe(0);
    const result = run(["--reset-admin-password"]);
    expect(result.code).toBe(0);
    const generated = result.stdout.match(/^ {6}([A-Za-z0-9]{20,})$/m)![1]!;
    expect(occurrences(result.stdout, generated)).toBe(1);
    expectSetPassword(calls()[1], generated);
    expectStoredNowhere(generated);
  });

  test("--reset-admin-password uses DDNS_ADMIN_USERNAME and DDNS_DATA_DIR from the settings file", () => {
    expect(install().code).toBe(0);
    fs.writeFileSync(at(ENV), read(at(ENV))
      .replace("DDNS_ADMIN_USERNAME='admin'", "DDNS_ADMIN_USERNAME='root@home'")
      .replace("DDNS_DATA_DIR='/var/lib/ddnsd'", "DDNS_DATA_DIR='/srv/ddnsd'"));
    const result = run(["--reset-admin-password", "--admin-password-file", s.passwordFile]);
    expect(result.code).toBe(0);
    const [call] = setPasswordCalls(at("/srv/ddnsd"));
    expect(call!.user).toBe("root@home");
    expect(call!.data).toBe(at("/srv/ddnsd"));
    expect(call!.stdin).toBe(sha256(`${PASSWORD}\n`));
    expect(result.stdout).toContain("sign in as root@home");
  });

  test("--reset-admin-password before any install fails clearly", () => {
    const result = run(["--reset-admin-password", "--admin-password-file", s.passwordFile]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("not installed");
    expect(fs.existsSync(s.root)).toBe(false);
  });

  test("a staged install whose binary does not run here sets no password and stores none", () => {
    const foreign = foreignBinary(path.join(s.dir, "ddnsd-other-arch"));
    const result = run(["--binary", foreign, "--no-start", "--admin-password-file", s.passwordFile]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("admin password is not set");
    expect(result.stdout).toContain("writes a generated password to its log");
    expect(read(at(BIN))).toBe(read(foreign));
    expect(calls()).toEqual([]);
    expectStoredNowhere(PASSWORD);
    expect(read(at(ENV))).not.toMatch(/^\s*DDNS_ADMIN_PASSWORD=/m);
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
    for (const option of [
      "--binary", "--prefix", "--port", "--admin-password-file", "--reset-admin-password", "--no-start", "--uninstall",
      "--purge",
    ]) {
      expect(result.stdout).toContain(option);
    }
    expect(result.stdout).toContain("--binary ./ddnsd-linux-arm64");
    expect(result.stdout).toContain("~550 MB");
    expect(fs.existsSync(s.root)).toBe(false);
  });

  test.each([
    [["--frobnicate"], "unknown option: --frobnicate"],
    [["--port"], "option --port needs a value"],
    [["--port", "99999"], "--port must be a number from 1 to 65535"],
    [["--purge"], "--purge only goes with --uninstall"],
    [["--prefix", "relative/dir"], "--prefix must be an absolute path"],
    [["--reset-admin-password", "--binary", "x"], "--binary does not go with --reset-admin-password"],
    [["--reset-admin-password", "--no-start"], "--no-start does not go with --reset-admin-password"],
    [["--uninstall", "--reset-admin-password"], "--reset-admin-password does not go with --uninstall"],
  ])("refuses %p with a clear message", (args, message) => {
    const result = run(args);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(message);
    expect(fs.existsSync(s.root)).toBe(false);
  });

  test.each([
    ["two lines", "first-line\nsecond-line"],
    ["a carriage return", "windows-line\r"],
    ["a leading space", " leading-space"],
    ["fewer than 8 characters", "short"],
  ])("refuses a password file with %s, before installing anything", (_, password) => {
    fs.writeFileSync(s.passwordFile, `${password}\n`);
    const result = install();
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("admin password");
    expect(fs.existsSync(at(ENV))).toBe(false);
    expect(fs.existsSync(at(BIN))).toBe(false);
    expect(calls()).toEqual([]);
  });

  test("passes a password with quotes, $, backslashes and backticks through unchanged", () => {
    const password = `it's a "pa$$word" \\with \`ticks\` & $(stuff)`;
    fs.writeFileSync(s.passwordFile, `${password}\n`);
    const result = install();
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expectSetPassword(calls()[0], password);
    expectStoredNowhere(password);
  });

  test("works when piped into the shell (curl ... | sh), without eating its own script", () => {
    const piped = spawn(s, [shell, "-s", "--", "--binary", s.binary, "--no-start"], fs.readFileSync(SCRIPT));
    expect(piped.stderr).toBe("");
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain("done: ddnsd 9.9.9-test installed");
    expect(read(at(UNIT))).toContain("WantedBy=multi-user.target");
    const generated = piped.stdout.match(/^ {6}([A-Za-z0-9]{20,})$/m)![1]!;
    expectSetPassword(calls()[0], generated);
    expect(read(at(ENV))).not.toMatch(/^\s*DDNS_ADMIN_PASSWORD=/m);
  });

  test("fails clearly when the binary does not exist", () => {
    const result = run(["--binary", path.join(s.dir, "missing"), "--no-start"]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("binary not found");
  });

  describe("picking the build from dist/ next to the script", () => {
    let script: string;
    let dist: (name: string) => string;
    const variants = ["ddnsd-linux-x64", "ddnsd-linux-arm64", "ddnsd-linux-x64-musl", "ddnsd-linux-arm64-musl"];
    const musl = fs.readdirSync("/lib").some((name) => name.startsWith("ld-musl-"));

    beforeEach(() => {
      const copy = path.join(s.dir, "release");
      fs.mkdirSync(path.join(copy, "dist"), { recursive: true });
      script = path.join(copy, "install.sh");
      fs.copyFileSync(SCRIPT, script);
      dist = (name: string) => path.join(copy, "dist", name);
      for (const name of variants) fakeBinary(dist(name), name);
      fakeBinary(dist("ddnsd"), "fallback");
    });

    test("picks the build for this machine, else dist/ddnsd", () => {
      const result = run(["--no-start", "--admin-password-file", s.passwordFile], script);
      const arch = process.arch === "arm64" ? "arm64" : "x64";
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

    test("picks the ARM64 build on a 64-bit ARM system", () => {
      stub(s.stubs, "uname", "aarch64");
      stub(s.stubs, "getconf", "64");
      stub(s.stubs, "dpkg", "arm64");
      const result = run(["--no-start", "--admin-password-file", s.passwordFile], script);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(read(at(BIN))).toBe(read(dist(`ddnsd-linux-arm64${musl ? "-musl" : ""}`)));
    });

    test.each([
      ["a 64-bit kernel (aarch64) with getconf LONG_BIT = 32", { uname: "aarch64", getconf: "32", dpkg: "arm64" }],
      ["a 64-bit kernel (aarch64) with dpkg architecture armhf", { uname: "aarch64", getconf: "64", dpkg: "armhf" }],
      ["armv7l", { uname: "armv7l", getconf: "32", dpkg: "armhf" }],
      ["armv6l", { uname: "armv6l", getconf: "32", dpkg: "armhf" }],
    ])("stops on a 32-bit userland: %s", (_, tools) => {
      for (const [name, output] of Object.entries(tools)) stub(s.stubs, name, output);
      const result = run(["--no-start", "--admin-password-file", s.passwordFile], script);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(
        "this system's userland is 32-bit; ddnsd needs a 64-bit OS (install 64-bit Raspberry Pi OS)",
      );
      expect(fs.existsSync(s.root)).toBe(false);
    });
  });
});
