// The command line: `ddnsd [serve]` runs the appliance; `ddnsd check` runs one pass and exits;
// `ddnsd admin set-password <user>` sets a password read from standard input; `ddnsd healthcheck`
// asks a running ddnsd's /healthz (the container image's HEALTHCHECK); `ddnsd export` / `ddnsd import`
// write and apply the configuration as a file; `ddnsd version`.
// The commands that write the data dir (control/commands.ts) run inside the server when one holds
// the data dir (through its control socket), and open the database themselves only when none does.

import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import { createApp, createContext } from "./app";
import { loadSettings, resolveKeys, type Settings, SettingsError } from "./config";
import type { Appliance } from "./context";
import { type CommandResult, WRITE_COMMANDS } from "./control/commands";
import { listenForCommands, sendCommand } from "./control/socket";
import { MigrationError, type OpenedDatabase, openDatabase } from "./db";
import { BackupError, backupName, backupStoppedDatabase, backupsDir, publishCopy, restoreDatabase } from "./db/backup";
import { DataDirInUse, lockDataDir } from "./db/lock";
import { probeHealth } from "./healthcheck";
import { createLogger } from "./log";
import { MAX_CONFIG_FILE_BYTES } from "./modules/config-file/document";
import { exportConfig } from "./modules/config-file/service";
import { sealSecretOptionsStoredInClear } from "./modules/notifications/service";
import { sealProviderOptionsStoredInClear, storedCredentialsReadable } from "./modules/providers/service";
import { FAMILIES, neededFamilies } from "./modules/system/address-sources";
import { generatePassword } from "./security/passwords";
import { setPassword, userCount } from "./security/users";
import { type RunningServer, startServer } from "./server";
import { detectFamily } from "./updater/detect";
import { replaceFile, textInto } from "./util/files";
import { versionLine } from "./version";

const USAGE = `Usage: ddnsd [command]

Commands:
  serve                        run the appliance (default)
  check                        check every enabled domain once, print the outcomes, exit 1 if any failed, is stale or not served
  admin set-password <user>    create the user or set its password, read from standard input
  export [--file F] [--include-secrets]
                               write providers, domains, update keys and notifications as YAML
                               (to standard output, or F); secrets sealed unless --include-secrets
  import F [--dry-run] [--prune [--force]]
                               apply such a file (F, or - for standard input) by name: create and
                               update, delete only with --prune (--force too when the file names
                               no providers and no domains); prints each change
  backup FILE                  write a consistent copy of the database to FILE (or into FILE, a
                               folder, with the time in its name), also while ddnsd runs
  restore FILE                 put such a copy back (ddnsd stopped); the replaced database is kept
                               in the data dir's backups/
  healthcheck                  ask the running ddnsd's /healthz; exit 0 if it answers 200, else 1
  version                      print the version, the build's target, the Bun version and commit
                               (also --version, -v)
  help                         print this text

Settings come from DDNS_* environment variables. The documentation is served by ddnsd itself, also
offline: http://<host>:8001/help (settings: /help/operations#settings; commands: /help/operations#command-line).`;

/** How long a command run here waits for its notifications (a check's, its heartbeat) before the database closes. */
const NOTIFY_GRACE_MS = 15_000;

function openContext(settings: Settings): Appliance {
  const log = createLogger({ level: settings.logLevel, format: settings.logFormat });
  const keys = resolveKeys(settings);
  let database: OpenedDatabase;
  try {
    database = openDatabase(settings.dataDir, log);
  } catch (error) {
    if (error instanceof MigrationError) throw error;
    throw new SettingsError(
      `Invalid setting DDNS_DATA_DIR: cannot open the database in ${settings.dataDir}: ${(error as Error).message}`,
    );
  }
  const ctx = createContext({ settings, keys, database, log });
  if (!storedCredentialsReadable(ctx)) {
    throw new SettingsError(
      "Invalid setting DDNS_ENCRYPTION_KEY: it cannot open the stored provider credentials (was the key or encryption.key replaced?)",
    );
  }
  // Options an older release stored in clear that are secrets now (headers): sealed once.
  const sealed = sealSecretOptionsStoredInClear(ctx) + sealProviderOptionsStoredInClear(ctx);
  if (sealed > 0) log.info("options that are secrets now were sealed", { rows: sealed });
  return ctx;
}

