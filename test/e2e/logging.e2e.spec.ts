import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { capturedLogs } from '../support/captured-logs';
import { eventually, startTestApp, type TestApp } from '../support/test-app';

type LogLine = Record<string, unknown> & { level: string; msg: string };

/** The API's JSON logs: one line per request, correlated, and never any personal text at info level. */
describe('structured logs', () => {
  let t: TestApp;
  let agent: string;
  const { logger, written } = capturedLogs();
  const lines = () => written.map((line) => JSON.parse(line) as LogLine);
  const marker = `log-marker-${randomUUID()}`;
  const queryMarker = `querymarker${randomUUID().slice(0, 8)}`;
  const base = '/v1/workspaces/wl/users/log-user-3';

  beforeAll(async () => {
    t = await startTestApp({}, { logger });
    agent = await t.token({ userId: 'chat-web', workspaceId: 'wl', roles: ['agent'] });
  });
  afterAll(() => t.close());

  const completed = (correlationId: string) =>
    eventually(
      async () =>
        lines().find(
          (line) => line.correlationId === correlationId && line.msg === 'request completed',
        ),
      (line) => line !== undefined,
    );

  it('logs each request as one JSON line with its correlation id, route template and trace id', async () => {
    const response = await request(t.http)
      .post(`${base}/messages`)
      .auth(agent, { type: 'bearer' })
      .set('X-Correlation-Id', 'corr-log-test-1')
      .send({
        messageId: randomUUID(),
        sessionId: 's1',
        role: 'user',
        channel: 'web',
        text: marker,
      })
      .expect(202);
    expect(response.headers['x-correlation-id']).toBe('corr-log-test-1');
    expect(response.headers['x-trace-id']).toBe(response.body.traceId);

    const line = await completed('corr-log-test-1');
    expect(line).toMatchObject({
      level: 'info',
      service: 'engram-api',
      route: '/v1/workspaces/:ws/users/:userId/messages',
      req: { method: 'POST' },
      res: { statusCode: 202 },
      traceId: response.body.traceId,
    });
  });

  it('takes X-Request-Id when there is no X-Correlation-Id, and replaces an invalid one', async () => {
    const fromRequestId = await request(t.http).get('/health').set('X-Request-Id', 'lb-req-9');
    expect(fromRequestId.headers['x-correlation-id']).toBe('lb-req-9');
    const replaced = await request(t.http).get('/health').set('X-Correlation-Id', 'not valid!');
    expect(replaced.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
    await completed(replaced.headers['x-correlation-id'] as string);
  });

  it('never writes the text, the token, the query string or the ids in the URL', async () => {
    const response = await request(t.http)
      .get(`${base}/context?sessionId=${queryMarker}`)
      .auth(agent, { type: 'bearer' })
      .expect(200);
    await completed(response.headers['x-correlation-id'] as string);
    const refused = await request(t.http)
      .get(`/v1/me/memories?cursor=${queryMarker}`)
      .auth(agent, { type: 'bearer' });
    await completed(refused.headers['x-correlation-id'] as string);

    const all = written.join('\n');
    for (const secret of [marker, agent, queryMarker, 'log-user-3', 'Bearer', 'authorization']) {
      expect(all).not.toContain(secret);
    }
    expect(lines().every((line) => typeof line.level === 'string')).toBe(true);
  });

  it('routes the application’s own Logger calls through the same JSON logger', () => {
    expect(lines()).toContainEqual(
      expect.objectContaining({ context: 'NestApplication', service: 'engram-api' }),
    );
  });
});
