// The Google Cloud DNS client against its fake: the signed JWT it trades for a token (checked by the
// fake with the public half of the account's RSA key), the token it keeps, the one change that
// replaces exactly the set it read, what it keeps, and its failures in Google's words.

import { describe, expect, test } from "bun:test";
import { createPrivateKey } from "node:crypto";
import type { DnsProvider } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { normaliseCredentials } from "../../src/dns/rules";
import { createGcloudApi, gcloud, parseServiceAccountKey, rs256Signature } from "../../src/dns/services/gcloud";
import {
  GCLOUD_FAKE_EMAIL,
  GCLOUD_FAKE_KEY,
  GCLOUD_FAKE_PROJECT,
  type GcloudFault,
  serviceAccountKeyJson,
  startGcloudFake,
} from "../fakes/gcloud";
import { context, fails, failureTests, STOP, serviceClient, target, useFake, waits } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";
const ZONES = `/dns/v1/projects/${GCLOUD_FAKE_PROJECT}/managedZones`;
const key = GCLOUD_FAKE_KEY;

const fake = useFake(startGcloudFake, (fake) => {
  fake.addZone("example-com", "example.com");
  fake.addRrset("example-com", { name: "home.example.com.", type: "A", rrdatas: [OLD_IP], ttl: 300 });
});
const client = (privatePem = key.privatePem, timeoutMs = 2000) =>
  serviceClient(
    "gcloud",
    fake.apiUrl,
    { service_account_key: serviceAccountKeyJson(privatePem) },
    { token_url: fake.tokenUrl },
    { timeoutMs },
  );

function keyFile() {
  const parsed = parseServiceAccountKey(serviceAccountKeyJson(key.privatePem, { tokenUri: fake.tokenUrl }));
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.key;
}

/** A client on a clock of its own (the fake keeps the real one). */
const clockedClient = (now: () => number) =>
  zoneClient(
    createGcloudApi({ key: keyFile(), project: GCLOUD_FAKE_PROJECT }, fake.tokenUrl, context(fake.apiUrl), now),
  );

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.rrset("example-com", "home.example.com.", "A");
const known = { zone_id: "example-com" };
const TOKEN = "POST /token";

describe("the description", () => {
  test("one secret field holds the whole key, up to 4,096 characters; a file that is no service account key is refused", () => {
    expect(gcloud.credentials.map((c) => [c.key, c.secret])).toEqual([["service_account_key", true]]);
    const validate = gcloud.credentials[0]!.validate!;
    expect(validate(serviceAccountKeyJson(key.privatePem))).toBeUndefined();
    expect(validate("not json")).toMatch(/JSON key file/);
    expect(validate(JSON.stringify({ type: "authorized_user", client_id: "x" }))).toMatch(
      /service account key is needed/,
    );
    expect(validate(JSON.stringify({ type: "service_account", client_email: "a@b" }))).toMatch(/no private_key/);
    expect(gcloud.options.map((o) => o.key)).toEqual(["project", "token_url"]);
    expect(gcloud.defaultApiUrl).toBe("https://dns.googleapis.com/dns/v1");
    // The whole downloaded key fits (over 1,024 characters), up to 4,096.
    const file = serviceAccountKeyJson(key.privatePem);
    expect(file.length).toBeGreaterThan(2000);
    expect(normaliseCredentials(gcloud, { service_account_key: file })).toEqual({ service_account_key: file });
    expect(() =>
      normaliseCredentials(gcloud, { service_account_key: `${file}${" ".repeat(4097 - file.length)}` }),
    ).toThrow("must be at most 4096 characters");
  });

  test("createClient takes the project and the token endpoint from the key unless the options name others", async () => {
    const fromKey = serviceClient("gcloud", fake.apiUrl, {
      service_account_key: serviceAccountKeyJson(key.privatePem, { tokenUri: fake.tokenUrl }),
    });
    expect(await fromKey.verify()).toEqual({
      ok: true,
      detail: `Service account accepted (1 public zone in project ${GCLOUD_FAKE_PROJECT})`,
    });
    const fromOptions = serviceClient(
      "gcloud",
      fake.apiUrl,
      { service_account_key: serviceAccountKeyJson(key.privatePem, { project: "elsewhere" }) },
      { project: GCLOUD_FAKE_PROJECT, token_url: fake.tokenUrl },
    );
    expect((await fromOptions.verify()).ok).toBe(true);
    expect(fake.assertions.map((a) => a.claims.aud)).toEqual([fake.tokenUrl, fake.tokenUrl]);
  });
});

