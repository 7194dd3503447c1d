// Each service's description, as the admin form, the API's validation and the docs read it: the
// credentials it asks for, the options, record types and TTLs, whether it can check credentials,
// and the real service's address. Pure: nothing is started.

import { describe, expect, test } from "bun:test";
import { alidns } from "../../src/dns/services/alidns";
import { baiducloud } from "../../src/dns/services/baiducloud";
import { bunny } from "../../src/dns/services/bunny";
import { constellix } from "../../src/dns/services/constellix";
import { custom } from "../../src/dns/services/custom";
import { dd24 } from "../../src/dns/services/dd24";
import { dnsimple } from "../../src/dns/services/dnsimple";
import { domeneshop } from "../../src/dns/services/domeneshop";
import { dondominio } from "../../src/dns/services/dondominio";
import { duckdns } from "../../src/dns/services/duckdns";
import { dynv6 } from "../../src/dns/services/dynv6";
import { easydns } from "../../src/dns/services/easydns";
import { freedns } from "../../src/dns/services/freedns";
import { gandi } from "../../src/dns/services/gandi";
import { goip } from "../../src/dns/services/goip";
import { hetzner } from "../../src/dns/services/hetzner";
import { huaweicloud } from "../../src/dns/services/huaweicloud";
import { infomaniak } from "../../src/dns/services/infomaniak";
import { myaddr } from "../../src/dns/services/myaddr";
import { mythicbeasts } from "../../src/dns/services/mythicbeasts";
import { namecheap } from "../../src/dns/services/namecheap";
import { namecom } from "../../src/dns/services/namecom";
import { njalla } from "../../src/dns/services/njalla";
import { rackspace } from "../../src/dns/services/rackspace";
import { route53 } from "../../src/dns/services/route53";
import { selectel } from "../../src/dns/services/selectel";
import { servercow } from "../../src/dns/services/servercow";
import { tencentcloud } from "../../src/dns/services/tencentcloud";
import { vercel } from "../../src/dns/services/vercel";
import { vultr } from "../../src/dns/services/vultr";

