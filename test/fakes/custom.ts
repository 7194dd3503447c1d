// A stand-in for whatever endpoint a custom update URL points at: it logs every request (method,
// path, query, headers, body) and answers as told — a 2xx, an error with a body, a redirect, a 429
// with Retry-After, or an error page that echoes the request's URL back (as careless servers do),
// which is how the tests prove the secret never reaches a message.

import { type FakeServer, htmlErrorPage, startFakeServer } from "./server";

/**
 * `{status}` answers with that status, `body` (default empty) and, with `retryAfter` or `location`,
 * those headers; `"echo"` a 400 whose body quotes the whole request URL; `"html"` a 502 page.
 */
export type CustomFault = { status: number; body?: string; retryAfter?: number; location?: string } | "echo" | "html";

export interface CustomFake extends FakeServer<CustomFault> {
  /** What every request gets when no fault applies. */
  answer: { status: number; body: string };
}

export function startCustomFake(): CustomFake {
  const server = startFakeServer<CustomFault>({
    prefix: "",
    route() {
      return new Response(fake.answer.body, { status: fake.answer.status, headers: { "Content-Type": "text/plain" } });
    },
    renderFault(mode, request) {
      if (mode === "html") return htmlErrorPage();
      if (mode === "echo") {
        const query = new URLSearchParams(request.query).toString();
        return new Response(`Bad request: ${request.method} ${request.path}?${query}`, { status: 400 });
      }
      const headers: Record<string, string> = {};
      if (mode.retryAfter !== undefined) headers["Retry-After"] = String(mode.retryAfter);
      if (mode.location !== undefined) headers.Location = mode.location;
      return new Response(mode.body ?? "", { status: mode.status, headers });
    },
  });
  const fake: CustomFake = Object.assign(server, { answer: { status: 200, body: "ok" } });
  return fake;
}
