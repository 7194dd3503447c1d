// The Traefik recipe of docs/operations.md ("Traefik (labels)"). Traefik itself is not installed
// here (Caddy and nginx are, and test/e2e/automation.test.ts runs their recipes for real), so this
// reads the recipe's Compose block and checks what makes it right or wrong: the settings load as
// ddnsd reads them, the signed-in router's PathPrefix is DDNS_BASE_PATH, no middleware strips or
// rewrites the path, the forward auth copies the header DDNS_AUTH_PROXY_HEADER names, only pushes
// skip the sign-in, every router reaches ddnsd's port, and nothing else publishes a port.

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { loadSettings } from "../../src/config";

const OPERATIONS = readFileSync(join(import.meta.dir, "..", "..", "docs", "operations.md"), "utf8");

/** The recipe's YAML block: the first fenced `yaml` block under its heading. */
function recipe(): {
  environment: Record<string, string>;
  labels: Map<string, string>;
  service: Record<string, unknown>;
} {
  const section = OPERATIONS.slice(OPERATIONS.indexOf("### Traefik (labels)"));
  const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error("docs/operations.md has no yaml block under ### Traefik (labels)");
  const service = parse(block).services.ddnsd as Record<string, unknown>;
  const labels = new Map<string, string>();
  for (const label of service.labels as string[]) {
    const at = label.indexOf("=");
    labels.set(label.slice(0, at), label.slice(at + 1));
  }
  return { environment: service.environment as Record<string, string>, labels, service };
}

/** The routers the labels define, by name: their rule's PathPrefix, middlewares and service. */
function routers(labels: Map<string, string>) {
  const names = new Set([...labels.keys()].flatMap((key) => /^traefik\.http\.routers\.([^.]+)\./.exec(key)?.[1] ?? []));
  return [...names].map((name) => {
    const label = (key: string) => labels.get(`traefik.http.routers.${name}.${key}`);
    const rule = label("rule") ?? "";
    const prefixes = [...rule.matchAll(/PathPrefix\(`([^`]*)`\)/g)].map((match) => match[1]!);
    return {
      name,
      rule,
      prefixes,
      middlewares: (label("middlewares") ?? "").split(",").filter((item) => item !== ""),
      service: label("service"),
    };
  });
}

describe("the Traefik recipe", () => {
  const { environment, labels, service } = recipe();
  const settings = loadSettings(environment);
  const all = routers(labels);
  const forwardAuth = (middleware: string) => labels.has(`traefik.http.middlewares.${middleware}.forwardauth.address`);
  const signedIn = all.filter((router) => router.middlewares.some(forwardAuth));

  test("its settings load as ddnsd reads them: a sub-path, the proxy's header, a trusted proxy", () => {
    expect(settings.basePath).toBe("/ddns");
    expect(settings.authProxyHeader).not.toBeNull();
    expect(settings.trustedProxies.length).toBeGreaterThan(0);
  });

  test("the signed-in router's PathPrefix is DDNS_BASE_PATH; every router stays under it", () => {
    expect(signedIn).toHaveLength(1);
    expect(signedIn[0]!.prefixes).toEqual([settings.basePath]);
    for (const router of all) {
      expect(router.prefixes).toHaveLength(1);
      expect(`${router.prefixes[0]!}/`.startsWith(`${settings.basePath}/`)).toBe(true);
    }
  });

  test("no middleware strips or rewrites the path: ddnsd wants it as it came", () => {
    for (const key of labels.keys())
      expect(key.toLowerCase()).not.toMatch(
        /\.(stripprefix|stripprefixregex|replacepath|replacepathregex|addprefix)\./,
      );
    for (const router of all) for (const middleware of router.middlewares) expect(forwardAuth(middleware)).toBe(true);
  });

  test("the forward auth copies the header DDNS_AUTH_PROXY_HEADER names onto the request", () => {
    for (const middleware of signedIn[0]!.middlewares) {
      const copied = (labels.get(`traefik.http.middlewares.${middleware}.forwardauth.authResponseHeaders`) ?? "")
        .split(",")
        .map((name) => name.trim().toLowerCase());
      expect(copied).toContain(settings.authProxyHeader!.toLowerCase());
    }
  });

  test("only the router pushes skip the sign-in; every router reaches ddnsd's port, and no port is published", () => {
    for (const router of all.filter((candidate) => !signedIn.includes(candidate)))
      expect(router.prefixes[0]!.startsWith(`${settings.basePath}/nic/`)).toBe(true);
    const services = new Set(all.map((router) => router.service));
    expect([...services]).toEqual(["ddnsd"]);
    expect(Number(labels.get("traefik.http.services.ddnsd.loadbalancer.server.port"))).toBe(settings.port);
    expect(service.ports).toBeUndefined();
  });
});
