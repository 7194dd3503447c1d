// Detection over DNS (the `dns` source) against a real BIND on loopback serving a whoami-style
// zone: a name answering the caller's address in an A record, another in a TXT record, one whose
// answer is too large for UDP (so the address arrives only over TCP after the truncated UDP answer),
// and refusals as the echo services' answers are refused. Then through the whole app: a domain whose
// address_source is `dns`, and the system's source set to `dns`, with DDNS_IPV4_DNS pointing at BIND.
// A class CH question (Cloudflare's whoami.cloudflare) is answered by the "who am I" fake
// (test/fakes/whoami-dns.ts), as BIND serves class IN zones here.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CLASS, TYPE } from "../../src/dns/protocols/wire";
import { type DnsQuestion, detectByDns, parseDnsQuestion, parseDnsQuestions } from "../../src/ip/dns";
import { compressionBomb, startTestNameServer } from "../fakes/dns-server";
import { startWhoamiDnsFake, type WhoamiDnsFake } from "../fakes/whoami-dns";
import { missingPrograms, type NameServer, startBind } from "../servers/name-servers";
import { addDomain, addProvider, duePass, historyOf, OLD_IPV4, type Rig, useRig } from "../updater/harness";

const A_ANSWER = "81.2.69.160";
const TXT_ANSWER = "81.2.69.161";
const BIG_ANSWER = "81.2.69.162";
const FILLER = Array.from({ length: 30 }, (_, i) => `big 60 IN TXT "filler ${i} ${"x".repeat(60)}"`);

const skip = missingPrograms().includes("named");
let bind: NameServer;

beforeAll(async () => {
  if (skip) return;
  bind = await startBind({
    records: [
      `myip 60 IN A ${A_ANSWER}`,
      `whoami 60 IN TXT "edns0-client-subnet 0.0.0.0/0"`,
      `whoami 60 IN TXT "${TXT_ANSWER}"`,
      `big 60 IN TXT "${BIG_ANSWER}"`,
      ...FILLER,
      "private 60 IN A 192.168.1.10",
      'garbage 60 IN TXT "hello"',
    ],
  });
});

afterAll(async () => {
  await bind?.stop();
});

function question(text: string): DnsQuestion {
  const parsed = parseDnsQuestion(text);
  if (typeof parsed === "string") throw new Error(parsed);
  return parsed;
}

const options = (questions: DnsQuestion[], allowPrivate = false) => ({ questions, timeoutMs: 3000, allowPrivate });

describe.skipIf(skip)("asking BIND", () => {
  test("an A answer and a TXT answer (other strings beside the address are passed over)", async () => {
    const a = question(`myip.example.test/A@127.0.0.1:${bind.port}`);
    expect(await detectByDns(4, options([a]))).toEqual({
      ok: true,
      ip: A_ANSWER,
      source: `dns:myip.example.test/A@127.0.0.1:${bind.port}`,
    });
    const txt = question(`whoami.example.test/TXT@127.0.0.1:${bind.port}`);
    expect(await detectByDns(4, options([txt]))).toMatchObject({ ok: true, ip: TXT_ANSWER });
  });

  test("an answer too large for UDP comes truncated, and is asked again over TCP", async () => {
    const big = question(`big.example.test/TXT@127.0.0.1:${bind.port}`);
    expect(await detectByDns(4, options([big]))).toMatchObject({ ok: true, ip: BIG_ANSWER });
  });

  test("refusals fall through to the next question, each reason kept: NXDOMAIN, a private address, no address, the wrong family", async () => {
    const at = `@127.0.0.1:${bind.port}`;
    const questions = [
      "nothing.example.test/A",
      "private.example.test/A",
      "garbage.example.test/TXT",
      "myip.example.test/A",
    ].map((text) => question(`${text}${at}`));
    expect(await detectByDns(6, options(questions))).toEqual({
      ok: false,
      error:
        `IPv6 detection failed: dns:nothing.example.test/A${at}: NXDOMAIN; ` +
        `dns:private.example.test/A${at}: not an IPv6 address: "192.168.1.10"; ` +
        `dns:garbage.example.test/TXT${at}: not an IPv6 address: "hello"; ` +
        `dns:myip.example.test/A${at}: not an IPv6 address: "${A_ANSWER}"`,
    });
    const v4 = await detectByDns(4, options(questions.slice(0, 2)));
    expect(v4).toMatchObject({ ok: false });
    if (!v4.ok) expect(v4.error).toContain("192.168.1.10 is not a globally routable address");
    expect(await detectByDns(4, options([question(`private.example.test/A${at}`)], true))).toMatchObject({
      ok: true,
      ip: "192.168.1.10",
    });
  });
});

