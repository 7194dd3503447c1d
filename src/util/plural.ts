// Counting in messages: "1 zone", "3 zones".

/** The count with its noun, the noun in the plural unless the count is one (`noun` + "s" unless `nouns` is given). */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}
