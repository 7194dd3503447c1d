import { expect, test } from "bun:test";
import { plural } from "../../src/util/plural";

test("a count with its noun, in the plural unless the count is one", () => {
  expect(plural(1, "zone")).toBe("1 zone");
  expect(plural(0, "zone")).toBe("0 zones");
  expect(plural(3, "hosted zone")).toBe("3 hosted zones");
  expect(plural(2, "entry", "entries")).toBe("2 entries");
});
