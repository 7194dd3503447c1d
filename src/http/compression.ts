// Smaller answers for browsers that say they can read them (`Accept-Encoding`): brotli, else gzip.
// A Pi on Wi-Fi serves /docs' 1.4 MB Swagger bundle in ~0.4 MB this way. Static files are
// compressed once, the first time each encoding is asked for, and kept only compressed; pages as
// they are sent; the OpenAPI document is kept compressed only (`keptCompressed`). Brotli runs
// at quality 5 for both: the bundle takes 0.2 s and 405 KB; quality 11 would save 45 KB more but
// take 11 s (measured here), far too long for a first visit on a Pi.

import { readFileSync } from "node:fs";
import { brotliCompressSync, constants } from "node:zlib";

export type Encoding = "br" | "gzip";

/** Below this, compressing costs more than it saves. */
const MIN_BYTES = 1024;

/** The best encoding the client accepts (a `q=0` refuses one), or null for none. */
function acceptedEncoding(acceptEncoding: string | null): Encoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const refused = params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
    if (name && !refused) accepted.add(name.trim());
  }
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip")) return "gzip";
  return null;
}

function compress(body: Uint8Array<ArrayBuffer>, encoding: Encoding): Uint8Array<ArrayBuffer> {
  if (encoding === "gzip") return Bun.gzipSync(body);
  const compressed = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 5,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
    },
  });
  return new Uint8Array(compressed.buffer as ArrayBuffer, compressed.byteOffset, compressed.byteLength);
}

function encodedResponse(
  body: Uint8Array<ArrayBuffer>,
  encoding: Encoding | null,
  status: number,
  headers: Headers,
): Response {
  headers.append("vary", "Accept-Encoding");
  if (encoding !== null) headers.set("content-encoding", encoding);
  return new Response(body, { status, headers });
}

/** A response with `body`, compressed when the request allows it and the body is worth it. */
export function compressedResponse(
  request: Request,
  body: string | Uint8Array<ArrayBuffer>,
  init: { status?: number; headers?: HeadersInit } = {},
): Response {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const encoding = bytes.byteLength >= MIN_BYTES ? acceptedEncoding(request.headers.get("accept-encoding")) : null;
  return encodedResponse(
    encoding === null ? bytes : compress(bytes, encoding),
    encoding,
    init.status ?? 200,
    new Headers(init.headers),
  );
}

/**
 * A static file's handler: each encoding computed at most once (lazily, so a start on a Pi does not
 * spend seconds on brotli for a page nobody opens) and kept; the plain bytes are not kept but read
 * again from the file (embedded in the binary) for the rare client that accepts no encoding, so
 * after a visit to /docs the appliance holds Swagger's 1.7 MB bundle only as 0.4 MB of brotli.
 */
export function staticFile(path: string, headers: Record<string, string>): (request: Request) => Response {
  const read = () => new Uint8Array(readFileSync(path));
  let small: boolean | undefined;
  const encoded = new Map<Encoding, Uint8Array<ArrayBuffer>>();
  return (request) => {
    small ??= read().byteLength < MIN_BYTES;
    const encoding = small ? null : acceptedEncoding(request.headers.get("accept-encoding"));
    if (encoding === null) return encodedResponse(read(), null, 200, new Headers(headers));
    let body = encoded.get(encoding);
    if (body === undefined) {
      body = compress(read(), encoding);
      encoded.set(encoding, body);
    }
    return encodedResponse(body, encoding, 200, new Headers(headers));
  };
}

/**
 * A body made once and then held only compressed: gzip at once, brotli the first time it is asked
 * for, and the plain bytes unzipped again for the rare client that accepts neither (curl without
 * `--compressed`). For a large answer that is made once and read seldom (the OpenAPI document).
 */
export function keptCompressed(
  body: Uint8Array<ArrayBuffer>,
  headers: Record<string, string>,
): (request: Request) => Response {
  const gzip = compress(body, "gzip");
  let brotli: Uint8Array<ArrayBuffer> | undefined;
  return (request) => {
    const encoding = acceptedEncoding(request.headers.get("accept-encoding"));
    if (encoding === "br") brotli ??= compress(Bun.gunzipSync(gzip) as Uint8Array<ArrayBuffer>, "br");
    const encoded =
      encoding === "br" ? brotli! : encoding === "gzip" ? gzip : (Bun.gunzipSync(gzip) as Uint8Array<ArrayBuffer>);
    return encodedResponse(encoded, encoding, 200, new Headers(headers));
  };
}
