// A notification's options as a channel takes them: the plain ones as stored, the secret ones
// opened. Only the notifier (to send) and an edit of the notification (to keep them) see them.

import { openCredentials } from "../security/secrets";
import type { NotificationRow } from "../store/rows";

/** Throws when the secrets were sealed under another encryption key. */
export function openOptions(
  row: Pick<NotificationRow, "options" | "secrets">,
  encryptionKey: string,
): Record<string, unknown> {
  return { ...row.options, ...openCredentials(row.secrets, encryptionKey) };
}
