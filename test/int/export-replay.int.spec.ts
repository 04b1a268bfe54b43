import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@engram/database';
import {
  actionDecider,
  erasureDecider,
  foldEvents,
  identityCardDecider,
  memoryDecider,
  memoryProfileDecider,
  messageDecider,
  parseStreamName,
  sessionDecider,
  type Decider,
  type Event,
  type EventMetadata,
} from '@engram/domain';
import {
  handleCommand,
  PostgresEventStore,
  StreamNotFoundError,
  type EventStore,
} from '@engram/event-store';
import { createCodec, type CodecResources } from '@engram/platform';
import { PROJECTIONS, READ_MODEL_ENTITIES, catchUpAllPartitions } from '@engram/projections';
import { eventually, postUserMessage, startTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { testRuntime } from '../support/test-runtime';

/** One line of `GET …/export`. */
type Line = {
  position: number;
  eventId: string;
  streamId: string;
  revision: number;
  type: string;
  metadata: EventMetadata;
  data: Record<string, unknown>;
  erased: boolean;
};

/**
 * Global positions in read-model rows. The replayed store numbers the user's events anew (1, 2, … in
 * the same relative order), so these are compared through the map old position → new position …
 */
const OWN_POSITION_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  user_stream_stats: ['last_position'],
  session_messages: ['position'],
  sessions: ['last_position'],
  memories: ['position'],
  memory_settings: [],
  memory_owners: [],
  identity_cards: ['dirty_position', 'wiped_position'],
  actions: ['position'],
  // group_key is `event:{position}` for an event without a trace id.
  activity_events: ['position', 'group_key'],
  llm_usage: [],
  llm_deferrals: ['position'],
};
/**
 * … except those copied from event data (RollingSummaryExtended.throughPosition,
 * IdentityCardRegenerated.basedOnPosition): replayed verbatim, they keep the original store's numbers.
 */
const DATA_POSITION_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  sessions: ['summarized_through_position'],
  identity_cards: ['based_on_position'],
};
/** Bigint columns that are sums (tokens, milliseconds), not positions: compared as they are. */
const COUNT_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  llm_usage: ['completion_tokens', 'latency_ms', 'prompt_tokens'],
};
/** Read models of the workspace, not of a user: not in a user's export, so not compared. */
const WORKSPACE_TABLES = [
  'agent_keys',
  'agent_settings',
  'seen_agents',
  'webhooks',
  'workspace_policies',
];

/** supertest does not buffer application/x-ndjson by itself: keep the body as text. */
function asText(res: request.Response, done: (error: Error | null, body: string) => void) {
  // At parse time the response is still Node's incoming message.
  const stream = res as unknown as NodeJS.ReadableStream;
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (text += chunk));
  stream.on('end', () => done(null, text));
}

/** The decider of each kind of user stream (audit, memory-usage and llm-usage streams hold plain facts). */
const DECIDERS: Readonly<Record<string, Decider<unknown, Event, unknown>>> = {
  message: messageDecider as Decider<unknown, Event, unknown>,
  action: actionDecider as Decider<unknown, Event, unknown>,
  memory: memoryDecider as Decider<unknown, Event, unknown>,
  session: sessionDecider as Decider<unknown, Event, unknown>,
  profile: memoryProfileDecider as Decider<unknown, Event, unknown>,
  'identity-card': identityCardDecider as Decider<unknown, Event, unknown>,
  erasure: erasureDecider as Decider<unknown, Event, unknown>,
};

type Side = Readonly<{
  store: EventStore;
  codec: CodecResources;
  projector: DataSource;
}>;

