import type { IncomingMessage, ServerResponse } from 'node:http';
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

type HeaderChanges = Readonly<{ set: readonly (readonly [string, string])[]; removed: string[] }>;

/**
 * What a helmet middleware does to a response, recorded once. With static directives its headers
 * do not depend on the request, and replaying them costs a few setHeader calls where helmet ran a
 * dozen middlewares (and built its CSP string) on every request.
 */
function recordHeaders(middleware: ReturnType<typeof helmet>): HeaderChanges {
  const set: [string, string][] = [];
  const removed: string[] = [];
  let done = false;
  const recorder = {
    setHeader: (name: string, value: unknown) => set.push([name, String(value)]),
    removeHeader: (name: string) => removed.push(name),
  };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error !== undefined) throw new Error('helmet failed to set its headers', { cause: error });
    done = true;
  });
  // A helmet whose answer depended on the request (a CSP nonce function) could not be recorded.
  if (!done) throw new Error('helmet did not answer synchronously: its headers cannot be recorded');
  return { set, removed };
}

function replay(changes: HeaderChanges, response: ServerResponse): void {
  for (const [name, value] of changes.set) response.setHeader(name, value);
  for (const name of changes.removed) response.removeHeader(name);
}

/**
 * helmet on every answer (errors included): no X-Powered-By, nosniff, no referrer, the CSP above.
 * Every answer is `Cache-Control: no-store` unless its handler says otherwise: /v1 answers carry
 * personal data, and a route added later is covered without remembering to; only the console's
 * public files set their own caching (serveConsole). Returns what sets them on a request's Node
 * response (the API's first hook, `requestEdge`): a handler's own headers (reply.header, @Header)
 * replace them when it answers.
 */
export function securityHeaders(): (url: string, response: ServerResponse) => void {
  const strict = recordHeaders(headersWith(STRICT));
  const docs = recordHeaders(headersWith(DOCS));
  return (url, response) => {
    response.setHeader('Cache-Control', 'no-store');
    const forDocs = url === '/docs' || url.startsWith('/docs/');
    replay(forDocs ? docs : strict, response);
  };
}
