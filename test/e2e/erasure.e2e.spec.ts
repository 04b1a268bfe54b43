import { Client } from 'pg';
import request from 'supertest';
import {
  eventually,
  postUserMessage,
  settledUserEvents,
  startTestApp,
  type TestApp,
} from '../support/test-app';

/** Erasure by crypto-shredding: nothing of the user survives, in the store, the read models or a rebuild. */
describe('erasure through HTTP', () => {
  let t: TestApp;
  let agent: string;
  let auditor: string;

  beforeAll(async () => {
    t = await startTestApp({ ENGRAM_IDENTITY_CARD_DEBOUNCE_SECONDS: '0' });
    agent = await t.token({ userId: 'chat-web', workspaceId: 'w6', roles: ['agent'] });
    auditor = await t.token({ userId: 'dpo', workspaceId: 'w6', roles: ['auditor'] });
  });
  afterAll(() => t.close());

  const SECRET = 'Je m’appelle Zoé Martin et j’habite à Grenoble.';

  async function history(user: string) {
    await postUserMessage(t, agent, { workspaceId: 'w6', userId: user }, SECRET);
    await request(t.http)
      .post(`/v1/workspaces/w6/users/${user}/actions`)
      .auth(agent, { type: 'bearer' })
      .send({
        tool: 'gmail_send',
        target: `${user}@example.org`,
        summary: 'Rendez-vous médecin',
        channel: 'web',
      })
      .expect(201);
    const token = await t.token({ userId: user, workspaceId: 'w6', roles: ['user'] });
    await eventually(
      () => request(t.http).get('/v1/me/memories').auth(token, { type: 'bearer' }),
      (r) => r.body.items.length >= 1,
    );
    return token;
  }

  async function sql<T extends Record<string, unknown>>(
    query: string,
    params: unknown[] = [],
  ): Promise<T[]> {
    const client = new Client({ connectionString: t.database.ownerUrl });
    await client.connect();
    try {
      return (await client.query<T>(query, params)).rows;
    } finally {
      await client.end();
    }
  }

  const USER_TABLES = [
    'user_stream_stats',
    'session_messages',
    'sessions',
    'memories',
    'memory_settings',
    'memory_owners',
    'identity_cards',
    'actions',
    'activity_events',
  ];
  const rowsOf = async (user: string) => {
    const counts: Record<string, number> = {};
    for (const table of USER_TABLES) {
      const [row] = await sql<{ n: string }>(
        `SELECT count(*) AS n FROM ${table} WHERE user_id = $1`,
        [user],
      );
      counts[table] = Number(row!.n);
    }
    return counts;
  };

  it('is for auditors of the workspace only', async () => {
    const admin = await t.token({ userId: 'root', workspaceId: 'w6', roles: ['admin', 'user'] });
    await request(t.http)
      .post('/v1/workspaces/w6/users/zoe/erasure')
      .auth(admin, { type: 'bearer' })
      .expect(403);
    const foreign = await t.token({ userId: 'dpo', workspaceId: 'w7', roles: ['auditor'] });
    await request(t.http)
      .post('/v1/workspaces/w6/users/zoe/erasure')
      .auth(foreign, { type: 'bearer' })
      .expect(403);
    await request(t.http).post('/v1/workspaces/w6/users/zoe/erasure').expect(401);
  });

  it('shreds the user: no personal data in the store, no read-model row, other users untouched', async () => {
    const zoe = await history('zoe');
    await history('yann');
    const yannBefore = await rowsOf('yann');
    const erased = await request(t.http)
      .post('/v1/workspaces/w6/users/zoe/erasure')
      .auth(auditor, { type: 'bearer' })
      .expect(200);
    expect(erased.body).toMatchObject({ status: 'erased', streamsDeleted: expect.any(Number) });
    expect(erased.body.streamsDeleted).toBeGreaterThan(0);
    await eventually(
      () => rowsOf('zoe'),
      (counts) => Object.values(counts).every((n) => n === 0),
    );
    expect(await rowsOf('zoe')).toEqual(Object.fromEntries(USER_TABLES.map((table) => [table, 0])));
    const stored = await sql<{ type: string; data: string }>(
      `SELECT type, data::text AS data FROM events WHERE owner_user_id = 'zoe' ORDER BY global_position`,
    );
    expect(stored.map((e) => e.type)).toEqual(['UserErased']);
    expect(JSON.stringify(stored)).not.toContain('Grenoble');
    expect(
      (await request(t.http).get('/v1/me/memories').auth(zoe, { type: 'bearer' })).body.items,
    ).toEqual([]);
    // Yann's background work (identity card, its activity entry) may still be running: nothing of his went away.
    const yannAfter = await rowsOf('yann');
    for (const table of USER_TABLES)
      expect(yannAfter[table]).toBeGreaterThanOrEqual(yannBefore[table]!);
    // The export shows only that the user existed and was erased (and this very access).
    const exported = await request(t.http)
      .get('/v1/workspaces/w6/users/zoe/export')
      .auth(auditor, { type: 'bearer' })
      .expect(200);
    const types = exported.text
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types).toEqual(['UserErased', 'AuditAccessRecorded']);
    expect(exported.text).not.toContain('Grenoble');
    // Erasing again completes nothing new and records no second erasure.
    await request(t.http)
      .post('/v1/workspaces/w6/users/zoe/erasure')
      .auth(auditor, { type: 'bearer' })
      .expect(200);
    expect(
      (await sql(`SELECT 1 FROM events WHERE type = 'UserErased' AND owner_user_id = 'zoe'`))
        .length,
    ).toBe(1);
  });

  /** Every projection's every partition has applied the whole log. */
  async function projectionsAtHead(): Promise<void> {
    await eventually(
      () =>
        sql<{ behind: string }>(
          `SELECT count(*) AS behind FROM projection_checkpoints, event_store_head
            WHERE name NOT LIKE 'reactor:%' AND projection_checkpoints.position < event_store_head.position`,
        ),
      ([row]) => Number(row!.behind) === 0,
    );
  }

  it('a full rebuild of every projection brings none of the erased data back', async () => {
    // After the erasure, only the auditor's export of zoe was recorded (her stats and activity count it),
    // once the projections have applied it.
    await projectionsAtHead();
    const zoeBefore = await rowsOf('zoe');
    const client = new Client({ connectionString: t.database.ownerUrl });
    await client.connect();
    for (const table of USER_TABLES) await client.query(`DELETE FROM ${table}`);
    await client.query(
      `UPDATE projection_checkpoints SET position = 0 WHERE name NOT LIKE 'reactor:%'`,
    );
    await client.end();
    // Any append makes the running projections notice their reset checkpoints and replay from 0.
    await request(t.http)
      .post('/v1/workspaces/w6/users/nudge/messages')
      .auth(agent, { type: 'bearer' })
      .send({ sessionId: 's1', role: 'assistant', channel: 'web', text: 'ok' })
      .expect(202);
    await projectionsAtHead();
    const yann = await rowsOf('yann');
    expect(yann).toMatchObject({ actions: 1, session_messages: 1, sessions: 1 });
    expect(yann.memories).toBeGreaterThanOrEqual(1);
    expect(await rowsOf('zoe')).toEqual(zoeBefore);
    for (const table of USER_TABLES) {
      const rows = await sql(`SELECT * FROM ${table} WHERE user_id = 'zoe'`);
      expect(JSON.stringify(rows)).not.toContain('Grenoble');
    }
    expect(
      await sql(`SELECT 1 FROM user_stream_stats WHERE user_id = 'zoe' AND message_count > 0`),
    ).toEqual([]);
  });

  it('leaves none of the user’s stream names in any table, and still refuses writes with 410', async () => {
    const una = await history('una');
    await request(t.http)
      .put('/v1/me/memory-settings')
      .auth(una, { type: 'bearer' })
      .send({ enabled: false })
      .expect(200);
    // Una's background work done first (her identity card written, nothing more on its way), so that
    // the names listed below are all she will ever have had: a job that took her card before the
    // erasure would have its write refused by the store (the user is closed to new streams; the
    // contract suite tests it), and this test compares names, not that race.
    await eventually(
      () =>
        sql<{ n: string }>(
          `SELECT count(*) AS n FROM identity_cards WHERE workspace_id = 'w6' AND user_id = 'una'
              AND dirty_position IS NOT NULL AND based_on_position < dirty_position`,
        ),
      ([row]) => Number(row!.n) === 0,
    );
    await settledUserEvents(t, 'w6', 'una');
    const record = 'w6/una/erasure/record';
    const names = (
      await sql<{ stream_id: string }>(
        `SELECT stream_id FROM event_streams WHERE stream_id LIKE 'w6/una/%'`,
      )
    ).map((row) => row.stream_id);
    expect(names).toEqual(expect.arrayContaining([expect.stringMatching(/\/message\//)]));
    // The ids in the names (message, action, memory) are as telling as the names themselves.
    const ids = names.flatMap(
      (name) => name.match(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/g) ?? [],
    );
    await request(t.http)
      .post('/v1/workspaces/w6/users/una/erasure')
      .auth(auditor, { type: 'bearer' })
      .expect(200);
    await eventually(
      () => rowsOf('una'),
      (counts) => Object.values(counts).every((n) => n === 0),
    );
    // Every table of the database, whole rows as text (as the server's superuser: no row-level security).
    const tables = await sql<{ name: string }>(
      `SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public'`,
    );
    for (const needle of [...names, ...ids]) {
      for (const { name } of tables) {
        const [row] = await sql<{ n: string }>(
          `SELECT count(*) AS n FROM ${name} AS t WHERE strpos(t::text, $1) > 0`,
          [needle],
        );
        expect({ table: name, needle, rows: Number(row!.n) }).toEqual({
          table: name,
          needle,
          rows: 0,
        });
      }
    }
    expect(
      await sql(`SELECT stream_id FROM event_streams WHERE stream_id LIKE 'w6/una/%'`),
    ).toEqual([{ stream_id: record }]);
    // What stays of each deleted stream is the SHA-256 of its name, which refuses writes to it.
    const [tombstones] = await sql<{ n: string }>(
      `SELECT count(*) AS n FROM deleted_streams
        WHERE stream_digest IN (SELECT sha256(convert_to(unnest($1::text[]), 'UTF8')))`,
      [names],
    );
    expect(Number(tombstones!.n)).toBe(names.length);
    // Her settings stream reads as never written (memory on), so this is a change to append: refused.
    const refused = await request(t.http)
      .put('/v1/me/memory-settings')
      .auth(una, { type: 'bearer' })
      .send({ enabled: false })
      .expect(410);
    expect(refused.body).toMatchObject({ error: 'Gone', message: 'This record was erased' });
    await request(t.http)
      .post('/v1/workspaces/w6/users/una/messages')
      .auth(agent, { type: 'bearer' })
      .send({ sessionId: 's1', role: 'user', channel: 'web', text: 'Encore moi' })
      .expect(410);
  });
});
