// The SHA-256 hex digest the request signers hash payloads and canonical requests with (Route 53's
// SigV4, Tencent's TC3, Huawei's SDK-HMAC-SHA256).

import { createHash } from "node:crypto";

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
