// About: what is running, where its data lives, the settings in effect, and the choice of where each
// family's public address comes from (stored, winning over the environment's setting).

import type { Database } from "bun:sqlite";
import { basename, join } from "node:path";
import { Elysia } from "elysia";
import type { Flash, FormErrors } from "../../../views/components";
import { AboutPage, type AddressSourceValues } from "../../../views/pages/about";
import { backupName, backupsDir, writeBackup } from "../../db/backup";
import { conflict, Invalid } from "../../errors";
import { sourceText } from "../../ip/source";
import type { Logger } from "../../log";
import { type ExportDeps, exportConfig } from "../../modules/config-file/service";
import {
  type AddressSourceDeps,
  FAMILIES,
  familyKey,
  hostInterfaces,
  type SourceChoice,
  setAddressSources,
} from "../../modules/system/address-sources";
import { databaseSizeBytes, type SystemSources } from "../../modules/system/service";
import type { IpFamily } from "../../net/address";
import { effectiveSource, environmentSource } from "../../updater/address-source";
import { VERSION } from "../../util/package";
import { field, type Submitted } from "../forms";
import { type PageDeps, signedIn } from "../pages";
import { seeOther, setFlash, takeFlash } from "../session";
import { type ShownSettings, settingsInEffect } from "../settings";

/** The newest log lines the page shows, newest first. */
const LOG_LINES_SHOWN = 30;

/** What the About page shows and changes: the settings and the data dir, uptime, the database, the log's tail, the address sources. */
export type AboutDeps = PageDeps &
  AddressSourceDeps &
  Pick<SystemSources, "store" | "startedAt"> &
  ExportDeps & {
    /** The open database, which the page's backup copies (as `ddnsd backup` has the server do). */
    sqlite: Database;
    settings: ShownSettings;
    /** The database file, or null for an in-memory database. */
    databasePath: string | null;
    log: Logger;
  };

type FamilyValues = { ipv4: AddressSourceValues; ipv6: AddressSourceValues };

/** What the form shows for a family now: the stored choice, or "environment" with the environment's URLs to start from. */
function storedValues(ctx: AddressSourceDeps, family: IpFamily): AddressSourceValues {
  const { source, urls, from } = effectiveSource(ctx, family);
  return { source: from === "environment" ? "environment" : sourceText(source), urls: urls.join("\n") };
}

function submittedValues(form: Submitted, family: IpFamily): AddressSourceValues {
  const key = familyKey(family);
  return { source: field(form, `${key}_source`) || "environment", urls: field(form, `${key}_urls`) };
}

function choiceOf(values: AddressSourceValues): SourceChoice {
  return values.source === "environment" ? null : { source: values.source, urls: values.urls };
}

export function aboutRoutes(ctx: AboutDeps) {
  function aboutPage(user: string, state: { flash?: Flash | null; values?: FamilyValues; errors?: FormErrors }) {
    const inEffect = (family: IpFamily) => {
      const { source, from } = effectiveSource(ctx, family);
      return { source: sourceText(source), from };
    };
    return AboutPage({
      user,
      flash: state.flash,
      version: VERSION,
      uptimeSeconds: Math.floor((Date.now() - ctx.startedAt) / 1000),
      dataDir: ctx.settings.dataDir,
      databasePath: ctx.databasePath,
      databaseBytes: databaseSizeBytes(ctx),
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      addressSources: { ipv4: inEffect(4), ipv6: inEffect(6) },
      sourceForm: {
        values: state.values ?? { ipv4: storedValues(ctx, 4), ipv6: storedValues(ctx, 6) },
        environment: {
          ipv4: sourceText(environmentSource(ctx, 4).source),
          ipv6: sourceText(environmentSource(ctx, 6).source),
        },
        interfaces: hostInterfaces(ctx),
        errors: state.errors ?? { fields: {} },
      },
      settings: settingsInEffect(ctx.settings),
      now: Date.now(),
      logLines: ctx.log.recent().slice(-LOG_LINES_SHOWN).reverse(),
    });
  }

  return (
    new Elysia()
      .use(signedIn(ctx))
      .get("/about", ({ user, cookie }) => aboutPage(user, { flash: takeFlash(ctx, cookie) }))
      // The configuration as a file, as `GET /api/v1/config/export` gives it (secrets sealed): the
      // pages are signed in as the admin, who may export.
      .get(
        "/about/export",
        () =>
          new Response(exportConfig(ctx), {
            headers: {
              "content-type": "application/yaml; charset=utf-8",
              "content-disposition": 'attachment; filename="ddnsd.yaml"',
            },
          }),
      )
      // A consistent copy of the database, written into the data dir's backups/ as `ddnsd backup`
      // writes it, and downloaded. A POST: it writes a file.
      .post("/about/backup", () => {
        if (ctx.databasePath === null) throw conflict("The database is in memory: there is no file to back up");
        const file = join(backupsDir(ctx.settings.dataDir), backupName("page-backup"));
        writeBackup(ctx.sqlite, ctx.settings.dataDir, file);
        ctx.log.info("database backed up", { backup: file, via: "pages" });
        return new Response(Bun.file(file), {
          headers: {
            "content-type": "application/vnd.sqlite3",
            "content-disposition": `attachment; filename="${basename(file)}"`,
            "cache-control": "no-store",
          },
        });
      })
      .post("/about/address-sources", ({ user, body, cookie }) => {
        const values = { ipv4: submittedValues(body, 4), ipv6: submittedValues(body, 6) };
        try {
          setAddressSources(
            ctx,
            Object.fromEntries(FAMILIES.map((family) => [family, choiceOf(values[familyKey(family)])])),
          );
        } catch (error) {
          if (!(error instanceof Invalid)) throw error;
          // `ipv4.urls` → the `ipv4_urls` field; the page comes back as the other forms' do, what was typed kept.
          return aboutPage(user, { values, errors: { fields: { [error.field.replace(".", "_")]: error.reason } } });
        }
        setFlash(ctx, cookie, "Address sources saved; the addresses are being detected again.");
        return seeOther("/about");
      })
  );
}
