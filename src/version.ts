// The build's identity for `ddnsd version` (the status endpoint answers the version only).
// BUILD_COMMIT is set by scripts/build.ts with `--define`; a run from source says so instead.

import { VERSION } from "./util/package";

declare const BUILD_COMMIT: string | undefined;

const COMMIT: string = typeof BUILD_COMMIT === "string" ? BUILD_COMMIT : "source";

export function versionLine(): string {
  return `ddnsd ${VERSION} (bun ${Bun.version}, commit ${COMMIT})`;
}
