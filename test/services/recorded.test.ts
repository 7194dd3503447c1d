// Answers recorded from the real services by independent projects (lego's fixtures, dns-lexicon's
// cassettes …; test/recorded/, each file's source, commit and licence in test/recorded/index.json),
// served to ddnsd's clients through the whole appliance: each service's `DDNS_<TYPE>_API_URL` points
// at the replay server, a provider and a domain are made through the API, an update is forced, and
// the history must say what ddnsd concluded from those answers: the record already held the address
// ("held"), it was written ("written") or created ("created"), or the service refused the request
// ("refused"), the credentials ("credentials") or asked to slow down ("slow down"). Where a request
// needs an answer nobody recorded (a write's acknowledgement, most often), the case gives a short one
// of its own (`body`); every case is served at least one recorded answer, and every recorded file is
// served by some case.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Pacer } from "../../src/dns/pacing";
import { apiUrlSetting, SERVICES } from "../../src/dns/registry";
import { type EchoFake, startEchoFake } from "../fakes/echo";
import { RECORDED_DIR, type ReplayRoute, type ReplayServer, startReplayServer } from "../fakes/replay";
import index from "../recorded/index.json";
import { makeTestApp, type TestApp } from "../support";
import { forceUpdate, historyOf } from "../updater/harness";
import { ADAPTERS } from "./adapters";

type Conclusion = "held" | "written" | "created" | "refused" | "credentials" | "slow down";

interface RecordedCase {
  type: string;
  /** What the recorded answers show. */
  name: string;
  hostname: string;
  recordType?: "A" | "AAAA";
  /** The address detected for the domain. */
  ip: string;
  config?: Record<string, unknown>;
  /** Credentials in the service's form, where the adapter's are not right for these answers. */
  credentials?: Record<string, string>;
  options?: (replay: ReplayServer) => Record<string, unknown>;
  routes: ReplayRoute[];
  concludes: Conclusion;
  /** Words the history must hold. */
  words?: RegExp;
}

const ok = (body: unknown) => JSON.stringify(body);

/** Credentials in each service's form for the two services whose end-to-end tests live in test/updater/. */
const CREDENTIALS: Record<string, Record<string, string>> = {
  dynu: { api_key: "dynuRecordedReplayKey0123456789abcdef" },
  cloudflare: { api_token: "cloudflareRecordedReplayToken0123456789" },
};

