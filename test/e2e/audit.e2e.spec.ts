import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import request from 'supertest';
import type { ExportLine } from '@engram/gdpr';
import { parseCliArgs } from '../../apps/cli/src/args';
import { exportCommand } from '../../apps/cli/src/commands/export';
import { countUserEvents, eventually, startTestApp, type TestApp } from '../support/test-app';
import { asText } from '../support/ndjson-body';
import { testRuntime } from '../support/test-runtime';

type Line = ExportLine;

const parseLines = (text: string): Line[] =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Line);

/** The auditors' endpoints: export (NDJSON) and memories as of an instant, each access audited. */
describe('auditors through HTTP', () => {
  let t: TestApp;
  let agent: string;
  let admin: string;
  let auditor: string;
  let eve: string;
  const ws = 'w5';
  const base = `/v1/workspaces/${ws}/users`;

  beforeAll(async () => {
    t = await startTestApp({ ENGRAM_IDENTITY_CARD_DEBOUNCE_SECONDS: '0' });
    agent = await t.token({ userId: 'chat-web', workspaceId: ws, roles: ['agent'] });
    admin = await t.token({ userId: 'root', workspaceId: ws, roles: ['admin'] });
    auditor = await t.token({ userId: 'dpo', workspaceId: ws, roles: ['auditor'] });
    eve = await t.token({ userId: 'eve', workspaceId: ws, roles: ['user'] });
  });
  afterAll(() => t.close());

  const exportOf = (user: string, token: string | null = auditor) => {
    const call = request(t.http).get(`${base}/${user}/export`).buffer(true).parse(asText);
    return token ? call.auth(token, { type: 'bearer' }) : call;
  };
  const asOf = (user: string, timestamp: string, token: string | null = auditor) => {
    const call = request(t.http).get(
      `${base}/${user}/memories/as-of/${encodeURIComponent(timestamp)}`,
    );
    return token ? call.auth(token, { type: 'bearer' }) : call;
  };
  const say = (user: string, text: string, extra: Record<string, unknown> = {}) =>
    request(t.http)
      .post(`${base}/${user}/messages`)
      .auth(agent, { type: 'bearer' })
      .send({
        messageId: randomUUID(),
        sessionId: 's1',
        role: 'user',
        channel: 'telegram',
        text,
        ...extra,
      })
      .expect(202);

  /** What is stored in the whole event store: a refused access must add nothing anywhere. */
  /**
   * The events and streams that name `user` (the worker keeps appending its own bookkeeping for other
   * users meanwhile, so the whole store's size is no measure of what a request wrote).
   */
  async function storeSize(user: string): Promise<{ events: string; streams: string }> {
    const client = new Client({ connectionString: t.database.ownerUrl });
    await client.connect();
    try {
      const result = await client.query<{ events: string; streams: string }>(
        `SELECT (SELECT count(*) FROM events WHERE owner_user_id = $1 OR stream_id LIKE '%/' || $1 || '/%') AS events,
                (SELECT count(*) FROM event_streams WHERE stream_id LIKE '%/' || $1 || '/%') AS streams`,
        [user],
      );
      return result.rows[0]!;
    } finally {
      await client.end();
    }
  }

  async function storedEvents(user: string, through: number) {
    const client = new Client({ connectionString: t.database.ownerUrl });
    await client.connect();
    try {
      const result = await client.query<{ global_position: string; type: string; data: object }>(
        `SELECT global_position, type, data FROM events
          WHERE owner_workspace_id = $1 AND owner_user_id = $2 AND global_position <= $3
          ORDER BY global_position`,
        [ws, user, through],
      );
      return result.rows.map((row) => ({ ...row, position: Number(row.global_position) }));
    } finally {
      await client.end();
    }
  }

  const CTO = 'Je suis CTO chez StartupCorp et nous construisons une plateforme SaaS.';
  const SECRET = 'Merci pour hier soir, à demain !';
  /** When eve said it: in the past, so the scripted instants fall between the steps. */
  const saidAt = new Date(Date.now() - 10 * 60_000);
  const iso = (ms: number) => new Date(ms).toISOString();
  const times = {
    before: iso(saidAt.getTime() - 60_000),
    pending: iso(saidAt.getTime() + 30_000),
    approved: '',
    deleted: '',
  };
  let messageId: string;
  let memoryId: string;

  it('needs the auditor role of the workspace: 401 without a token, 403 for other roles or workspaces', async () => {
    await say('eve', 'Bonjour');
    // Her message and the extraction's ledger record: the worker writes the second a moment later,
    // and the counts below must see only what the auditor's requests write.
    const before = await eventually(
      () => countUserEvents(t, ws, 'eve'),
      (count) => count === 2,
    );
    const foreign = await t.token({ userId: 'dpo', workspaceId: 'w6', roles: ['auditor'] });
    const everyoneElse = await t.token({
      userId: 'eve',
      workspaceId: ws,
      roles: ['user', 'admin', 'agent'],
    });
    for (const token of [foreign, eve, admin, agent, everyoneElse]) {
      await exportOf('eve', token).expect(403);
      await asOf('eve', '2026-03-01T10:00:00Z', token).expect(403);
    }
    await exportOf('eve', null).expect(401);
    await asOf('eve', '2026-03-01T10:00:00Z', null).expect(401);
    // A refused access records nothing.
    expect(await countUserEvents(t, ws, 'eve')).toBe(before);
  });

  it('refuses a timestamp that is not an ISO-8601 date-time with a zone in 1970-9999 UTC (400), accepts one in the future', async () => {
    const before = await countUserEvents(t, ws, 'eve');
    for (const bad of [
      'yesterday',
      '2026-03-01',
      '2026-03-01T10:00:00',
      '2026-13-01T10:00:00Z',
      '2026-02-30T10:00:00Z',
      '1709287200000',
      '9999-12-31T23:00:00-12:00',
      '1970-01-01T00:30:00+01:00',
      '0000-01-01T00:00:00Z',
    ]) {
      const response = await asOf('eve', bad).expect(400);
      expect(response.body.message).toBe(
        'path parameter timestamp must be an ISO-8601 date-time with a time zone, e.g. 2026-03-01T10:00:00Z, ' +
          'from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z (in UTC)',
      );
    }
    expect(await countUserEvents(t, ws, 'eve')).toBe(before);
    const future = await asOf('eve', '2999-01-01T00:00:00+02:00').expect(200);
    expect(future.body).toEqual({ userId: 'eve', asOf: '2998-12-31T22:00:00.000Z', items: [] });
  });

  it('scripts a history: a candidate left pending (reviewMode admin), approved by an admin, deleted by the user, and an action', async () => {
    await request(t.http)
      .put(`/v1/workspaces/${ws}/memory-policy`)
      .auth(admin, { type: 'bearer' })
      .send({ reviewMode: 'admin' })
      .expect(200);
    await eventually(
      () =>
        request(t.http).get(`/v1/workspaces/${ws}/memory-policy`).auth(admin, { type: 'bearer' }),
      (r) => r.body.reviewMode === 'admin',
    );
    messageId = randomUUID();
    await say('eve', CTO, { messageId, occurredAt: saidAt.toISOString(), traceId: 'trace-cto' });
    await say('eve', SECRET, { occurredAt: iso(saidAt.getTime() + 1000) });
    await say('eve', 'Très bien.', { role: 'assistant', occurredAt: iso(saidAt.getTime() + 2000) });
    await say('bob', 'Je suis CTO chez AutreCorp et je vis à Nantes.');
    const queue = await eventually(
      () =>
        request(t.http).get(`/v1/workspaces/${ws}/memories?userId=eve`).auth(admin, {
          type: 'bearer',
        }),
      (r) => r.body.items?.length === 1,
    );
    memoryId = queue.body.items[0].memoryId;

    await request(t.http)
      .post(`/v1/workspaces/${ws}/memories/${memoryId}/approve`)
      .auth(admin, { type: 'bearer' })
      .expect(200);
    await sleep(20);
    times.approved = new Date().toISOString();
    await sleep(20);

    const proposed = await request(t.http)
      .post(`${base}/eve/actions`)
      .auth(agent, { type: 'bearer' })
      .send({ tool: 'gmail_send', target: 'delphine@acme.fr', summary: 'Relance', channel: 'web' })
      .expect(201);
    const actionId = proposed.body.actionId as string;
    for (const [verb, body] of [
      ['confirm', { channel: 'telegram' }],
      ['execute', { channel: 'web', result: { id: 'msg-1' } }],
    ] as const) {
      await request(t.http)
        .post(`${base}/eve/actions/${actionId}/${verb}`)
        .auth(agent, { type: 'bearer' })
        .send(body)
        .expect(200);
    }

    await eventually(
      () => request(t.http).get('/v1/me/memories').auth(eve, { type: 'bearer' }),
      (r) => r.body.items?.length === 1,
    );
    await request(t.http)
      .delete(`/v1/me/memories/${memoryId}`)
      .auth(eve, { type: 'bearer' })
      .expect(200);
    await sleep(20);
    times.deleted = new Date().toISOString();
  });

  it('answers the memories as they stood: none before, pending, approved, then deleted, each with its source and history', async () => {
    expect((await asOf('eve', times.before).expect(200)).body).toEqual({
      userId: 'eve',
      asOf: times.before,
      items: [],
    });

    const source = { messageId, excerpt: CTO, at: saidAt.toISOString() };
    const detected = {
      at: saidAt.toISOString(),
      event: 'detected',
      confidence: expect.any(Number),
      messageId,
    };
    const pending = (await asOf('eve', times.pending).expect(200)).body;
    expect(pending.items).toEqual([
      {
        memoryId,
        kind: 'fact',
        content: expect.stringContaining('StartupCorp'),
        confidence: expect.any(Number),
        status: 'pending',
        generation: 0,
        sourceMessage: source,
        history: [detected],
      },
    ]);

    const approved = (await asOf('eve', times.approved).expect(200)).body;
    expect(approved.items).toEqual([
      expect.objectContaining({
        memoryId,
        status: 'approved',
        content: pending.items[0].content,
        sourceMessage: source,
        history: [
          detected,
          {
            at: expect.any(String),
            event: 'approved',
            by: { kind: 'person', userId: 'root', role: 'admin' },
          },
        ],
      }),
    ]);
    const approvedAt = Date.parse(approved.items[0].history[1].at);
    expect(approvedAt).toBeLessThanOrEqual(Date.parse(times.approved));
    expect(approvedAt).toBeGreaterThan(Date.parse(times.pending));

    const deleted = (await asOf('eve', times.deleted).expect(200)).body;
    expect(deleted.items).toEqual([
      expect.objectContaining({
        memoryId,
        status: 'deleted',
        content: null,
        sourceMessage: source,
      }),
    ]);
    expect(deleted.items[0].history.slice(2)).toEqual([
      {
        at: expect.any(String),
        event: 'deleted',
        by: { kind: 'person', userId: 'eve', role: 'user' },
        reason: 'deleted',
      },
    ]);
  });

  it('exports the user’s events as NDJSON, in order, decrypted, up to its own access record', async () => {
    const response = await exportOf('eve').expect(200);
    expect(response.headers['content-type']).toBe('application/x-ndjson');
    const lines = parseLines(response.body as string);
    const through = Number(response.headers['x-export-through-position']);

    // Exactly the user's stored events up to the access record, in global order, nobody else's.
    const stored = await storedEvents('eve', through);
    expect(lines.map((line) => line.position)).toEqual(stored.map((row) => row.position));
    expect(lines.map((line) => line.type)).toEqual(stored.map((row) => row.type));
    for (const [index, line] of lines.entries()) {
      if (index > 0) expect(line.position).toBeGreaterThan(lines[index - 1]!.position);
      expect(line.streamId.startsWith(`${ws}/eve/`)).toBe(true);
      expect(line).toMatchObject({
        eventId: expect.any(String),
        revision: expect.any(Number),
        schemaVersion: 1,
        occurredAt: line.metadata.occurredAt,
        recordedAt: expect.any(String),
        metadata: { workspaceId: ws, userId: 'eve' },
        erased: false,
      });
      expect(line.data).not.toHaveProperty('_sealed');
    }
    expect(JSON.stringify(lines)).not.toContain('AutreCorp');

    // Decrypted: the text is in the export, not in the stored row.
    const secret = lines.find(
      (line) => line.type === 'MessageRecorded' && line.data.text === SECRET,
    );
    expect(secret).toBeDefined();
    const raw = stored.find((row) => row.position === secret!.position)!;
    expect(JSON.stringify(raw.data)).not.toContain('hier soir');
    expect(lines.find((line) => line.data.messageId === messageId)).toMatchObject({
      type: 'MessageRecorded',
      metadata: { traceId: 'trace-cto', occurredAt: saidAt.toISOString() },
      data: { text: CTO, role: 'user', channel: 'telegram' },
    });

    // Every kind of event of this history.
    const types = new Set(lines.map((line) => line.type));
    for (const type of [
      'MessageRecorded',
      'MemoryCandidateDetected',
      'MemoryApproved',
      'MemoryDeleted',
      'ActionProposed',
      'ActionConfirmed',
      'ActionExecuted',
      'AuditAccessRecorded',
    ]) {
      expect(types).toContain(type);
    }

    // The accesses are on record: the as-of queries above, and this export as its last line.
    const accesses = lines.filter((line) => line.type === 'AuditAccessRecorded');
    expect(accesses.map((line) => line.data)).toEqual([
      { access: 'as_of', auditorId: 'dpo', asOf: '2998-12-31T22:00:00.000Z' },
      { access: 'as_of', auditorId: 'dpo', asOf: times.before },
      { access: 'as_of', auditorId: 'dpo', asOf: times.pending },
      { access: 'as_of', auditorId: 'dpo', asOf: times.approved },
      { access: 'as_of', auditorId: 'dpo', asOf: times.deleted },
      { access: 'export', auditorId: 'dpo' },
    ]);
    const last = lines.at(-1)!;
    expect(last).toMatchObject({ type: 'AuditAccessRecorded', position: through });
    expect(last.streamId).toBe(`${ws}/eve/audit/${last.occurredAt.slice(0, 10)}`);

    // A second export sees the first one.
    const again = parseLines((await exportOf('eve').expect(200)).body as string);
    expect(again.filter((line) => line.data.access === 'export')).toHaveLength(2);
  });

  it('engram export writes the same lines as the API, then its own access (auditor cli)', async () => {
    const response = await exportOf('eve').expect(200);
    const api = parseLines(response.body as string);
    const through = Number(response.headers['x-export-through-position']);
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let text = '';
    let summary = '';
    stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    stderr.on('data', (chunk: Buffer) => (summary += chunk.toString('utf8')));
    await exportCommand(
      testRuntime(t.database),
      parseCliArgs(['export', '--ws', ws, '--user', 'eve']),
      { stdout, stderr },
    );
    const cli = parseLines(text);
    // The worker may have recorded more of eve's events meanwhile: the API's export is a prefix.
    expect(cli.filter((line) => line.position <= through)).toEqual(api);
    expect(cli.at(-1)).toMatchObject({
      type: 'AuditAccessRecorded',
      data: { access: 'export', auditorId: 'cli' },
    });
    expect(summary).toMatch(new RegExp(`^${ws}/eve: ${cli.length} events \\(`));
  });

  it('answers 404 for a user who never existed, on both endpoints, and writes nothing', async () => {
    const before = await storeSize('nobody');
    expect(before).toEqual({ events: '0', streams: '0' });
    const missing = await exportOf('nobody').expect(404);
    expect(missing.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(missing.body as string)).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'User nobody has no history in workspace w5',
    });
    await asOf('nobody', '2026-03-01T10:00:00Z').expect(404);
    expect(await storeSize('nobody')).toEqual(before);
  });
});
