import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';

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
 * (useSecurityHeaders) for every answer alike.
 */
export function serveConsole(app: NestExpressApplication, directory = consoleDirectory()): void {
  const index = join(directory, 'index.html');
  const sendIndex = (response: ConsoleResponse): void => {
    if (!existsSync(index)) {
      response
        .status(404)
        .type('text/plain')
        .send('The console is not built: run `npm run build` (or `npm start`).');
      return;
    }
    response.setHeader('Cache-Control', 'no-cache');
    response.sendFile(index);
  };
  app.useStaticAssets(directory, {
    prefix: CONSOLE_PATH,
    index: false,
    fallthrough: true,
    // Vite names the built assets after their content: a new build means new names.
    setHeaders: (response: { setHeader(name: string, value: string): void }, path: string) => {
      if (path.includes(`${sep}assets${sep}`)) {
        response.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      }
    },
  });
  app.use(
    CONSOLE_PATH,
    (request: { method: string; path: string }, response: ConsoleResponse, next: () => void) => {
      // A missing asset is a 404, not the page (an old tab asking for a replaced bundle).
      if (request.method !== 'GET' && request.method !== 'HEAD') return next();
      if (request.path.startsWith('/assets/')) return next();
      sendIndex(response);
    },
  );
  app.use(
    ACTIVITY_PAGE_PATH,
    (request: { method: string; path: string }, response: ConsoleResponse, next: () => void) => {
      // The mount strips the prefix: '/' is the page itself; anything below it is not a page.
      if (request.method !== 'GET' && request.method !== 'HEAD') return next();
      if (request.path !== '/') return next();
      sendIndex(response);
    },
  );
}

type ConsoleResponse = {
  status(code: number): ConsoleResponse;
  type(type: string): ConsoleResponse;
  send(body: string): void;
  setHeader(name: string, value: string): void;
  sendFile(path: string): void;
};
