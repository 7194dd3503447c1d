// install.sh against a scratch root: DESTDIR is a fresh temp dir, the binary is a small shell
// script, releases to download are a directory served on loopback (DDNS_RELEASE_URL), and
// useradd/chown/systemctl & co. are stubs that record any call — a DESTDIR run must
// never touch the real system, also when the tests run as root. The fake binary implements
// `admin set-password <user>` by recording the user, its argv, DDNS_DATA_DIR, its umask, a
// SHA-256 of what it read on stdin (never the password itself), and whether that password was
// in the argv or the environment of any process it could see (ps), in the data dir: so that a
// test can check the call, and that no password text is stored anywhere under the scratch root.

import { afterAll, afterEach, beforeEach, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnAppliance, untilHealthy } from "./hardening/appliance";

const SCRIPT = path.resolve(import.meta.dir, "../install.sh");
// Each distinct shell once (on Debian `sh` is dash); bash reads a piped script line by line,
// which is what catches a command that swallows stdin.
const SHELLS = [
  ...new Map(
    ["sh", "dash", "bash"].flatMap((shell) => {
      const found = Bun.which(shell);
      return found === null ? [] : [[fs.realpathSync(found), shell] as const];
    }),
  ).values(),
];
const LIVE_SYSTEM_TOOLS = [
  "useradd",
  "adduser",
  "addgroup",
  "userdel",
  "deluser",
  "groupdel",
  "delgroup",
  "chown",
  "systemctl",
];
const PASSWORD = "correct-horse-battery";
const SET_PASSWORD_LOG = "fake-set-password.log";
const BACKUP_LOG = "fake-backup.log";
const UNIT_DIRECTIVES = [
  "Type=simple",
  "User=ddnsd",
  "Group=ddnsd",
  "EnvironmentFile=/etc/ddnsd/ddnsd.env",
  "ExecStart=/usr/local/bin/ddnsd serve",
  "WorkingDirectory=/var/lib/ddnsd",
  "After=network-online.target",
  "Wants=network-online.target",
  "Restart=on-failure",
  "RestartSec=5",
  "TimeoutStopSec=20",
  "KillSignal=SIGTERM",
  "WantedBy=multi-user.target",
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
  fs.writeFileSync(
    file,
    `#!/bin/sh
if [ "$1" = backup ]; then
  # What the real one does with the service stopped: a copy of the database, and who made it.
  cp "$DDNS_DATA_DIR/ddnsd.db" "$2" || exit 1
  echo "backup by ${version}" >>"$DDNS_DATA_DIR/${BACKUP_LOG}"
  exit 0
fi
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
`,
    { mode: 0o755 },
  );
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
  return fs
    .readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .map(
      (line) =>
        Object.fromEntries(
          line.split("|").map((field) => {
            const at = field.indexOf("=");
            return [field.slice(0, at), field.slice(at + 1)];
          }),
        ) as unknown as SetPasswordCall,
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
  const install = (...extra: string[]) => run(["--binary", s.binary, "--no-start", ...extra]);
  /** `--reset-admin-password` with the password file: the one way a password reaches a staged tree. */
  const reset = (...extra: string[]) =>
    run(["--reset-admin-password", "--admin-password-file", s.passwordFile, ...extra]);
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
    expect(result.stdout).toContain("admin: none in the staged tree");
    expect(result.stdout).toContain("--reset-admin-password");
    expect(result.stdout).not.toContain(PASSWORD);
    expect(result.stdout).not.toContain("DDNS_ADMIN_PASSWORD"); // no hint points at the settings file for it
    expect(fs.existsSync(s.callLog)).toBe(false);
  });

  test("a DESTDIR staging writes no key, no database and no account: each box makes its own", () => {
    const result = install();
    expect(result.code).toBe(0);
    expect(calls()).toEqual([]);
    expect(filesUnder(at(DATA))).toEqual([]);
  });

  test("--admin-password-file does not go with DESTDIR, and nothing is staged", () => {
    const result = run(["--binary", s.binary, "--no-start", "--admin-password-file", s.passwordFile]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--admin-password-file does not go with DESTDIR");
    expect(fs.existsSync(s.root)).toBe(false);
  });

  test("--reset-admin-password sets the admin with ddnsd admin set-password, the password on stdin only, stored nowhere", () => {
    expect(install().code).toBe(0);
    const result = reset();
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
  });

  test("a re-run is idempotent, keeps the settings byte for byte and leaves the account alone", () => {
    expect(install().code).toBe(0);
    const env = read(at(ENV));
    const unit = read(at(UNIT));

    const again = run(["--binary", s.binary, "--no-start"]);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe("");
    expect(again.stdout).toContain("settings: kept");
    expect(again.stdout).toContain("admin: none in the staged tree");
    expect(calls().length).toBe(0);
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

  test("a second --reset-admin-password sets the new password and leaves the settings alone", () => {
    expect(install().code).toBe(0);
    expect(reset().code).toBe(0);
    const env = read(at(ENV));
    fs.writeFileSync(s.passwordFile, "another-secret-1\n");

    const result = reset();
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
    expect(calls().length).toBe(0);
  });

  test("a re-run removes a DDNS_ADMIN_PASSWORD line of an earlier install, says so, and keeps the account", () => {
    expect(install().code).toBe(0);
    const env = read(at(ENV));
    fs.writeFileSync(
      at(ENV),
      env.replace(
        "DDNS_ADMIN_USERNAME='admin'\n",
        "DDNS_ADMIN_USERNAME='admin'\nDDNS_ADMIN_PASSWORD='stale-old-password'\n",
      ),
    );

    const result = run(["--binary", s.binary, "--no-start"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("removed the plain-text DDNS_ADMIN_PASSWORD line");
    expect(result.stdout).not.toContain("settings: kept");
    expect(read(at(ENV))).toBe(env);
    expect(mode(at(ENV))).toBe(0o600);
    expect(calls().length).toBe(0); // a staged tree gets no account
    expectStoredNowhere("stale-old-password");
  });

  test("a staging removes a DDNS_ADMIN_PASSWORD line of an earlier install and sets no account with it", () => {
    expect(install().code).toBe(0);
    const env = read(at(ENV));
    fs.writeFileSync(at(ENV), `${env}DDNS_ADMIN_PASSWORD='from-the-old-installer'\n`);
    fs.rmSync(at(DATA), { recursive: true }); // e.g. installed with --no-start, never started

    const result = run(["--binary", s.binary, "--no-start"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(calls()).toEqual([]);
    expect(result.stdout).toContain("removed the plain-text DDNS_ADMIN_PASSWORD line");
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

  test("--reset-admin-password sets a new password with the installed binary and changes nothing else", () => {
    expect(install("--prefix", "/opt/ddnsd").code).toBe(0);
    const before = filesUnder(s.root)
      .filter((file) => !file.startsWith(at(DATA)))
      .map((file) => [file, read(file)]);
    fs.writeFileSync(s.passwordFile, "the-new-password!\n");

    const result = reset();
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("no restart");
    const recorded = calls();
    expect(recorded.length).toBe(1);
    expectSetPassword(recorded[0], "the-new-password!");
    expect(recorded[0]!.bin).toBe(at("/opt/ddnsd/bin/ddnsd")); // found through the unit's ExecStart
    const after = filesUnder(s.root)
      .filter((file) => !file.startsWith(at(DATA)))
      .map((file) => [file, read(file)]);
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
    expectSetPassword(calls()[0], generated);
    expectStoredNowhere(generated);
  });

  test("--reset-admin-password uses DDNS_ADMIN_USERNAME and DDNS_DATA_DIR from the settings file", () => {
    expect(install().code).toBe(0);
    fs.writeFileSync(
      at(ENV),
      read(at(ENV))
        .replace("DDNS_ADMIN_USERNAME='admin'", "DDNS_ADMIN_USERNAME='root@home'")
        .replace("DDNS_DATA_DIR='/var/lib/ddnsd'", "DDNS_DATA_DIR='/srv/ddnsd'"),
    );
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

  test("a staged install whose binary does not run here stages it all the same, saying so", () => {
    const foreign = foreignBinary(path.join(s.dir, "ddnsd-other-arch"));
    const result = run(["--binary", foreign, "--no-start"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("does not run on this machine");
    expect(result.stdout).toContain("writing a generated password to its log");
    expect(read(at(BIN))).toBe(read(foreign));
    expect(calls()).toEqual([]);
    expect(read(at(ENV))).not.toMatch(/^\s*DDNS_ADMIN_PASSWORD=/m);
  });

  test("a -musl build on a musl system without the C++ runtime: the warning says what to install", () => {
    // What musl's loader says for a -musl build on a bare Alpine.
    const musl = path.join(s.dir, "ddnsd-linux-x64-musl");
    fs.writeFileSync(
      musl,
      '#!/bin/sh\necho "Error loading shared library libstdc++.so.6: No such file or directory (needed by $0)" >&2\nexit 127\n',
      { mode: 0o755 },
    );
    const result = run(["--binary", musl, "--no-start"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      "does not run on this machine (it needs the C++ runtime libstdc++: on Alpine, apk add libstdc++)",
    );
    expect(calls()).toEqual([]);
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
      "--binary",
      "--prefix",
      "--port",
      "--admin-password-file",
      "--reset-admin-password",
      "--no-start",
      "--uninstall",
      "--purge",
      "--upgrade",
      "--rollback",
      "DDNS_RELEASE_URL",
      "DDNS_CPUINFO",
    ]) {
      expect(result.stdout).toContain(option);
    }
    expect(result.stdout).toContain("--binary ./ddnsd-linux-arm64");
    expect(result.stdout).toContain("https://github.com/ddnsd/ddnsd/releases/latest/download/install.sh | sudo sh");
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
  ])("refuses a password file with %s, before setting anything", (_, password) => {
    expect(install().code).toBe(0);
    fs.writeFileSync(s.passwordFile, `${password}\n`);
    const result = reset();
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("admin password");
    expect(calls()).toEqual([]);
  });

  test("passes a password with quotes, $, backslashes and backticks through unchanged", () => {
    const password = `it's a "pa$$word" \\with \`ticks\` & $(stuff)`;
    expect(install().code).toBe(0);
    fs.writeFileSync(s.passwordFile, `${password}\n`);
    const result = reset();
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
  });

  test("fails clearly when the binary does not exist", () => {
    const result = run(["--binary", path.join(s.dir, "missing"), "--no-start"]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("binary not found");
  });

  describe("downloading the release build for this machine", () => {
    const ASSETS = [
      "ddnsd-linux-x64-baseline",
      "ddnsd-linux-x64",
      "ddnsd-linux-arm64",
      "ddnsd-linux-x64-baseline-musl",
      "ddnsd-linux-x64-musl",
      "ddnsd-linux-arm64-musl",
    ];
    let release: string;
    let server: ReturnType<typeof Bun.serve>;
    let cpuinfo: string;
    // The release's https certificate (curl trusts it through CURL_CA_BUNDLE) and its signing key
    // (a throwaway one, named to install.sh through DDNS_RELEASE_SIGNERS), made once for the file.
    const keys = fs.mkdtempSync(path.join(os.tmpdir(), "ddnsd-release-keys-"));
    const tls = { cert: path.join(keys, "cert.pem"), key: path.join(keys, "key.pem") };
    const signingKey = path.join(keys, "release");
    const otherKey = path.join(keys, "other");
    const signers = path.join(keys, "allowed_signers");
    const must = (command: string[]) => {
      const done = Bun.spawnSync(command, { stdout: "pipe", stderr: "pipe" });
      if (done.exitCode !== 0) throw new Error(`${command[0]} failed: ${done.stderr.toString()}`);
    };
    must(
      ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        .concat(["-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"])
        .concat(["-keyout", tls.key, "-out", tls.cert]),
    );
    for (const key of [signingKey, otherKey]) must(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key]);
    fs.writeFileSync(signers, `ddnsd-release namespaces="ddnsd-release" ${read(`${signingKey}.pub`)}`);
    let env: Record<string, string> = {};

    /** Signs the release's SHA256SUMS as the release workflow does: SHA256SUMS.sig. */
    function sign(key = signingKey) {
      fs.rmSync(path.join(release, "SHA256SUMS.sig"), { force: true });
      must(["ssh-keygen", "-q", "-Y", "sign", "-f", key, "-n", "ddnsd-release", path.join(release, "SHA256SUMS")]);
    }

    /** A release directory as `bun run release` writes it: each build (here a fake naming itself), SHA256SUMS, its signature. */
    function publish(version: string) {
      fs.rmSync(release, { recursive: true, force: true });
      fs.mkdirSync(release, { recursive: true });
      for (const name of ASSETS) fakeBinary(path.join(release, name), `${version} ${name}`);
      const sums = ASSETS.map((name) => `${sha256(read(path.join(release, name)))}  ${name}`);
      fs.writeFileSync(path.join(release, "SHA256SUMS"), `${sums.join("\n")}\n`);
      sign();
    }

    /** A machine: its uname -m, whether its CPU has AVX2, and its C library. */
    function machine(arch: "x86_64" | "aarch64", options: { avx2: boolean; musl: boolean }) {
      stub(s.stubs, "uname", arch);
      stub(s.stubs, "getconf", "64");
      stub(s.stubs, "dpkg", arch === "x86_64" ? "amd64" : "arm64");
      stub(s.stubs, "ldd", options.musl ? "musl libc (x86_64)" : "ldd (Debian GLIBC 2.36-9) 2.36");
      fs.writeFileSync(
        cpuinfo,
        `processor\t: 0\nflags\t\t: fpu sse sse2 ssse3 sse4_1 sse4_2 popcnt aes${options.avx2 ? " avx avx2 bmi2" : ""}\n`,
      );
    }

    /**
     * install.sh run asynchronously (the release is served from this process) against the release;
     * `piped`: read from standard input, as `curl … | sudo sh -s -- ARGS` runs it.
     */
    async function fromRelease(args: string[], piped = false, command?: string[]): Promise<Run> {
      const child = Bun.spawn(command ?? (piped ? [shell, "-s", "--", ...args] : [shell, SCRIPT, ...args]), {
        env: {
          PATH: `${s.stubs}:${process.env.PATH}`,
          HOME: s.dir,
          DESTDIR: s.root,
          LC_ALL: "C",
          DDNS_RELEASE_URL: `https://127.0.0.1:${server.port}/download/`,
          DDNS_RELEASE_SIGNERS: signers,
          CURL_CA_BUNDLE: tls.cert,
          DDNS_CPUINFO: cpuinfo,
          ...env,
        },
        stdin: piped ? fs.readFileSync(SCRIPT) : "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
      const [stdout, stderr, code] = await Promise.all([
        new Response(child.stdout).text(),
        new Response(child.stderr).text(),
        child.exited,
      ]);
      return { code, stdout, stderr };
    }

    beforeEach(() => {
      release = path.join(s.dir, "release");
      cpuinfo = path.join(s.dir, "cpuinfo");
      publish("2.0.0");
      env = {};
      server = Bun.serve({
        hostname: "127.0.0.1",
        port: 0,
        tls: { cert: Bun.file(tls.cert), key: Bun.file(tls.key) },
        fetch(request) {
          const name = new URL(request.url).pathname.replace(/^\/download\//, "");
          const file = path.join(release, name);
          return /^[\w.-]+$/.test(name) && fs.existsSync(file)
            ? new Response(Bun.file(file))
            : new Response("Not Found", { status: 404 });
        },
      });
    });
    afterEach(() => server.stop(true));
    afterAll(() => fs.rmSync(keys, { recursive: true, force: true }));

    test.each([
      [
        "an x64 CPU without AVX2 (a NAS's Celeron): the baseline build",
        "x86_64",
        false,
        false,
        "ddnsd-linux-x64-baseline",
      ],
      ["an x64 CPU with AVX2", "x86_64", true, false, "ddnsd-linux-x64"],
      ["a 64-bit ARM board", "aarch64", false, false, "ddnsd-linux-arm64"],
      ["x64 without AVX2 on musl (Alpine)", "x86_64", false, true, "ddnsd-linux-x64-baseline-musl"],
      ["x64 with AVX2 on musl", "x86_64", true, true, "ddnsd-linux-x64-musl"],
      ["64-bit ARM on musl", "aarch64", false, true, "ddnsd-linux-arm64-musl"],
    ] as const)("%s", async (_, arch, avx2, musl, asset) => {
      machine(arch, { avx2, musl });
      const result = await fromRelease(["--no-start"]);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`downloading ${asset} from https://127.0.0.1:${server.port}/download`);
      expect(result.stdout).toContain(`checksum: ${asset} matches SHA256SUMS`);
      expect(read(at(BIN))).toBe(read(path.join(release, asset)));
      expect(result.stdout).toContain(`done: ddnsd 2.0.0 ${asset} installed`);
    });

    test("a glibc system with musl's loader installed beside it (Debian's musl package): the glibc build", async () => {
      // ldd names glibc; /lib/ld-musl-* may exist too (it does where the musl package is installed).
      machine("x86_64", { avx2: true, musl: false });
      const result = await fromRelease(["--no-start"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("done: ddnsd 2.0.0 ddnsd-linux-x64 installed");
    });

    test("piped into the shell (curl … | sudo sh), it downloads without eating its own script", async () => {
      machine("x86_64", { avx2: false, musl: false });
      const result = await fromRelease(["--no-start"], true);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(read(at(BIN))).toBe(read(path.join(release, "ddnsd-linux-x64-baseline")));
      expect(result.stdout).toContain("done: ddnsd 2.0.0 ddnsd-linux-x64-baseline installed");
    });

    test("a build whose checksum does not match SHA256SUMS installs nothing and exits non-zero", async () => {
      machine("x86_64", { avx2: false, musl: false });
      fs.appendFileSync(path.join(release, "ddnsd-linux-x64-baseline"), "# tampered\n");
      const result = await fromRelease(["--no-start"]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain("checksum mismatch for ddnsd-linux-x64-baseline");
      expect(result.stderr).toContain("nothing installed");
      expect(fs.existsSync(s.root)).toBe(false);
    });

    test("a build SHA256SUMS does not list installs nothing", async () => {
      machine("aarch64", { avx2: false, musl: false });
      const sums = path.join(release, "SHA256SUMS");
      fs.writeFileSync(
        sums,
        read(sums)
          .split("\n")
          .filter((line) => !line.endsWith(" ddnsd-linux-arm64"))
          .join("\n"),
      );
      sign();
      const result = await fromRelease(["--no-start"]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain("SHA256SUMS lists no ddnsd-linux-arm64");
      expect(fs.existsSync(s.root)).toBe(false);
    });

    test("an http:// DDNS_RELEASE_URL is refused: nothing downloaded, nothing installed", async () => {
      machine("x86_64", { avx2: true, musl: false });
      let asked = 0;
      const plain = Bun.serve({
        hostname: "127.0.0.1",
        port: 0,
        fetch: () => {
          asked++;
          return new Response("served");
        },
      });
      env = { DDNS_RELEASE_URL: `http://127.0.0.1:${plain.port}/download/` };
      const result = await fromRelease(["--no-start"]);
      plain.stop(true);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain("DDNS_RELEASE_URL must be an https:// address");
      expect(asked).toBe(0);
      expect(fs.existsSync(s.root)).toBe(false);
    });

    test("a redirect from the https release to http is not followed", async () => {
      machine("x86_64", { avx2: true, musl: false });
      const plain = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("x") });
      const redirecting = Bun.serve({
        hostname: "127.0.0.1",
        port: 0,
        tls: { cert: Bun.file(tls.cert), key: Bun.file(tls.key) },
        fetch: (request) => Response.redirect(`http://127.0.0.1:${plain.port}${new URL(request.url).pathname}`, 302),
      });
      env = { DDNS_RELEASE_URL: `https://127.0.0.1:${redirecting.port}/download/` };
      const result = await fromRelease(["--no-start"]);
      redirecting.stop(true);
      plain.stop(true);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain("cannot download");
      expect(fs.existsSync(s.root)).toBe(false);
    });

    test("a release without SHA256SUMS.sig installs nothing and exits non-zero", async () => {
      machine("x86_64", { avx2: true, musl: false });
      fs.rmSync(path.join(release, "SHA256SUMS.sig"));
      const result = await fromRelease(["--no-start"]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain("cannot download");
      expect(result.stderr).toContain("SHA256SUMS.sig");
      expect(result.stderr).toContain("nothing installed");
      expect(fs.existsSync(s.root)).toBe(false);
    });

    test.each([
      ["signed by a key the allowed signers do not name", () => sign(otherKey), {}],
      [
        "SHA256SUMS swapped after signing (binaries and sums both replaced, as a hostile mirror would)",
        () => {
          fs.appendFileSync(path.join(release, "ddnsd-linux-x64"), "# swapped\n");
          const sums = path.join(release, "SHA256SUMS");
          fs.writeFileSync(sums, `${sha256(read(path.join(release, "ddnsd-linux-x64")))}  ddnsd-linux-x64\n`);
        },
        {},
      ],
      ["signed by the test's key, checked against the project's own", () => {}, { DDNS_RELEASE_SIGNERS: "" }],
    ])("a wrong signature installs nothing and exits non-zero: %s", async (_, tamper, extra) => {
      machine("x86_64", { avx2: true, musl: false });
      tamper();
      env = extra;
      const result = await fromRelease(["--no-start"]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain("is not a good signature of SHA256SUMS");
      expect(result.stderr).toContain("nothing installed");
      expect(fs.existsSync(s.root)).toBe(false);
    });

    test("a release that cannot be reached installs nothing", async () => {
      machine("x86_64", { avx2: true, musl: false });
      fs.rmSync(path.join(release, "SHA256SUMS"));
      const result = await fromRelease(["--no-start"]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain("cannot download");
      expect(fs.existsSync(s.root)).toBe(false);
    });

    test("--upgrade keeps the previous binary and a copy of the database made before the new version starts; --rollback puts both back", async () => {
      machine("x86_64", { avx2: false, musl: false });
      expect((await fromRelease(["--no-start"])).code).toBe(0);
      const first = read(at(BIN));
      fs.writeFileSync(at(`${DATA}/ddnsd.db`), "the database of 2.0.0");

      publish("2.1.0");
      const upgrade = await fromRelease(["--upgrade", "--no-start"]);
      expect(upgrade.stderr).toBe("");
      expect(upgrade.code).toBe(0);
      expect(read(at(BIN))).toBe(read(path.join(release, "ddnsd-linux-x64-baseline")));
      expect(read(at(`${BIN}.previous`))).toBe(first);
      // Copied by the new binary (the old one may not know the command), before it ever ran on the data.
      expect(read(at(`${DATA}/backups/before-upgrade.db`))).toBe("the database of 2.0.0");
      expect(read(at(`${DATA}/${BACKUP_LOG}`))).toBe("backup by 2.1.0 ddnsd-linux-x64-baseline\n");
      expect(upgrade.stdout).toContain("--rollback");

      fs.writeFileSync(at(`${DATA}/ddnsd.db`), "the database as 2.1.0 migrated it");
      const rollback = await fromRelease(["--rollback"]);
      expect(rollback.stderr).toBe("");
      expect(rollback.code).toBe(0);
      expect(read(at(BIN))).toBe(first);
      expect(fs.existsSync(at(`${BIN}.previous`))).toBe(false);
      expect(read(at(`${DATA}/ddnsd.db`))).toBe("the database of 2.0.0");
      expect(read(at(`${DATA}/backups/before-rollback.db`))).toBe("the database as 2.1.0 migrated it");
      expect(rollback.stdout).toContain("done: rolled back");

      const again = await fromRelease(["--rollback"]);
      expect(again.code).not.toBe(0);
      expect(again.stderr).toContain("nothing to roll back to");
    });

    test("--rollback replaces links the service user planted in its data dir, never writing through them", async () => {
      machine("x86_64", { avx2: false, musl: false });
      expect((await fromRelease(["--no-start"])).code).toBe(0);
      fs.writeFileSync(at(`${DATA}/ddnsd.db`), "the database of 2.0.0");
      publish("2.1.0");
      expect((await fromRelease(["--upgrade", "--no-start"])).code).toBe(0);
      fs.writeFileSync(at(`${DATA}/ddnsd.db`), "the database as 2.1.0 migrated it");
      fs.writeFileSync(at(`${DATA}/ddnsd.db-wal`), "its write-ahead log");
      // Root's files the links point at.
      const precious = ["shadow", "shadow-wal", "by-pid"].map((name) => path.join(s.dir, name));
      for (const file of precious) fs.writeFileSync(file, `root's ${file}`, { mode: 0o600 });
      fs.symlinkSync(precious[0]!, at(`${DATA}/backups/before-rollback.db`));
      fs.symlinkSync(precious[1]!, at(`${DATA}/backups/before-rollback.db-wal`));
      // The temporary name the rollback used to copy through: the database's name and the shell's
      // pid, which the wrapper keeps for install.sh by exec.
      const wrapper = `ln -s '${precious[2]}' "$1/ddnsd.db.rollback.$$" && exec ${shell} '${SCRIPT}' --rollback`;
      const rollback = await fromRelease([], false, [shell, "-c", wrapper, "sh", at(DATA)]);
      expect(rollback.stderr).toBe("");
      expect(rollback.code).toBe(0);
      for (const file of precious) {
        expect(read(file)).toBe(`root's ${file}`);
        expect(mode(file)).toBe(0o600);
      }
      expect(fs.lstatSync(at(`${DATA}/backups/before-rollback.db`)).isSymbolicLink()).toBe(false);
      expect(read(at(`${DATA}/backups/before-rollback.db`))).toBe("the database as 2.1.0 migrated it");
      expect(read(at(`${DATA}/backups/before-rollback.db-wal`))).toBe("its write-ahead log");
      expect(mode(at(`${DATA}/backups/before-rollback.db`))).toBe(0o600);
      expect(read(at(`${DATA}/ddnsd.db`))).toBe("the database of 2.0.0");
      expect(mode(at(`${DATA}/ddnsd.db`))).toBe(0o600);
      expect(fs.readdirSync(at(DATA)).filter((name) => name.includes(".new."))).toEqual([]);
    });

    test("--upgrade with nothing installed changes nothing", async () => {
      machine("aarch64", { avx2: false, musl: false });
      const result = await fromRelease(["--upgrade", "--no-start"]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain("nothing to upgrade");
      expect(fs.existsSync(at(BIN))).toBe(false);
    });

    test("an upgrade to the same build keeps no previous binary and takes no copy", async () => {
      machine("aarch64", { avx2: false, musl: false });
      expect((await fromRelease(["--no-start"])).code).toBe(0);
      const result = await fromRelease(["--upgrade", "--no-start"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("is up to date");
      expect(fs.existsSync(at(`${BIN}.previous`))).toBe(false);
    });
  });

  describe("a 32-bit userland", () => {
    test.each([
      ["a 64-bit kernel (aarch64) with getconf LONG_BIT = 32", { uname: "aarch64", getconf: "32", dpkg: "arm64" }],
      ["a 64-bit kernel (aarch64) with dpkg architecture armhf", { uname: "aarch64", getconf: "64", dpkg: "armhf" }],
      ["armv7l", { uname: "armv7l", getconf: "32", dpkg: "armhf" }],
      ["armv6l", { uname: "armv6l", getconf: "32", dpkg: "armhf" }],
    ])("stops on a 32-bit userland: %s", (_, tools) => {
      for (const [name, output] of Object.entries(tools)) stub(s.stubs, name, output);
      const result = run(["--no-start"]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(
        "this system's userland is 32-bit; ddnsd needs a 64-bit OS (install 64-bit Raspberry Pi OS)",
      );
      expect(fs.existsSync(s.root)).toBe(false);
    });
  });
});

describe("a staged tree on its first start", () => {
  test("the service makes its own keys, database and admin account", async () => {
    const s = makeScratch();
    try {
      expect(runWith("sh", s, ["--binary", s.binary, "--no-start"]).code).toBe(0);
      const dataDir = path.join(s.root, "var/lib/ddnsd");
      expect(filesUnder(dataDir)).toEqual([]);
      // The real ddnsd on the staged data dir, without DDNS_ADMIN_PASSWORD: as the box starts it.
      const appliance = spawnAppliance(dataDir, { DDNS_ADMIN_PASSWORD: undefined as unknown as string });
      try {
        await untilHealthy(appliance);
        for (const name of ["secret.key", "encryption.key", "ddnsd.db"]) {
          expect(fs.existsSync(path.join(dataDir, name))).toBe(true);
        }
        expect(appliance.lines.some((line) => line.includes("first admin created: username admin"))).toBe(true);
      } finally {
        appliance.kill("SIGTERM");
        await appliance.exited;
      }
    } finally {
      fs.rmSync(s.dir, { recursive: true, force: true });
    }
  });
});
