import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { PROJECTIONS } from '@engram/projections';
import { eventually, startTestApp, type TestApp } from '../support/test-app';

/** One sample of the Prometheus text: `name{labels} value`, by name and exact label set. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const prefix = `${name}${labels ? `{${labels}}` : ''} `;
  const line = text.split('\n').find((candidate) => candidate.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(prefix.length));
}

function sum(text: string, name: string): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((total, line) => total + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/** GET /metrics: Prometheus text, public, with route templates and counts only (no ids, no user text). */
describe('metrics', () => {
  let t: TestApp;
  let agent: string;
  const marker = `metrics-marker-${randomUUID()}`;
  const base = '/v1/workspaces/wm/users/metrics-user-7';

  beforeAll(async () => {
    t = await startTestApp();
    agent = await t.token({ userId: 'chat-web', workspaceId: 'wm', roles: ['agent'] });
  });
  afterAll(() => t.close());

  const scrape = async () => {
    const response = await request(t.http).get('/metrics').expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain;.*version=0\.0\.4/);
    return response.text;
  };

  it('counts the requests, appends, projections, schedulers and LLM calls of the traffic', async () => {
    for (const text of [`Je préfère le thé vert. ${marker}`, `Je suis CTO chez Acme. ${marker}`]) {
      await request(t.http)
        .post(`${base}/messages`)
        .auth(agent, { type: 'bearer' })
        .send({ messageId: randomUUID(), sessionId: 's1', role: 'user', channel: 'web', text })
        .expect(202);
    }
    await request(t.http)
      .get(`${base}/context?sessionId=s1`)
      .auth(agent, { type: 'bearer' })
      .expect(200);
    await request(t.http).get('/v1/no-such-route/secret-path-id').expect(404);

    const text = await eventually(scrape, (body) => {
      const calls = sample(body, 'engram_llm_calls_total', 'purpose="extraction"') ?? 0;
      return calls >= 2;
    });

    expect(
      sample(
        text,
        'engram_http_request_duration_seconds_count',
        'method="POST",route="/v1/workspaces/:ws/users/:userId/messages",status_code="202"',
      ),
    ).toBe(2);
    expect(
      sample(
        text,
        'engram_http_request_duration_seconds_bucket',
        'le="5",method="GET",route="/v1/workspaces/:ws/users/:userId/context",status_code="200"',
      ),
    ).toBe(1);
    for (const secret of [marker, 'metrics-user-7', 'secret-path-id', 'sessionId']) {
      expect(text).not.toContain(secret);
    }

    expect(sample(text, 'engram_event_appends_total')).toBeGreaterThanOrEqual(2);
    expect(
      sample(text, 'engram_events_appended_total', 'type="MessageRecorded"'),
    ).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'engram_append_errors_total', 'kind="conflict"')).toBe(0);

    const head = sample(text, 'engram_store_head_position');
    expect(head).toBeGreaterThanOrEqual(2);
    for (const { name } of PROJECTIONS) {
      const labels = `projection="${name}"`;
      expect(sample(text, 'engram_projection_position', labels)).toBeDefined();
      expect(sample(text, 'engram_projection_lag_events', labels)).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'engram_projection_lag_seconds', labels)).toBeGreaterThanOrEqual(0);
    }
    expect(text).toMatch(/^engram_projection_lag_events\{projection="reactor:[a-z_]+"\} /m);

    for (const job of ['memory_expiry', 'action_expiry', 'identity_cards']) {
      expect(sample(text, 'engram_scheduler_backlog', `job="${job}"`)).toBeGreaterThanOrEqual(0);
    }

    for (const purpose of ['extraction', 'summary', 'identity_card']) {
      expect(sample(text, 'engram_llm_calls_total', `purpose="${purpose}"`)).toBeDefined();
      expect(
        sample(text, 'engram_llm_tokens_total', `purpose="${purpose}",kind="prompt"`),
      ).toBeDefined();
    }
    expect(sum(text, 'engram_llm_errors_total')).toBe(0);
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('shows the projections catching up: lag falls to zero once the worker is idle', async () => {
    const text = await eventually(scrape, (body) =>
      PROJECTIONS.every(
        ({ name }) => sample(body, 'engram_projection_lag_events', `projection="${name}"`) === 0,
      ),
    );
    const head = sample(text, 'engram_store_head_position');
    for (const { name } of PROJECTIONS) {
      expect(sample(text, 'engram_projection_position', `projection="${name}"`)).toBe(head);
      expect(sample(text, 'engram_projection_lag_seconds', `projection="${name}"`)).toBe(0);
    }
  });

  it('is listed in the OpenAPI document', async () => {
    const response = await request(t.http).get('/docs/openapi.json').expect(200);
    expect(Object.keys(response.body.paths)).toContain('/metrics');
  });
});
