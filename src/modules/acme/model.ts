// Request and response schemas of /api/v1/acme-keys (docs/certificates.md).

import { t } from "elysia";
import { Int, OptionalTimestamp } from "../shared";

export const AcmeKeyCreate = t.Object({
  name: t.String({
    minLength: 1,
    maxLength: 100,
    description: "What the key is for, e.g. the certificate client's host",
    error: "must be 1 to 100 characters",
  }),
  domain_ids: t.Array(t.Integer({ minimum: 1 }), {
    description: "The domains whose `_acme-challenge` TXT the key may set (their wildcard certificates too)",
    error: "must be a list of domain ids",
  }),
});

const AcmeDnsAccount = t.Object(
  {
    fulldomain: t.String(),
    subdomain: t.String(),
    username: t.String(),
    password: t.String(),
    server_url: t.String(),
  },
  { description: "What an acme-dns client stores for one name" },
);

export const AcmeKey = t.Object({
  id: Int(),
  name: t.String(),
  username: t.String({ description: "acme-dns `X-Api-User`, httpreq's Basic username" }),
  password: t.Optional(t.String({ description: "Only in the answer that created the key: it is stored hashed" })),
  domain_ids: t.Array(Int()),
  hostnames: t.Array(t.String()),
  created_at: t.String({ format: "date-time" }),
  last_used_at: OptionalTimestamp,
  acme_dns_account: t.Optional(AcmeDnsAccount),
  acme_dns_accounts: t.Optional(t.Record(t.String(), AcmeDnsAccount)),
});

export const AcmeDnsUpdate = t.Object({ subdomain: t.String(), txt: t.String() });
export const HttpreqBody = t.Object({ fqdn: t.String(), value: t.String() });
