// The Azure DNS client against its fake: the token it obtains and keeps, what it changes (with the
// etag it read), what it keeps, how many requests it spends, and its failures in Azure's words.

import { describe, expect, setSystemTime, test } from "bun:test";
import { azure, tokenScope } from "../../src/dns/services/azure";
import {
  AZURE_FAKE_CLIENT_ID,
  AZURE_FAKE_CLIENT_SECRET,
  AZURE_FAKE_GROUP,
  AZURE_FAKE_SUBSCRIPTION,
  AZURE_FAKE_TENANT,
  type AzureFault,
  startAzureFake,
} from "../fakes/azure";
import { fails, failureTests, STOP, serviceClient, target, useFake } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";
const ARM = `/arm/subscriptions/${AZURE_FAKE_SUBSCRIPTION}`;
const SETS = `${ARM}/resourceGroups/${AZURE_FAKE_GROUP}/providers/Microsoft.Network/dnsZones/example.com`;

const fake = useFake(startAzureFake, (fake) => {
  fake.addZone("example.com");
  fake.addRecordSet("example.com", { name: "home", type: "A", addresses: [OLD_IP], ttl: 300 });
});
const credentials = {
  tenant_id: AZURE_FAKE_TENANT,
  client_id: AZURE_FAKE_CLIENT_ID,
  client_secret: AZURE_FAKE_CLIENT_SECRET,
  subscription_id: AZURE_FAKE_SUBSCRIPTION,
};
const client = () => serviceClient("azure", fake.armUrl, credentials, { login_url: fake.loginUrl });

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.recordSet("example.com", "home", "A");
const known = { zone_id: `${AZURE_FAKE_GROUP}/example.com` };
const TOKEN = `POST /login/${AZURE_FAKE_TENANT}/oauth2/v2.0/token`;
const ZONES = `GET ${ARM}/providers/Microsoft.Network/dnszones`;

test("the description names the credentials, the token endpoint option, the TTL range and the real service", () => {
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

describe("the token", () => {
  test("its scope is the audience of the Resource Manager in use: a sovereign cloud gets its own", () => {
    expect(tokenScope("https://management.azure.com")).toBe("https://management.azure.com/.default");
    expect(tokenScope("https://management.usgovcloudapi.net")).toBe("https://management.usgovcloudapi.net/.default");
    expect(tokenScope("https://management.chinacloudapi.cn/")).toBe("https://management.chinacloudapi.cn/.default");
  });

  test("is obtained with the client credentials grant, then reused; replaced a minute before it expires, and once when ARM refuses it", async () => {
    const start = Date.now();
    const built = client();
    try {
      setSystemTime(start);
      await built.verify();
      await built.verify();
      setSystemTime(start + 3599_000 - 60_000 + 1);
      await built.verify();
    } finally {
      setSystemTime();
    }
    expect(Object.fromEntries(new URLSearchParams(String(fake.requests[0]!.body)))).toEqual({
      grant_type: "client_credentials",
      client_id: AZURE_FAKE_CLIENT_ID,
      client_secret: AZURE_FAKE_CLIENT_SECRET,
      scope: `${new URL(fake.url).origin}/.default`,
    });
    expect(fake.requests[1]?.query["api-version"]).toBe("2018-05-01");
    fake.tokens.clear();
    expect((await built.verify()).ok).toBe(true);
    expect(requestLines()).toEqual([TOKEN, ZONES, ZONES, TOKEN, ZONES, ZONES, TOKEN, ZONES]);
  });
});

describe("writeRecord", () => {
  test("an existing set: PATCH of the addresses alone, with the etag read", async () => {
    const etag = home()!.etag;
    expect(await client().writeRecord(target("home.example.com"), NEW_IP)).toMatchObject({
      ok: true,
      action: "updated",
      zoneId: `${AZURE_FAKE_GROUP}/example.com`,
      message: expect.stringContaining("ttl 300"),
    });
    expect(home()).toMatchObject({ addresses: [NEW_IP], ttl: 300 });
    expect(requestLines()).toEqual([TOKEN, ZONES, `GET ${SETS}/A/home`, `PATCH ${SETS}/A/home`]);
    expect(fake.requests[3]?.body).toEqual({ properties: { ARecords: [{ ipv4Address: NEW_IP }] } });
    expect(fake.requests[3]?.headers["if-match"]).toBe(etag);
  });

  test("a missing AAAA set is created with PUT, If-None-Match and TTL 3600; a zone's id names its resource group; a configured zone without one is refused", async () => {
    fake.addZone("lab.example.com", "lab-rg");
    const created = await client().writeRecord(target("pi.lab.example.com", {}, { recordType: "AAAA" }), "2001:db8::7");
    expect(created).toMatchObject({ ok: true, action: "created", zoneId: "lab-rg/lab.example.com" });
    expect(fake.recordSet("lab.example.com", "pi", "AAAA")).toMatchObject({ addresses: ["2001:db8::7"], ttl: 3600 });
    expect(fake.requests.at(-1)).toMatchObject({ method: "PUT", headers: { "if-none-match": "*" } });
    expect(await client().writeRecord(target("new.example.com", { zone_id: "example.com" }), NEW_IP)).toMatchObject({
      ok: false,
      cause: "refused",
    });
  });
});

describe("failures keep Azure's words and leave the record alone", () => {
  const denied = "The client does not have authorization.";
  failureTests(
    [
      fails(
        { status: 403, code: "AuthorizationFailed", message: denied },
        `Azure DNS: ${denied} (AuthorizationFailed, HTTP 403)`,
        "credentials",
        STOP,
      ),
      fails({ status: 500 }, "Azure DNS: An error occurred. (InternalServerError, HTTP 500)", "unreachable"),
      // A set changed by someone else meanwhile is not overwritten.
      fails(
        { status: 412, code: "PreconditionFailed", message: "The etag does not match." },
        "Azure DNS: The etag does not match. (PreconditionFailed, HTTP 412)",
        "refused",
      ),
    ],
    async ({ arrange }: { arrange: Exclude<AzureFault, string> }) => {
      fake.fault(
        arrange,
        undefined,
        (r) => r.path.startsWith("/arm") && (arrange.status !== 412 || r.method === "PATCH"),
      );
      return client().writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(home()?.addresses).toEqual([OLD_IP]);
    },
  );
});
