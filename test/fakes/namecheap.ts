// A faithful stand-in for Namecheap's Dynamic DNS (`dynamicdns.park-your-domain.com/update`;
// docs/services/namecheap.md; sources: ddns-updater `providers/namecheap/provider.go` and `docs/namecheap.md`,
// ddclient `nic_namecheap_update`, inadyn `plugins` comments with recorded answers, jeessy2/ddns-go
// #686 and #692, nickjer/namecheap-ddns#6). Every answer is an HTTP 200 `<interface-response>` whose
// `<ErrCount>` tells success from failure (`<Done>true</Done>` either way), with the prolog's false
// `encoding="utf-16"` (or the plain prolog older answers had), the errors `Passwords do not match`,
// `Domain name not found`, `Invalid IP` and `No Records updated. A record not Found;` (the last seen
// in user reports only), and the caller's address published when `ip` is missing.
//
// Documentation: https://www.namecheap.com/support/knowledgebase/article.aspx/29/11/how-to-dynamically-update-the-hosts-ip-with-an-http-request/.
// No machine-readable description is published.
//
// Quirk switches: `prolog` ("utf-16" false prolog | "plain"), faults `{xml}` (any answer) and
// `{status, retryAfter}`.

import { isIPv4 } from "node:net";
import { type FakeServer, htmlErrorPage, retryAfterHeader, startFakeServer } from "./server";

export const NAMECHEAP_FAKE_PASSWORD = "0123456789abcdef0123456789abcdef";
const NAMECHEAP_CALLER_IPV4 = "127.0.0.1";

export interface NamecheapDomain {
  /** The registered domain, e.g. example.co.uk. */
  name: string;
  /** Its Dynamic DNS password. */
  password: string;
  /** Host (`@` for the apex) → the address of its "A + Dynamic DNS Record". */
  hosts: Map<string, string>;
}

/** `{status}` answers that status with a short text (and `retryAfter`); `{xml}` a 200 with that body; `"html"` a 502 page. */
export type NamecheapFault = { status: number; retryAfter?: number } | { xml: string } | "html";

export interface NamecheapFake extends FakeServer<NamecheapFault> {
  /** `"utf-16"`: the false prolog Namecheap sends now (and a matching Content-Type); `"plain"`: `<?xml version="1.0"?>`. */
  prolog: "utf-16" | "plain";
  domains: Map<string, NamecheapDomain>;
  /** Adds a domain with Dynamic DNS on and these hosts' records (host → address). */
  addDomain(name: string, hosts: Record<string, string>, password?: string): NamecheapDomain;
}

/** The fields of an error: what `<Err1>` says and the `<ResponseNumber>` beside it (absent when unknown). */
const ERRORS = {
  password: { text: "Passwords do not match", number: "304156", detail: "Validation error; invalid ; password" },
  domain: { text: "Domain name not found", number: "316153", detail: "Validation error; not found; domain name(s)" },
  ip: { text: "Invalid IP", number: "304156", detail: "Validation error; invalid ; IP Address" },
  record: { text: "No Records updated. A record not Found;", number: undefined, detail: undefined },
};

export function startNamecheapFake(): NamecheapFake {
  const domains = new Map<string, NamecheapDomain>();

  function xml(inner: string): Response {
    const prolog = fake.prolog === "utf-16" ? '<?xml version="1.0" encoding="utf-16"?>' : '<?xml version="1.0"?>';
    const contentType = fake.prolog === "utf-16" ? "text/xml; charset=utf-16" : "text/xml";
    const body = `${prolog}\r\n<interface-response><Command>SETDNSHOST</Command><Language>eng</Language>${inner}<Done>true</Done><debug><![CDATA[]]></debug></interface-response>`;
    return new Response(body, { headers: { "Content-Type": contentType } });
  }

  function error(kind: keyof typeof ERRORS): Response {
    const { text, number, detail } = ERRORS[kind];
    const response =
      number === undefined
        ? "<ResponseCount>0</ResponseCount>"
        : `<ResponseCount>1</ResponseCount><responses><response><Description>${text}</Description><ResponseNumber>${number}</ResponseNumber><ResponseString>${detail}</ResponseString></response></responses>`;
    return xml(`<ErrCount>1</ErrCount><errors><Err1>${text}</Err1></errors>${response}`);
  }

  function update(query: Record<string, string>): Response {
    const domain = domains.get((query.domain ?? "").toLowerCase());
    if (!domain) return error("domain");
    if (query.password !== domain.password) return error("password");
    const ip = query.ip ?? NAMECHEAP_CALLER_IPV4;
    if (!isIPv4(ip)) return error("ip");
    const host = (query.host ?? "").toLowerCase();
    if (!domain.hosts.has(host)) return error("record");
    domain.hosts.set(host, ip);
    return xml(`<IP>${ip}</IP><ErrCount>0</ErrCount><errors /><ResponseCount>0</ResponseCount><responses />`);
  }

  const server = startFakeServer<NamecheapFault>({
    prefix: "",
    route(request) {
      if (request.path !== "/update" || request.method !== "GET") return new Response("Not Found", { status: 404 });
      return update(request.query);
    },
    renderFault(mode) {
      if (mode === "html") return htmlErrorPage();
      if ("xml" in mode) return new Response(mode.xml, { headers: { "Content-Type": "text/xml" } });
      const headers = retryAfterHeader(mode.retryAfter);
      return new Response(mode.status === 429 ? "Too Many Requests" : "Service Unavailable", {
        status: mode.status,
        headers,
      });
    },
  });

  const fake: NamecheapFake = Object.assign(server, {
    prolog: "utf-16" as const,
    domains,
    addDomain(name: string, hosts: Record<string, string>, password = NAMECHEAP_FAKE_PASSWORD) {
      const domain: NamecheapDomain = { name, password, hosts: new Map(Object.entries(hosts)) };
      domains.set(name, domain);
      return domain;
    },
  });
  return fake;
}