describe('export replay', () => {
  const ws = 'w7';
  const base = `/v1/workspaces/${ws}/users`;
  let t: TestApp;
  let fresh: TestDatabase;
  let original: Side;
  let replayed: Side;
  let lines: Line[];
  /** Global position in the original store → in the replayed one, for the user's events. */
  const positions = new Map<string, string>();

  async function openSide(database: TestDatabase): Promise<Side> {
    return {
      store: new PostgresEventStore({ connectionString: database.appUrl, pollMs: 100 }),
      // The API role: the replay seals the personal fields again, with keys of the fresh database.
      codec: createCodec(testRuntime(database), database.appUrl, 'replay-test'),
      projector: await createDataSource(
        database.projectorUrl,
        READ_MODEL_ENTITIES,
        4,
        'replay-test',
      ).initialize(),
    };
  }

  async function closeSide(side: Side | undefined) {
    await side?.store.close();
    await side?.codec.close();
    if (side?.projector.isInitialized) await side.projector.destroy();
  }

  async function catchUpEveryProjection(side: Side) {
    for (const projection of PROJECTIONS) {
      await catchUpAllPartitions(
        { store: side.store, codec: side.codec.codec, dataSource: side.projector },
        projection,
      );
    }
  }

  /** Waits until nothing is being appended any more and every projection has caught up. */
  async function settle(side: Side) {
    const deadline = Date.now() + 60_000;
    let head = -1n;
    let since = Date.now();
    for (;;) {
      const now = await side.store.headPosition();
      if (now !== head) {
        head = now;
        since = Date.now();
      }
      const checkpoints = await side.projector.query<{ name: string; position: string }[]>(
        'SELECT name, position FROM projection_checkpoints',
      );
      // A projection is settled when every one of its partitions (`memories#2/4`) is at the head.
      const behind = PROJECTIONS.filter((p) => {
        const mine = checkpoints.filter((c) => c.name.split('#')[0] === p.name);
        return mine.length === 0 || mine.some((c) => c.position !== head.toString());
      });
      // Longer than the memory-usage flush (2 s) and the identity-card debounce.
      if (behind.length === 0 && Date.now() - since > 3000) return head;
      if (Date.now() > deadline)
        throw new Error(`not settled: ${behind.map((p) => p.name).join(', ')}`);
      await sleep(100);
    }
  }

  beforeAll(async () => {
    t = await startTestApp({ ENGRAM_IDENTITY_CARD_DEBOUNCE_SECONDS: '0' });
    original = await openSide(t.database);
    const agent = await t.token({ userId: 'chat-web', workspaceId: ws, roles: ['agent'] });
    const admin = await t.token({ userId: 'root', workspaceId: ws, roles: ['admin'] });
    const alice = await t.token({ userId: 'alice', workspaceId: ws, roles: ['user'] });
    const auditor = await t.token({ userId: 'dpo', workspaceId: ws, roles: ['auditor'] });
    const say = (user: string, text: string, extra: Record<string, unknown> = {}) =>
      postUserMessage(t, agent, { workspaceId: ws, userId: user }, text, extra);
    const myMemories = () =>
      request(t.http).get('/v1/me/memories').auth(alice, { type: 'bearer' }).expect(200);
    const step = (actionId: string, verb: string, body: object) =>
      request(t.http)
        .post(`${base}/alice/actions/${actionId}/${verb}`)
        .auth(agent, { type: 'bearer' })
        .send(body)
        .expect(200);
    const propose = async (body: object) =>
      (
        await request(t.http)
          .post(`${base}/alice/actions`)
          .auth(agent, { type: 'bearer' })
          .send({ tool: 'gmail_send', summary: 'Relance facture', channel: 'telegram', ...body })
          .expect(201)
      ).body.actionId as string;

    // A short live window and small summary batches, so that rolling summaries happen.
    await request(t.http)
      .put(`/v1/workspaces/${ws}/memory-policy`)
      .auth(admin, { type: 'bearer' })
      .send({ liveWindow: 3, summaryBatch: 2 })
      .expect(200);
    await eventually(
      () =>
        request(t.http).get(`/v1/workspaces/${ws}/memory-policy`).auth(admin, { type: 'bearer' }),
      (r) => r.body.liveWindow === 3,
    );

    // Messages (two users, interleaved), memories detected, reinforced, used, deleted, wiped.
    await say(
      'alice',
      'Je préfère recevoir des exemples de code en Python plutôt qu’en pseudo-code.',
      {
        traceId: 'trace-1',
      },
    );
    await say('bob', 'Je suis CTO chez AutreCorp.');
    await say('alice', 'Très bien, je noterai cela.', { role: 'assistant' });
    await say('alice', 'Je suis CTO chez StartupCorp et nous construisons une plateforme SaaS.');
    for (let i = 1; i <= 6; i += 1) {
      await say('alice', `Message numéro ${i}.`, { role: i % 2 ? 'user' : 'assistant' });
      await say('bob', `Réponse ${i}.`);
    }
    await say(
      'alice',
      'Je préfère recevoir des exemples de code en Python plutôt qu’en pseudo-code !',
      {
        sessionId: 's2',
      },
    );
    const listed = await eventually(
      () => myMemories(),
      (r) =>
        r.body.items.length === 2 &&
        r.body.items.some((m: { seenCount: number }) => m.seenCount === 2),
    );
    expect(listed.body.items).toHaveLength(2);
    await request(t.http)
      .get(`${base}/alice/context?sessionId=s1`)
      .auth(agent, { type: 'bearer' })
      .expect(200);
    const fact = listed.body.items.find((m: { kind: string }) => m.kind === 'fact');
    await request(t.http)
      .delete(`/v1/me/memories/${fact.memoryId}`)
      .auth(alice, { type: 'bearer' })
      .expect(200);

    // Actions: executed across channels, aborted, failed.
    const executed = await propose({ traceId: 'trace-2', target: 'delphine@acme.fr' });
    await step(executed, 'confirm', { channel: 'web' });
    await step(executed, 'execute', { channel: 'web', result: { id: 'x' } });
    await step(await propose({}), 'abort', { channel: 'web', reason: 'Plus besoin' });
    await step(await propose({ requiresConfirmation: false }), 'fail', { error: 'SMTP 550' });

    await eventually(
      () => request(t.http).get('/v1/me/identity-card').auth(alice, { type: 'bearer' }),
      (r) => r.body.memoryCount === 1,
    );
    await request(t.http).post('/v1/me/memories/wipe').auth(alice, { type: 'bearer' }).expect(200);
    await say('alice', 'Je suis CTO chez StartupCorp et nous construisons une plateforme SaaS.');
    // The fact said again after the wipe, not the preference the wipe is still to remove from the
    // read model (one item too): the budget set next must not defer this extraction.
    await eventually(
      () => myMemories(),
      (r) => r.body.items.length === 1 && r.body.items[0].kind === 'fact',
    );
    // A daily LLM budget already spent: the next message's extraction waits for tomorrow.
    await request(t.http)
      .put(`/v1/workspaces/${ws}/memory-policy`)
      .auth(admin, { type: 'bearer' })
      .send({ llmCallsPerUserPerDay: 1 })
      .expect(200);
    await say('alice', 'J’habite à Lyon.');
    await eventually(
      () =>
        original.projector.query<{ count: number }[]>(
          `SELECT count(*)::int AS count FROM llm_deferrals WHERE user_id = 'alice'`,
        ),
      (rows) => rows[0]!.count > 0,
    );
    await request(t.http)
      .put('/v1/me/memory-settings')
      .auth(alice, { type: 'bearer' })
      .send({ enabled: false })
      .expect(200);

    await settle(original);
    const exported = await request(t.http)
      .get(`${base}/alice/export`)
      .auth(auditor, { type: 'bearer' })
      .buffer(true)
      .parse(asText)
      .expect(200);
    lines = (exported.body as string)
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Line);
    await t.app.close();
    // Nothing of alice's was appended after the export (the app is closed now).
    const after = await original.store.readUserEvents(ws, 'alice');
    expect(after.map((e) => Number(e.globalPosition))).toEqual(lines.map((l) => l.position));
    // The worker may have stopped before the last events (the export's own access record).
    await catchUpEveryProjection(original);

    // The replay: the same events (same ids, streams, revisions, metadata, data) in the same order,
    // sealed again by the codec, in a fresh database; then every projection from position 0.
    fresh = await createTestDatabase();
    replayed = await openSide(fresh);
    for (const line of lines) {
      const record = await replayed.codec.codec.encode({
        eventId: line.eventId,
        event: { type: line.type, data: line.data },
        metadata: line.metadata,
      });
      const result = await replayed.store.appendToStream(line.streamId, [record], {
        expectedRevision: line.revision === 0 ? 'no_stream' : BigInt(line.revision - 1),
      });
      positions.set(String(line.position), result.position.toString());
    }
    await catchUpEveryProjection(replayed);
  }, 120_000);

  afterAll(async () => {
    await closeSide(original);
    await closeSide(replayed);
    await t.database.drop();
    await fresh?.drop();
  });

  it('exports a history with every kind of stream and event the API and the worker produce', () => {
    const kinds = new Set(lines.map((line) => parseStreamName(line.streamId)?.kind));
    expect([...kinds].sort()).toEqual(
      [
        'action',
        'audit',
        'identity-card',
        'llm-usage',
        'memory',
        'memory-usage',
        'message',
        'profile',
        'session',
      ].sort(),
    );
    const types = new Set(lines.map((line) => line.type));
    for (const type of [
      'MessageRecorded',
      'RollingSummaryExtended',
      'MemoryCandidateDetected',
      'MemoryApproved',
      'MemoryReinforced',
      'MemoriesUsed',
      'MemoryDeleted',
      'MemoriesWiped',
      'MemorySettingsChanged',
      'IdentityCardRegenerated',
      'ActionProposed',
      'ActionConfirmed',
      'ActionExecuted',
      'ActionAborted',
      'ActionFailed',
      'AuditAccessRecorded',
    ]) {
      expect(types).toContain(type);
    }
    expect(lines.every((line) => line.metadata.userId === 'alice' && !line.erased)).toBe(true);
  });

  it('a test replays an export through the deciders and projections and gets the same read models for that user', async () => {
    // Bob's and the workspace's events are not replayed: alice's events are numbered anew.
    expect([...positions].filter(([from, to]) => from !== to).length).toBeGreaterThan(0);
    const tables = original.projector.entityMetadatas.map((entity) => entity.tableName).sort();
    const userTables = tables.filter((table) => !WORKSPACE_TABLES.includes(table));
    expect(tables.filter((table) => WORKSPACE_TABLES.includes(table))).toEqual(WORKSPACE_TABLES);
    expect(userTables.sort()).toEqual(Object.keys(OWN_POSITION_COLUMNS).sort());

    for (const entity of original.projector.entityMetadatas) {
      const table = entity.tableName;
      if (WORKSPACE_TABLES.includes(table)) {
        expect(entity.columns.map((c) => c.databaseName)).not.toContain('user_id');
        continue;
      }
      // Every bigint column is listed: a new position column must be classified here.
      const bigints = entity.columns
        .filter((column) => column.type === 'bigint')
        .map((column) => column.databaseName)
        .sort();
      expect(bigints).toEqual(
        [
          ...(OWN_POSITION_COLUMNS[table] ?? []),
          ...(DATA_POSITION_COLUMNS[table] ?? []),
          ...(COUNT_COLUMNS[table] ?? []),
        ]
          .filter((column) => column !== 'group_key')
          .sort(),
      );

      const rowsOf = (side: Side) =>
        side.projector.query<Record<string, unknown>[]>(
          `SELECT * FROM ${table} WHERE workspace_id = $1 AND user_id = $2`,
          [ws, 'alice'],
        );
      const translate = (row: Record<string, unknown>) => {
        const copy = { ...row };
        for (const column of OWN_POSITION_COLUMNS[table] ?? []) {
          const value = copy[column] as string | null | undefined;
          if (value === null || value === undefined) continue;
          if (column === 'group_key') {
            const match = /^event:(\d+)$/.exec(String(value));
            if (match) copy[column] = `event:${positions.get(match[1]!) ?? `unknown ${match[1]}`}`;
            continue;
          }
          copy[column] = positions.get(String(value)) ?? `unknown ${String(value)}`;
        }
        return copy;
      };
      const sorted = (rows: Record<string, unknown>[]) =>
        rows.map((row) => JSON.stringify(row)).sort();
      const before = (await rowsOf(original)).map(translate);
      const after = await rowsOf(replayed);
      expect({ table, rows: before.length > 0 }).toEqual({ table, rows: true });
      expect({ table, rows: sorted(after) }).toEqual({ table, rows: sorted(before) });
    }
  });

  it('folds every replayed stream through its decider to the same state, and decides the same next events', async () => {
    const streams = [...new Set(lines.map((line) => line.streamId))];
    let folded = 0;
    for (const streamId of streams) {
      const decider = DECIDERS[parseStreamName(streamId)!.kind];
      if (!decider) continue;
      const stateIn = async (side: Side) => {
        const recorded = await side.store.readStream(streamId);
        const decoded = await Promise.all(recorded.map((e) => side.codec.codec.decode(e)));
        return {
          ids: decoded.map((e) => e.eventId),
          state: foldEvents(
            decider,
            decoded.map((e) => e.event),
          ),
        };
      };
      expect(await stateIn(replayed)).toEqual(await stateIn(original));
      folded += 1;
    }
    expect(folded).toBeGreaterThan(10);

    const decide = async (
      side: Side,
      streamId: string,
      decider: Decider<unknown, Event, unknown>,
      command: unknown,
    ) => {
      const context = { store: side.store, codec: side.codec.codec };
      const metadata: EventMetadata = {
        workspaceId: ws,
        userId: 'alice',
        causationId: 'replay-test',
        correlationId: 'replay-test',
        occurredAt: '2030-01-01T00:00:00.000Z',
      };
      try {
        const result = await handleCommand(context, streamId, decider, command, {
          metadata,
          eventIds: (events) => events.map((_, i) => `00000000-0000-4000-8000-00000000000${i}`),
        });
        return { events: result.events, state: result.state };
      } catch (error) {
        if (error instanceof StreamNotFoundError) throw error;
        return { refused: (error as Error).message };
      }
    };
    // A retried message is recognised (same ids, same state): nothing new on either side.
    const message = lines.find((line) => line.type === 'MessageRecorded')!;
    const retry = { type: 'RecordMessage', data: message.data };
    const retried = await decide(original, message.streamId, DECIDERS.message!, retry);
    expect(retried).toMatchObject({ events: [] });
    expect(await decide(replayed, message.streamId, DECIDERS.message!, retry)).toEqual(retried);
    // A transition the history forbids is refused alike; an allowed one decides the same events.
    const executed = lines.find((line) => line.type === 'ActionExecuted')!;
    const confirm = { type: 'ConfirmAction', channel: 'web', now: '2030-01-01T00:00:00.000Z' };
    const refused = await decide(original, executed.streamId, DECIDERS.action!, confirm);
    expect(refused).toEqual({ refused: expect.stringContaining('executed') });
    expect(await decide(replayed, executed.streamId, DECIDERS.action!, confirm)).toEqual(refused);
    const approved = [...lines].reverse().find((line) => line.type === 'MemoryApproved')!;
    const remove = {
      type: 'DeleteMemory',
      by: { kind: 'person', userId: 'alice', role: 'user' },
      reason: 'deleted',
    };
    const deleted = await decide(original, approved.streamId, DECIDERS.memory!, remove);
    expect(deleted).toMatchObject({ events: [{ type: 'MemoryDeleted' }] });
    expect(await decide(replayed, approved.streamId, DECIDERS.memory!, remove)).toEqual(deleted);
  });
});
