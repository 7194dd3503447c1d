// Where a family's public address comes from, as written in the environment (DDNS_IPV4_SOURCE,
// DDNS_IPV4_URLS …) and in the admin pages and the API: read here once, so both accept exactly the
// same values.

import { isHttpUrl } from "../util/url";

/** Where a family's address comes from: the echo services, or an interface of this host. */
export type AddressSource = { kind: "web" } | { kind: "interface"; name: string };

/** `web`, or `interface:<name>` with a Linux interface name (at most 15 characters, no slash, colon or space). */
export function parseAddressSource(text: string): AddressSource | null {
  if (text.trim().toLowerCase() === "web") return { kind: "web" };
  const match = /^interface:([^\s/:]{1,15})$/.exec(text.trim());
  return match ? { kind: "interface", name: match[1]! } : null;
}

/** http(s) URLs separated by commas or line breaks; the first one that is not, or the text when none is given. */
export function parseUrlList(text: string): string[] | string {
  const list = text.split(/[,\n]/).map((item) => item.trim()).filter(Boolean);
  const bad = list.find((item) => !isHttpUrl(item));
  return list.length === 0 || bad !== undefined ? (bad ?? text) : list;
}
