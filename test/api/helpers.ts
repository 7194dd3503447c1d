// Small builders the API tests share: a provider, a domain, history rows written straight to the
// database (the update path that normally writes them is another suite's subject), and JWTs
// crafted by hand for the token tests.

import { expect } from "bun:test";
import { SignJWT } from "jose";
import { history } from "../../src/db/schema";
import type { TestApp } from "../support";

export const CF_TOKEN = "cf-token-secret-0123456789abcdef";
export const DYNU_KEY = "dynu-key-secret-fedcba9876543210";

export async function createProvider(
  t: TestApp,
  fields: {
    name?: string;
    type?: "cloudflare" | "dynu";
    credentials?: Record<string, unknown>;
    is_enabled?: boolean;
  } = {},
): Promise<any> {
  const type = fields.type ?? "cloudflare";
  const body = {
    name: fields.name ?? `${type}-${crypto.randomUUID().slice(0, 8)}`,
    type,
    credentials: fields.credentials ?? (type === "cloudflare" ? { api_token: CF_TOKEN } : { api_key: DYNU_KEY }),
    ...(fields.is_enabled === undefined ? {} : { is_enabled: fields.is_enabled }),
  };
  const response = await t.request("POST", "/api/v1/providers", { body });
  expect(response.status).toBe(200);
  return response.body;
}

export async function createDomain(t: TestApp, providerId: number, fields: Record<string, unknown> = {}): Promise<any> {
  const body = {
    provider_id: providerId,
    domain_name: `host-${crypto.randomUUID().slice(0, 8)}.example.com`,
    ...fields,
  };
  const response = await t.request("POST", "/api/v1/domains", { body });
  expect(response.status).toBe(200);
  return response.body;
}

export interface HistoryFields {
  status?: "SUCCESS" | "FAILED";
  ip?: string | null;
  previousIp?: string | null;
  durationMs?: number;
  /** Milliseconds before now. */
  ageMs?: number;
  trigger?: "manual" | "schedule" | "push";
  message?: string;
}

/** Writes one history row for a domain and returns its id. */
export function insertHistory(t: TestApp, domainId: number, fields: HistoryFields = {}, now = Date.now()): number {
  return t.ctx.db
    .insert(history)
    .values({
      domainId,
      ipAddress: fields.ip === undefined ? "203.0.113.10" : fields.ip,
      previousIp: fields.previousIp ?? null,
      status: fields.status ?? "SUCCESS",
      message: fields.message ?? "test row",
      trigger: fields.trigger ?? "schedule",
      durationMs: fields.durationMs ?? 100,
      timestamp: now - (fields.ageMs ?? 0),
    })
    .returning({ id: history.id })
    .get().id;
}

export function historyCount(t: TestApp, domainId?: number): number {
  const row =
    domainId === undefined
      ? t.ctx.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM history").get()
      : t.ctx.sqlite
          .query<{ n: number }, [number]>("SELECT count(*) AS n FROM history WHERE domain_id = ?")
          .get(domainId);
  return row!.n;
}

/** A HS256 token with arbitrary claims, signed with `secret`. */
export function signToken(
  secret: string,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256", typ: "JWT", ...header })
    .sign(new TextEncoder().encode(secret));
}

export function base64url(value: unknown): string {
  return Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");
}

/** The decoded header and claims of a JWT (no verification). */
export function decodeToken(token: string): { header: Record<string, unknown>; claims: Record<string, unknown> } {
  const [header, claims] = token.split(".");
  return {
    header: JSON.parse(Buffer.from(header!, "base64url").toString("utf8")),
    claims: JSON.parse(Buffer.from(claims!, "base64url").toString("utf8")),
  };
}

export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Every error answer: a JSON object whose `detail` is a non-empty string, with nothing that looks like a stack. */
export function expectErrorBody(body: unknown): void {
  expect(typeof body).toBe("object");
  expect(body).not.toBeNull();
  const detail = (body as { detail?: unknown }).detail;
  expect(typeof detail).toBe("string");
  expect((detail as string).length).toBeGreaterThan(0);
  expect(JSON.stringify(body)).not.toMatch(/\n\s+at |\.ts:\d+/);
}

/**
 * Empties the data tables and restarts their ids at 1, so one app (one argon2 hash and one login)
 * can serve a whole file of tests that each start from nothing.
 */
export function resetData(t: TestApp): void {
  t.ctx.sqlite.exec("DELETE FROM history; DELETE FROM domains; DELETE FROM providers;");
  t.ctx.sqlite.exec("DELETE FROM sqlite_sequence WHERE name IN ('history', 'domains', 'providers')");
  t.logs.length = 0;
}