const CASES: RecordedCase[] = [
  // ── easyDNS: lego's recorded listing (data an array, numbers as strings, count/total/start/max)
  {
    type: "easydns",
    name: "a listing holding the A record with the address: nothing written",
    hostname: "hosta.example.com",
    ip: "1.2.3.4",
    config: { zone_id: "example.com" },
    routes: [
      { method: "GET", path: /^\/zones\/records\/all\/example\.com\?format=json/, file: "easydns/list-zone.json" },
    ],
    concludes: "held",
  },
  {
    type: "easydns",
    name: "420 Enhance Your Calm, with the words that also name missing credentials",
    hostname: "hosta.example.com",
    ip: "1.2.3.5",
    config: { zone_id: "example.com" },
    routes: [{ method: "GET", path: /^\/zones\/records\/all\/example\.com/, status: 420, file: "easydns/error1.json" }],
    concludes: "slow down",
    words: /did NOT provide any credentials/,
  },
  {
    type: "easydns",
    name: '"Enhance your calm" in a 403',
    hostname: "hosta.example.com",
    ip: "1.2.3.5",
    config: { zone_id: "example.com" },
    routes: [{ method: "GET", path: /^\/zones\/records\/all\/example\.com/, status: 403, file: "easydns/error.json" }],
    concludes: "slow down",
  },

  // ── Njalla: lego's recorded list-records (TXT only) and its refused token (spelled `Error`)
  {
    type: "njalla",
    name: "a listing without an A record for the name, creating not allowed: nothing written",
    hostname: "test01.example.com",
    ip: "185.103.110.7",
    config: { zone_id: "example.com", create_if_missing: false },
    routes: [{ method: "POST", path: "/", file: "njalla/list_records.json" }],
    concludes: "refused",
    words: /create_if_missing/,
  },
  {
    type: "njalla",
    name: '"Invalid token." (code 403, in `Error`)',
    hostname: "test01.example.com",
    ip: "185.103.110.7",
    config: { zone_id: "example.com" },
    routes: [{ method: "POST", path: "/", file: "njalla/auth_error.json" }],
    concludes: "credentials",
    words: /Invalid token\./,
  },
  // ── Hostinger: lego's recorded zone (record sets with is_disabled) and its 401
  {
    type: "hostinger",
    name: "a zone without the name's A set, creating not allowed",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    config: { zone_id: "example.com", create_if_missing: false },
    routes: [{ method: "GET", path: "/api/dns/v1/zones/example.com", file: "hostinger/get_dns_records.json" }],
    concludes: "refused",
  },
  {
    type: "hostinger",
    name: "a zone without the name's A set: created with one PUT",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    config: { zone_id: "example.com" },
    routes: [
      { method: "GET", path: "/api/dns/v1/zones/example.com", file: "hostinger/get_dns_records.json" },
      { method: "PUT", path: "/api/dns/v1/zones/example.com", body: ok({ message: "Request accepted" }) },
    ],
    concludes: "created",
  },
  {
    type: "hostinger",
    name: "401 Unauthenticated",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    config: { zone_id: "example.com" },
    routes: [{ method: "GET", path: "/api/dns/v1/zones/example.com", status: 401, file: "hostinger/error_401.json" }],
    concludes: "credentials",
    words: /Unauthenticated/,
  },
  {
    type: "hostinger",
    name: "422 with the field's words, on the write",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    config: { zone_id: "example.com" },
    routes: [
      { method: "GET", path: "/api/dns/v1/zones/example.com", file: "hostinger/get_dns_records.json" },
      { method: "PUT", path: "/api/dns/v1/zones/example.com", status: 422, file: "hostinger/error_422.json" },
    ],
    concludes: "refused",
  },
  // ── Dynu: lego's recorded getroot (a node under a freeddns.org domain) and record listing
  {
    type: "dynu",
    name: "getroot names the domain and node; its records hold no A for it, creating not allowed",
    hostname: "test.lego.freeddns.org",
    ip: "185.103.110.7",
    config: { create_if_missing: false },
    routes: [
      { method: "GET", path: "/dns/getroot/test.lego.freeddns.org", file: "dynu/get_root_domain.json" },
      { method: "GET", path: "/dns/9007481/record", file: "dynu/get_records.json" },
    ],
    concludes: "refused",
  },
  {
    type: "dynu",
    name: "getroot refuses an unknown name: 501 Argument Exception",
    hostname: "test.lego.freeddns.org",
    ip: "185.103.110.7",
    routes: [
      {
        method: "GET",
        path: "/dns/getroot/test.lego.freeddns.org",
        status: 501,
        file: "dynu/get_root_domain_invalid.json",
      },
    ],
    concludes: "refused",
    words: /Invalid\./,
  },
  // ── IPv64: lego's recorded get_domains (an AAAA at the domain) and its refused key
  {
    type: "ipv64",
    name: "the listing's AAAA at the domain holds the address: nothing written",
    hostname: "lego.ipv64.net",
    recordType: "AAAA",
    ip: "2606:2800:220:1:248:1893:25c8:1946",
    routes: [{ method: "GET", path: /^\/api\?get_domains/, file: "ipv64/get_domains.json" }],
    concludes: "held",
  },
  {
    type: "ipv64",
    name: "401 Unauthorized from the API",
    hostname: "lego.ipv64.net",
    recordType: "AAAA",
    ip: "2606:2800:220:1:248:1893:25c8:1946",
    routes: [{ method: "GET", path: /^\/api\?get_domains/, status: 401, file: "ipv64/error.json" }],
    concludes: "credentials",
  },
  // ── Domeneshop: lego's recorded domains and records (TXT only)
  {
    type: "domeneshop",
    name: "the domain found in the listing; no A record, creating not allowed",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    config: { create_if_missing: false },
    routes: [
      { method: "GET", path: "/domains", file: "domeneshop/getDomains.json" },
      { method: "GET", path: /^\/domains\/1\/dns\?/, file: "domeneshop/getDnsRecords.json" },
    ],
    concludes: "refused",
  },
  // ── Gcore: lego's recorded zone and record set (a TXT set, here read as the A set's shape)
  {
    type: "gcore",
    name: "the zone named; the name's set read with a value that is not the address: written",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    config: { zone_id: "example.com" },
    routes: [
      { method: "GET", path: /^\/v2\/zones\/example\.com\/home\.example\.com\/A/, file: "gcore/get_rrset.json" },
      { method: "PUT", path: /^\/v2\/zones\/example\.com\/home\.example\.com\/A/, body: ok({}) },
    ],
    concludes: "written",
  },
  // ── IONOS: lego's recorded zones and a zone's records
  {
    type: "ionos",
    name: "the zone found among the listed ones; its records hold no A for the name",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    config: { create_if_missing: false },
    routes: [
      { method: "GET", path: "/v1/zones", file: "ionos/list_zones.json" },
      { method: "GET", path: /^\/v1\/zones\/f6821d2f-2ff3-4762-99bd-711733624a77\?/, file: "ionos/get_records.json" },
    ],
    concludes: "refused",
  },
  // ── Spaceship: lego's recorded records (an A at the apex without an address) and its refusal
  {
    type: "spaceship",
    name: "the refusal of a name with invalid characters",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    config: { zone_id: "example.com" },
    routes: [{ method: "GET", path: /^\/v1\/dns\/records\/example\.com/, status: 422, file: "spaceship/error.json" }],
    concludes: "refused",
  },
  {
    type: "spaceship",
    name: "the listing's A at the apex carries no address (as recorded): a record with the address is added",
    hostname: "example.com",
    ip: "185.103.110.7",
    config: { zone_id: "example.com" },
    routes: [
      { method: "GET", path: /^\/v1\/dns\/records\/example\.com/, file: "spaceship/get_records.json" },
      { method: "PUT", path: "/v1/dns/records/example.com", status: 204 },
    ],
    concludes: "created",
  },
  // ── Constellix: lego's recorded domain search and record search
  {
    type: "constellix",
    name: "the domain found; the record search names no A for the name",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    config: { create_if_missing: false },
    routes: [
      {
        method: "GET",
        path: /^\/domains\/search\?exact=(home\.)?example\.com$/,
        file: "constellix/domains-Search.json",
      },
      { method: "GET", path: /^\/domains\/273302\/records\/A/, file: "constellix/records-Search.json" },
    ],
    concludes: "refused",
  },
  // ── deSEC: lego's recorded responsible domain (minimum_ttl 3600) and a record set
  {
    type: "desec",
    name: "the responsible domain; the name's A set holds another value: written",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    routes: [
      { method: "GET", path: /^\/domains\/\?owns_qname=/, file: "desec/domains_responsible.json" },
      { method: "GET", path: "/domains/example.com/rrsets/home/A/", file: "desec/records_get.json" },
      {
        method: "PATCH",
        path: "/domains/example.com/rrsets/home/A/",
        body: ok({ subname: "home", type: "A", ttl: 300, records: ["185.103.110.7"] }),
      },
    ],
    concludes: "written",
  },
  // ── GoDaddy: lego's recorded records and its refusal
  {
    type: "godaddy",
    name: "INVALID_BODY, in GoDaddy's words",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    config: { zone_id: "example.com" },
    routes: [
      { method: "GET", path: /^\/domains\/example\.com\/records\/A\/home/, status: 422, file: "godaddy/errors.json" },
    ],
    concludes: "refused",
    words: /INVALID_BODY|fulfill schema/,
  },

  // ── Route 53: lego's recorded zone listing and change answers
  {
    type: "route53",
    name: "the zone by name (private flag false), no record set for the name: created, then the change followed",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    routes: [
      {
        method: "GET",
        path: /^\/hostedzonesbyname\?dnsname=(home\.)?example\.com\./,
        file: "route53/listHostedZonesByNameResponse.xml",
      },
      {
        method: "GET",
        path: /^\/hostedzone\/ABCDEFG\/rrset\?/,
        body: '<?xml version="1.0"?><ListResourceRecordSetsResponse xmlns="https://route53.amazonaws.com/doc/2013-04-01/"><ResourceRecordSets></ResourceRecordSets><IsTruncated>false</IsTruncated><MaxItems>1</MaxItems></ListResourceRecordSetsResponse>',
        headers: { "Content-Type": "text/xml" },
      },
      { method: "POST", path: "/hostedzone/ABCDEFG/rrset", file: "route53/changeResourceRecordSetsResponse.xml" },
      { method: "GET", path: "/change/123456", file: "route53/getChangeResponse.xml" },
    ],
    concludes: "created",
  },
  // ── Servercow: lego's recorded listing of a domain (several A records at 1.1.1.1)
  {
    type: "servercow",
    name: "the listing's A record holds the address: nothing written",
    hostname: "letsencrypt.example.com",
    ip: "1.1.1.1",
    config: { zone_id: "example.com" },
    routes: [{ method: "GET", path: "/example.com", file: "servercow/records-01.json" }],
    concludes: "held",
  },
  // ── Cloudflare: lego's recorded zones, a created record, and a refusal
  {
    type: "cloudflare",
    name: "a zone listed without a status (as lego's recording has it) is not taken for an active one",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    routes: [
      {
        method: "GET",
        path: /^\/zones\?name=home\.example\.com/,
        body: ok({
          success: true,
          errors: [],
          messages: [],
          result: [],
          result_info: { page: 1, per_page: 50, count: 0, total_count: 0 },
        }),
      },
      { method: "GET", path: /^\/zones\?name=example\.com/, file: "cloudflare/zones.json" },
    ],
    words: /no active zone found/,
    concludes: "refused",
  },
  {
    type: "cloudflare",
    name: "6003 Invalid request headers (HTTP 400)",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    config: { zone_id: "023e105f4ecef8ad9ca31a8372d0c353" },
    routes: [{ method: "GET", path: /\/dns_records\?/, status: 400, file: "cloudflare/error.json" }],
    concludes: "refused",
    words: /Invalid request headers/,
  },
  // ── Netcup (CCP): lego's recorded login, record listing and refused login
  {
    type: "netcup",
    name: "login, then the domain's records (TXT only), creating not allowed",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    config: { zone_id: "example.com", create_if_missing: false },
    routes: [
      { method: "POST", path: "?JSON", file: "netcup/login.json", times: 1 },
      { method: "POST", path: "?JSON", file: "netcup/get_dns_records.json" },
    ],
    concludes: "refused",
  },
  {
    type: "netcup",
    name: "a refused login (4013 Validation Error.)",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    config: { zone_id: "example.com" },
    routes: [{ method: "POST", path: "?JSON", file: "netcup/login_error.json" }],
    concludes: "credentials",
  },
  // ── DNS Made Easy: lego's recorded record listing
  {
    type: "dnsmadeeasy",
    name: "the domain's records hold no A for the name, creating not allowed",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    config: { create_if_missing: false },
    routes: [
      {
        method: "GET",
        path: /^\/dns\/managed\/name\?domainname=(home\.)?example\.com/,
        body: ok({ id: 123, name: "example.com" }),
      },
      { method: "GET", path: /^\/dns\/managed\/123\/records\?/, file: "dnsmadeeasy/get_records.json" },
    ],
    concludes: "refused",
  },
  // ── myaddr: lego's recorded refusal of a key
  {
    type: "myaddr",
    name: 'invalid value for "key" (HTTP 400): the key is wrong',
    hostname: "home.myaddr.tools",
    ip: "185.103.110.7",
    routes: [{ method: "POST", path: "/update", status: 400, file: "myaddr/error.txt" }],
    concludes: "credentials",
  },
  // ── LuaDNS: lego's recorded zone listing
  {
    type: "luadns",
    name: "the zone among the listed ones; no record: created",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    routes: [
      { method: "GET", path: "/zones", file: "luadns/list_zones.json" },
      { method: "GET", path: "/zones/1/records", body: ok([]) },
      {
        method: "POST",
        path: "/zones/1/records",
        body: ok({ id: 100, name: "home.example.com.", type: "A", content: "185.103.110.7", ttl: 300, zone_id: 1 }),
      },
    ],
    concludes: "created",
  },
  // ── Infomaniak: lego's recorded validation failure
  {
    type: "infomaniak",
    name: "validation_failed, with its per-attribute words",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    config: { zone_id: "example.com" },
    routes: [
      { method: "GET", path: /^\/2\/zones\/example\.com\/records/, status: 422, file: "infomaniak/errors.json" },
    ],
    concludes: "refused",
    words: /Validation failed|attribute is required/,
  },
  // ── Vercel: lego's recorded answer to a created record (its uid)
  {
    type: "vercel",
    name: "no record: created, the answer's uid kept",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    config: { zone_id: "example.com" },
    routes: [
      {
        method: "GET",
        path: /^\/v5\/domains\/example\.com\/records/,
        body: ok({ records: [], pagination: { count: 0, next: null, prev: null } }),
      },
      { method: "POST", path: "/v2/domains/example.com/records", file: "vercel/create_record.json" },
    ],
    concludes: "created",
  },
  // ── Hetzner (Cloud API): lego's recorded invalid_input refusal
  {
    type: "hetzner",
    name: "invalid_input, in Hetzner's words",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    config: { zone_id: "example.com" },
    routes: [
      {
        method: "GET",
        path: "/zones/example.com/rrsets/home/A",
        status: 400,
        file: "hetzner/error-invalid_input.json",
      },
    ],
    concludes: "refused",
    words: /is too long/,
  },
  // ── GoDaddy: lego's recorded listing (TXT records of other names)
  {
    type: "godaddy",
    name: "the name's A records: none among those recorded, creating not allowed",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    config: { zone_id: "example.com", create_if_missing: false },
    routes: [{ method: "GET", path: /^\/domains\/example\.com\/records\/A\/home/, file: "godaddy/getrecords.json" }],
    concludes: "refused",
  },

  // ── Linode: dns-lexicon's recorded domain listing and records (an A at 127.0.0.1)
  {
    type: "linode",
    name: "the domain among the listed ones; the name's A record found by name and rewritten by id",
    hostname: "localhost.lexicon-test.com",
    ip: "185.103.110.7",
    routes: [
      { method: "GET", path: /^\/domains\?page=1/, file: "linode/domains.json" },
      { method: "GET", path: /^\/domains\/1065421\/records\?/, file: "linode/records.json" },
      {
        method: "PUT",
        path: "/domains/1065421/records/9295232",
        body: ok({ id: 9295232, name: "localhost", type: "A", target: "185.103.110.7", ttl_sec: 0 }),
      },
    ],
    concludes: "written",
  },
  // ── Vultr: dns-lexicon's recorded domains and records (an A at the apex and one for localhost)
  {
    type: "vultr",
    name: "the domain among the listed ones; the name's A record found and changed",
    hostname: "localhost.lexicon-test.eu",
    ip: "185.103.110.7",
    routes: [
      { method: "GET", path: /^\/domains\?/, file: "vultr/domains.json" },
      { method: "GET", path: /^\/domains\/lexicon-test\.eu\/records\?/, file: "vultr/records.json" },
      { method: "PATCH", path: /^\/domains\/lexicon-test\.eu\/records\//, status: 204 },
    ],
    concludes: "written",
  },
  // ── NS1: dns-lexicon's recorded zone and "record not found"
  {
    type: "ns1",
    name: 'the name\'s record answered 404 "record not found": created',
    hostname: "home.lexicon-example.com",
    ip: "185.103.110.7",
    config: { zone_id: "lexicon-example.com" },
    routes: [
      {
        method: "GET",
        path: "/zones/lexicon-example.com/home.lexicon-example.com/A",
        status: 404,
        file: "ns1/record_not_found.json",
      },
      {
        method: "PUT",
        path: "/zones/lexicon-example.com/home.lexicon-example.com/A",
        body: ok({
          domain: "home.lexicon-example.com",
          zone: "lexicon-example.com",
          type: "A",
          id: "5ab7b7480c13a400014ee199",
          ttl: 3600,
          answers: [{ answer: ["185.103.110.7"], id: "5ab7b7480c13a400014ee198" }],
        }),
      },
    ],
    concludes: "created",
  },
  // ── Name.com: dns-lexicon's recorded domains and records (an A for localhost)
  {
    type: "namecom",
    name: "the domain among the listed ones; the name's A record rewritten by id",
    hostname: "localhost.mim.pw",
    ip: "185.103.110.7",
    routes: [
      { method: "GET", path: /^\/domains\?/, file: "namecom/domains.json" },
      { method: "GET", path: /^\/domains\/mim\.pw\/records\?/, file: "namecom/records.json" },
      {
        method: "PUT",
        path: "/domains/mim.pw/records/178073536",
        body: ok({
          id: 178073536,
          domainName: "mim.pw",
          host: "localhost",
          fqdn: "localhost.mim.pw.",
          type: "A",
          answer: "185.103.110.7",
          ttl: 3600,
        }),
      },
    ],
    concludes: "written",
  },
  // ── Porkbun: dns-lexicon's recorded zone listing (the apex A at 8.8.8.8, numbers as strings)
  {
    type: "porkbun",
    name: "the apex A already holds the address (the zone's recorded listing, same shape as by name and type)",
    hostname: "example.xyz",
    ip: "8.8.8.8",
    config: { zone_id: "example.xyz" },
    routes: [{ method: "POST", path: "/dns/retrieveByNameType/example.xyz/A/", file: "porkbun/retrieve.json" }],
    concludes: "held",
  },
  // ── DigitalOcean: dns-lexicon's recorded records, two pages
  {
    type: "digitalocean",
    name: "the records read page by page; the name's A record rewritten",
    hostname: "localhost.foxwoodswebsites.com",
    ip: "185.103.110.7",
    config: { zone_id: "foxwoodswebsites.com" },
    routes: [
      {
        method: "GET",
        path: /^\/domains\/foxwoodswebsites\.com\/records\?.*page=1(&|$)/,
        file: "digitalocean/records-page1.json",
      },
      {
        method: "GET",
        path: /^\/domains\/foxwoodswebsites\.com\/records\?.*page=2(&|$)/,
        file: "digitalocean/records-page2.json",
      },
      {
        method: "PATCH",
        path: /^\/domains\/foxwoodswebsites\.com\/records\/\d+$/,
        body: ok({ domain_record: { id: 1, type: "A", name: "localhost", data: "185.103.110.7", ttl: 1800 } }),
      },
    ],
    concludes: "written",
  },
  // ── Gandi LiveDNS: dns-lexicon's recorded domain, "Can't find the DNS record" and "DNS Record Created"
  {
    type: "gandi",
    name: 'the domain found; the record set 404: created, answered 201 "DNS Record Created"',
    hostname: "home.t18s.fr",
    ip: "185.103.110.7",
    config: { zone_id: "t18s.fr" },
    routes: [
      {
        method: "GET",
        path: /^\/domains\/home\.t18s\.fr$/,
        status: 404,
        body: ok({ code: 404, message: "Domain not found", object: "domain", cause: "Not Found" }),
      },
      { method: "GET", path: "/domains/t18s.fr", file: "gandi/domain.json" },
      { method: "GET", path: "/domains/t18s.fr/records/home/A", status: 404, file: "gandi/record_not_found.json" },
      { method: "PUT", path: "/domains/t18s.fr/records/home/A", status: 201, file: "gandi/record_created.json" },
    ],
    concludes: "created",
  },

  // ── Loopia: lego's answers "based on real traffic", every string padded with the indentation
  {
    type: "loopia",
    name: "a padded listing (a TXT record only) read trimmed; no A, creating not allowed",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    config: { zone_id: "example.com", create_if_missing: false },
    routes: [{ method: "POST", path: "", file: "loopia/getZoneRecords.xml" }],
    concludes: "refused",
  },
  {
    type: "loopia",
    name: "a padded AUTH_ERROR",
    hostname: "home.example.com",
    ip: "185.103.110.7",
    config: { zone_id: "example.com" },
    routes: [{ method: "POST", path: "", file: "loopia/auth_error.xml" }],
    concludes: "credentials",
    words: /AUTH_ERROR/,
  },
  // ── ClouDNS: lego's recorded zone info, record listing and an add answered without data.id
  {
    type: "cloudns",
    name: "the zone found by asking; an add answered without an id is read back: created",
    hostname: "home.foo.com",
    ip: "185.103.110.7",
    routes: [
      {
        method: "GET",
        path: /^\/dns\/get-zone-info\.json\?.*domain-name=home\.foo\.com/,
        body: ok({ status: "Failed", statusDescription: "Missing domain-name" }),
      },
      {
        method: "GET",
        path: /^\/dns\/get-zone-info\.json\?.*domain-name=foo\.com/,
        file: "cloudns/get-zone-info.json",
      },
      { method: "GET", path: /^\/dns\/records\.json\?/, body: "[]", times: 1 },
      { method: "POST", path: /^\/dns\/add-record\.json\?/, file: "cloudns/add-record.json" },
      {
        method: "GET",
        path: /^\/dns\/records\.json\?/,
        body: ok({
          "5769300": {
            id: "5769300",
            type: "A",
            host: "home",
            record: "185.103.110.7",
            failover: "0",
            ttl: "3600",
            status: 1,
          },
        }),
      },
    ],
    concludes: "created",
  },
  {
    type: "cloudns",
    name: "a listing keyed by id (TXT records only), creating not allowed",
    hostname: "home.foo.com",
    ip: "185.103.110.7",
    config: { zone_id: "foo.com", create_if_missing: false },
    routes: [{ method: "GET", path: /^\/dns\/records\.json\?/, file: "cloudns/records.json" }],
    concludes: "refused",
  },

  // ── OVHcloud: dns-lexicon's recorded clock, zones, an empty record search, a created record and the refresh
  {
    type: "ovh",
    name: "OVH's clock learnt, the zone listed, no record: created, then the zone refreshed",
    hostname: "home.pacalis.net",
    ip: "185.103.110.7",
    routes: [
      { method: "GET", path: "/auth/time", file: "ovh/auth_time.json" },
      { method: "GET", path: "/domain/zone", file: "ovh/zones.json" },
      { method: "GET", path: /^\/domain\/zone\/pacalis\.net\/record\?/, file: "ovh/record_ids_none.json" },
      { method: "POST", path: "/domain/zone/pacalis.net/record", file: "ovh/record_created.json" },
      { method: "POST", path: "/domain/zone/pacalis.net/refresh", file: "ovh/refresh.json" },
    ],
    concludes: "created",
  },
  // ── TransIP: dns-lexicon's recorded token and the domain's DNS entries (the apex A at 45.83.235.134)
  {
    type: "transip",
    name: "a token, then the domain's entries: the apex A already holds the address",
    hostname: "nuvius.nl",
    ip: "45.83.235.134",
    config: { zone_id: "nuvius.nl" },
    routes: [
      { method: "POST", path: "/auth", status: 201, file: "transip/auth.json" },
      { method: "GET", path: "/domains/nuvius.nl/dns", file: "transip/dns.json" },
    ],
    concludes: "held",
  },
  // ── Scaleway: dns-lexicon's recorded zone records (an A for localhost)
  {
    type: "scaleway",
    name: "the zone's records hold the name's A: changed",
    hostname: "localhost.example.com",
    ip: "185.103.110.7",
    config: { zone_id: "example.com" },
    routes: [
      { method: "GET", path: /^\/dns-zones\/example\.com\/records\?/, file: "scaleway/records.json" },
      {
        method: "PATCH",
        path: "/dns-zones/example.com/records",
        body: ok({
          records: [
            {
              id: "b9f9b9a6-0000-4000-8000-000000000001",
              data: "185.103.110.7",
              name: "localhost",
              priority: 0,
              ttl: 3600,
              type: "A",
              comment: null,
            },
          ],
        }),
      },
    ],
    concludes: "written",
  },

  // ── Azure DNS: dns-lexicon's recorded token and zone listing (a zone in resource group dns-test)
  {
    type: "azure",
    name: "a token, then the zone found among the listed ones with its resource group; no record set: created",
    hostname: "home.full4ir.tk",
    ip: "185.103.110.7",
    options: (replay) => ({ login_url: `${replay.url}/azure/login` }),
    routes: [
      { method: "POST", path: /^\/login\/[^/]+\/oauth2\/v2\.0\/token$/, file: "azure/token.json" },
      {
        method: "GET",
        path: /^\/subscriptions\/[^/]+\/providers\/Microsoft\.Network\/dnszones\?/,
        file: "azure/zones.json",
      },
      {
        method: "GET",
        path: /\/resourceGroups\/dns-test\/providers\/Microsoft\.Network\/dnsZones\/full4ir\.tk\/A\/home\?/,
        status: 404,
        body: ok({ error: { code: "NotFound", message: "The resource record 'home' does not exist." } }),
      },
      {
        method: "PUT",
        path: /\/resourceGroups\/dns-test\/providers\/Microsoft\.Network\/dnsZones\/full4ir\.tk\/A\/home\?/,
        status: 201,
        body: ok({
          name: "home",
          type: "Microsoft.Network/dnszones/A",
          etag: "e1",
          properties: { TTL: 3600, fqdn: "home.full4ir.tk.", ARecords: [{ ipv4Address: "185.103.110.7" }] },
        }),
      },
    ],
    concludes: "created",
  },

  // ── Google Cloud DNS: dns-lexicon's recorded token, managed zones, an empty rrset search and a change
  {
    type: "gcloud",
    name: "a token, the zone among the managed ones, no record set: created by one change",
    hostname: "home.fullm3tal.tk",
    ip: "185.103.110.7",
    options: (replay) => ({ token_url: `${replay.url}/gcloud/token` }),
    routes: [
      { method: "POST", path: "/token", file: "gcloud/token.json" },
      { method: "GET", path: /\/managedZones(\?|$)/, file: "gcloud/managedZones.json" },
      { method: "GET", path: /\/managedZones\/[^/]+\/rrsets\?/, file: "gcloud/rrsets_none.json" },
      { method: "POST", path: /\/managedZones\/[^/]+\/changes$/, file: "gcloud/change.json" },
    ],
    concludes: "created",
  },

  // ── DNSimple: its own SDK's recorded answers (dnsimple-go fixtures.http): zones, a zone's records, a created record
  {
    type: "dnsimple",
    name: "the zone among the account's; its records hold no A for the name: created",
    hostname: "home.example-alpha.com",
    ip: "185.103.110.7",
    routes: [
      { method: "GET", path: /^\/[^/]+\/zones\?/, file: "dnsimple/listZones.json" },
      { method: "GET", path: /^\/[^/]+\/zones\/example-alpha\.com\/records\?/, file: "dnsimple/listZoneRecords.json" },
      {
        method: "POST",
        path: /^\/[^/]+\/zones\/example-alpha\.com\/records$/,
        status: 201,
        file: "dnsimple/createZoneRecord.json",
      },
    ],
    concludes: "created",
  },
];

const EXPECTED_HISTORY: Record<Conclusion, { status: "SUCCESS" | "FAILED"; words?: RegExp; cause?: string }> = {
  held: { status: "SUCCESS", words: /^Checked / },
  written: { status: "SUCCESS", words: /^Updated / },
  created: { status: "SUCCESS", words: /^Created / },
  refused: { status: "FAILED", cause: "refused" },
  credentials: { status: "FAILED", cause: "credentials" },
  "slow down": { status: "FAILED", cause: "throttled" },
};

/** A pacer whose waits take no time (the replay has no limits to respect). */
function instantPacer(): Pacer {
  let now = 0;
  return new Pacer({ now: () => now, sleep: async (ms) => void (now += ms) });
}

let replay: ReplayServer;
let echo: EchoFake;
let t: TestApp;

beforeAll(async () => {
  replay = startReplayServer();
  echo = startEchoFake();
  const urls = Object.fromEntries(
    SERVICES.filter((s) => s.defaultApiUrl !== undefined).map((s) => [
      apiUrlSetting(s.type),
      `${replay.url}/${s.type}`,
    ]),
  );
  t = await makeTestApp({ ...urls, DDNS_IPV4_URLS: `${echo.url}/v4`, DDNS_IPV6_URLS: `${echo.url}/v6` });
  await t.token();
});

afterAll(async () => {
  await t.ctx.scheduler.stop(5_000);
  t.ctx.sqlite.close();
  await Promise.all([replay.stop(), echo.stop()]);
});

async function run(c: RecordedCase) {
  t.ctx.sqlite.exec("DELETE FROM history; DELETE FROM domains; DELETE FROM providers;");
  t.ctx.publicIp.ipv4 = t.ctx.publicIp.ipv6 = t.ctx.publicIp.checkedAt = null;
  t.ctx.pacer = instantPacer();
  const type = c.recordType ?? "A";
  if (type === "A") echo.ipv4 = c.ip;
  else echo.ipv6 = c.ip;
  replay.arrange(c.type, c.routes);
  const adapter = ADAPTERS.find((a) => a.type === c.type);
  const options = c.options?.(replay);
  const provider = await t.request("POST", "/api/v1/providers", {
    body: {
      name: `${c.type} (recorded)`,
      type: c.type,
      credentials: c.credentials ?? CREDENTIALS[c.type] ?? adapter!.credentials,
      ...(options ? { options } : {}),
    },
  });
  expect(provider.status).toBe(200);
  const domain = await t.request("POST", "/api/v1/domains", {
    body: {
      provider_id: provider.body.id,
      domain_name: c.hostname,
      record_type: type,
      ...(c.config ? { config: c.config } : {}),
    },
  });
  expect(domain.status).toBe(200);
  await forceUpdate(t, domain.body.id);
  const [row] = await historyOf(t, domain.body.id);
  const cause = t.ctx.sqlite
    .query<{ failure_cause: string | null }, [number]>(
      "SELECT failure_cause FROM history WHERE domain_id = ? ORDER BY id DESC LIMIT 1",
    )
    .get(domain.body.id)?.failure_cause;
  return { row, cause };
}

describe("recorded answers, served through the appliance", () => {
  for (const c of CASES) {
    test(`${c.type}: ${c.name} → ${c.concludes}`, async () => {
      const { row, cause } = await run(c);
      const expected = EXPECTED_HISTORY[c.concludes];
      const seen = {
        status: row?.status,
        message: row?.message,
        cause,
        unmatched: replay.unmatched().map((r) => `${r.method} ${r.target} ${r.body}`),
      };
      expect(seen).toMatchObject({ status: expected.status, unmatched: [] });
      if (expected.cause && seen.cause !== expected.cause) expect(seen).toEqual({ ...seen, cause: expected.cause });
      if (expected.words) expect(seen.message).toMatch(expected.words);
      if (expected.cause) expect(seen.cause).toBe(expected.cause);
      if (c.words) expect(seen.message).toMatch(c.words);
      // Every case was served at least one answer somebody recorded.
      expect(replay.requests.some((r) => r.route?.file !== undefined)).toBe(true);
    });
  }

  test("every recorded file is listed in the index with its source, and served by some case", () => {
    const onDisk = readdirSync(RECORDED_DIR)
      .filter((entry) => entry !== "licences" && statSync(join(RECORDED_DIR, entry)).isDirectory())
      .flatMap((dir) => readdirSync(join(RECORDED_DIR, dir)).map((file) => `${dir}/${file}`))
      .sort();
    expect(index.files.map((f) => f.file)).toEqual(onDisk);
    for (const entry of index.files) {
      expect(entry.repository).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(entry.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(["MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause"]).toContain(entry.licence);
    }
    expect([...replay.served].sort()).toEqual(onDisk);
  });

  test("each source project's licence, with its copyright notice, is kept beside the answers copied from it", () => {
    const licences: Record<string, string> = index.licences;
    expect(Object.keys(licences).sort()).toEqual([...new Set(index.files.map((f) => f.repository))].sort());
    for (const file of Object.values(licences)) {
      const text = readFileSync(join(RECORDED_DIR, file), "utf8");
      expect(text).toMatch(/^Copyright \(c\) \d{4}/m);
      expect(text).toContain("The above copyright notice and this permission notice shall be included");
    }
  });

  test("at least 30 services replay recorded answers", () => {
    expect(new Set(CASES.map((c) => c.type)).size).toBeGreaterThanOrEqual(30);
  });
});
