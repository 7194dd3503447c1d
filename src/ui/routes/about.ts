// About: what is running, where its data lives, and the settings in effect.

import { Elysia } from "elysia";
import { VERSION, type AppContext } from "../../context";
import { databaseSizeBytes } from "../../modules/system/service";
import { AboutPage } from "../../../views/pages/about";
import { signedIn } from "../pages";
import { addressSourceText, settingsInEffect } from "../settings";

/** The newest log lines the page shows, newest first. */
const LOG_LINES_SHOWN = 30;

export function aboutRoutes(ctx: AppContext) {
  return new Elysia().use(signedIn(ctx)).get("/about", ({ user }) =>
    AboutPage({
      user,
      version: VERSION,
      uptimeSeconds: Math.floor((Date.now() - ctx.startedAt) / 1000),
      dataDir: ctx.settings.dataDir,
      databasePath: ctx.databasePath,
      databaseBytes: databaseSizeBytes(ctx),
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      addressSources: { ipv4: addressSourceText(ctx.settings.ipv4Source), ipv6: addressSourceText(ctx.settings.ipv6Source) },
      settings: settingsInEffect(ctx),
      logLines: ctx.log.recent().slice(-LOG_LINES_SHOWN).reverse(),
    }),
  );
}
