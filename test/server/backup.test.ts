// `ddnsd backup FILE` and `ddnsd restore FILE` as a person runs them beside the service: real
// processes (the appliance and the CLI, `bun run src/main.ts`) on one data dir. A backup while the
// server runs is made by the server (it stays the only one with the database open for writing)
// and holds what was written up to then; a restore is refused while the server runs and, once it
// is stopped, puts the copy back and keeps the database it replaced.

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { APPLIANCE_PASSWORD, type Appliance, login, spawnAppliance, untilHealthy } from "../hardening/appliance";

const ROOT = resolve(import.meta.dir, "../..");
const work = mkdtempSync(join(tmpdir(), "ddnsd-backup-"));
const dataDir = join(work, "data");
let appliance: Appliance;
let token = "";

beforeAll(async () => {
  // It starts: the restored copy's stored credentials open with the data dir's keys.
  appliance = spawnAppliance(dataDir);
  await untilHealthy(appliance);
  token = ((await (await login(appliance)).json()) as { access_token: string }).access_token;
});

afterAll(async () => {
  appliance.kill("SIGTERM");
  await appliance.exited;
  rmSync(work, { recursive: true, force: true });
});

async function ddnsd(args: string[]) {
  const child = Bun.spawn([process.execPath, "run", "src/main.ts", ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", DDNS_DATA_DIR: dataDir, DDNS_LOG_FORMAT: "json" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: 30_000,
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { stdout, stderr, code };
}

const createProvider = (name: string) =>
  fetch(`${appliance.base}/api/v1/providers`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ name, type: "duckdns", credentials: { token: "0123456789abcdef0123456789abcdef" } }),
  });

const providerNames = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .query<{ name: string }, []>("SELECT name FROM providers ORDER BY id")
      .all()
      .map((row) => row.name);
  } finally {
    db.close();
  }
};

const backupFile = join(work, "copies", "ddnsd.db");

test("a backup while the server runs is made by the server and holds what was written", async () => {
  expect((await createProvider("Before the backup")).status).toBe(200);
  mkdirSync(join(work, "copies"));
  const result = await ddnsd(["backup", backupFile]);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  expect(result.stdout).toContain(`Database backed up to ${backupFile}.`);
  expect(result.stdout).toContain("encryption.key");
  expect(statSync(backupFile).mode & 0o777).toBe(0o600);
  expect(providerNames(backupFile)).toEqual(["Before the backup"]);
  expect(appliance.lines.some((line) => line.includes("database backed up") && line.includes('"via":"cli"'))).toBe(
    true,
  );
  // Nothing is left behind in the data dir's backups folder.
  expect(readdirSync(join(dataDir, "backups"))).toEqual([]);
});

test("a symlink at FILE is replaced by the copy, and the file it pointed to is left alone", async () => {
  const elsewhere = join(work, "someone-elses");
  writeFileSync(elsewhere, "not for ddnsd to write", { mode: 0o644 });
  const linked = join(work, "linked.db");
  symlinkSync(elsewhere, linked);
  const result = await ddnsd(["backup", linked]);
  expect(result.code).toBe(0);
  expect(readFileSync(elsewhere, "utf8")).toBe("not for ddnsd to write");
  expect(statSync(elsewhere).mode & 0o777).toBe(0o644);
  expect(lstatSync(linked).isSymbolicLink()).toBe(false);
  expect(statSync(linked).mode & 0o777).toBe(0o600);
  expect(providerNames(linked)).toEqual(["Before the backup"]);
  expect(readdirSync(work).filter((name) => name.startsWith("."))).toEqual([]);

  // A link at the name the copy used to be written through (FILE.partial-<pid>): the wrapper
  // plants it for its own pid, which ddnsd keeps by exec.
  const target = join(work, "by-pid.db");
  const plant = `ln -s '${elsewhere}' "$1.partial-$$" && exec '${process.execPath}' run src/main.ts backup "$1"`;
  const child = Bun.spawn(["sh", "-c", plant, "sh", target], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", DDNS_DATA_DIR: dataDir, DDNS_LOG_FORMAT: "json" },
    stdout: "ignore",
    stderr: "pipe",
    timeout: 30_000,
  });
  expect(await child.exited).toBe(0);
  expect(readFileSync(elsewhere, "utf8")).toBe("not for ddnsd to write");
  expect(providerNames(target)).toEqual(["Before the backup"]);
});

