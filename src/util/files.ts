// The one way ddnsd writes a file someone asked for (`ddnsd export --file`, `ddnsd backup`,
// restore's copies, the copies in the data dir's backups folder): a new file, created exclusively
// (O_EXCL, so never through a link) under a name nobody can guess in the target's folder, mode
// 0600, filled and synced, then renamed over the target. A symlink at the target is replaced,
// never followed; an existing file's owner is not kept: the new file is the writer's (or the
// `owner` given, set on the open file, so a path swapped meanwhile cannot redirect it).

import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fchownSync,
  fsyncSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

export interface Owner {
  uid: number;
  gid: number;
}

/** A new file beside its target, written and synced, waiting to be renamed over it. */
export interface StagedFile {
  path: string;
  /** Renames the new file over the target. */
  commit(): void;
  /** Removes the new file. */
  discard(): void;
}

const CHUNK_BYTES = 1 << 20;

/** Creates the new file for `target` and lets `write` fill it through its descriptor. */
export function stageNewFile(target: string, write: (fd: number) => void, owner?: Owner): StagedFile {
  const path = join(dirname(target), `.${basename(target)}.${randomBytes(12).toString("hex")}.new`);
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  const discard = () => rmSync(path, { force: true });
  try {
    try {
      if (owner !== undefined) fchownSync(fd, owner.uid, owner.gid);
      write(fd);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    discard();
    throw error;
  }
  return {
    path,
    commit: () => {
      try {
        renameSync(path, target);
      } catch (error) {
        discard();
        throw error;
      }
    },
    discard,
  };
}

/** Writes `target` as a new file (see above) filled by `write`. */
export function replaceFile(target: string, write: (fd: number) => void, owner?: Owner): void {
  stageNewFile(target, write, owner).commit();
}

function writeAll(fd: number, buffer: Buffer, length: number): void {
  for (let written = 0; written < length; ) written += writeSync(fd, buffer, written, length - written);
}

/** Fills a new file with `text`. */
export const textInto = (text: string) => (fd: number) => {
  const bytes = Buffer.from(text);
  writeAll(fd, bytes, bytes.length);
};

/** Fills a new file with the bytes of the file `from`, a chunk at a time. */
export const copyInto = (from: string) => (fd: number) => {
  const source = openSync(from, "r");
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    for (let read = readSync(source, buffer); read > 0; read = readSync(source, buffer)) writeAll(fd, buffer, read);
  } finally {
    closeSync(source);
  }
};
