// The command line's commands that write the data dir (or, as `backup`, must go through the one
// process that has the database open for writing), by name. Each runs against an app context
// wherever the data dir's owner is: inside the running server (sent over its control socket,
// ./socket.ts), or in the CLI's own process when no server holds the data dir's lock. Either way
// the same code runs, and the server stays the only writer while it runs, so what it keeps in
// memory (revocations, answers served again) is never stale. A new write command is one entry here;
// main.ts reads its input (arguments, standard input) and hands it to `runWriteCommand`.

import { join } from "node:path";
import type { Appliance } from "../context";
import { backupName, backupsDir, writeBackup } from "../db/backup";
import { ConfigFileError } from "../modules/config-file/document";
import { importConfig } from "../modules/config-file/service";
import { setPassword } from "../security/users";
import type { HeldRecord } from "../updater/propagation";
import { isPushStale } from "../updater/push-stale";
import { plural } from "../util/plural";

/** What the CLI prints and exits with. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export type WriteCommand = (ctx: Appliance, input: Record<string, unknown>) => Promise<CommandResult>;

const ok = (stdout: string): CommandResult => ({ code: 0, stdout, stderr: "" });
const usage = (stderr: string): CommandResult => ({ code: 2, stdout: "", stderr });

const PASSWORD_MIN_LENGTH = 8;

export const WRITE_COMMANDS: Record<string, WriteCommand> = {
  /** `ddnsd admin set-password <user>`: creates the user or replaces its password (every token issued so far is refused). */
  "set-password": async (ctx, { username, password }) => {
    if (typeof username !== "string" || username === "")
      return usage("Usage: ddnsd admin set-password <user>   (the password is read from standard input)");
    if (typeof password !== "string" || password.length < PASSWORD_MIN_LENGTH) {
      return usage(`The password must be at least ${PASSWORD_MIN_LENGTH} characters long.`);
    }
    const result = await setPassword(ctx, username, password);
    ctx.log.info("password set", { user: username, via: "cli" });
    return ok(`Password ${result === "created" ? "set for the new user" : "changed for"} ${username}.`);
  },

  /** `ddnsd import F [--dry-run] [--prune [--force]]`: the file applied by name, each change printed; a bad file changes nothing. */
  import: async (ctx, { text, source, dryRun, prune, force }) => {
    try {
      const result = importConfig(ctx, String(text ?? ""), {
        dryRun: dryRun === true,
        prune: prune === true,
        force: force === true,
      });
      const lines = result.changes.length === 0 ? ["Nothing to change."] : [...result.changes];
      if (dryRun === true && result.changes.length > 0)
        lines.push(`Dry run: ${plural(result.changes.length, "change")}, none made.`);
      return ok(lines.join("\n"));
    } catch (error) {
      if (!(error instanceof ConfigFileError)) throw error;
      return { code: 1, stdout: "", stderr: `ddnsd: ${String(source)}: ${error.message}` };
    }
  },

  /**
   * `ddnsd backup FILE`: a consistent copy of the database, written by the server that holds it
   * into its own backups folder (the one place its sandbox may write); prints the copy's path,
   * which the CLI moves to FILE.
   */
  backup: async (ctx) => {
    const file = join(backupsDir(ctx.settings.dataDir), backupName("cli-backup"));
    writeBackup(ctx.sqlite, ctx.settings.dataDir, file);
    ctx.log.info("database backed up", { backup: file, via: "cli" });
    return ok(file);
  },

  /**
   * `ddnsd check`: every enabled domain checked once, a push-only one by its last push and what the
   * name servers serve (the schedule never writes it); exit 1 if any failed, is stale or is known not
   * to be served: name servers still answering otherwise although this check wrote nothing. A record
   * just written is on its way, and one whose name servers cannot be asked is not known either way:
   * both are said, neither counts against it.
   */
  check: async (ctx) => {
    const outcomes = await ctx.scheduler.runPass({ all: true });
    let bad = outcomes.some((outcome) => outcome.result === "failed");
    const notServed = (domain: HeldRecord, justWritten = false): string => {
      const { state } = ctx.propagation.propagationOf(domain);
      if (state === "unreachable") return "; name servers not reachable";
      if (state !== "pending") return "";
      if (!justWritten) bad = true;
      return "; not served yet";
    };
    const lines = outcomes.map((outcome) => {
      const reason = outcome.result === "failed" ? `: ${outcome.message}` : "";
      const held = ctx.store.domains.find(outcome.domainId);
      return `${outcome.hostname} ${outcome.recordType} ${outcome.result} ${outcome.ip ?? "-"}${reason}${held ? notServed(held, outcome.result === "updated") : ""}`;
    });
    const now = Date.now();
    for (const domain of ctx.store.domains.pushOnly()) {
      const stale = isPushStale(domain, now, ctx.settings.pushStaleAfterSeconds);
      if (stale) bad = true;
      const lastPush = domain.pushedAt === null ? "never" : new Date(domain.pushedAt).toISOString();
      const live = ctx.propagation.propagationOf(domain).state;
      lines.push(
        `${domain.domainName} ${domain.recordType} push ${domain.lastKnownIp ?? "-"}: last push ${lastPush}${stale ? " (stale)" : ""}, live ${live}${notServed(domain)}`,
      );
    }
    if (lines.length === 0) lines.push("no enabled domains");
    return { code: bad ? 1 : 0, stdout: lines.join("\n"), stderr: "" };
  },
};
