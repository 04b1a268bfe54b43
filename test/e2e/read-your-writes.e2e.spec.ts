import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { eventually, startTestApp, type TestApp } from '../support/test-app';

const WS = 'w-ryw';

type Read = Readonly<{
  /** The operation as the OpenAPI document names it. */
  operation: string;
  /** The read, with `?minPosition=` appended to its path. */
  send: (minPosition: number) => request.Test;
  /** The position of the write it must show, and what shows it. */
  write: () => number;
  shows: (body: unknown) => boolean;
}>;

/**
 * `minPosition` (read your own writes) on every read of a read model: the API runs without a worker,
 * so the writes it accepts are not projected and every read that names one answers 503 with
 * Retry-After after its 2 s wait; then a worker starts, and the same reads show the writes.
 */
describe('read your own writes on every read of a read model', () => {
  let api: TestApp;
  let worker: TestApp | undefined;
  let agent: string;
  let admin: string;
  let alice: string;
  const positions = new Map<string, number>();
  const at = (write: string) => () => positions.get(write)!;
  let memoryIds: string[] = [];

  beforeAll(async () => {
    api = await startTestApp({ ENGRAM_RUN_WORKER: 'false' });
    worker = await startTestApp(
      { ENGRAM_IDENTITY_CARD_DEBOUNCE_SECONDS: '0' },
      { database: api.database },
    );
    agent = await api.token({ userId: 'chat-web', workspaceId: WS, roles: ['agent'] });
    admin = await api.token({ userId: 'root', workspaceId: WS, roles: ['admin'] });
    alice = await api.token({ userId: 'alice', workspaceId: WS, roles: ['user'] });

    // Before: three candidates for the admins, one approved so that alice has an identity card.
    await as(admin).put(`/v1/workspaces/${WS}/memory-policy`).send({ reviewMode: 'admin' });
    for (const text of [
      'Je préfère les réponses courtes.',
      "J'habite à Lyon.",
      'Je suis directrice financière chez Acme.',
    ]) {
      await say(text);
    }
    const queue = await eventually(
      () => as(admin).get(`/v1/workspaces/${WS}/memories`),
      (r) => (r.body as { items: unknown[] }).items?.length === 3,
    );
    memoryIds = (queue.body as { items: { memoryId: string }[] }).items.map((m) => m.memoryId);
    // The decision finds the owner in memory_owners, which may be a moment behind the queue.
    await eventually(
      () => as(admin).post(`/v1/workspaces/${WS}/memories/${memoryIds[2]}/approve`),
      (r) => r.status === 200,
    );
    await eventually(
      () => as(alice).get('/v1/me/identity-card'),
      (r) => (r.body as { markdown: string }).markdown !== '',
    );
    // A clean stop: the worker gives its leases back, the next one takes them at once.
    await worker.app.close();
    worker = undefined;
  }, 60_000);

  afterAll(async () => {
    await worker?.app.close();
    await api.close();
  });

  const as = (token: string) => {
    const agentOf = request(api.http);
    return {
      get: (path: string) => agentOf.get(path).auth(token, { type: 'bearer' }),
      put: (path: string) => agentOf.put(path).auth(token, { type: 'bearer' }),
      post: (path: string) => agentOf.post(path).auth(token, { type: 'bearer' }),
      delete: (path: string) => agentOf.delete(path).auth(token, { type: 'bearer' }),
    };
  };
  const say = (text: string) =>
    as(agent)
      .post(`/v1/workspaces/${WS}/users/alice/messages`)
      .send({ messageId: randomUUID(), sessionId: 's1', role: 'user', channel: 'web', text })
      .expect(202);
  const positionOf = (response: request.Response) =>
    (response.body as { position: number }).position;

  const reads: readonly Read[] = [
    {
      operation: 'GET /v1/me/activity',
      send: (p) => as(alice).get(`/v1/me/activity?minPosition=${p}`),
      write: at('proposal'),
      shows: (body) =>
        (body as { items: { events: { type: string }[] }[] }).items.some((group) =>
          group.events.some((event) => event.type === 'ActionProposed'),
        ),
    },
    {
      operation: 'GET /v1/me/memories',
      send: (p) => as(alice).get(`/v1/me/memories?minPosition=${p}`),
      write: at('delete'),
      shows: (body) =>
        !(body as { items: { memoryId: string }[] }).items.some((m) => m.memoryId === memoryIds[0]),
    },
    {
      operation: 'GET /v1/me/identity-card',
      send: (p) => as(alice).get(`/v1/me/identity-card?minPosition=${p}`),
      write: at('wipe'),
      shows: (body) => (body as { markdown: string }).markdown === '',
    },
    {
      operation: 'GET /v1/me/memory-settings',
      send: (p) => as(alice).get(`/v1/me/memory-settings?minPosition=${p}`),
      write: at('settings'),
      shows: (body) => (body as { enabled: boolean }).enabled === false,
    },
    {
      operation: 'GET /v1/me/sessions/{sessionId}',
      send: (p) => as(alice).get(`/v1/me/sessions/s1?minPosition=${p}`),
      write: at('message'),
      shows: (body) =>
        (body as { liveWindow: { text: string }[] }).liveWindow.at(-1)?.text === 'Nouveau message',
    },
    {
      operation: 'GET /v1/me/stats',
      send: (p) => as(alice).get(`/v1/me/stats?minPosition=${p}`),
      write: at('message'),
      shows: (body) => (body as { messageCount: number }).messageCount === 4,
    },
    {
      operation: 'POST /v1/workspaces/{ws}/users/{userId}/tools/recall_actions',
      send: (p) =>
        as(agent)
          .post(`/v1/workspaces/${WS}/users/alice/tools/recall_actions?minPosition=${p}`)
          .send({ query: 'delphine' }),
      write: at('proposal'),
      shows: (body) => (body as { actions: unknown[] }).actions.length === 1,
    },
    {
      operation: 'GET /v1/workspaces/{ws}/users/{userId}/context',
      send: (p) =>
        as(agent).get(`/v1/workspaces/${WS}/users/alice/context?sessionId=s1&minPosition=${p}`),
      write: at('proposal'),
      shows: (body) =>
        (body as { recentActions: { tool: string }[] }).recentActions[0]?.tool === 'gmail_send',
    },
    {
      operation: 'GET /v1/workspaces/{ws}/memories',
      send: (p) => as(admin).get(`/v1/workspaces/${WS}/memories?minPosition=${p}`),
      write: at('reject'),
      shows: (body) =>
        !(body as { items: { memoryId: string }[] }).items.some((m) => m.memoryId === memoryIds[1]),
    },
    {
      operation: 'GET /v1/workspaces/{ws}/agents',
      send: (p) => as(admin).get(`/v1/workspaces/${WS}/agents?minPosition=${p}`),
      write: at('agent'),
      shows: (body) =>
        (body as { items: { agentId: string; enabled: boolean }[] }).items.some(
          (a) => a.agentId === 'mail-bot' && !a.enabled,
        ),
    },
    {
      operation: 'GET /v1/workspaces/{ws}/memory-policy',
      send: (p) => as(admin).get(`/v1/workspaces/${WS}/memory-policy?minPosition=${p}`),
      write: at('policy'),
      shows: (body) => (body as { pendingTtlDays: number }).pendingTtlDays === 9,
    },
  ];

  it('documents minPosition on each of these reads', async () => {
    const document = await request(api.http).get('/docs/openapi.json').expect(200);
    const paths = (
      document.body as {
        paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
      }
    ).paths;
    for (const { operation } of reads) {
      const [method, path] = operation.split(' ') as [string, string];
      const parameters = paths[path]?.[method.toLowerCase()]?.parameters ?? [];
      expect({ operation, minPosition: parameters.some((p) => p.name === 'minPosition') }).toEqual({
        operation,
        minPosition: true,
      });
    }
  });

  it('with no worker, each read waits about 2 s for a write, then answers 503 with Retry-After', async () => {
    positions.set('message', positionOf(await say('Nouveau message')));
    const proposal = await as(agent)
      .post(`/v1/workspaces/${WS}/users/alice/actions`)
      .send({
        tool: 'gmail_send',
        target: 'delphine@acme.fr',
        summary: 'Relance facture Q2',
        channel: 'web',
      })
      .expect(201);
    positions.set('proposal', positionOf(proposal));
    const settings = await as(alice)
      .put('/v1/me/memory-settings')
      .send({ enabled: false })
      .expect(200);
    positions.set('settings', positionOf(settings));
    const deleted = await as(alice).delete(`/v1/me/memories/${memoryIds[0]}`).expect(200);
    positions.set('delete', positionOf(deleted));
    const rejected = await as(admin)
      .post(`/v1/workspaces/${WS}/memories/${memoryIds[1]}/reject`)
      .send({})
      .expect(200);
    positions.set('reject', positionOf(rejected));
    const policy = await as(admin)
      .put(`/v1/workspaces/${WS}/memory-policy`)
      .send({ pendingTtlDays: 9 })
      .expect(200);
    positions.set('policy', positionOf(policy));
    const agentOff = await as(admin)
      .put(`/v1/workspaces/${WS}/agents/mail-bot/memory`)
      .send({ enabled: false })
      .expect(200);
    positions.set('agent', positionOf(agentOff));
    const wiped = await as(alice).post('/v1/me/memories/wipe').expect(200);
    positions.set('wipe', positionOf(wiped));

    // Without a wait (position 0 is always reached) the reads answer at once, without the writes.
    for (const read of reads) {
      const stale = await read.send(0).expect(200);
      expect({ operation: read.operation, shows: read.shows(stale.body) }).toEqual({
        operation: read.operation,
        shows: false,
      });
    }

    const started = Date.now();
    const answers = await Promise.all(
      reads.map(async (read) => {
        const response = await read.send(read.write());
        return { operation: read.operation, response, ms: Date.now() - started };
      }),
    );
    for (const { operation, response, ms } of answers) {
      expect({
        operation,
        status: response.status,
        retryAfter: response.headers['retry-after'],
      }).toEqual({ operation, status: 503, retryAfter: '1' });
      expect(ms).toBeGreaterThanOrEqual(1900);
      expect(ms).toBeLessThan(4000);
    }
  }, 20_000);

  it('once a worker runs, the same reads show the writes', async () => {
    worker = await startTestApp({}, { database: api.database });
    // Its partitions start as it takes their leases: the first read may be told to retry.
    await eventually(
      () => reads[0]!.send(reads[0]!.write()),
      (response) => response.status === 200,
    );
    for (const read of reads) {
      const response = await read.send(read.write());
      expect({ operation: read.operation, status: response.status }).toEqual({
        operation: read.operation,
        status: 200,
      });
      expect({ operation: read.operation, shows: read.shows(response.body) }).toEqual({
        operation: read.operation,
        shows: true,
      });
    }
  }, 30_000);

  it.each(['-1', '1.5', 'soon'])('refuses minPosition=%s on each read with a 400', async (bad) => {
    for (const read of reads) {
      const response = await read.send(bad as unknown as number);
      expect({ operation: read.operation, status: response.status }).toEqual({
        operation: read.operation,
        status: 400,
      });
      expect(response.body.message).toContain('minPosition must be a non-negative integer');
    }
  });
});
