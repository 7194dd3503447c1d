// The generated part of each DNS service's page (docs/services/<type>.md): its title, summary,
// table of facts and fields, written from the service's description in src/dns/services/, so the page
// cannot drift from what the API, the forms and the pacer use. The rest of each page (credentials
// with least privilege, what ddnsd changes and never changes, quirks) is written by hand.
//
// `bun run docs:services` rewrites the generated part of every page (and starts a missing page
// with it; its hand-written sections are then still to write, and the docs test says which).
// test/unit/docs-pages.test.ts fails while a page's part differs from its description.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { apiUrlSetting, SERVICES } from "../src/dns/registry";
import type { RateLimit, ServiceDescription } from "../src/dns/service";

export const SERVICES_DIR = resolve(import.meta.dir, "..", "docs", "services");
const DESCRIPTIONS_DIR = resolve(import.meta.dir, "..", "test", "conformance", "descriptions");
const RECORDED_INDEX = resolve(import.meta.dir, "..", "test", "recorded", "index.json");

/** The recorded answers (test/recorded/index.json): each file's path below test/recorded/ and its source repository. */
const recorded: { file: string; repository: string }[] = existsSync(RECORDED_INDEX)
  ? JSON.parse(readFileSync(RECORDED_INDEX, "utf8")).files
  : [];

/**
 * What the service's client was checked against, besides its fake: the vendored machine-readable
 * description (test/conformance/descriptions/) and the answers other projects recorded from the
 * real service (test/recorded/), or that there are none.
 */
/** Services whose client talks to software anyone can run: checked against the real thing instead. */
const REAL_SERVERS: Record<string, string> = {
  rfc2136: "real BIND 9 and Knot servers started on loopback (test/services/self-hosted.test.ts)",
  powerdns: "a real PowerDNS Authoritative server started on loopback (test/services/self-hosted.test.ts)",
  custom: "no service of its own: it sends the request the provider's template describes",
};

function evidence(type: string): string {
  const real = REAL_SERVERS[type];
  if (real !== undefined) return cell(real);
  const path = join(DESCRIPTIONS_DIR, `${type}.json`);
  const source = existsSync(path)
    ? (JSON.parse(readFileSync(path, "utf8"))["x-vendored"]?.source as string | undefined)
    : undefined;
  const description =
    source === undefined ? "no vendored description" : `its vendored description, from ${source.split(" (")[0]}`;
  const files = recorded.filter((entry) => entry.file.startsWith(`${type}/`));
  const repositories = [...new Set(files.map((entry) => entry.repository))].sort();
  const answers =
    files.length === 0
      ? "no recorded answer of the real service is vendored for it (none of those lego and dns-lexicon keep fit its requests)"
      : `${files.length} ${files.length === 1 ? "answer" : "answers"} recorded from the real service by ${repositories.join(", ")} (\`test/recorded/${type}/\`), replayed through the appliance`;
  return cell(`${description}; ${answers}; the independent clients named in the sources below`);
}

const START = (type: string) =>
  `<!-- Generated from the description in src/dns/services/${type}.ts by \`bun run docs:services\`: change the description, not this part. -->`;
const END = "<!-- End of the generated part. -->";

const number = (value: number) => value.toLocaleString("en-US");

/** Markdown table cells: no line breaks, no pipes, and `<` kept from being read as HTML. */
function cell(text: string): string {
  return text
    .replace(/\s*\n\s*/g, " ")
    .replaceAll("|", "\\|")
    .replaceAll("<", "&lt;");
}

function window(limit: RateLimit): string {
  const units: Record<number, string> = { 1: "s", 60: "min", 3600: "h", 86400: "day" };
  return `${number(limit.requests)} / ${units[limit.perSeconds] ?? `${number(limit.perSeconds)} s`}`;
}

