// Reading a listing a service answers in pages: one loop for every service, whatever its pages are
// called (a page number, an offset, a marker, a cursor or the next page's URL).

import type { Step } from "./provider";

/** One page of a listing: its items, and where the next page starts (none after the last). */
export interface Page<T> {
  items: T[];
  /** The next page's page number, offset, marker, cursor or URL; undefined on the last page. */
  next?: string | number;
}

/**
 * Every item of a paged listing: `read` is asked for the first page (`next` undefined), then for
 * each page the one before names, and told how many items the pages before it held (`count`: the
 * offset of a listing paged by items, or what a total is compared with). After `maxPages` pages
 * the listing is taken as runaway pagination (a service repeating its cursor), not an account, and
 * what was read is kept.
 */
export async function paginate<T>(
  read: (next: string | number | undefined, count: number) => Promise<Step<Page<T>>>,
  maxPages = 50,
): Promise<Step<T[]>> {
  const items: T[] = [];
  let next: string | number | undefined;
  for (let page = 1; page <= maxPages; page++) {
    const answer = await read(next, items.length);
    if (!answer.ok) return answer;
    items.push(...answer.value.items);
    if (answer.value.next === undefined || answer.value.next === next) break;
    next = answer.value.next;
  }
  return { ok: true, value: items };
}
