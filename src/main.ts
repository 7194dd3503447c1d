// The command line: `ddnsd [serve]` runs the appliance; `ddnsd check` runs one pass and exits;
// `ddnsd admin set-password <user>` sets a password read from standard input; `ddnsd healthcheck`
// asks a running ddnsd's /healthz (the container image's HEALTHCHECK); `ddnsd export` / `ddnsd import`
// write and apply the configuration as a file; `ddnsd version`.

import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createApp, createContext } from "./app";
import { loadSettings, resolveKeys, SettingsError, type Settings } from "./config";
import type { AppContext } from "./context";
import { MigrationError, openDatabase, type OpenedDatabase } from "./db";
import { DataDirInUse, lockDataDir } from "./db/lock";
import { probeHealth } from "./healthcheck";
import { setPassword, userCount } from "./http/auth";
import { createLogger } from "./log";
import { ConfigFileError } from "./modules/config-file/document";
import { exportConfig, importConfig } from "./modules/config-file/service";
import { generatePassword } from "./security/passwords";
import { storedCredentialsReadable } from "./modules/providers/service";
import { startServer, type RunningServer } from "./server";
import { detectFamily } from "./updater/update";
import { versionLine } from "./version";

const USAGE = `Usage: ddnsd [command]

Commands:
  serve                        run the appliance (default)
  check                        check every enabled domain once, print the outcomes, exit 1 if any failed
  admin set-password <user>    create the user or set its password, read from standard input
  export [--file F] [--include-secrets]
                               write providers, domains, update keys and notifications as YAML
                               (to standard output, or F); secrets sealed unless --include-secrets
  import F [--dry-run] [--prune]
                               apply such a file (F, or - for standard input) by name: create and
                               update, delete only with --prune; prints each change
  healthcheck                  ask the running ddnsd's /healthz; exit 0 if it answers 200, else 1
  version                      print the version, the Bun version and the build's commit
  help                         print this text

Settings come from DDNS_* environment variables; see the README.`;

function openContext(settings: Settings): AppContext {
  const log = createLogger({ level: settings.logLevel, format: settings.logFormat });
  const keys = resolveKeys(settings);
  let database: OpenedDatabase;
  try {
    database = openDatabase(settings.dataDir, log);
  } catch (error) {
    if (error instanceof MigrationError) throw error;
    throw new SettingsError(`Invalid setting DDNS_DATA_DIR: cannot open the database in ${settings.dataDir}: ${(error as Error).message}`);
  }
  const ctx = createContext({ settings, keys, database, log });
  if (!storedCredentialsReadable(ctx)) {
    throw new SettingsError(
      "Invalid setting DDNS_ENCRYPTION_KEY: it cannot open the stored provider credentials (was the key or encryption.key replaced?)",
    );
  }
  return ctx;
}

/** The first admin: from DDNS_ADMIN_PASSWORD, or a random password shown once in the log. */
async function ensureFirstAdmin(ctx: AppContext): Promise<void> {
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

/** The data dir's lock, taken before anything in it is read or written. */
function lockData(settings: Settings): { release(): void } {
  try {
    return lockDataDir(settings.dataDir);
  } catch (error) {
    const why = error instanceof DataDirInUse ? error.message : `cannot write ${join(settings.dataDir, "ddnsd.lock")}: ${(error as Error).message}`;
    throw new SettingsError(`Invalid setting DDNS_DATA_DIR: ${why}`);
  }
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
  // Only once the port is ours: a start that fails here must not spend the one showing of a
  // generated password. "listening" then means ready to sign in.
  await ensureFirstAdmin(ctx);
  ctx.log.info("listening", { url: running.url.href, tls: settings.tlsCert !== null });
  // The dashboard shows the public address from the start, even before a domain exists.
  void Promise.all([detectFamily(ctx, 4), detectFamily(ctx, 6)]);
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      ctx.log.info("shutting down", { signal });
      void running.stop().then(() => {
        lock.release();
        process.exit(0);
      });
    });
  }
}

/** How long `ddnsd check` waits for its notifications before it exits. */
const CHECK_NOTIFY_GRACE_MS = 15_000;

async function check(settings: Settings): Promise<number> {
  const ctx = openContext(settings);
  const outcomes = await ctx.scheduler.runPass({ all: true });
  for (const outcome of outcomes) {
    const reason = outcome.result === "failed" ? `: ${outcome.message}` : "";
    console.log(`${outcome.hostname} ${outcome.recordType} ${outcome.result} ${outcome.ip ?? "-"}${reason}`);
  }
  if (outcomes.length === 0) console.log("no enabled domains");
  // The pass's notifications and heartbeat go out before the database closes (their retries cut short).
  await Promise.race([ctx.notifier.idle(), Bun.sleep(CHECK_NOTIFY_GRACE_MS)]);
  ctx.sqlite.close();
  return outcomes.some((outcome) => outcome.result === "failed") ? 1 : 0;
}

