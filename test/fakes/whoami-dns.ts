// A stand-in for the "who am I" name servers the `dns` address source asks (OpenDNS's
// myip.opendns.com, Cloudflare's whoami.cloudflare in class CH, Google's o-o.myaddr.l.google.com):
// over UDP on 127.0.0.1, every question about any name is answered with the address it reports —
// an A or AAAA record, or a TXT string for a TXT question, in the question's class — or refused, as
// a resolver that does not serve the name refuses it. The answers are tiny, so UDP is enough.

import { createSocket } from "node:dgram";
import { decodeMessage, encodeMessage, RCODE, TYPE } from "../../src/dns/protocols/wire";

export interface WhoamiDnsFake {
  /** `127.0.0.1:<port>`, as a question's server is written (`myip.example.test/A@127.0.0.1:<port>`). */
  server: string;
  /** What an A question (or a TXT one) is answered. */
  ipv4: string;
  /** What an AAAA question is answered. */
  ipv6: string;
  /** Answer REFUSED to every question while true. */
  refusing: boolean;
  /** Every question asked, in order. */
  asked: { name: string; type: number; class: number }[];
  /** Back to the initial addresses, answering, nothing asked. */
  reset(): void;
  stop(): Promise<void>;
}

/** Globally routable (detection refuses documentation ranges), and unlike the echo fake's. */
export const WHOAMI_DEFAULT_IPV4 = "185.103.110.150";
export const WHOAMI_DEFAULT_IPV6 = "2a01:4f8:c17:b8f::150";

function addressBytes(ip: string, family: 4 | 6): Uint8Array {
  if (family === 4) return Uint8Array.from(ip.split(".").map(Number));
  const [head, tail = ""] = ip.split("::");
  const groups = (text: string) => (text === "" ? [] : text.split(":").map((group) => Number.parseInt(group, 16)));
  const left = groups(head!);
  const right = groups(tail);
  const all = [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  return Uint8Array.from(all.flatMap((group) => [group >> 8, group & 0xff]));
}

export async function startWhoamiDnsFake(): Promise<WhoamiDnsFake> {
  const socket = createSocket("udp4");
  const fake: WhoamiDnsFake = {
    server: "",
    ipv4: WHOAMI_DEFAULT_IPV4,
    ipv6: WHOAMI_DEFAULT_IPV6,
    refusing: false,
    asked: [],
    reset() {
      fake.ipv4 = WHOAMI_DEFAULT_IPV4;
      fake.ipv6 = WHOAMI_DEFAULT_IPV6;
      fake.refusing = false;
      fake.asked = [];
    },
    stop: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
  socket.on("message", (bytes, from) => {
    const query = decodeMessage(new Uint8Array(bytes));
    const question = query.questions[0];
    if (question === undefined) return;
    fake.asked.push({ ...question });
    let data: Uint8Array | null = null;
    if (question.type === TYPE.A) data = addressBytes(fake.ipv4, 4);
    else if (question.type === TYPE.AAAA) data = addressBytes(fake.ipv6, 6);
    else if (question.type === TYPE.TXT) {
      const text = new TextEncoder().encode(fake.ipv4);
      data = Uint8Array.from([text.length, ...text]);
    }
    const answer = encodeMessage({
      ...query,
      qr: true,
      aa: true,
      rcode: fake.refusing ? RCODE.REFUSED : RCODE.NOERROR,
      answers:
        fake.refusing || data === null
          ? []
          : [{ name: question.name, type: question.type, class: question.class, ttl: 0, data }],
    });
    socket.send(answer, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  fake.server = `127.0.0.1:${socket.address().port}`;
  return fake;
}
