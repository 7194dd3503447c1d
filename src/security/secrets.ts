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

export function sealCredentials(credentials: Record<string, string>, encryptionKey: string): string {
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
export function maskCredentials(credentials: Record<string, string>, isSecret: (key: string) => boolean): Record<string, string> {
  return Object.fromEntries(Object.entries(credentials).map(([key, value]) => [key, isSecret(key) ? maskSecret(value) : value]));
}
