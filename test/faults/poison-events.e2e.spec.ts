import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createDataSource } from '@engram/database';
import {
  operationsStream,
  parkedEventDecider,
  userStream,
  type Event,
  type ParkedEventCommand,
} from '@engram/domain';
import { EventCodec, handleCommand, type EventStore } from '@engram/event-store';
import { EVENT_STORE } from '@engram/platform';
import {
  PROJECTIONS,
  READ_MODEL_ENTITIES,
  listParked,
  partitionIndexOf,
  resetProjection,
} from '@engram/projections';
import type { DataSource } from 'typeorm';
import { readModelHashes } from '../support/read-model-hashes';
import { eventually, startTestApp, type TestApp } from '../support/test-app';

const WS = 'wp';
const PARTITIONS = 4;
const AT = '2026-06-10T10:00:00.000Z';

/**
 * Events the API would now refuse, appended straight into the store as an attacker with store access
 * (or an older version of the API) could: a text with a lone surrogate (PostgreSQL refuses it in
 * json) and a date past year 9999 in UTC. Their owners are parked; everyone else keeps flowing.
 */
describe('poison events (fault test)', () => {
  let t: TestApp;
  let store: EventStore;
  let codec: EventCodec;
  let projector: DataSource;
  let agent: string;

  const partitionOf = (userId: string) => partitionIndexOf({ workspaceId: WS, userId }, PARTITIONS);

  /** The first user whose partition passes `wanted`. */
  function userIn(wanted: (partition: number) => boolean): string {
    for (let i = 0; ; i += 1) if (wanted(partitionOf(`user-${i}`))) return `user-${i}`;
  }

  async function appendRaw(userId: string, text: string, occurredAt = AT): Promise<bigint> {
    const messageId = randomUUID();
    const event: Event = {
      type: 'MessageRecorded',
      data: { messageId, sessionId: 's1', role: 'user', channel: 'web', text },
    };
    const record = await codec.encode({
      eventId: messageId,
      event,
      metadata: { workspaceId: WS, userId, causationId: 'c', correlationId: 'c', occurredAt },
    });
    const result = await store.appendToStream(
      userStream(WS, userId, 'message', messageId),
      [record],
      { expectedRevision: 'no_stream' },
    );
    return result.position;
  }

  async function post(userId: string, text: string): Promise<number> {
    const response = await request(t.http)
      .post(`/v1/workspaces/${WS}/users/${userId}/messages`)
      .auth(agent, { type: 'bearer' })
      .send({ sessionId: 's1', role: 'user', channel: 'web', text })
      .expect(202);
    return (response.body as { position: number }).position;
  }

  async function liveWindow(userId: string, minPosition?: number) {
    const response = await request(t.http)
      .get(`/v1/workspaces/${WS}/users/${userId}/context`)
      .query({ sessionId: 's1', ...(minPosition === undefined ? {} : { minPosition }) })
      .auth(agent, { type: 'bearer' });
    return {
      status: response.status,
      texts: ((response.body as { liveWindow?: { text: string }[] }).liveWindow ?? []).map(
        (line) => line.text,
      ),
    };
  }

  const decide = (command: ParkedEventCommand) =>
    handleCommand({ store, codec }, operationsStream(WS), parkedEventDecider, command, {
      metadata: {
        workspaceId: WS,
        userId: 'ops',
        causationId: 'c',
        correlationId: 'c',
        occurredAt: AT,
      },
    });

  async function behind(): Promise<number> {
    const [row] = await projector.query<{ behind: string }[]>(
      `SELECT count(*) AS behind FROM projection_checkpoints, event_store_head
        WHERE projection_checkpoints.position < event_store_head.position`,
    );
    return Number(row!.behind);
  }

  beforeAll(async () => {
    t = await startTestApp({ ENGRAM_PARTITIONS: String(PARTITIONS) });
    store = t.app.get<EventStore>(EVENT_STORE);
    codec = t.app.get(EventCodec);
    projector = await createDataSource(
      t.database.projectorUrl,
      READ_MODEL_ENTITIES,
      2,
    ).initialize();
    agent = await t.token({ userId: 'agent', workspaceId: WS, roles: ['agent'] });
  });

  afterAll(async () => {
    await projector.destroy();
    await t.close();
  });

  it('parks the poisoned owners, keeps everyone else flowing, and resumes them on skip; a rebuild gives the same read models', async () => {
    const surrogate = await appendRaw('mallory', 'bonjour \ud800');
    await appendRaw('oscar', 'hello', '9999-12-31T23:00:00-12:00');
    await appendRaw('mallory', 'plus tard');

    // Another partition: not delayed at all; the same partition: delayed by the retries only.
    const poisoned = new Set([partitionOf('mallory'), partitionOf('oscar')]);
    expect(poisoned.size).toBeLessThan(PARTITIONS);
    const other = userIn((partition) => !poisoned.has(partition));
    let started = Date.now();
    expect((await liveWindow(other, await post(other, 'autre partition'))).texts).toEqual([
      'autre partition',
    ]);
    const otherMs = Date.now() - started;
    const same = userIn((partition) => partition === partitionOf('mallory'));
    started = Date.now();
    const samePosition = await post(same, 'même partition');
    const reached = await eventually(
      () => liveWindow(same, samePosition),
      (answer) => answer.status === 200,
      20_000,
    );
    expect(reached.texts).toEqual(['même partition']);
    process.stdout.write(
      `poison events: write → context of a user of another partition ${otherMs} ms, ` +
        `of the poisoned owner's partition ${Date.now() - started} ms (the culprit found and parked)\n`,
    );

    const parked = await eventually(
      () => listParked(projector.manager),
      (rows) =>
        rows.some((row) => row.userId === 'oscar') &&
        rows.some((row) => row.userId === 'mallory' && row.consumer === 'session_messages'),
      30_000,
    );
    const mallory = parked.find(
      (row) => row.userId === 'mallory' && row.consumer === 'session_messages',
    )!;
    expect(mallory).toMatchObject({ position: surrogate, eventType: 'MessageRecorded' });
    expect(mallory.error).not.toContain('bonjour');
    // Her later message waits behind the parked one.
    expect((await liveWindow('mallory')).texts).toEqual([]);

    const health = await request(t.http).get('/health').expect(200);
    expect(health.body).toMatchObject({
      status: 'ok',
      info: { backgroundProcessing: { status: 'up', state: 'degraded' } },
    });
    const metrics = await request(t.http).get('/metrics').expect(200);
    expect(metrics.text).toMatch(/engram_parked_events\{consumer="session_messages"\} [1-9]/);

    // A retry without a fix parks the event again, one more try counted.
    await decide({
      type: 'RetryParkedEvent',
      ref: {
        consumer: 'session_messages',
        workspaceId: WS,
        userId: 'mallory',
        eventId: mallory.eventId,
      },
      requestedBy: 'ops',
    });
    await eventually(
      () => listParked(projector.manager),
      (rows) =>
        rows.some(
          (row) =>
            row.consumer === 'session_messages' &&
            row.userId === 'mallory' &&
            row.attempts > mallory.attempts,
        ),
    );

    // Skipping every parked event resumes both owners.
    for (const row of await listParked(projector.manager)) {
      await decide({
        type: 'SkipParkedEvent',
        ref: {
          consumer: row.consumer,
          workspaceId: row.workspaceId,
          userId: row.userId,
          eventId: row.eventId,
        },
        requestedBy: 'ops',
        reason: 'unstorable input from before the API refused it',
      });
    }
    await eventually(
      () => listParked(projector.manager),
      (rows) => rows.length === 0,
      30_000,
    );
    expect((await liveWindow('mallory')).texts).toEqual(['plus tard']);
    await eventually(behind, (count) => count === 0, 20_000);
    const healthy = await request(t.http).get('/health').expect(200);
    expect(healthy.body).toMatchObject({ info: { backgroundProcessing: { state: 'ok' } } });

    // A full rebuild meets the poison again, parks it, then the skips in the log: the same rows.
    const before = await readModelHashes(t.database.ownerUrl);
    for (const projection of PROJECTIONS) await resetProjection(projector, projection);
    // Any append wakes the runners; an operator's decision about nothing parked changes no row.
    await decide({
      type: 'RetryParkedEvent',
      ref: {
        consumer: 'session_messages',
        workspaceId: WS,
        userId: 'nobody',
        eventId: randomUUID(),
      },
      requestedBy: 'ops',
    });
    await eventually(
      async () => (await behind()) + (await listParked(projector.manager)).length,
      (count) => count === 0,
      60_000,
    );
    expect(await readModelHashes(t.database.ownerUrl)).toEqual(before);
  }, 180_000);
});