describe("the token", () => {
  test("is bought with an RS256 JWT signed by the key, then reused; replaced a minute before it expires, and once when Cloud DNS refuses it", async () => {
    let clock = Date.now();
    const built = clockedClient(() => clock);
    await built.verify();
    await built.verify();
    expect(requestLines()).toEqual([TOKEN, `GET ${ZONES}`, `GET ${ZONES}`]);
    const form = new URLSearchParams(String(fake.requests[0]!.body));
    expect(form.get("grant_type")).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");
    const [{ header, claims }] = fake.assertions as [
      { header: Record<string, unknown>; claims: Record<string, unknown> },
    ];
    expect(header).toEqual({ alg: "RS256", typ: "JWT", kid: "4b9e1c0a7d3f2e5b6a8c9d0e1f2a3b4c5d6e7f80" });
    expect(claims).toMatchObject({
      iss: GCLOUD_FAKE_EMAIL,
      scope: "https://www.googleapis.com/auth/ndev.clouddns.readwrite",
      aud: fake.tokenUrl,
    });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(3600);
    expect(fake.requests[1]?.headers.authorization).toStartWith("Bearer ya29.fake");
    clock += 3599_000 - 60_000 + 1;
    fake.clearRequests();
    await built.verify();
    // A new token is asked for (the fake, on the real clock, refuses an assertion made an hour ahead).
    expect(requestLines()).toEqual([TOKEN]);
    clock = Date.now();
    fake.tokens.clear();
    fake.clearRequests();
    expect((await built.verify()).ok).toBe(true);
    expect(requestLines()).toEqual([`GET ${ZONES}`, TOKEN, `GET ${ZONES}`]);
  });

  test("the RS256 signer reproduces the published example of RFC 7515, Appendix A.2", () => {
    // RFC 7515 A.2: the example RSA key (as a JWK), the signing input and the signature it publishes.
    const key = createPrivateKey({
      format: "jwk",
      key: {
        kty: "RSA",
        n: "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ",
        e: "AQAB",
        d: "Eq5xpGnNCivDflJsRQBXHx1hdR1k6Ulwe2JZD50LpXyWPEAeP88vLNO97IjlA7_GQ5sLKMgvfTeXZx9SE-7YwVol2NXOoAJe46sui395IW_GO-pWJ1O0BkTGoVEn2bKVRUCgu-GjBVaYLU6f3l9kJfFNS3E0QbVdxzubSu3Mkqzjkn439X0M_V51gfpRLI9JYanrC4D4qAdGcopV_0ZHHzQlBjudU2QvXt4ehNYTCBr6XCLQUShb1juUO1ZdiYoFaFQT5Tw8bGUl_x_jTj3ccPDVZFD9pIuhLhBOneufuBiB4cS98l2SR_RQyGWSeWjnczT0QU91p1DhOVRuOopznQ",
        p: "4BzEEOtIpmVdVEZNCqS7baC4crd0pqnRH_5IB3jw3bcxGn6QLvnEtfdUdiYrqBdss1l58BQ3KhooKeQTa9AB0Hw_Py5PJdTJNPY8cQn7ouZ2KKDcmnPGBY5t7yLc1QlQ5xHdwW1VhvKn-nXqhJTBgIPgtldC-KDV5z-y2XDwGUc",
        q: "uQPEfgmVtjL0Uyyx88GZFF1fOunH3-7cepKmtH4pxhtCoHqpWmT8YAmZxaewHgHAjLYsp1ZSe7zFYHj7C6ul7TjeLQeZD_YwD66t62wDmpe_HlB-TnBA-njbglfIsRLtXlnDzQkv5dTltRJ11BKBBypeeF6689rjcJIDEz9RWdc",
        dp: "BwKfV3Akq5_MFZDFZCnW-wzl-CCo83WoZvnLQwCTeDv8uzluRSnm71I3QCLdhrqE2e9YkxvuxdBfpT_PI7Yz-FOKnu1R6HsJeDCjn12Sk3vmAktV2zb34MCdy7cpdTh_YVr7tss2u6vneTwrA86rZtu5Mbr1C1XsmvkxHQAdYo0",
        dq: "h_96-mK1R_7glhsum81dZxjTnYynPbZpHziZjeeHcXYsXaaMwkOlODsWa7I9xXDoRwbKgB719rrmI2oKr6N3Do9U0ajaHF-NKJnwgjMd2w9cjz3_-kyNlxAr2v4IKhGNpmM5iIgOS1VZnOZ68m6_pbLBSp3nssTdlqvd0tIiTHU",
        qi: "IYd7DHOhrWvxkwPQsRM2tOgrjbcrfvtQJipd-DlcxyVuuM9sQLdgjVk2oy26F0EmpScGLq2MowX7fhd_QJQ3ydy5cY7YIBi87w93IKLEdfnbJtoOPLUW0ITrJReOgo1cq9SbsxYawBgfp_gh6A5603k2-ZQwVK0JKSHuLFkuQ3U",
      },
    });
    const input =
      "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ";
    expect(rs256Signature(input, key)).toBe(
      "cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw",
    );
  });

  const broken = "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n";
  type Arrange = { build: () => DnsProvider; sent: string[]; timeout?: boolean };
  failureTests(
    [
      // A key whose private key cannot be read is refused before any request.
      fails<Arrange>(
        { build: () => client(broken), sent: [] },
        "Google Cloud DNS: the key's private_key is not a readable PEM key; download a new JSON key",
        "credentials",
        STOP,
      ),
      // An assertion refused for its times (this machine's clock is off) is retried later.
      fails<Arrange>(
        { build: () => clockedClient(() => Date.now() - 2 * 3600_000), sent: [TOKEN] },
        /check this machine's clock/,
        "refused",
      ),
      // An unreachable token endpoint is unreachable, not a credentials problem.
      fails<Arrange>(
        { build: () => client(key.privatePem, 1000), sent: [TOKEN], timeout: true },
        "Google Cloud DNS: no answer within 1s",
        "unreachable",
      ),
    ],
    ({ arrange }) => {
      if (arrange.timeout) fake.fault("timeout", undefined, "/token");
      return arrange.build().writeRecord(target("home.example.com", known), NEW_IP);
    },
    ({ arrange }) => {
      expect(requestLines()).toEqual(arrange.sent);
    },
  );
});

