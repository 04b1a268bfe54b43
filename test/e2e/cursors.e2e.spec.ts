import request from 'supertest';
import { capturedLogs } from '../support/captured-logs';
import { startTestApp, type TestApp } from '../support/test-app';

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Page cursors come back from clients: whatever they hold is a 400 or a page, never a 500 or a log. */
describe('page cursors through HTTP', () => {
  let t: TestApp;
  let admin: string;
  const { logger, written } = capturedLogs();

  beforeAll(async () => {
    t = await startTestApp({}, { logger });
    admin = await t.token({ userId: 'root', workspaceId: 'wc', roles: ['user', 'admin'] });
  });
  afterAll(() => t.close());

  it('refuses a review cursor of the year 0000 with a 400, without logging it', async () => {
    const from = written.length;
    const year0 = cursorOf(['0000-01-01T00:00:00.000Z', '1d4c7a8e-5b0e-4f8a-9a53-6b1f8c2e7d40']);
    const response = await request(t.http)
      .get(`/v1/workspaces/wc/memories?cursor=${year0}`)
      .auth(admin, { type: 'bearer' })
      .expect(400);
    expect(response.body.message).toBe('cursor is not a cursor this API gave');
    const earliest = cursorOf(['0001-01-01T00:00:00.000Z', '1d4c7a8e-5b0e-4f8a-9a53-6b1f8c2e7d40']);
    await request(t.http)
      .get(`/v1/workspaces/wc/memories?cursor=${earliest}`)
      .auth(admin, { type: 'bearer' })
      .expect(200);
    expect(written.slice(from).join('')).not.toMatch(/0000-01-01|"level":"error"/);
  });

  it('answers the activity feed for the smallest cursor and a 400 past the largest', async () => {
    const from = written.length;
    const feed = (cursor: string) =>
      request(t.http).get(`/v1/me/activity?cursor=${cursor}`).auth(admin, { type: 'bearer' });
    await feed('0000000000000000000').expect(200, { items: [], nextCursor: null });
    await feed('9223372036854775807').expect(200);
    await feed('9223372036854775808').expect(400);
    expect(written.slice(from).join('')).not.toMatch(/"level":"error"/);
  });
});
