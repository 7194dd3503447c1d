// The only place that sees plaintext credentials: sealing them with AES-256-GCM for the
// database, opening them for a provider client, and masking them for every response.

import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The 256-bit key, derived from the configured key text (at least 32 characters). */
function aesKey(encryptionKey: string): Buffer {
  return createHash("sha256").update(encryptionKey, "utf8").digest();
}

export function sealCredentials(credentials: Record<string, unknown>, encryptionKey: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", aesKey(encryptionKey), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(credentials), "utf8"), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64")}`;
}

export function openCredentials(sealed: string, encryptionKey: string): Record<string, string> {
  const [version, payload] = sealed.split(":", 2);
  if (version !== VERSION || payload === undefined) throw new Error("Unknown credentials format");
  const raw = Buffer.from(payload, "base64");
  const decipher = createDecipheriv("aes-256-gcm", aesKey(encryptionKey), raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
  const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]);
  return JSON.parse(text.toString("utf8")) as Record<string, string>;
}

/**
 * `••••3f9a`: the last four characters only when the secret is long enough not to give it away. A
 * JSON document (a Google Cloud service account key) ends in punctuation that tells nothing: it is
 * said to be one, with its size.
 */
export function maskSecret(secret: string): string {
  if (/^\s*\{[\s\S]*\}\s*$/.test(secret)) return `•••• (a JSON key, ${secret.length.toLocaleString("en")} characters)`;
  return secret.length >= 12 ? `••••${secret.slice(-4)}` : "••••";
}

/** Secrets masked; a credential the service calls public (a username, an access key id) shown as it is. */
export function maskCredentials(
  credentials: Record<string, string>,
  isSecret: (key: string) => boolean,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(credentials).map(([key, value]) => [key, isSecret(key) ? maskSecret(value) : value]),
  );
}

/** A service option as sealing sees it: options of headers (a custom URL's `headers`) are secrets. */
interface OptionKind {
  key: string;
  kind: string;
}

const isSealed = (value: unknown): value is string => typeof value === "string" && value.startsWith(`${VERSION}:`);

/**
 * Options as stored: each option of headers sealed like the credentials (its text in place of the
 * object), since a header often carries a token (`Authorization: Bearer …`).
 */
export function sealSecretOptions(
  kinds: readonly OptionKind[],
  options: Record<string, unknown>,
  encryptionKey: string,
): Record<string, unknown> {
  const headers = new Set(kinds.filter((option) => option.kind === "headers").map((option) => option.key));
  return Object.fromEntries(
    Object.entries(options).map(([key, value]) => [
      key,
      headers.has(key) && typeof value === "object" && value !== null
        ? sealCredentials(value as Record<string, unknown>, encryptionKey)
        : value,
    ]),
  );
}

/** Options as a client takes them: sealed ones opened (an older row's headers in clear are taken as they are). */
export function openSecretOptions(options: Record<string, unknown>, encryptionKey: string): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(options).map(([key, value]) => [
      key,
      isSealed(value) ? openCredentials(value, encryptionKey) : value,
    ]),
  );
}

/** Options as an answer shows them: each sealed one as its header names with masked values. */
export function maskSecretOptions(options: Record<string, unknown>, encryptionKey: string): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(options).map(([key, value]) => {
      if (!isSealed(value)) return [key, value];
      try {
        return [
          key,
          Object.fromEntries(
            Object.entries(openCredentials(value, encryptionKey)).map(([name, text]) => [
              name,
              maskSecret(String(text)),
            ]),
          ),
        ];
      } catch {
        return [key, {}];
      }
    }),
  );
}

/**
 * Secret headers sent back: a header whose value is the mask of the stored one (as an answer shows
 * it) keeps the stored value, so an edit may change one header and leave the others alone.
 */
export function keepMaskedHeaders(given: unknown, stored: unknown): unknown {
  const isRecord = (value: unknown): value is Record<string, unknown> =>
    typeof value === "object" && value !== null && !Array.isArray(value);
  if (!isRecord(given) || !isRecord(stored)) return given;
  return Object.fromEntries(
    Object.entries(given).map(([name, value]) => {
      const before = stored[name];
      return [
        name,
        typeof value === "string" &&
        typeof before === "string" &&
        value.startsWith("••••") &&
        maskSecret(before) === value
          ? before
          : value,
      ];
    }),
  );
}
