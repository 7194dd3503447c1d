// Why a connection to another machine failed, in words a person can act on. The runtime's own text
// ("ECONNREFUSED: Unable to connect. Is the computer able to access the url?") names neither what
// happened in plain words nor what to do, so no page, history row or notification shows it.

const PLAIN_WORDS: [RegExp, string][] = [
  [
    /^(ECONNREFUSED|ConnectionRefused)$/,
    "nothing accepts connections at that address and port (is the server running, and on this port?)",
  ],
  [
    /^(ENOTFOUND|EAI_AGAIN|EAI_NONAME|DNSException)$/,
    "the server's name could not be resolved (check the address and this machine's DNS)",
  ],
  [
    /^(EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ENETDOWN)$/,
    "there is no route to that address (check this machine's network)",
  ],
  [/^(ECONNRESET|EPIPE|ConnectionClosed|ECONNABORTED)$/, "the connection was cut off before an answer came"],
  [/^(ETIMEDOUT|ETIMEOUT)$/, "the connection timed out"],
  [
    /CERT|SSL|TLS|EPROTO|HANDSHAKE/i,
    "a secure (TLS) connection could not be made: the server's certificate or its TLS failed",
  ],
];

/** A connection failure's cause in plain words, from the error's code (the runtime's message is never shown). */
export function connectionProblem(error: unknown): string {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === "string") {
    const words = PLAIN_WORDS.find(([pattern]) => pattern.test(code))?.[1];
    if (words !== undefined) return words;
  }
  return "the connection failed";
}
