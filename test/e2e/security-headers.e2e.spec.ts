import request from 'supertest';
import { startTestApp, type TestApp } from '../support/test-app';

/** Directives of a Content-Security-Policy header, by name. */
function csp(header: string | undefined): Record<string, string> {
  return Object.fromEntries(
    (header ?? '').split(';').map((directive) => {
      const [name = '', ...values] = directive.trim().split(/\s+/);
      return [name, values.join(' ')];
    }),
  );
}

/** Every answer's security headers: helmet's, no-store on personal data, the console's strict CSP. */
describe('security headers', () => {
  let t: TestApp;
  let user: string;
  beforeAll(async () => {
    t = await startTestApp();
    user = await t.token({ userId: 'u1', workspaceId: 'w1', roles: ['user'] });
  });
  afterAll(() => t.close());

  const expectBaseline = (response: request.Response) => {
    expect(response.headers['x-powered-by']).toBeUndefined();
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(csp(response.headers['content-security-policy'])).toMatchObject({
      'frame-ancestors': "'none'",
      'script-src': "'self'",
    });
  };

  it('on an API answer carrying personal data: not stored by any cache', async () => {
    const response = await request(t.http).get('/v1/me/stats').auth(user, { type: 'bearer' });
    expect(response.status).toBe(200);
    expectBaseline(response);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('on error answers: a 401, a 404 of an unknown route, a 400, and the router’s own refusals', async () => {
    const answers = [
      await request(t.http).get('/v1/me/stats').expect(401),
      await request(t.http).get('/v1/nothing-here').auth(user, { type: 'bearer' }).expect(404),
      await request(t.http)
        .get('/v1/me/activity?cursor=nope')
        .auth(user, { type: 'bearer' })
        .expect(400),
      // Refused by Fastify's router before any route: a path that is not valid percent-encoding.
      await request(t.http).get('/v1/workspaces/w1/users/%E0%A4%A/context').expect(400),
    ];
    for (const response of answers) {
      expectBaseline(response);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-correlation-id']).toEqual(expect.any(String));
      expect(Object.keys(response.body as object).sort()).toEqual([
        'error',
        'message',
        'statusCode',
      ]);
    }
  });

  it('on the console: a strict CSP its built page fits (no inline script or style), cacheable assets', async () => {
    const page = await request(t.http).get('/console/').expect(200);
    expectBaseline(page);
    expect(csp(page.headers['content-security-policy'])).toEqual({
      'default-src': "'self'",
      'script-src': "'self'",
      'style-src': "'self'",
      'img-src': "'self' data:",
      'connect-src': "'self'",
      'object-src': "'none'",
      'base-uri': "'none'",
      'form-action': "'self'",
      'frame-ancestors': "'none'",
    });
    // What the CSP allows is all the page needs: every script and stylesheet is a file of its own.
    expect(page.text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>|<style|\sstyle=|\son[a-z]+=/i);
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(page.text)![1]!;
    const asset = await request(t.http).get(script).expect(200);
    expectBaseline(asset);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('keeps the Swagger UI at /docs working: its inline style allowed, scripts still files only', async () => {
    const page = await request(t.http).get('/docs').expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expectBaseline(page);
    expect(csp(page.headers['content-security-policy'])['style-src']).toBe(
      "'self' 'unsafe-inline'",
    );
    expect(page.text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/i);
    await request(t.http).get('/docs/swagger-ui-init.js').expect(200);
    const document = await request(t.http).get('/docs/openapi.json').expect(200);
    expect(document.body.openapi).toMatch(/^3\./);
  });
});