test("a folder as FILE gets a copy named with the time; a second backup of the same name replaces it", async () => {
  const folder = join(work, "copies");
  const result = await ddnsd(["backup", folder]);
  expect(result.code).toBe(0);
  const named = readdirSync(folder).filter((name) => /^ddnsd-\d{8}T\d{9}Z-backup\.db$/.test(name));
  expect(named).toHaveLength(1);
  writeFileSync(join(work, "old.db"), "an older copy");
  const again = await ddnsd(["backup", join(work, "old.db")]);
  expect(again.code).toBe(0);
  expect(providerNames(join(work, "old.db"))).toEqual(["Before the backup"]);
});

test("restore is refused while the server runs, and changes nothing", async () => {
  expect((await createProvider("After the backup")).status).toBe(200);
  const result = await ddnsd(["restore", backupFile]);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain("stop it first");
  const list = await fetch(`${appliance.base}/api/v1/providers`, { headers: { authorization: `Bearer ${token}` } });
  expect(((await list.json()) as { name: string }[]).map((p) => p.name)).toEqual([
    "Before the backup",
    "After the backup",
  ]);
});

test("restore refuses a file that is not a ddnsd database, and changes nothing", async () => {
  appliance.kill("SIGTERM");
  expect(await appliance.exited).toBe(0);
  const bogus = join(work, "bogus.db");
  writeFileSync(bogus, "not a database at all, just text");
  const result = await ddnsd(["restore", bogus]);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain("nothing was changed");
  expect(providerNames(join(dataDir, "ddnsd.db"))).toEqual(["Before the backup", "After the backup"]);
});

test("with ddnsd stopped, a backup copies the database as it is and migrates nothing (what install.sh --upgrade relies on)", async () => {
  // The newest migration made to look pending, as in a database an older version left.
  const live = join(dataDir, "ddnsd.db");
  const applied = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return db.query<{ n: number }, []>("SELECT count(*) AS n FROM __drizzle_migrations").get()!.n;
    } finally {
      db.close();
    }
  };
  const db = new Database(live);
  db.exec("DELETE FROM __drizzle_migrations WHERE id = (SELECT max(id) FROM __drizzle_migrations)");
  db.close();
  const before = applied(live);
  const copy = join(work, "stopped.db");
  const result = await ddnsd(["backup", copy]);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  expect(applied(copy)).toBe(before);
  expect(applied(live)).toBe(before);
  expect(readdirSync(join(dataDir, "backups")).filter((name) => /-before-\d{4}_/.test(name))).toEqual([]);
});

test("restore with the server stopped puts the copy back, keeps the replaced database, and ddnsd starts on it", async () => {
  const result = await ddnsd(["restore", backupFile]);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  const kept = readdirSync(join(dataDir, "backups")).filter((name) => name.endsWith("-before-restore.db"));
  expect(kept).toHaveLength(1);
  expect(result.stdout).toContain(join(dataDir, "backups", kept[0]!));
  expect(providerNames(join(dataDir, "backups", kept[0]!))).toEqual(["Before the backup", "After the backup"]);
  expect(existsSync(join(dataDir, "ddnsd.db-wal"))).toBe(false);

  // It starts: the restored copy's stored credentials open with the data dir's keys.
  appliance = spawnAppliance(dataDir);
  await untilHealthy(appliance);
  token = ((await (await login(appliance, APPLIANCE_PASSWORD)).json()) as { access_token: string }).access_token;
  const list = await fetch(`${appliance.base}/api/v1/providers`, { headers: { authorization: `Bearer ${token}` } });
  expect(((await list.json()) as { name: string }[]).map((p) => p.name)).toEqual(["Before the backup"]);
});

test("a FILE in a folder that does not exist is one line naming it, and leaves no copy behind", async () => {
  const missing = join(work, "no-such-folder", "ddnsd.db");
  const result = await ddnsd(["backup", missing]);
  expect(result.code).toBe(1);
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  expect(result.stderr).toContain(`ddnsd backup: cannot write ${missing}`);
  expect(readdirSync(join(dataDir, "backups")).filter((name) => name.includes("cli-backup"))).toEqual([]);
});

test("backup and restore without FILE print their usage and exit 2", async () => {
  for (const command of ["backup", "restore"]) {
    const result = await ddnsd([command]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Usage: ddnsd ${command} FILE`);
  }
});
