// The admin pages' static files, embedded in the binary like every other asset. Their URLs carry
// a hash of the content, so browsers may cache them for good and still see each new build. Views
// link to `url`; src/ui serves `path` at `route` (this module imports nothing from src/ui).

import { readFileSync } from "node:fs";
import htmxPath from "htmx.org/dist/htmx.min.js" with { type: "file" };
import clientPath from "./client.js" with { type: "file" };
import faviconPath from "./favicon.svg" with { type: "file" };
import localTimePath from "./local-time.js" with { type: "file" };
import stylesPath from "./styles.css" with { type: "file" };

export interface Asset {
  /** The path it is served at. */
  route: string;
  /** Where the file lives (a `/$bunfs/` path in the compiled binary). */
  path: string;
  /** The versioned URL pages link to. */
  url: string;
  contentType: string;
}

function asset(route: string, path: string, contentType: string): Asset {
  const hash = Bun.hash(readFileSync(path)).toString(36);
  return { route, path, url: `${route}?v=${hash}`, contentType };
}

export const ASSETS = {
  styles: asset("/assets/styles.css", stylesPath, "text/css; charset=utf-8"),
  client: asset("/assets/client.js", clientPath, "text/javascript; charset=utf-8"),
  localTime: asset("/assets/local-time.js", localTimePath, "text/javascript; charset=utf-8"),
  htmx: asset("/assets/htmx.min.js", htmxPath, "text/javascript; charset=utf-8"),
  favicon: asset("/assets/favicon.svg", faviconPath, "image/svg+xml"),
} as const;
