// The programs some tests run (ddclient, inadyn, named …). On a developer's machine without one,
// the tests that need it are skipped; under CI (CI=true) a missing program fails the file instead,
// because the README's test command installs every one of them and a skip there would hide it.

const SEARCHED = `${process.env.PATH ?? ""}:/usr/sbin:/sbin`;

/** The programs of `programs` this machine lacks (under CI, any lacking throws). */
export function lacking(...programs: string[]): string[] {
  const missing = programs.filter((program) => Bun.which(program, { PATH: SEARCHED }) === null);
  if (missing.length > 0 && process.env.CI === "true")
    throw new Error(`CI lacks ${missing.join(", ")}, which the README's test command installs`);
  return missing;
}

/** Whether tests that run `programs` are skipped here: a machine that lacks one of them. */
export const lacks = (...programs: string[]): boolean => lacking(...programs).length > 0;