async function adminSetPassword(settings: Settings, username: string | undefined): Promise<number> {
  if (!username) {
    console.error("Usage: ddnsd admin set-password <user>   (the password is read from standard input)");
    return 2;
  }
  const password = (await Bun.stdin.text()).replace(/\r?\n$/, "");
  if (password.length < 8) {
    console.error("The password must be at least 8 characters long.");
    return 2;
  }
  const ctx = openContext(settings);
  const result = await setPassword(ctx, username, password);
  ctx.sqlite.close();
  console.log(`Password ${result === "created" ? "set for the new user" : "changed for"} ${username}.`);
  return 0;
}

/** `--flag` present, and `--name value`, from the arguments; anything else is returned as positional. */
function options(args: string[], flags: string[], values: string[]): { flags: Set<string>; values: Map<string, string>; positional: string[]; unknown: string | null } {
  const result = { flags: new Set<string>(), values: new Map<string, string>(), positional: [] as string[], unknown: null as string | null };
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (flags.includes(arg)) result.flags.add(arg);
    else if (values.includes(arg) && args[index + 1] !== undefined) result.values.set(arg, args[++index]!);
    else if (arg.startsWith("--")) result.unknown ??= arg;
    else result.positional.push(arg);
  }
  return result;
}

async function exportCommand(settings: Settings, args: string[]): Promise<number> {
  const parsed = options(args, ["--include-secrets"], ["--file"]);
  if (parsed.unknown !== null || parsed.positional.length > 0) {
    console.error("Usage: ddnsd export [--file F] [--include-secrets]");
    return 2;
  }
  const ctx = openContext(settings);
  const text = exportConfig(ctx, { includeSecrets: parsed.flags.has("--include-secrets") });
  ctx.sqlite.close();
  const file = parsed.values.get("--file");
  if (file === undefined) process.stdout.write(text);
  else {
    // Sealed or not, the file holds secrets: readable by its owner only.
    writeFileSync(file, text, { mode: 0o600 });
    chmodSync(file, 0o600);
    console.error(`Written to ${file}.`);
  }
  return 0;
}

async function importCommand(settings: Settings, args: string[]): Promise<number> {
  const parsed = options(args, ["--dry-run", "--prune"], []);
  const file = parsed.positional[0];
  if (parsed.unknown !== null || file === undefined || parsed.positional.length > 1) {
    console.error("Usage: ddnsd import F [--dry-run] [--prune]   (F may be - for standard input)");
    return 2;
  }
  let text: string;
  try {
    text = file === "-" ? await Bun.stdin.text() : readFileSync(file, "utf8");
  } catch (error) {
    console.error(`ddnsd: cannot read ${file}: ${(error as Error).message}`);
    return 1;
  }
  const dryRun = parsed.flags.has("--dry-run");
  // Writing beside a running server would change its data under it: that goes through its API.
  let lock: { release(): void } | null = null;
  if (!dryRun) {
    try {
      lock = lockDataDir(settings.dataDir);
    } catch (error) {
      if (!(error instanceof DataDirInUse)) throw error;
      console.error(
        `ddnsd: a running ddnsd holds ${settings.dataDir}; import through it instead: ` +
          `curl -X POST -H "Authorization: Bearer <token>" --data-binary @${file} "http://<host>:${settings.port}/api/v1/config/import"`,
      );
      return 1;
    }
  }
  try {
    const ctx = openContext(settings);
    try {
      const result = importConfig(ctx, text, { dryRun, prune: parsed.flags.has("--prune") });
      for (const change of result.changes) console.log(change);
      if (result.changes.length === 0) console.log("Nothing to change.");
      else if (dryRun) console.log(`Dry run: ${result.changes.length} change${result.changes.length === 1 ? "" : "s"}, none made.`);
      return 0;
    } catch (error) {
      if (!(error instanceof ConfigFileError)) throw error;
      console.error(`ddnsd: ${file}: ${error.message}`);
      return 1;
    } finally {
      ctx.sqlite.close();
    }
  } finally {
    lock?.release();
  }
}

async function healthcheck(settings: Settings): Promise<number> {
  const outcome = await probeHealth(settings);
  if (outcome.healthy) return 0;
  console.error(`ddnsd healthcheck: ${outcome.reason}`);
  return 1;
}

async function main(args: string[]): Promise<number | undefined> {
  const [command = "serve", ...rest] = args;
  if (command === "version" || command === "--version") {
    console.log(versionLine());
    return 0;
  }
  if (command === "help" || command === "--help" || command === "-h") {
    console.log(USAGE);
    return 0;
  }
  const settings = loadSettings();
  switch (command) {
    case "serve":
      await serve(settings);
      return undefined;
    case "check":
      return check(settings);
    case "healthcheck":
      return healthcheck(settings);
    case "export":
      return exportCommand(settings, rest);
    case "import":
      return importCommand(settings, rest);
    case "admin":
      if (rest[0] === "set-password") return adminSetPassword(settings, rest[1]);
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
