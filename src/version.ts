// The build's identity for `ddnsd version` (the status endpoint answers the version only).
// BUILD_COMMIT and BUILD_TARGET (the release target, e.g. linux-x64-baseline) are set by
// scripts/build.ts with `--define`; a run from source says so instead.

import { VERSION } from "./util/package";

declare const BUILD_COMMIT: string | undefined;
declare const BUILD_TARGET: string | undefined;

const COMMIT: string = typeof BUILD_COMMIT === "string" ? BUILD_COMMIT : "source";
const TARGET: string = typeof BUILD_TARGET === "string" ? BUILD_TARGET : "source";

/** `ddnsd 0.2.0 (linux-x64-baseline, bun 1.4.5, commit 1a2b3c4d5e6f)`. */
export function versionLine(): string {
  return `ddnsd ${VERSION} (${TARGET}, bun ${Bun.version}, commit ${COMMIT})`;
}