describe("the service descriptions", () => {
  test("alidns: names the credentials, the record types, the TTL range and the real service", () => {
    expect(alidns.type).toBe("alidns");
    expect(alidns.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["access_key_id", false],
      ["access_key_secret", true],
    ]);
    expect(alidns.recordTypes).toEqual(["A", "AAAA"]);
    expect(alidns.ttl).toMatchObject({ min: 1, max: 86400 });
    expect(alidns.defaultApiUrl).toBe("https://alidns.aliyuncs.com");
    expect(alidns.canVerify).toBe(true);
  });

  test("baiducloud: names the credentials, the record types and the real service", () => {
    expect(baiducloud.type).toBe("baiducloud");
    expect(baiducloud.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["access_key_id", false],
      ["secret_access_key", true],
    ]);
    expect(baiducloud.recordTypes).toEqual(["A", "AAAA"]);
    expect(baiducloud.defaultApiUrl).toBe("https://dns.baidubce.com");
    expect(baiducloud.canVerify).toBe(true);
  });

  test("bunny: names the credential, the record types and the real service", () => {
    expect(bunny.type).toBe("bunny");
    expect(bunny.credentials.map((c) => [c.key, c.secret])).toEqual([["api_key", true]]);
    expect(bunny.recordTypes).toEqual(["A", "AAAA"]);
    expect(bunny.defaultApiUrl).toBe("https://api.bunny.net");
    expect(bunny.canVerify).toBe(true);
  });

  test("constellix: names the credentials, the record types and the real service", () => {
    expect(constellix.type).toBe("constellix");
    expect(constellix.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["api_key", false],
      ["secret_key", true],
    ]);
    expect(constellix.recordTypes).toEqual(["A", "AAAA"]);
    expect(constellix.defaultApiUrl).toBe("https://api.dns.constellix.com/v1");
  });

  test("custom: an optional secret, url/method/body/headers options, A and AAAA, cannot verify", () => {
    expect(custom).toMatchObject({
      type: "custom",
      credentials: [{ key: "secret", secret: true, optional: true }],
      options: [
        { key: "url", kind: "template", required: true },
        { key: "method", kind: "choice", choices: ["GET", "POST", "PUT"], default: "GET" },
        { key: "body", kind: "template" },
        { key: "headers", kind: "headers" },
      ],
      recordTypes: ["A", "AAAA"],
      ttl: null,
      canVerify: false,
    });
  });

  test("dd24: the subdomain's password, A only, no TTL, cannot verify, one update per 30 minutes", () => {
    expect(dd24).toMatchObject({
      type: "dd24",
      credentials: [{ key: "password", secret: true }],
      options: [],
      recordTypes: ["A"],
      ttl: null,
      canVerify: false,
      defaultApiUrl: "https://dynamicdns.key-systems.net",
      rateLimits: [{ requests: 1, perSeconds: 1800 }],
    });
    expect(dd24.credentials[0]?.help).toContain("Add Dynamic DNS to Subdomain");
  });

  test("dnsimple: names the credentials, the record types, the TTL range and the real service", () => {
    expect(dnsimple.type).toBe("dnsimple");
    expect(dnsimple.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["account_id", false],
      ["token", true],
    ]);
    expect(dnsimple.recordTypes).toEqual(["A", "AAAA"]);
    expect(dnsimple.ttl).toMatchObject({ min: 60 });
    expect(dnsimple.defaultApiUrl).toBe("https://api.dnsimple.com/v2");
    expect(dnsimple.canVerify).toBe(true);
  });

  test("domeneshop: names both credentials as secrets, the record types, the TTL range and the real service", () => {
    expect(domeneshop.type).toBe("domeneshop");
    expect(domeneshop.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["token", true],
      ["secret", true],
    ]);
    expect(domeneshop.recordTypes).toEqual(["A", "AAAA"]);
    expect(domeneshop.ttl).toMatchObject({ min: 60, max: 604800 });
    expect(domeneshop.defaultApiUrl).toBe("https://api.domeneshop.no/v0");
  });

  test("dondominio: username and DonDNS key (secret), A only, no TTL, cannot verify", () => {
    expect(dondominio).toMatchObject({
      type: "dondominio",
      credentials: [
        { key: "username", secret: false },
        { key: "key", secret: true },
      ],
      options: [],
      recordTypes: ["A"],
      ttl: null,
      canVerify: false,
      defaultApiUrl: "https://dondns.dondominio.com",
    });
    expect(dondominio.credentials[1]?.help).toContain("DonDNS Key");
  });

  test("duckdns: names the token, A and AAAA, no TTL, names under duckdns.org, and cannot verify", () => {
    expect(duckdns).toMatchObject({
      type: "duckdns",
      credentials: [{ key: "token", secret: true }],
      options: [],
      recordTypes: ["A", "AAAA"],
      ttl: null,
      hostname: { suffix: ".duckdns.org" },
      canVerify: false,
      defaultApiUrl: "https://www.duckdns.org",
    });
    expect(duckdns.verifyUnavailable).toContain("without updating a record");
  });

  test("dynv6: a secret HTTP token, A and AAAA, no TTL of its own, the real API", () => {
    expect(dynv6.credentials.map((c) => [c.key, c.secret])).toEqual([["token", true]]);
    expect(dynv6.recordTypes).toEqual(["A", "AAAA"]);
    expect(dynv6.ttl).toBeNull();
    expect(dynv6.defaultApiUrl).toBe("https://dynv6.com/api/v2");
    expect(dynv6.canVerify).toBe(true);
  });

  test("easydns: names the token and key as secrets, no verify, and the real service", () => {
    expect(easydns.type).toBe("easydns");
    expect(easydns.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["token", true],
      ["key", true],
    ]);
    expect(easydns.canVerify).toBe(false);
    expect(easydns.verifyUnavailable).toContain("without naming a domain");
    expect(easydns.recordTypes).toEqual(["A", "AAAA"]);
    expect(easydns.defaultApiUrl).toBe("https://rest.easydns.net");
  });

  test("freedns: username shown, password secret, A and AAAA, no TTL, the real site", () => {
    expect(freedns.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["username", false],
      ["password", true],
    ]);
    expect(freedns.recordTypes).toEqual(["A", "AAAA"]);
    expect(freedns.ttl).toBeNull();
    expect(freedns.defaultApiUrl).toBe("https://freedns.afraid.org");
  });

  test("gandi: names the credential, the record types, the TTL range and the real service", () => {
    expect(gandi.type).toBe("gandi");
    expect(gandi.credentials.map((c) => [c.key, c.secret])).toEqual([["token", true]]);
    expect(gandi.recordTypes).toEqual(["A", "AAAA"]);
    expect(gandi.ttl).toMatchObject({ min: 300, max: 2592000 });
    expect(gandi.defaultApiUrl).toBe("https://api.gandi.net/v5/livedns");
    expect(gandi.canVerify).toBe(true);
  });

  test("goip: router username and password (secret), A and AAAA, no TTL, cannot verify", () => {
    expect(goip).toMatchObject({
      type: "goip",
      credentials: [{ key: "username" }, { key: "password", secret: true }],
      options: [],
      recordTypes: ["A", "AAAA"],
      ttl: null,
      canVerify: false,
      defaultApiUrl: "https://www.goip.de",
    });
    expect(goip.credentials[0]?.secret).toBe(false);
    expect(goip.credentials[0]?.help).toContain("Routerliste");
  });

  test("hetzner: names the credential, the record types, the TTL range and the Cloud API", () => {
    expect(hetzner.type).toBe("hetzner");
    expect(hetzner.credentials.map((c) => [c.key, c.secret])).toEqual([["token", true]]);
    expect(hetzner.recordTypes).toEqual(["A", "AAAA"]);
    expect(hetzner.ttl).toMatchObject({ min: 60 });
    expect(hetzner.defaultApiUrl).toBe("https://api.hetzner.cloud/v1");
  });

  test("huaweicloud: names the credentials, the record types, the TTL range and the real service", () => {
    expect(huaweicloud.type).toBe("huaweicloud");
    expect(huaweicloud.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["access_key_id", false],
      ["secret_access_key", true],
    ]);
    expect(huaweicloud.recordTypes).toEqual(["A", "AAAA"]);
    expect(huaweicloud.ttl).toMatchObject({ min: 1, max: 2147483647 });
    expect(huaweicloud.defaultApiUrl).toBe("https://dns.myhuaweicloud.com");
    expect(huaweicloud.canVerify).toBe(true);
  });

  test("infomaniak: names the secret token, the record types, the TTL range and the real service", () => {
    expect(infomaniak.type).toBe("infomaniak");
    expect(infomaniak.credentials.map((c) => [c.key, c.secret])).toEqual([["token", true]]);
    expect(infomaniak.recordTypes).toEqual(["A", "AAAA"]);
    expect(infomaniak.defaultApiUrl).toBe("https://api.infomaniak.com");
    expect(infomaniak.canVerify).toBe(false);
  });

  test("myaddr: the name's private key, A and AAAA, no TTL, cannot verify", () => {
    expect(myaddr).toMatchObject({
      type: "myaddr",
      credentials: [{ key: "key", secret: true }],
      options: [],
      recordTypes: ["A", "AAAA"],
      ttl: null,
      canVerify: false,
      defaultApiUrl: "https://myaddr.tools",
    });
    expect(myaddr.credentials[0]?.help).toContain("Claim a name");
  });

  test("mythicbeasts: names the key id and its sealed secret, the record types, the TTL range and the real service", () => {
    expect(mythicbeasts.type).toBe("mythicbeasts");
    expect(mythicbeasts.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["key_id", false],
      ["secret", true],
    ]);
    expect(mythicbeasts.recordTypes).toEqual(["A", "AAAA"]);
    expect(mythicbeasts.defaultApiUrl).toBe("https://api.mythic-beasts.com/dns/v2");
  });

  test("namecheap: the domain's Dynamic DNS password, A only, no TTL, cannot verify", () => {
    expect(namecheap).toMatchObject({
      type: "namecheap",
      credentials: [{ key: "password", secret: true }],
      options: [],
      recordTypes: ["A"],
      ttl: null,
      canVerify: false,
      defaultApiUrl: "https://dynamicdns.park-your-domain.com",
    });
    expect(namecheap.credentials[0]?.help).toContain("Advanced DNS");
  });

  test("namecom: names the credentials, the record types, the TTL range and the real service", () => {
    expect(namecom.type).toBe("namecom");
    expect(namecom.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["username", false],
      ["token", true],
    ]);
    expect(namecom.recordTypes).toEqual(["A", "AAAA"]);
    expect(namecom.ttl).toMatchObject({ min: 300 });
    expect(namecom.defaultApiUrl).toBe("https://api.name.com/v4");
    expect(namecom.canVerify).toBe(true);
  });

  test("njalla: names the secret token, the record types, the TTLs and the real service", () => {
    expect(njalla.type).toBe("njalla");
    expect(njalla.credentials.map((c) => [c.key, c.secret])).toEqual([["token", true]]);
    expect(njalla.recordTypes).toEqual(["A", "AAAA"]);
    expect(njalla.ttl).toMatchObject({ min: 60, max: 86400 });
    expect(njalla.defaultApiUrl).toBe("https://njal.la/api/1");
  });

  test("rackspace: names the credentials, the record types and the real login", () => {
    expect(rackspace.type).toBe("rackspace");
    expect(rackspace.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["username", false],
      ["api_key", true],
    ]);
    expect(rackspace.recordTypes).toEqual(["A", "AAAA"]);
    expect(rackspace.ttl).toMatchObject({ min: 300 });
    expect(rackspace.defaultApiUrl).toBe("https://identity.api.rackspacecloud.com/v2.0");
  });

  test("route53: the access key id is shown, the secret masked; A and AAAA; the real endpoint", () => {
    expect(route53.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["access_key_id", false],
      ["secret_access_key", true],
    ]);
    expect(route53.recordTypes).toEqual(["A", "AAAA"]);
    expect(route53.defaultApiUrl).toBe("https://route53.amazonaws.com/2013-04-01");
  });

  test("selectel: names the credentials, the identity option and the real service", () => {
    expect(selectel.type).toBe("selectel");
    expect(selectel.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["account_id", false],
      ["username", false],
      ["password", true],
      ["project_id", false],
    ]);
    expect(selectel.options.map((o) => [o.key, o.default])).toEqual([
      ["identity_url", "https://cloud.api.selcloud.ru/identity/v3"],
    ]);
    expect(selectel.defaultApiUrl).toBe("https://api.selectel.ru/domains/v2");
    expect(selectel.recordTypes).toEqual(["A", "AAAA"]);
  });

  test("servercow: names the API user and its secret password, the record types and the real service", () => {
    expect(servercow.type).toBe("servercow");
    expect(servercow.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["username", false],
      ["password", true],
    ]);
    expect(servercow.recordTypes).toEqual(["A", "AAAA"]);
    expect(servercow.defaultApiUrl).toBe("https://api.servercow.de/dns/v1/domains");
    expect(servercow.canVerify).toBe(false);
  });

  test("tencentcloud: names the credentials, the record types, the TTL range and the real service", () => {
    expect(tencentcloud.type).toBe("tencentcloud");
    expect(tencentcloud.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["secret_id", false],
      ["secret_key", true],
    ]);
    expect(tencentcloud.recordTypes).toEqual(["A", "AAAA"]);
    expect(tencentcloud.ttl).toMatchObject({ min: 1, max: 604800 });
    expect(tencentcloud.defaultApiUrl).toBe("https://dnspod.tencentcloudapi.com");
    expect(tencentcloud.canVerify).toBe(true);
  });

  test("vercel: paces its requests at 100 a minute, since Vercel publishes no limit for its DNS endpoints", () => {
    expect(vercel.rateLimits).toEqual([{ requests: 100, perSeconds: 60 }]);
  });

  test("vultr: names the credential, the record types, the TTL range and the real service", () => {
    expect(vultr.type).toBe("vultr");
    expect(vultr.credentials.map((c) => [c.key, c.secret])).toEqual([["api_key", true]]);
    expect(vultr.recordTypes).toEqual(["A", "AAAA"]);
    expect(vultr.defaultApiUrl).toBe("https://api.vultr.com/v2");
    expect(vultr.canVerify).toBe(true);
  });
});