/** The first admin: from DDNS_ADMIN_PASSWORD, or a random password shown once in the log. */
async function ensureFirstAdmin(ctx: Appliance): Promise<void> {
  if (userCount(ctx) > 0) return;
  const { adminUsername, adminPassword } = ctx.settings;
  const password = adminPassword ?? generatePassword();
  await setPassword(ctx, adminUsername, password);
  if (adminPassword === null) {
    ctx.log.warn(
      `first admin created: username ${adminUsername}, password ${password} — shown this once; ` +
        "change it with `ddnsd admin set-password`",
    );
  } else {
    ctx.log.info("first admin created", { user: adminUsername });
  }
}

/** Which setting a failure to listen points at: the port (in use, privileged) or the address. */
function listenError(settings: Settings, error: unknown): SettingsError {
  const text = `cannot listen on ${settings.host}:${settings.port}: ${(error as Error).message}`;
  const code = (error as { code?: string }).code ?? "";
  const variable = /EADDRNOTAVAIL|EINVAL|ENOTFOUND|EAI_/.test(code) ? "DDNS_HOST" : "DDNS_PORT";
  return new SettingsError(`Invalid setting ${variable}: ${text}`);
}

/** Why the data dir's lock could not be taken, as the setting to fix. */
function lockError(settings: Settings, error: unknown): SettingsError {
  const why =
    error instanceof DataDirInUse
      ? error.message
      : `cannot write ${join(settings.dataDir, "ddnsd.lock")}: ${(error as Error).message}`;
  return new SettingsError(`Invalid setting DDNS_DATA_DIR: ${why}`);
}

/** The data dir's lock, taken before anything in it is read or written. */
function lockData(settings: Settings): { release(): void } {
  try {
    return lockDataDir(settings.dataDir);
  } catch (error) {
    throw lockError(settings, error);
  }
}

/** The data dir's lock, or null when a running ddnsd holds it. */
function tryLockData(settings: Settings): { release(): void } | null {
  try {
    return lockDataDir(settings.dataDir);
  } catch (error) {
    if (error instanceof DataDirInUse) return null;
    throw lockError(settings, error);
  }
}

/**
 * Runs a write command (control/commands.ts) in the server holding the data dir, or, when none
 * does, here — holding the lock meanwhile, so no server starts and caches what it is changing.
 */
async function runWriteCommand(
  settings: Settings,
  name: keyof typeof WRITE_COMMANDS,
  input: Record<string, unknown>,
): Promise<number> {
  const lock = tryLockData(settings);
  let result: CommandResult;
  if (lock === null) {
    result = await sendCommand(settings.dataDir, name, input);
  } else {
    try {
      const ctx = openContext(settings);
      try {
        result = await WRITE_COMMANDS[name]!(ctx, input);
        // Their notifications go out before the database closes (their retries cut short).
        await Promise.race([ctx.notifier.idle(), Bun.sleep(NOTIFY_GRACE_MS)]);
      } finally {
        ctx.sqlite.close();
      }
    } finally {
      lock.release();
    }
  }
  if (result.stdout !== "") console.log(result.stdout);
  if (result.stderr !== "") console.error(result.stderr);
  return result.code;
}

async function serve(settings: Settings): Promise<void> {
  const lock = lockData(settings);
  const ctx = openContext(settings);
  const app = createApp(ctx, { schedule: true });
  let running: RunningServer;
  try {
    running = startServer(ctx, app);
  } catch (error) {
    throw listenError(settings, error);
  }
  let control: { stop(): void } | null = null;
  try {
    control = listenForCommands(ctx);
  } catch (error) {
    // A data dir path too long for a socket (108 bytes), say: the service still runs.
    ctx.log.warn("the CLI's write commands cannot reach this server; stop it to run them", {
      error: (error as Error).message,
    });
  }
  // Only once the port is ours: a start that fails here must not spend the one showing of a
  // generated password. "listening" then means ready to sign in.
  await ensureFirstAdmin(ctx);
  ctx.log.info("listening", { url: running.url.href, tls: settings.tlsCert !== null });
  // The binary starts with the JIT reluctant (scripts/build.ts: start-up code runs once, and
  // compiling it would only keep its machine code in memory); from here on, code that runs again
  // and again is compiled as usual.
  Bun.unsafe.setJITPolicy(1);
  // The dashboard shows the public address from the start: the families a domain needs (both before
  // any domain exists), never one that no domain needs.
  const needed = neededFamilies(ctx);
  void Promise.all((needed.length > 0 ? needed : FAMILIES).map((family) => detectFamily(ctx, family)));
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      ctx.log.info("shutting down", { signal });
      control?.stop();
      void running.stop().then(() => {
        lock.release();
        process.exit(0);
      });
    });
  }
}

