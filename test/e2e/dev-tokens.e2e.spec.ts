import request from 'supertest';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * POST /v1/dev/tokens signs an admin token for whoever asks: it exists only in the embedded default
 * (its generated secret, a loopback HOST), never beside a configured secret.
 */
describe('the development token shortcut', () => {
  let embedded: TestApp;
  let configured: TestApp;
  beforeAll(async () => {
    embedded = await startTestApp({}, { embedded: true });
    configured = await startTestApp();
  });
  afterAll(async () => {
    await embedded?.close();
    await configured?.close();
  });

  it('signs a demo token in the embedded default, one the API takes', async () => {
    const { body } = await request(embedded.http)
      .post('/v1/dev/tokens')
      .send({ userId: 'admin' })
      .expect(200);
    expect(body).toMatchObject({ workspaceId: 'demo', userId: 'admin', roles: ['user', 'admin'] });
    await request(embedded.http)
      .get('/v1/workspaces/demo/memory-policy')
      .auth(body.token as string, { type: 'bearer' })
      .expect(200);
  });

  it('does not exist with a configured secret (DATABASE_URL, ENGRAM_JWT_SECRET): 404', async () => {
    await request(configured.http).post('/v1/dev/tokens').send({ userId: 'admin' }).expect(404);
    await request(configured.http).get('/v1/dev/tokens').expect(404);
  });
});
