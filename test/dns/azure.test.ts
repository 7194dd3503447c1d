// The Azure DNS client against its fake: the token it obtains and keeps, what it changes (with the
// etag it read), what it keeps, how many requests it spends, and its failures in Azure's words.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FailureCause } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { azure, createAzureApi, tokenScope } from "../../src/dns/services/azure";
import {
  AZURE_FAKE_CLIENT_ID,
  AZURE_FAKE_CLIENT_SECRET,
  AZURE_FAKE_GROUP,
  AZURE_FAKE_SUBSCRIPTION,
  AZURE_FAKE_TENANT,
  type AzureFake,
  type AzureFault,
  startAzureFake,
} from "../fakes/azure";
import { failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";
const ARM = `/arm/subscriptions/${AZURE_FAKE_SUBSCRIPTION}`;
const SETS = `${ARM}/resourceGroups/${AZURE_FAKE_GROUP}/providers/Microsoft.Network/dnsZones/example.com`;

let fake: AzureFake;

beforeEach(() => {
  fake = startAzureFake();
  fake.addZone("example.com");
  fake.addRecordSet("example.com", { name: "home", type: "A", addresses: [OLD_IP], ttl: 300 });
  fake.addRecordSet("example.com", { name: "@", type: "A", addresses: [OLD_IP], ttl: 600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { secret?: string; timeoutMs?: number; now?: () => number } = {}) {
  return zoneClient(
    createAzureApi(
      {
        tenant_id: AZURE_FAKE_TENANT,
        client_id: AZURE_FAKE_CLIENT_ID,
        client_secret: options.secret ?? AZURE_FAKE_CLIENT_SECRET,
        subscription_id: AZURE_FAKE_SUBSCRIPTION,
      },
      fake.loginUrl,
      { baseUrl: fake.armUrl, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
      options.now,
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.recordSet("example.com", "home", "A");
const known = { zone_id: `${AZURE_FAKE_GROUP}/example.com` };
const TOKEN = `POST /login/${AZURE_FAKE_TENANT}/oauth2/v2.0/token`;

describe("the description", () => {
  test("names the credentials, the token endpoint option, the TTL range and the real service", () => {
    expect(azure.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["tenant_id", false],
      ["client_id", false],
      ["client_secret", true],
      ["subscription_id", false],
    ]);
    expect(azure.credentials[0]!.validate!("nope")).toMatch(/GUID/);
    expect(azure.options[0]).toMatchObject({
      key: "login_url",
      kind: "url",
      default: "https://login.microsoftonline.com",
    });
    expect(azure.credentials[1]!.help).toContain("DNS Zone Contributor");
    expect(azure.defaultApiUrl).toBe("https://management.azure.com");
  });

  test("createClient builds a working client with the login_url option", async () => {
    const built = azure.createClient(
      {
        tenant_id: AZURE_FAKE_TENANT,
        client_id: AZURE_FAKE_CLIENT_ID,
        client_secret: AZURE_FAKE_CLIENT_SECRET,
        subscription_id: AZURE_FAKE_SUBSCRIPTION,
      },
      { login_url: fake.loginUrl },
      { baseUrl: fake.armUrl, fetch, timeoutMs: 10000, userAgent: "ddnsd/test" },
    );
    expect(await built.verify()).toEqual({ ok: true, detail: "Service principal accepted (1 zone visible)" });
  });
});

describe("the token", () => {
  test("its scope is the audience of the Resource Manager in use: a sovereign cloud gets its own", () => {
    expect(tokenScope("https://management.azure.com")).toBe("https://management.azure.com/.default");
    expect(tokenScope("https://management.usgovcloudapi.net")).toBe("https://management.usgovcloudapi.net/.default");
    expect(tokenScope("https://management.chinacloudapi.cn/")).toBe("https://management.chinacloudapi.cn/.default");
  });

  test("is obtained with the client credentials grant, then reused", async () => {
    const built = client();
    await built.verify();
    await built.verify();
    expect(requestLines()).toEqual([
      TOKEN,
      `GET ${ARM}/providers/Microsoft.Network/dnszones`,
      `GET ${ARM}/providers/Microsoft.Network/dnszones`,
    ]);
    const form = new URLSearchParams(String(fake.requests[0]!.body));
    expect(Object.fromEntries(form)).toEqual({
      grant_type: "client_credentials",
      client_id: AZURE_FAKE_CLIENT_ID,
      client_secret: AZURE_FAKE_CLIENT_SECRET,
      scope: `${new URL(fake.url).origin}/.default`,
    });
    expect(fake.requests[1]?.query["api-version"]).toBe("2018-05-01");
  });

  test("is replaced a minute before it expires, and once when ARM refuses it", async () => {
    let clock = 1_000_000;
    const built = client({ now: () => clock });
    await built.verify();
    clock += 3599_000 - 60_000 + 1;
    await built.verify();
    expect(requestLines().filter((l) => l === TOKEN)).toHaveLength(2);
    fake.tokens.clear();
    fake.clearRequests();
    expect((await built.verify()).ok).toBe(true);
    expect(requestLines()).toEqual([
      `GET ${ARM}/providers/Microsoft.Network/dnszones`,
      TOKEN,
      `GET ${ARM}/providers/Microsoft.Network/dnszones`,
    ]);
  });

  test("a wrong client secret is refused in the identity platform's words and stops retries", async () => {
    const outcome = await client({ secret: "wrong" }).writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "credentials",
      stopRetrying: true,
      message: "Azure DNS: AADSTS7000215: Invalid client secret provided. (invalid_client, HTTP 401)",
    });
  });
});

describe("writeRecord", () => {
  test("an existing set: PATCH of the addresses alone, with the etag read", async () => {
    const etag = home()!.etag;
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toMatchObject({
      ok: true,
      action: "updated",
      zoneId: `${AZURE_FAKE_GROUP}/example.com`,
      message: expect.stringContaining("ttl 300"),
    });
    expect(home()).toMatchObject({ addresses: [NEW_IP], ttl: 300 });
    expect(requestLines()).toEqual([
      TOKEN,
      `GET ${ARM}/providers/Microsoft.Network/dnszones`,
      `GET ${SETS}/A/home`,
      `PATCH ${SETS}/A/home`,
    ]);
    expect(fake.requests[3]?.body).toEqual({ properties: { ARecords: [{ ipv4Address: NEW_IP }] } });
    expect(fake.requests[3]?.headers["if-match"]).toBe(etag);
  });

  test("an address already there is not written; a TTL from config is; the apex is @", async () => {
    expect(await client().writeRecord(target("home.example.com", known), OLD_IP)).toMatchObject({
      action: "unchanged",
    });
    expect(fake.writes()).toBe(1);
    await client().writeRecord(target("home.example.com", { ...known, ttl: 60 }), NEW_IP);
    expect(home()).toMatchObject({ addresses: [NEW_IP], ttl: 60 });
    await client().writeRecord(target("example.com", known), NEW_IP);
    expect(fake.recordSet("example.com", "@", "A")).toMatchObject({ addresses: [NEW_IP], ttl: 600 });
  });

  test("a set changed by someone else meanwhile is not overwritten (412)", async () => {
    fake.fault(
      { status: 412, code: "PreconditionFailed", message: "The etag does not match." },
      1,
      (r) => r.method === "PATCH",
    );
    expect(await client().writeRecord(target("home.example.com", known), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message: "Azure DNS: The etag does not match. (PreconditionFailed, HTTP 412)",
    });
  });

  test("a missing AAAA set is created with PUT, If-None-Match and TTL 3600", async () => {
    const outcome = await client().writeRecord(target("new.example.com", known, { recordType: "AAAA" }), "2001:db8::7");
    expect(outcome).toMatchObject({ ok: true, action: "created" });
    expect(fake.recordSet("example.com", "new", "AAAA")).toMatchObject({ addresses: ["2001:db8::7"], ttl: 3600 });
    expect(fake.requests.at(-1)?.headers["if-none-match"]).toBe("*");
  });

  test("the longest zone wins across resource groups; none is a failure naming the name", async () => {
    fake.addZone("lab.example.com", "lab-rg");
    expect(await client().writeRecord(target("pi.lab.example.com"), NEW_IP)).toMatchObject({
      ok: true,
      zoneId: "lab-rg/lab.example.com",
    });
    expect(await client().writeRecord(target("x.other.net"), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message: "Azure DNS: no zone of this account holds x.other.net",
    });
  });

  test("a configured zone that is gone is looked up afresh, once; a malformed one is refused", async () => {
    expect(
      await client().writeRecord(target("new.example.com", { zone_id: "old-rg/example.com" }), NEW_IP),
    ).toMatchObject({ ok: true, zoneId: `${AZURE_FAKE_GROUP}/example.com` });
    expect(await client().writeRecord(target("new.example.com", { zone_id: "example.com" }), NEW_IP)).toMatchObject({
      ok: false,
      cause: "refused",
    });
  });
});

describe("failures keep Azure's words and leave the record alone", () => {
  const cases: {
    name: string;
    fault: AzureFault;
    message: string | RegExp;
    cause: FailureCause;
    retryAfterSeconds?: number;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "no role on the zone",
      fault: { status: 403, code: "AuthorizationFailed", message: "The client does not have authorization." },
      message: "Azure DNS: The client does not have authorization. (AuthorizationFailed, HTTP 403)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "500",
      fault: { status: 500 },
      message: "Azure DNS: An error occurred. (InternalServerError, HTTP 500)",
      cause: "unreachable",
    },
  ];
  failureTests(
    cases,
    async ({ fault }) => {
      fake.fault(fault, undefined, (r) => r.path.startsWith("/arm"));
      return client({ timeoutMs: 1000 }).writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(home()?.addresses).toEqual([OLD_IP]);
    },
  );
});
