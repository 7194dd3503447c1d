import { expect, test } from "bun:test";
import { type Page, paginate } from "../../../src/dns/paging";
import type { Step } from "../../../src/dns/provider";

/** A listing of `pages`, each page naming the next by its index; every request is logged. */
function listing(pages: string[][], nextOf = (index: number) => (index + 1 < pages.length ? index + 1 : undefined)) {
  const asked: (string | number | undefined)[] = [];
  const read = async (next: string | number | undefined): Promise<Step<Page<string>>> => {
    asked.push(next);
    const index = Number(next ?? 0);
    return { ok: true, value: { items: pages[index] ?? [], next: nextOf(index) } };
  };
  return { read, asked };
}

test("every page is read, each from the cursor the one before named, until a page names none", async () => {
  const { read, asked } = listing([["a", "b"], ["c"], ["d"]]);
  expect(await paginate(read)).toEqual({ ok: true, value: ["a", "b", "c", "d"] });
  expect(asked).toEqual([undefined, 1, 2]);
});

test("a cursor named again, or more pages than the bound, ends the listing with what was read", async () => {
  const repeating = listing([["a"], ["b"]], () => 1);
  expect(await paginate(repeating.read)).toEqual({ ok: true, value: ["a", "b"] });
  expect(repeating.asked).toEqual([undefined, 1]);
  const endless = listing(Array.from({ length: 10 }, (_, i) => [String(i)]));
  expect(await paginate(endless.read, 3)).toEqual({ ok: true, value: ["0", "1", "2"] });
});

test("each page is told how many items the pages before it held", async () => {
  const counts: number[] = [];
  const pages = [["a", "b"], ["c"], []];
  const read = async (next: string | number | undefined, count: number): Promise<Step<Page<string>>> => {
    counts.push(count);
    const index = Number(next ?? 0);
    return { ok: true, value: { items: pages[index] ?? [], next: index + 1 < pages.length ? index + 1 : undefined } };
  };
  expect(await paginate(read)).toEqual({ ok: true, value: ["a", "b", "c"] });
  expect(counts).toEqual([0, 2, 3]);
});

test("a page's failure is the listing's, with nothing of what was read", async () => {
  let calls = 0;
  const failing = async (): Promise<Step<Page<string>>> =>
    ++calls === 1
      ? { ok: true, value: { items: ["a"], next: 2 } }
      : { ok: false, cause: "throttled", message: "Slow: 429", retryAfterSeconds: 30 };
  expect(await paginate(failing)).toEqual({
    ok: false,
    cause: "throttled",
    message: "Slow: 429",
    retryAfterSeconds: 30,
  });
});
