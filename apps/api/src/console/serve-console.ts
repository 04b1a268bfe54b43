import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

export const CONSOLE_PATH = '/console';
/** Seed 000's address of the activity page: the same app, which shows the feed there. */
export const ACTIVITY_PAGE_PATH = '/personal/activity';

/**
 * Where `vite build` writes the console: `dist/console` beside the package.json, found by walking up
 * from this file (it runs from `apps/…` under ts-jest and from `dist/apps/…` once built).
 */
export function consoleDirectory(from = __dirname): string {
  let directory = from;
  while (!existsSync(join(directory, 'package.json'))) {
    const parent = dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  return join(directory, 'dist', 'console');
}

/**
 * The web console's built files under /console, public like any static asset (the console calls the
 * public API with the user's token); any other /console/* path gets index.html, the single-page app,
 * and so does /personal/activity (only that path). Its assets are named from the root
 * (/console/assets/…), so the page works at either address; the security headers are set before
 * (securityHeaders, in the request edge) for every answer alike. The files are those built when the API starts.
 */
export function serveConsole(app: NestFastifyApplication, directory = consoleDirectory()): void {
  const index = join(directory, 'index.html');
  const built = existsSync(index);
  const fastify = app.getHttpAdapter().getInstance();
  if (built) {
    void fastify.register(fastifyStatic, {
      root: directory,
      prefix: `${CONSOLE_PATH}/`,
      index: false,
      // A route per built file; every other path below /console is the page's (below).
      wildcard: false,
      // Cache-Control is no-store (securityHeaders, in the request edge) but for the assets:
      cacheControl: false,
      // Vite names the built assets after their content: a new build means new names.
      setHeaders: (reply: FastifyReply, path: string) => {
        if (path.includes(`${sep}assets${sep}`)) {
          reply.header('Cache-Control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  const page = (request: FastifyRequest, reply: FastifyReply): unknown => {
    // A missing asset is a 404, not the page (an old tab asking for a replaced bundle).
    if (request.url.startsWith(`${CONSOLE_PATH}/assets/`)) return reply.callNotFound();
    if (!built) {
      return reply
        .status(404)
        .type('text/plain')
        .send('The console is not built: run `npm run build` (or `npm start`).');
    }
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html', directory);
  };
  for (const path of [CONSOLE_PATH, `${CONSOLE_PATH}/*`, ACTIVITY_PAGE_PATH]) {
    fastify.get(path, page);
  }
}
