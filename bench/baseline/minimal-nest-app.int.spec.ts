import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Pool } from 'pg';
import { activityProjection } from '../../projections/activity/activity.projection';
import { sessionMessagesProjection } from '../../projections/session-messages/session-messages.projection';
import { sessionsProjection } from '../../projections/sessions/sessions.projection';
import { userStreamStatsProjection } from '../../projections/user-stream-stats/user-stream-stats.projection';
import { messageRecorded } from '../../test/support/events';
import { projectionSpec, type Row } from '../../test/support/projection-spec';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { startBuiltScript, type EngramProcess } from '../support/engram-process';
import { benchToken } from '../support/secrets';
import { MINIMAL_PREFIX, minimalAppEnvironment, minimalAppTables } from './start-minimal-app';

const BUILT_MINIMAL_APP = join(
  __dirname,
  '..',
  '..',
  'dist',
  'bench',
  'baseline',
  'minimal-nest-app.js',
);

/** Positions, times and ids differ between the two writers; the rest is the read model's content. */
const VARYING = new Set([
  'position',
  'last_position',
  'occurred_at',
  'first_message_at',
  'last_message_at',
  'first_event_at',
  'last_event_at',
  'message_id',
  'trace_id',
  'group_key',
  'channel',
]);
const content = (rows: readonly Row[]) =>
  rows.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => !VARYING.has(key))));

const TEXTS = [
  'I prefer short answers.',
  'Remind me to call the plumber tomorrow morning before nine, it is about the leak under the sink.',
  'Je préfère les réponses courtes.',
];

/**
 * The append scenario's best alternative to a service that projects: the minimal app writing, with
 * each message, the rows Engram's projections write for it. Its rows are compared with those the
 * projections make of the same messages, so the bench's alternative does the same work, not less.
 */
describe('the minimal app keeping the read models current (bench baseline)', () => {
  let database: TestDatabase;
  let pool: Pool;
  let app: EngramProcess<'minimal-app'>;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new Pool({ connectionString: database.ownerUrl, max: 2 });
    await minimalAppTables(pool, true);
    app = await startBuiltScript(
      'minimal-app',
      BUILT_MINIMAL_APP,
      minimalAppEnvironment({
        writeUrl: database.ownerUrl,
        readModels: MINIMAL_PREFIX,
        fastify: true,
      }),
    );
  });

  afterAll(async () => {
    await app?.stop();
    await pool?.end();
    await database?.drop();
  });

  it('writes, for each message, the rows of the sessions, messages, stream stats and activity read models', async () => {
    const token = await benchToken('w1', 'agent', ['agent']);
    const sessions = ['s1', 's1', 's2'];
    for (const [index, text] of TEXTS.entries()) {
      const response = await fetch(`${app.url}/v1/workspaces/w1/users/alice/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          messageId: randomUUID(),
          sessionId: sessions[index],
          role: 'user',
          channel: 'web',
          text,
        }),
      });
      expect({ index, status: response.status }).toEqual({ index, status: 202 });
    }
    const events = TEXTS.map((text, index) =>
      messageRecorded(`m${index}`, { text, sessionId: sessions[index]! }),
    );
    const readModels = [
      ['sessions', 'session_id', () => projectionSpec(sessionsProjection)],
      ['session_messages', 'position', () => projectionSpec(sessionMessagesProjection)],
      ['user_stream_stats', 'user_id', () => projectionSpec(userStreamStatsProjection)],
      ['activity_events', 'position', () => projectionSpec(activityProjection)],
    ] as const;
    for (const [table, orderBy, projected] of readModels) {
      const spec = await projected();
      try {
        const expected = await spec.given(events);
        const { rows } = await pool.query<Row>(
          `SELECT * FROM ${MINIMAL_PREFIX}${table} ORDER BY workspace_id, user_id, ${orderBy}`,
        );
        expect(rows).toHaveLength(expected.length);
        expect({ table, rows: content(rows) }).toEqual({ table, rows: content(expected) });
      } finally {
        await spec.close();
      }
    }
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${MINIMAL_PREFIX}events`,
    );
    expect(rows[0]!.n).toBe(TEXTS.length);
  });
});
