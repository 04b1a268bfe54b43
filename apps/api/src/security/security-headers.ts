import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';

type Directives = Readonly<Record<string, readonly string[] | null>>;

/**
 * The console keeps a bearer token in sessionStorage: anything that runs in its page can take it. Its
 * built index.html loads one script and one stylesheet from /console/assets and has no inline code,
 * so nothing but same-origin files may run, style or be fetched, and no other site may frame it.
 * JSON answers get the same policy (it only matters if one were rendered as a page).
 */
const STRICT: Directives = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  // helmet's default would also upgrade same-origin requests to https, breaking http://localhost.
  upgradeInsecureRequests: null,
};

/** Swagger UI at /docs: its page has an inline <style> and style attributes; its scripts are files. */
const DOCS: Directives = { ...STRICT, styleSrc: ["'self'", "'unsafe-inline'"] };

const headersWith = (directives: Directives) =>
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });

/**
 * helmet on every answer (errors included): no X-Powered-By, nosniff, no referrer, the CSP above.
 * Every answer is `Cache-Control: no-store` unless its handler says otherwise: /v1 answers carry
 * personal data, and a route added later is covered without remembering to; only the console's
 * public files set their own caching (serveConsole).
 */
export function useSecurityHeaders(app: NestExpressApplication): void {
  const strict = headersWith(STRICT);
  const docs = headersWith(DOCS);
  app.use((request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => {
    response.setHeader('Cache-Control', 'no-store');
    const forDocs = request.url === '/docs' || request.url?.startsWith('/docs/') === true;
    (forDocs ? docs : strict)(request, response, next);
  });
}