describe("writeRecord", () => {
  test("an existing set: one change deleting the set as read and adding it with the new address", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toMatchObject({
      ok: true,
      action: "updated",
      zoneId: "example-com",
      externalId: "home.example.com./A",
      message: expect.stringContaining("ttl 300"),
    });
    expect(home()).toMatchObject({ rrdatas: [NEW_IP], ttl: 300 });
    expect(requestLines()).toEqual([
      TOKEN,
      `GET ${ZONES}`,
      `GET ${ZONES}/example-com/rrsets`,
      `POST ${ZONES}/example-com/changes`,
    ]);
    expect(fake.requests[2]?.query).toEqual({ name: "home.example.com.", type: "A" });
    const read = { kind: "dns#resourceRecordSet", name: "home.example.com.", type: "A", rrdatas: [OLD_IP], ttl: 300 };
    expect(fake.requests[3]?.body).toEqual({ deletions: [read], additions: [{ ...read, rrdatas: [NEW_IP] }] });
  });

  test("fields of the set ddnsd does not know are sent back as read; a set with a routing policy is left alone", async () => {
    const signed = { name: "signed.example.com.", type: "A", ttl: 120, signatureRrdatas: ["A 8 3 120 …"] };
    fake.addRrset("example-com", { ...signed, rrdatas: [OLD_IP] });
    const geo = { name: "geo.example.com.", type: "A", rrdatas: [], routingPolicy: { geo: { items: [] } } };
    fake.addRrset("example-com", geo);
    expect(await client().writeRecord(target("signed.example.com", known), NEW_IP)).toMatchObject({ ok: true });
    expect(fake.rrset("example-com", "signed.example.com.", "A")).toMatchObject({ ...signed, rrdatas: [NEW_IP] });
    expect(await client().writeRecord(target("geo.example.com", known), NEW_IP)).toMatchObject({
      ok: false,
      cause: "refused",
      message: expect.stringContaining("routing policy"),
    });
    expect(fake.requests.filter((r) => r.path.endsWith("/changes"))).toHaveLength(1);
  });

  test("a missing AAAA set is created with an addition alone, TTL 300, after the configured zone's name is checked", async () => {
    const outcome = await client().writeRecord(target("new.example.com", known, { recordType: "AAAA" }), "2001:db8::7");
    expect(outcome).toMatchObject({ ok: true, action: "created" });
    expect(fake.rrset("example-com", "new.example.com.", "AAAA")).toMatchObject({ rrdatas: ["2001:db8::7"], ttl: 300 });
    expect(fake.requests.at(-1)?.body).toEqual({
      additions: [{ name: "new.example.com.", type: "AAAA", ttl: 300, rrdatas: ["2001:db8::7"] }],
    });
    expect(requestLines().slice(1)).toEqual([
      `GET ${ZONES}/example-com/rrsets`,
      `GET ${ZONES}/example-com`,
      `POST ${ZONES}/example-com/changes`,
    ]);
  });

  test("the zone list is read page by page; a private zone is skipped", async () => {
    fake.maxZonesPerPage = 1;
    fake.addZone("a-private", "lab.example.com", "private");
    fake.addZone("lab", "lab.example.com");
    fake.addZone("other", "other.net");
    expect(await client().writeRecord(target("pi.lab.example.com"), NEW_IP)).toMatchObject({
      ok: true,
      action: "created",
      zoneId: "lab",
    });
    const pages = fake.requests.filter((r) => r.path === ZONES);
    expect(pages.map((r) => r.query.pageToken !== undefined)).toEqual([false, true, true, true]);
    expect(fake.rrset("a-private", "pi.lab.example.com.", "A")).toBeUndefined();
  });
});