async function adminSetPassword(settings: Settings, args: string[]): Promise<number> {
  const usage = "Usage: ddnsd admin set-password <user>   (the password is read from standard input)";
  const parsed = commandArgs(args, {}, usage);
  if (parsed === null) return 2;
  const username = parsed.positionals[0];
  if (!username) {
    console.error(usage);
    return 2;
  }
  const password = (await Bun.stdin.text()).replace(/\r?\n$/, "");
  return runWriteCommand(settings, "set-password", { username, password });
}

/**
 * A command's arguments, read by node:util's `parseArgs`: flags, `--name value` (or `--name=value`)
 * and the words left (`-` among them; anything after `--` is a word too). An unknown option, or one
 * missing its value, is printed with the command's usage and answers null: the command exits 2.
 */
function commandArgs<const T extends ParseArgsOptionsConfig>(args: string[], options: T, usage: string) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    if (!(error instanceof TypeError && String((error as { code?: unknown }).code).startsWith("ERR_PARSE_ARGS"))) {
      throw error;
    }
    // Its first sentence: "Unknown option '--nope'", "Option '--file <value>' argument missing".
    console.error(`ddnsd: ${error.message.split(/\.\s|\n/)[0]}\n${usage}`);
    return null;
  }
}

async function exportCommand(settings: Settings, args: string[]): Promise<number> {
  const usage = "Usage: ddnsd export [--file F] [--include-secrets]";
  const parsed = commandArgs(args, { file: { type: "string" }, "include-secrets": { type: "boolean" } }, usage);
  if (parsed === null) return 2;
  if (parsed.positionals.length > 0) {
    console.error(usage);
    return 2;
  }
  const ctx = openContext(settings);
  const text = exportConfig(ctx, { includeSecrets: parsed.values["include-secrets"] === true });
  ctx.sqlite.close();
  const file = parsed.values.file;
  if (file === undefined) process.stdout.write(text);
  else {
    // Sealed or not, the file holds secrets: a new file, readable by its writer only.
    replaceFile(file, textInto(text));
    console.error(`Written to ${file}.`);
  }
  return 0;
}

async function importCommand(settings: Settings, args: string[]): Promise<number> {
  const usage = "Usage: ddnsd import F [--dry-run] [--prune [--force]]   (F may be - for standard input)";
  const flag = { type: "boolean" } as const;
  const parsed = commandArgs(args, { "dry-run": flag, prune: flag, force: flag }, usage);
  if (parsed === null) return 2;
  const file = parsed.positionals[0];
  if (file === undefined || parsed.positionals.length > 1) {
    console.error(usage);
    return 2;
  }
  let text: string;
  try {
    text = file === "-" ? await Bun.stdin.text() : readFileSync(file, "utf8");
  } catch (error) {
    console.error(`ddnsd: cannot read ${file}: ${(error as Error).message}`);
    return 1;
  }
  // Refused here already, so that a huge file never reaches the running server.
  if (Buffer.byteLength(text) > MAX_CONFIG_FILE_BYTES) {
    console.error(`ddnsd: ${file}: the file is larger than ${MAX_CONFIG_FILE_BYTES / 1024} KiB`);
    return 1;
  }
  return runWriteCommand(settings, "import", {
    text,
    source: file,
    dryRun: parsed.values["dry-run"] === true,
    prune: parsed.values.prune === true,
    force: parsed.values.force === true,
  });
}

/** The one file a command takes (no option; not `-`: standard input is no database), or null after its usage. */
function onlyFile(args: string[], usage: string): string | null {
  const parsed = commandArgs(args, {}, usage);
  if (parsed === null) return null;
  const [file, ...more] = parsed.positionals;
  if (file !== undefined && file !== "-" && more.length === 0) return file;
  console.error(usage);
  return null;
}

/**
 * `ddnsd backup FILE`: the copy is made by the server when one holds the data dir (it stays the
 * only one with the database open for writing), else here without migrating anything; either way
 * into the data dir's backups folder first, then copied to FILE.
 */
