// Request screening (docs/api.md, limits): what is malformed never reaches a route. At the socket
// (`screenRequest`, used by server.ts): a missing or malformed Host → 400, a declared body over
// 64 KiB → 413. In the app (`bodyScreening`, before routing): the same limit for a body of no
// declared length, JSON nested deeper than 32 levels → 422, `Content-Type` matched ignoring case.

import { Elysia } from "elysia";
import { HttpError, jsonResponse } from "./errors";

const MAX_BODY_BYTES = 64 * 1024;
const MAX_JSON_DEPTH = 32;

const BAD_HOST = "The request has no valid Host header";
const BODY_TOO_LARGE = `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB`;
const TOO_DEEP = `The request body is nested deeper than ${MAX_JSON_DEPTH} levels`;

// A DNS name (letters, digits, '-', '_', dots), an IPv4 address, or an IPv6 literal in brackets;
// then an optional port.
const HOST =
  /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?)*\.?|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

/** Whether the request names a host the URL parser accepts (Bun builds `request.url` from it). */
function hasValidHost(request: Request): boolean {
  const host = request.headers.get("host");
  if (host !== null) {
    const match = HOST.exec(host);
    if (!match || (match[1] !== undefined && Number(match[1]) > 65535)) return false;
  }
  // Without a Host header (HTTP/1.0) Bun's request.url is a bare path, which does not parse.
  return URL.canParse(request.url);
}

/** The answer for a request refused before routing, or null to let it through. */
export function screenRequest(request: Request): Response | null {
  if (!hasValidHost(request)) return jsonResponse(400, { detail: BAD_HOST });
  // Bun itself refuses a Content-Length that is not a number; only its size is left to judge.
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) return jsonResponse(413, { detail: BODY_TOO_LARGE });
  return null;
}

/** The body's bytes, refusing it as soon as it passes the limit. */
async function readLimited(request: Request): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    size += chunk.value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new HttpError(413, BODY_TOO_LARGE);
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks);
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether JSON text nests objects and arrays deeper than `limit` (strings skipped; one pass, no recursion). */
function nestedDeeperThan(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth--;
  }
  return false;
}

/**
 * Before routing, in the app: the media type of `Content-Type` lowercased (Elysia's parser matches
 * it exactly; `Application/JSON` is the same type), and every body read (a copy; Elysia parses the
 * original) with the 64 KiB limit — a chunked body declares no length — and JSON checked for depth
 * before anything recursive (the parser, validation, error mapping, storage) sees it.
 */
export function bodyScreening() {
  return new Elysia({ name: "body-screening" }).onRequest(async ({ request }) => {
    const contentType = request.headers.get("content-type");
    if (contentType !== null) {
      const [type = "", ...parameters] = contentType.split(";");
      request.headers.set("content-type", [type.trim().toLowerCase(), ...parameters].join(";"));
    }
    if (request.body === null) return;
    try {
      const bytes = await readLimited(request.clone());
      const type = request.headers.get("content-type")?.split(";")[0] ?? "";
      if ((type === "application/json" || type.endsWith("+json")) && nestedDeeperThan(bytes, MAX_JSON_DEPTH)) {
        return jsonResponse(422, { detail: TOO_DEEP });
      }
    } catch (error) {
      if (error instanceof HttpError) return jsonResponse(error.status, { detail: error.detail });
      throw error;
    }
  });
}
