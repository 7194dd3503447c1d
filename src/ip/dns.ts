// Detection over DNS (a domain's or the system's source `dns`): resolvers that answer a question
// about a special name with the address the question came from — OpenDNS's myip.opendns.com,
// Cloudflare's whoami.cloudflare (class CH, TXT) and Google's o-o.myaddr.l.google.com (TXT). For a
// network that blocks the echo services on the web but not DNS. Each entry of DDNS_IPV4_DNS /
// DDNS_IPV6_DNS is `<name>/<type>[/<class>]@<server>[:<port>]`, tried in order like the echo
// services; an answer is checked like theirs (the family, and a global address).

import { query } from "../dns/lookup";
import { formatServer, parseServer, type ServerAddress } from "../dns/protocols/signed-dns";
import { addressText, CLASS, RCODE, rcodeName, TYPE } from "../dns/protocols/wire";
import { type IpFamily, isGlobalAddress, parseIpAddress } from "../net/address";
import type { Detection } from "./detect";

/** One question to one server: which name, of which type and class. */
export interface DnsQuestion {
  name: string;
  type: "A" | "AAAA" | "TXT";
  class: "IN" | "CH";
  server: ServerAddress;
}

export const DEFAULT_IPV4_DNS: readonly string[] = [
  "myip.opendns.com/A@resolver1.opendns.com",
  "whoami.cloudflare/TXT/CH@1.1.1.1",
  "o-o.myaddr.l.google.com/TXT@ns1.google.com",
];

export const DEFAULT_IPV6_DNS: readonly string[] = [
  "myip.opendns.com/AAAA@resolver1.opendns.com",
  "whoami.cloudflare/TXT/CH@2606:4700:4700::1111",
  "o-o.myaddr.l.google.com/TXT@ns1.google.com",
];

/** `<name>/<type>[/<class>]@<server>[:<port>]` → a question, or a sentence saying what is wrong. */
export function parseDnsQuestion(text: string): DnsQuestion | string {
  const trimmed = text.trim();
  const at = trimmed.indexOf("@");
  const shape = `expected <name>/<type>[/<class>]@<server>[:<port>] (e.g. myip.opendns.com/A@resolver1.opendns.com), got "${trimmed.slice(0, 80)}"`;
  if (at < 0) return shape;
  const [name = "", type = "", klass = "IN", ...rest] = trimmed.slice(0, at).split("/");
  if (rest.length > 0 || type === "" || !/^[A-Za-z0-9_.-]{1,253}$/.test(name)) return shape;
  const upperType = type.toUpperCase();
  if (upperType !== "A" && upperType !== "AAAA" && upperType !== "TXT")
    return `the type must be A, AAAA or TXT, got "${type}" in "${trimmed.slice(0, 80)}"`;
  const upperClass = klass.toUpperCase();
  if (upperClass !== "IN" && upperClass !== "CH")
    return `the class must be IN or CH, got "${klass}" in "${trimmed.slice(0, 80)}"`;
  const server = parseServer(trimmed.slice(at + 1));
  if (typeof server === "string") return `the server ${server}, got "${trimmed.slice(at + 1, at + 81)}"`;
  return { name: name.replace(/\.$/, ""), type: upperType, class: upperClass, server };
}

/** Entries separated by commas or line breaks; the first wrong one's sentence, or the list. */
export function parseDnsQuestions(text: string): DnsQuestion[] | string {
  const items = text
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 0) return "name at least one <name>/<type>[/<class>]@<server>";
  const questions: DnsQuestion[] = [];
  for (const item of items) {
    const question = parseDnsQuestion(item);
    if (typeof question === "string") return question;
    questions.push(question);
  }
  return questions;
}

/** A question as it is written in the setting. */
export function questionText(question: DnsQuestion): string {
  return `${question.name}/${question.type}${question.class === "IN" ? "" : `/${question.class}`}@${formatServer(question.server)}`;
}

export interface DnsDetectOptions {
  questions: readonly DnsQuestion[];
  timeoutMs: number;
  allowPrivate: boolean;
}

/** Asks each question in order until one answers an address of `family`; the error lists each one's reason. */
export async function detectByDns(family: IpFamily, options: DnsDetectOptions): Promise<Detection> {
  const reasons: string[] = [];
  for (const question of options.questions) {
    const label = `dns:${questionText(question)}`;
    const answer = await askQuestion(question, family, options);
    if (answer.ok) return { ok: true, ip: answer.ip, source: label };
    reasons.push(`${label}: ${answer.reason}`);
  }
  const why = reasons.length > 0 ? reasons.join("; ") : "no resolvers configured";
  return { ok: false, error: `IPv${family} detection failed: ${why}` };
}

async function askQuestion(
  question: DnsQuestion,
  family: IpFamily,
  options: DnsDetectOptions,
): Promise<{ ok: true; ip: string } | { ok: false; reason: string }> {
  const answer = await query(question.server, question.name, TYPE[question.type], {
    recursion: false,
    qclass: CLASS[question.class],
    family,
    timeoutMs: options.timeoutMs,
  });
  if (!answer.ok) return answer;
  if (answer.message.rcode !== RCODE.NOERROR) return { ok: false, reason: rcodeName(answer.message.rcode) };
  const records = answer.message.answers.filter((record) => record.type === TYPE[question.type]);
  if (records.length === 0) return { ok: false, reason: `no ${question.type} record in the answer` };
  // A TXT answer may carry other strings beside the address (Google adds the client subnet).
  const candidates = records.flatMap((record) =>
    question.type === "TXT" ? txtStrings(record.data) : [safeAddress(record.data)],
  );
  const ip = candidates.map((text) => parseIpAddress(text, family)).find((parsed) => parsed !== null) ?? null;
  if (ip === null)
    return { ok: false, reason: `not an IPv${family} address: ${JSON.stringify(candidates.join(" ").slice(0, 80))}` };
  if (!options.allowPrivate && !isGlobalAddress(ip))
    return { ok: false, reason: `${ip} is not a globally routable address` };
  return { ok: true, ip };
}

function safeAddress(data: Uint8Array): string {
  try {
    return addressText(data);
  } catch {
    return "";
  }
}

/** The character-strings of a TXT record's data (RFC 1035 §3.3.14): each a length byte and that many bytes. */
function txtStrings(data: Uint8Array): string[] {
  const strings: string[] = [];
  for (let offset = 0; offset < data.length; ) {
    const length = data[offset] as number;
    strings.push(new TextDecoder().decode(data.subarray(offset + 1, offset + 1 + length)));
    offset += 1 + length;
  }
  return strings;
}