async function backupCommand(settings: Settings, args: string[]): Promise<number> {
  const file = onlyFile(
    args,
    "Usage: ddnsd backup FILE   (FILE may be a folder: the copy is then named with the time)",
  );
  if (file === null) return 2;
  let target = resolve(file);
  if (existsSync(target) && statSync(target).isDirectory()) target = join(target, backupName("backup"));
  let staged: string;
  const lock = tryLockData(settings);
  if (lock === null) {
    const result = await sendCommand(settings.dataDir, "backup", {});
    if (result.code !== 0) {
      console.error(result.stderr);
      return result.code;
    }
    staged = result.stdout.trim();
  } else {
    try {
      staged = join(backupsDir(settings.dataDir), backupName("cli-backup"));
      backupStoppedDatabase(settings.dataDir, staged);
    } catch (error) {
      if (!(error instanceof BackupError)) throw error;
      console.error(`ddnsd backup: ${error.message}`);
      return 1;
    } finally {
      lock.release();
    }
  }
  try {
    publishCopy(staged, target);
  } catch (error) {
    console.error(`ddnsd backup: cannot write ${target}: ${(error as Error).message}`);
    return 1;
  } finally {
    rmSync(staged, { force: true });
  }
  console.log(
    `Database backed up to ${target}. Keep the keys with it (secret.key and encryption.key in ${settings.dataDir}, ` +
      "or DDNS_SECRET_KEY and DDNS_ENCRYPTION_KEY): without them the stored credentials cannot be opened.",
  );
  return 0;
}

/** `ddnsd restore FILE`: only while no server holds the data dir; checks the copy before it replaces anything. */
async function restoreCommand(settings: Settings, args: string[]): Promise<number> {
  const named = onlyFile(args, "Usage: ddnsd restore FILE   (with ddnsd stopped)");
  if (named === null) return 2;
  const lock = tryLockData(settings);
  if (lock === null) {
    console.error(
      `ddnsd restore: ddnsd is running on ${settings.dataDir}; stop it first (e.g. sudo systemctl stop ddnsd, or docker stop ddnsd), then restore`,
    );
    return 1;
  }
  try {
    const file = resolve(named);
    const kept = restoreDatabase(settings.dataDir, file);
    console.log(`Restored ${file} to ${join(settings.dataDir, "ddnsd.db")}.`);
    if (kept !== null) console.log(`The database it replaced is kept as ${kept}.`);
    console.log("Start ddnsd again; a copy from an older version is migrated at that start.");
    return 0;
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    console.error(`ddnsd restore: ${error.message}; nothing was changed`);
    return 1;
  } finally {
    lock.release();
  }
}

async function healthcheck(settings: Settings): Promise<number> {
  const outcome = await probeHealth(settings);
  if (outcome.healthy) return 0;
  console.error(`ddnsd healthcheck: ${outcome.reason}`);
  return 1;
}

/** What the first word may also be written as. */
const COMMAND_ALIASES: Record<string, string> = {
  "--version": "version",
  "-v": "version",
  "--help": "help",
  "-h": "help",
};

async function main(args: string[]): Promise<number | undefined> {
  const [word = "serve", ...rest] = args;
  const command = COMMAND_ALIASES[word] ?? word;
  if (command === "version") {
    console.log(versionLine());
    return 0;
  }
  if (command === "help") {
    console.log(USAGE);
    return 0;
  }
  // Everything ddnsd creates (the database and its -wal and -shm files, keys, backups, the lock) is
  // for its own user alone, also in a data dir made beforehand with a wider mode (`mkdir -p`).
  process.umask(0o077);
  const settings = loadSettings();
  switch (command) {
    case "serve":
      await serve(settings);
      return undefined;
    case "check":
      return runWriteCommand(settings, "check", {});
    case "healthcheck":
      return healthcheck(settings);
    case "export":
      return exportCommand(settings, rest);
    case "import":
      return importCommand(settings, rest);
    case "backup":
      return backupCommand(settings, rest);
    case "restore":
      return restoreCommand(settings, rest);
    case "admin":
      if (rest[0] === "set-password") return adminSetPassword(settings, rest.slice(1));
      break;
  }
  console.error(`Unknown command: ${args.join(" ")}\n\n${USAGE}`);
  return 2;
}

try {
  const code = await main(process.argv.slice(2));
  if (code !== undefined) process.exit(code);
} catch (error) {
  // One line, never a stack trace: settings and migrations say what to fix; anything else
  // (a file the service's user may not read, say) is still better named than traced.
  console.error(`ddnsd: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