describe("a class CH question", () => {
  let whoami: WhoamiDnsFake;
  beforeAll(async () => {
    whoami = await startWhoamiDnsFake();
    whoami.ipv4 = TXT_ANSWER;
  });
  afterAll(async () => {
    await whoami.stop();
  });

  test("whoami.cloudflare/TXT/CH is asked in class CH and its TXT answer read", async () => {
    const ch = question(`whoami.cloudflare/TXT/CH@${whoami.server}`);
    expect(await detectByDns(4, options([ch]))).toMatchObject({ ok: true, ip: TXT_ANSWER });
    expect(whoami.asked).toEqual([{ name: "whoami.cloudflare", type: TYPE.TXT, class: CLASS.CH }]);
  });
});

describe("the setting's shape", () => {
  test("the defaults read; wrong entries name what is wrong", () => {
    expect(
      parseDnsQuestions("myip.opendns.com/A@resolver1.opendns.com, whoami.cloudflare/TXT/CH@[2606:4700:4700::1111]:53"),
    ).toMatchObject([
      { name: "myip.opendns.com", type: "A", class: "IN", server: { host: "resolver1.opendns.com", port: 53 } },
      { name: "whoami.cloudflare", type: "TXT", class: "CH", server: { host: "2606:4700:4700::1111", port: 53 } },
    ]);
    expect(parseDnsQuestion("myip.opendns.com@x")).toContain("expected <name>/<type>");
    expect(parseDnsQuestion("myip.opendns.com/MX@x")).toContain("the type must be A, AAAA or TXT");
    expect(parseDnsQuestion("myip.opendns.com/A/HS@x")).toContain("the class must be IN or CH");
    expect(parseDnsQuestion("myip.opendns.com/A@x:99999")).toContain("port");
  });
});

describe.skipIf(skip)("through the app", () => {
  const current = useRig({
    env: () => ({
      DDNS_IPV4_DNS: `nothing.example.test/A@127.0.0.1:${bind.port},myip.example.test/A@127.0.0.1:${bind.port}`,
    }),
  });
  let rig: Rig;
  beforeAll(() => {
    rig = current();
  });

  test("a domain whose address_source is dns gets BIND's answer while the echo services answer another address", async () => {
    rig = current();
    rig.cf.addZone("example.com");
    rig.cf.addRecord("example.com", { type: "A", name: "home", content: OLD_IPV4 });
    rig.cf.addRecord("example.com", { type: "A", name: "web", content: OLD_IPV4 });
    const provider = await addProvider(rig.t, "cloudflare");
    const viaDns = await addDomain(rig.t, provider.id, "home.example.com", { address_source: "dns" });
    await addDomain(rig.t, provider.id, "web.example.com");
    await duePass(rig.t);
    expect(rig.cf.record("home.example.com", "A")!.content).toBe(A_ANSWER);
    expect(rig.cf.record("web.example.com", "A")!.content).toBe(rig.echo.ipv4);
    expect((await historyOf(rig.t, viaDns.id))[0]).toMatchObject({ status: "SUCCESS", ip_address: A_ANSWER });
  });

  test("the system's source set to dns: every domain without its own source follows BIND, and no echo service is asked", async () => {
    rig = current();
    rig.cf.addZone("example.com");
    rig.cf.addRecord("example.com", { type: "A", name: "home", content: OLD_IPV4 });
    const chosen = await rig.t.request("PUT", "/api/v1/system/address-sources", { body: { ipv4: { source: "dns" } } });
    expect(chosen.status).toBe(200);
    try {
      const provider = await addProvider(rig.t, "cloudflare");
      await addDomain(rig.t, provider.id, "home.example.com");
      await duePass(rig.t);
      expect(rig.cf.record("home.example.com", "A")!.content).toBe(A_ANSWER);
      expect(rig.echo.hits("/v4")).toBe(0);
      expect(rig.t.ctx.publicIp.ipv4).toBe(A_ANSWER);
    } finally {
      await rig.t.request("PUT", "/api/v1/system/address-sources", { body: { ipv4: null } });
    }
  });
});

test("a server that answers the compression-pointer bomb: refused, and the next question is asked", async () => {
  const hostile = await startTestNameServer((request) => compressionBomb(request));
  const whoami = await startWhoamiDnsFake();
  try {
    const detection = await detectByDns(
      4,
      options([question(`myip.example.test/A@${hostile.server}`), question(`myip.example.test/A@${whoami.server}`)]),
    );
    expect(detection).toMatchObject({ ok: true, ip: whoami.ipv4 });
    const failed = await detectByDns(4, options([question(`myip.example.test/A@${hostile.server}`)]));
    expect(failed).toEqual({
      ok: false,
      error: `IPv4 detection failed: dns:myip.example.test/A@${hostile.server}: unreadable answer (a name is longer than 255 octets (its pointers included))`,
    });
  } finally {
    await Promise.all([hostile.stop(), whoami.stop()]);
  }
});
