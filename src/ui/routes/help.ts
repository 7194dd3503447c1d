// The documentation at /help, /help/<page> and /help/<folder>/<page> (../help.ts: a DNS service's
// page, a design note): open to anyone who can reach ddnsd, signed in or not (it is the project's
// public documentation), with the navigation when a session exists. A file that is not Markdown
// (/help/compose.yaml) is served as plain text, for the browser to show and for curl to save.
// Elysia names a path segment's parameter once for all routes, so a folder's page is
// `/help/:page/:inFolder`, the folder being `page`.

import { Elysia, NotFoundError } from "elysia";
import { msg } from "../../../views/i18n";
import { HelpPage, helpIndexHtml } from "../../../views/pages/help";
import { helpFile, helpIndex, helpPage } from "../help";
import { currentUser } from "../pages";
import type { SessionCheck } from "../session";

export function helpPageRoutes(ctx: SessionCheck) {
  const show = async (route: string, request: Request, cookie: Parameters<typeof currentUser>[2]) => {
    const page = helpPage(route);
    if (page === null) throw new NotFoundError();
    return HelpPage({
      user: await currentUser(ctx, request, cookie),
      title: page.title,
      html: page.html,
      index: false,
    });
  };
  return new Elysia()
    .get("/help", async ({ request, cookie }) =>
      HelpPage({
        user: await currentUser(ctx, request, cookie),
        title: msg().help.title,
        html: helpIndexHtml(helpIndex()),
        index: true,
      }),
    )
    .get("/help/:page", ({ params, request, cookie }) => {
      const text = helpFile(`/help/${params.page}`);
      if (text === null) return show(`/help/${params.page}`, request, cookie);
      return new Response(text, { headers: { "content-type": "text/plain; charset=utf-8" } });
    })
    .get("/help/:page/:inFolder", ({ params, request, cookie }) =>
      show(`/help/${params.page}/${params.inFolder}`, request, cookie),
    );
}