describe("failures keep Google's words and leave the record alone", () => {
  const onChanges = (r: { method: string; path: string }) => r.method === "POST" && r.path.endsWith("/changes");
  const precondition = "Precondition not met for 'entity.change.deletions[0]'";
  failureTests(
    [
      fails(
        { status: 403, reason: "forbidden", message: "Forbidden" },
        "Google Cloud DNS: Forbidden (forbidden, HTTP 403)",
        "credentials",
        STOP,
      ),
      fails({ status: 403, reason: "rateLimitExceeded" }, /\(rateLimitExceeded, HTTP 403\)$/, "throttled"),
      fails(
        { status: 503, retryAfter: 30 },
        "Google Cloud DNS: Internal error encountered. (backendError, HTTP 503)",
        "throttled",
        waits(30),
      ),
      fails({ status: 500 }, "Google Cloud DNS: Internal error encountered. (backendError, HTTP 500)", "unreachable"),
      // A set changed by someone else meanwhile is not overwritten.
      fails(
        { status: 412, reason: "conditionNotMet", message: precondition },
        `Google Cloud DNS: ${precondition} (conditionNotMet, HTTP 412)`,
        "refused",
      ),
    ],
    async ({ arrange }: { arrange: Exclude<GcloudFault, string> }) => {
      fake.fault(arrange, undefined, (r) => (arrange.status === 412 ? onChanges(r) : r.path.startsWith("/dns/v1")));
      return client().writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(home()?.rrdatas).toEqual([OLD_IP]);
    },
  );
});