export function generatedPart(service: ServiceDescription): string {
  const ttl = service.ttl;
  const facts: [string, string][] = [
    ["type", `\`${service.type}\``],
    ["record types", service.recordTypes.join(", ")],
    [
      "TTL (`config.ttl`)",
      ttl === null
        ? "set by the service (`config.ttl` is refused)"
        : `${number(ttl.min)}–${number(ttl.max)}${ttl.automatic === undefined ? "" : `, or ${ttl.automatic} for automatic`}; empty keeps the record's TTL`,
    ],
    [
      "verify",
      service.canVerify
        ? "asks the service whether the credentials work"
        : 'answers `{"ok": null, …}` without a request',
    ],
    [
      "API base",
      service.defaultApiUrl === undefined
        ? "named in the provider's `options`"
        : `\`${apiUrlSetting(service.type)}\`, default \`${service.defaultApiUrl}\``,
    ],
    [
      "pace",
      service.rateLimits?.length
        ? service.rateLimits.map(window).join(", ")
        : "none beyond `DDNS_UPDATE_CONCURRENCY` requests at a time",
    ],
    ["checked against", evidence(service.type)],
  ];
  if (service.hostname) facts.push(["hostnames", cell(service.hostname.message)]);
  if (service.proxy) facts.push([`\`config.proxied\``, cell(`${service.proxy.label}: ${service.proxy.help}`)]);
  const fields = [
    ...service.credentials.map((field) => {
      const kind = [
        "credential",
        field.secret ? "secret (stored sealed, answered masked)" : "answered as stored",
        ...(field.optional ? ["optional"] : []),
        ...(field.aliases?.length
          ? [`also accepted as ${field.aliases.map((alias) => `\`${alias}\``).join(", ")}`]
          : []),
      ].join(", ");
      const where = field.url ? ` Made at [${field.url}](${field.url}).` : "";
      return `| \`${field.key}\` | ${kind} | ${cell(`${field.label}: ${field.help}`)}${cell(where)} |`;
    }),
    ...service.options.map((field) => {
      const kind = [
        "option",
        ...(field.required ? ["required"] : []),
        ...(field.default === undefined ? [] : [`default \`${field.default}\``]),
      ].join(", ");
      return `| \`${field.key}\` | ${kind} | ${cell(`${field.label}: ${field.help}`)} |`;
    }),
  ];
  return [
    START(service.type),
    "",
    `# ${service.label}`,
    "",
    cell(service.summary),
    "",
    "| | |",
    "|---|---|",
    ...facts.map(([name, value]) => `| ${name} | ${value} |`),
    "",
    "## Fields",
    "",
    "| key | kind | what |",
    "|---|---|---|",
    ...fields,
    "",
    END,
  ].join("\n");
}

const INDEX_START =
  "<!-- Generated from the descriptions in src/dns/services/ by `bun run docs:services`: the table follows the registry. -->";

/** The services index's table (docs/services/README.md): one row per registered type, in the registry's order. */
export function indexTable(services: readonly ServiceDescription[] = SERVICES): string {
  const ttl = (service: ServiceDescription) =>
    service.ttl === null
      ? "—"
      : `${number(service.ttl.min)}–${number(service.ttl.max)}${service.ttl.automatic === undefined ? "" : `, ${service.ttl.automatic} = automatic`}`;
  const fields = (service: ServiceDescription) =>
    [
      ...service.credentials.map((field) => field.label),
      ...service.options.filter((field) => field.required).map((field) => `\`${field.key}\``),
    ].join(", ");
  return [
    INDEX_START,
    "",
    "| type | service | record types | TTL in `config` | verify | credentials |",
    "|---|---|---|---|---|---|",
    ...services.map((service) =>
      [
        `[\`${service.type}\`](${service.type}.md)`,
        service.label,
        service.recordTypes.join(", "),
        ttl(service),
        service.canVerify ? "yes" : "no",
        fields(service),
      ]
        .map(cell)
        .join(" | ")
        .replace(/^/, "| ")
        .concat(" |"),
    ),
    "",
    END,
  ].join("\n");
}

/** The index's current generated table, or null when it has none. */
export function currentIndexTable(index: string): string | null {
  const start = index.indexOf(INDEX_START);
  const end = index.indexOf(END, start);
  return start < 0 || end < start ? null : index.slice(start, end + END.length);
}

export const INDEX_PATH = join(SERVICES_DIR, "README.md");

/** The page's current generated part, or null when it has none. */
export function currentPart(page: string, type: string): string | null {
  const start = page.indexOf(START(type));
  const end = page.indexOf(END);
  return start < 0 || end < start ? null : page.slice(start, end + END.length);
}

if (import.meta.main) {
  for (const service of SERVICES) {
    const path = join(SERVICES_DIR, `${service.type}.md`);
    const part = generatedPart(service);
    const page = existsSync(path) ? readFileSync(path, "utf8") : `${part}\n`;
    const current = currentPart(page, service.type);
    const next = current === null ? `${part}\n\n${page}` : page.replace(current, () => part);
    if (next !== page || !existsSync(path)) {
      writeFileSync(path, next);
      console.log(`docs/services/${service.type}.md: generated part written`);
    }
  }
  const index = readFileSync(INDEX_PATH, "utf8");
  const table = currentIndexTable(index);
  if (table === null) throw new Error("docs/services/README.md has no generated table to replace");
  if (table !== indexTable()) {
    writeFileSync(
      INDEX_PATH,
      index.replace(table, () => indexTable()),
    );
    console.log("docs/services/README.md: the table written");
  }
}
