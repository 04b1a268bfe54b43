import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DateTime } from 'luxon';
import {
  DomainConflictError,
  actionDecider,
  fixedClock,
  userStream,
  type ActionCommand,
  type ActionProposed,
  type Clock,
  type EventMetadata,
} from '@engram/domain';
import { handleCommand } from '@engram/event-store';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { expirePendingActions } from './action-expiry.job';
import {
  buildWorkerDeps,
  catchUpProjections,
  type WorkerDeps,
} from '../../test/support/worker-deps';

/**
 * The pending-action expiry job against a real database: the event store (app role), the read models
 * (projector role) and every projection caught up by hand between runs. The tests share one history
 * and run in order; time only moves forward, through the injected clock.
 */

const T0 = DateTime.fromISO('2026-06-08T16:00:00.000Z', { zone: 'utc' });
const at = (minutes: number) => T0.plus({ minutes }).toUTC().toISO()!;

type Owner = Readonly<{ workspaceId: string; userId: string }>;
const ALICE: Owner = { workspaceId: 'w1', userId: 'alice' };
const BOB: Owner = { workspaceId: 'w1', userId: 'bob' };
const CAROL: Owner = { workspaceId: 'w2', userId: 'carol' };

type Deps = WorkerDeps;

describe('action expiry job (real database)', () => {
  let database: TestDatabase;
  let owner: Client;
  const clock = fixedClock(at(0));
  /** The clock of the worker started again after the restart. */
  const restartedClock = fixedClock(at(120));
  let deps: Deps;
  /** Action ids by a short name used in the test. */
  const ids = new Map<string, { owner: Owner; actionId: string; expiresAt?: string }>();

  /** A fresh set of dependencies, as a worker process builds them at start. */
  function buildDeps(withClock: Clock): Promise<Deps> {
    return buildWorkerDeps(database, withClock);
  }

  function metadata(name: string, occurredAt: string): EventMetadata {
    const { owner: who } = ids.get(name)!;
    return {
      workspaceId: who.workspaceId,
      userId: who.userId,
      traceId: `trace-${name}`,
      channel: 'telegram',
      causationId: randomUUID(),
      correlationId: randomUUID(),
      occurredAt,
    };
  }

  function actionCommand(name: string, command: ActionCommand, occurredAt: string) {
    const { owner: who, actionId } = ids.get(name)!;
    return handleCommand(
      deps,
      userStream(who.workspaceId, who.userId, 'action', actionId),
      actionDecider,
      command,
      { metadata: metadata(name, occurredAt) },
    );
  }

  /** An action proposed at `occurredAt` (pending unless no confirmation is required). */
  async function propose(
    name: string,
    who: Owner,
    occurredAt: string,
    fields: Partial<Pick<ActionProposed['data'], 'requiresConfirmation' | 'expiresAt'>>,
  ) {
    const actionId = randomUUID();
    ids.set(name, {
      owner: who,
      actionId,
      ...(fields.expiresAt ? { expiresAt: fields.expiresAt } : {}),
    });
    const result = await actionCommand(
      name,
      {
        type: 'ProposeAction',
        data: {
          actionId,
          tool: 'gmail_send',
          target: 'delphine@acme.fr',
          summary: `Relance facture ${name}`,
          channel: 'telegram',
          requiresConfirmation: true,
          ...fields,
        },
      },
      occurredAt,
    );
    expect(result.events.map((event) => event.type)).toEqual(['ActionProposed']);
  }

  const confirm = (name: string, now: string) =>
    actionCommand(name, { type: 'ConfirmAction', channel: 'web', now }, now);

  function catchUp(using: Deps = deps): Promise<void> {
    return catchUpProjections(using);
  }

  /** ActionExpired events stored per action name (counted in the events table itself). */
  async function expiredEvents(): Promise<Record<string, number>> {
    const result = await owner.query<{ action_id: string; count: string }>(
      `SELECT data->>'actionId' AS action_id, count(*) AS count FROM events
        WHERE type = 'ActionExpired' GROUP BY 1`,
    );
    const byId = new Map(result.rows.map((r) => [r.action_id, Number(r.count)]));
    return Object.fromEntries(
      [...ids].flatMap(([name, { actionId }]) =>
        byId.has(actionId) ? [[name, byId.get(actionId)!]] : [],
      ),
    );
  }

  async function totalExpiredEvents(): Promise<number> {
    const result = await owner.query<{ count: string }>(
      `SELECT count(*) AS count FROM events WHERE type = 'ActionExpired'`,
    );
    return Number(result.rows[0]!.count);
  }

  /** The stored ActionExpired event of an action, straight from the events table. */
  async function expiredEvent(name: string) {
    const { actionId } = ids.get(name)!;
    const result = await owner.query<{
      stream_id: string;
      data: Record<string, unknown>;
      metadata: Record<string, unknown>;
    }>(
      `SELECT stream_id, data, metadata FROM events
        WHERE type = 'ActionExpired' AND data->>'actionId' = $1`,
      [actionId],
    );
    expect(result.rows).toHaveLength(1);
    return result.rows[0]!;
  }

  async function row(name: string) {
    const { owner: who, actionId } = ids.get(name)!;
    const rows = await deps.dataSource.query<
      { status: string; steps: { status: string; channel: string | null; at: string }[] }[]
    >(
      `SELECT status, steps FROM actions
        WHERE workspace_id = $1 AND user_id = $2 AND action_id = $3`,
      [who.workspaceId, who.userId, actionId],
    );
    return rows[0];
  }

  async function expectExpiredRow(name: string, iso: string) {
    const current = await row(name);
    expect(current?.status).toBe('expired');
    expect(current?.steps.at(-1)).toEqual({ status: 'expired', channel: null, at: iso });
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    owner = new Client({ connectionString: database.ownerUrl });
    await owner.connect();
    deps = await buildDeps(clock);

    await propose('p1', ALICE, at(0), { expiresAt: at(10) });
    await propose('p2', BOB, at(0), { expiresAt: at(20) });
    await propose('p3', ALICE, at(0), { expiresAt: at(60) }); // due "while the worker is down"
    await propose('late', CAROL, at(0), { expiresAt: at(30) });
    // Never expire: no confirmation required (confirmed at once), no expiry at all.
    await propose('direct', ALICE, at(0), { requiresConfirmation: false });
    await propose('directWithExpiry', BOB, at(0), {
      requiresConfirmation: false,
      expiresAt: at(5),
    });
    await propose('noExpiry', CAROL, at(0), {});
    // Confirmed before its expiry, after the read model caught up: the read model still says pending.
    await propose('confirmed', BOB, at(0), { expiresAt: at(15) });
    await catchUp();
    const confirmation = await confirm('confirmed', at(5));
    expect(confirmation.events.map((event) => event.type)).toEqual(['ActionConfirmed']);
  });

  afterAll(async () => {
    await deps?.close();
    await owner?.end();
    await database?.drop();
  });

  it('expires nothing before any deadline', async () => {
    clock.set(at(1));
    expect(await expirePendingActions(deps)).toBe(0);
    expect(await expiredEvents()).toEqual({});
    expect(await row('p1')).toMatchObject({ status: 'pending' });
    expect(await row('direct')).toMatchObject({ status: 'confirmed' });
    expect(await row('directWithExpiry')).toMatchObject({ status: 'confirmed' });
  });

  it('past some deadlines: exactly those expire, once each, with the proposal trace', async () => {
    clock.set(at(25));
    // p1 and p2 are due; `confirmed` (due at 15) is pending in the lagging read model but confirmed
    // in its stream: the decider records nothing for it.
    expect(await row('confirmed')).toMatchObject({ status: 'pending' });
    expect(await expirePendingActions(deps)).toBe(2);
    expect(await expiredEvents()).toEqual({ p1: 1, p2: 1 });

    for (const name of ['p1', 'p2']) {
      const event = await expiredEvent(name);
      const { owner: who, actionId, expiresAt } = ids.get(name)!;
      expect(event.stream_id).toBe(userStream(who.workspaceId, who.userId, 'action', actionId));
      expect(event.data).toEqual({ actionId, expiresAt });
      expect(event.metadata).toMatchObject({
        workspaceId: who.workspaceId,
        userId: who.userId,
        traceId: `trace-${name}`,
        occurredAt: at(25),
      });
    }

    // Again before the read model has seen it: the stream says expired, nothing is appended.
    expect(await row('p1')).toMatchObject({ status: 'pending' });
    expect(await expirePendingActions(deps)).toBe(0);
    expect(await expiredEvents()).toEqual({ p1: 1, p2: 1 });

    await catchUp();
    await expectExpiredRow('p1', at(25));
    await expectExpiredRow('p2', at(25));
    expect((await row('p1'))?.steps.map((step) => step.status)).toEqual(['pending', 'expired']);
    expect(await row('confirmed')).toMatchObject({ status: 'confirmed' });
    for (const name of ['p3', 'late', 'noExpiry'])
      expect(await row(name)).toMatchObject({ status: 'pending' });
    for (const name of ['direct', 'directWithExpiry'])
      expect(await row(name)).toMatchObject({ status: 'confirmed' });
  });

  it('refuses to confirm an action past its expiry, expired by the job or not yet', async () => {
    const before = await totalExpiredEvents();
    await expect(confirm('p1', at(26))).rejects.toThrow(DomainConflictError);
    await expect(confirm('p1', at(26))).rejects.toThrow(
      'Cannot confirm an action whose status is expired',
    );
    // `late` (due at 30) is still pending in its stream, the job has not run since: refused as well.
    await expect(confirm('late', at(31))).rejects.toThrow(DomainConflictError);
    await expect(confirm('late', at(31))).rejects.toThrow(
      `Cannot confirm an action that expired at ${at(30)}`,
    );
    expect(await totalExpiredEvents()).toBe(before);
  });

  it('across a restart: deadlines passed while the worker was down expire at the first run', async () => {
    await deps.close();
    // Down from +25 min to +2 h; the deadlines of `late` (+30) and p3 (+60) pass meanwhile.
    deps = await buildDeps(restartedClock);

    expect(await expirePendingActions(deps)).toBe(2);
    expect(await expiredEvents()).toEqual({ p1: 1, p2: 1, late: 1, p3: 1 });
    expect((await expiredEvent('p3')).metadata).toMatchObject({ traceId: 'trace-p3' });
    expect((await expiredEvent('late')).metadata).toMatchObject({ traceId: 'trace-late' });
    await catchUp();
    await expectExpiredRow('p3', at(120));
    await expectExpiredRow('late', at(120));
    expect(await expirePendingActions(deps)).toBe(0);
  });

  it('expires at most `limit` actions per run, the earliest expiry first', async () => {
    await propose('l2', ALICE, at(100), { expiresAt: at(110) });
    await propose('l1', BOB, at(100), { expiresAt: at(105) });
    await catchUp();
    expect(await expirePendingActions(deps, 1)).toBe(1);
    expect(await expiredEvents()).toHaveProperty('l1', 1);
    expect(await expiredEvents()).not.toHaveProperty('l2');
    await catchUp();
    expect(await expirePendingActions(deps, 1)).toBe(1);
    expect(await expiredEvents()).toMatchObject({ l1: 1, l2: 1 });
    await catchUp();
    expect(await expirePendingActions(deps, 1)).toBe(0);
  });

  describe('two workers at once', () => {
    let workerA: Deps;
    let workerB: Deps;
    const workerClock = fixedClock(at(240));

    beforeAll(async () => {
      workerA = await buildDeps(workerClock);
      workerB = await buildDeps(workerClock);
    });

    afterAll(async () => {
      await workerA?.close();
      await workerB?.close();
    });

    it('both running on the same due actions record one ActionExpired each', async () => {
      await propose('w1', ALICE, at(150), { expiresAt: at(180) });
      await propose('w2', BOB, at(150), { expiresAt: at(190) });
      await propose('w3', CAROL, at(150), { expiresAt: at(200) });
      await catchUp();

      const [a, b] = await Promise.all([
        expirePendingActions(workerA),
        expirePendingActions(workerB),
      ]);
      const counts = await expiredEvents();
      expect([counts.w1, counts.w2, counts.w3]).toEqual([1, 1, 1]);
      // Between them they expired all three (a worker whose append was recognised as a repeat
      // counts it too: the sum may exceed 3, never fall short).
      expect(a + b).toBeGreaterThanOrEqual(3);

      // Again before the read models caught up, then after: nothing more.
      expect(await expirePendingActions(workerA)).toBe(0);
      expect(await expirePendingActions(workerB)).toBe(0);
      await catchUp(workerB);
      for (const name of ['w1', 'w2', 'w3']) await expectExpiredRow(name, at(240));
      expect(await expiredEvents()).toMatchObject({ w1: 1, w2: 1, w3: 1 });
    });

    it('a re-run after catch-up writes nothing; actions that never expire are untouched', async () => {
      const before = await totalExpiredEvents();
      workerClock.set(at(60 * 24 * 30)); // a month later
      expect(await expirePendingActions(workerA)).toBe(0);
      expect(await expirePendingActions(workerB)).toBe(0);
      expect(await totalExpiredEvents()).toBe(before);
      expect(await expiredEvents()).toEqual({
        p1: 1,
        p2: 1,
        late: 1,
        p3: 1,
        l1: 1,
        l2: 1,
        w1: 1,
        w2: 1,
        w3: 1,
      });
      await catchUp(workerA);
      expect(await row('confirmed')).toMatchObject({ status: 'confirmed' });
      expect(await row('direct')).toMatchObject({ status: 'confirmed' });
      expect(await row('directWithExpiry')).toMatchObject({ status: 'confirmed' });
      expect(await row('noExpiry')).toMatchObject({ status: 'pending' });

      // Confirming an expired action stays refused, and writes nothing.
      await expect(confirm('w1', at(60 * 24 * 30))).rejects.toThrow(DomainConflictError);
      expect(await totalExpiredEvents()).toBe(before);
    });
  });
});
