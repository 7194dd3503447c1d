// Every message ddnsd keeps or sends — a history row's, a log line's, a notification's — is at most
// 2,000 characters, whatever a service or a name server answered: cut here, with "…" at the cut.
// A list within a message (the name servers that lag) names its first five and then how many more.

export const MAX_MESSAGE_CHARS = 2_000;
/** The items a list in a message names before "and N more". */
export const LISTED_ITEMS = 5;

/** `text` cut to MAX_MESSAGE_CHARS (the last one "…"), never in the middle of a surrogate pair. */
export function bounded(text: string): string {
  if (text.length <= MAX_MESSAGE_CHARS) return text;
  let cut = text.slice(0, MAX_MESSAGE_CHARS - 1);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** The first LISTED_ITEMS items, then "and N more" as one more item when there are more. */
export function firstItems(items: readonly string[]): string[] {
  if (items.length <= LISTED_ITEMS) return [...items];
  return [...items.slice(0, LISTED_ITEMS), `and ${items.length - LISTED_ITEMS} more`];
}
