// A failure the service says will not succeed is not retried until an edit; the pages say so once.

import { expect, test } from "bun:test";
import { failureExplained } from "../../../views/components";

test("a refused request that is not retried says so once, not in the service's words and again after them", () => {
  const { said, next } = failureExplained(
    "refused",
    "bind",
    "RFC 2136 127.0.0.1:53: the server answered REFUSED — not retried until the provider or domain is edited",
  );
  expect(`${said} ${next}`.match(/not (retried|tried again) until/g)).toHaveLength(1);
  expect(said).toBe("bind refused the request: RFC 2136 127.0.0.1:53: the server answered REFUSED");
  expect(next).toStartWith("It is not tried again until the domain or its provider is edited");
});
