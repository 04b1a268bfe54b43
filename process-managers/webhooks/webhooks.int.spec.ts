import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { KeyStore, workspaceSecrets } from '@engram/crypto';
import {
  actionDecider,
  erasureDecider,
  fixedClock,
  memoryDecider,
  userStream,
  webhookDecider,
  workspaceStream,
  type EventMetadata,
  type ReviewMode,
  type WebhookEventType,
} from '@engram/domain';
import { createResilientPool, handleCommand } from '@engram/event-store';
import { ReactorRunner } from '../runner/reactor-runner';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { TEST_MASTER_KEY } from '../../test/support/test-runtime';
import {
  buildWorkerDeps,
  catchUpProjections,
  type WorkerDeps,
} from '../../test/support/worker-deps';
import { detectCandidate } from '../../test/support/user-events';
import { WebhookDispatcher, webhookSecretName } from './webhook-delivery.job';
import { WEBHOOK_MAX_ATTEMPTS } from './webhook-retries';
import { webhooksReactor } from './webhooks.reactor';

/**
 * The webhooks process manager and its delivery job against the real database, with local HTTP
 * receivers: events in the log → one signed delivery per subscribed endpoint, retried with the same
 * id, enqueued once whatever the restarts and replays, and a dead endpoint delaying no other.
 */

type Received = Readonly<{ headers: IncomingMessage['headers']; body: string; at: number }>;

/** A node:http receiver; `answer` decides each response (or never answers). */
class Receiver {
  readonly received: Received[] = [];
  answer: (request: Received) => number | 'hang' = () => 200;
  private readonly hanging: ServerResponse[] = [];
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const got = {
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        this.received.push(got);
        const status = this.answer(got);
        if (status === 'hang') this.hanging.push(response);
        else response.writeHead(status).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  bodies(): Record<string, unknown>[] {
    return this.received.map((got) => JSON.parse(got.body) as Record<string, unknown>);
  }

  async stop(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

const WS = 'w1';
const SECRETS = { all: 'whsec_all_0123456789', actions: 'whsec_actions_0123456789' };

function verify(secret: string, got: Received): boolean {
  const timestamp = got.headers['engram-timestamp'] as string;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${got.body}`).digest('hex');
  return got.headers['engram-signature'] === `v1=${expected}`;
}

describe('webhooks process manager and delivery job (real database, local receivers)', () => {
  let database: TestDatabase;
  let owner: Client;
  let deps: WorkerDeps;
  let keyPool: ReturnType<typeof createResilientPool>;
  let projectorKeyPool: ReturnType<typeof createResilientPool>;
  const clock = fixedClock('2026-06-08T16:00:00.000Z');
  const all = new Receiver();
  const actions = new Receiver();
  const hooks = { all: randomUUID(), actions: randomUUID() };
  let dispatcher: WebhookDispatcher;

  function metadata(userId: string): EventMetadata {
    return {
      workspaceId: WS,
      userId,
      causationId: randomUUID(),
      correlationId: randomUUID(),
      occurredAt: clock.now().toISO()!,
    };
  }

  async function register(
    webhookId: string,
    url: string,
    secret: string,
    events: WebhookEventType[],
  ) {
    const sealedSecret = await workspaceSecrets(new KeyStore(keyPool, TEST_MASTER_KEY)).seal(
      WS,
      webhookSecretName(webhookId),
      secret,
    );
    await handleCommand(
      deps,
      workspaceStream(WS, 'webhook', webhookId),
      webhookDecider,
      { type: 'RegisterWebhook', webhookId, url, events, sealedSecret, registeredBy: 'root' },
      { metadata: metadata('root') },
    );
  }

  async function expireAction(userId: string): Promise<string> {
    const actionId = randomUUID();
    const stream = userStream(WS, userId, 'action', actionId);
    await handleCommand(
      deps,
      stream,
      actionDecider,
      {
        type: 'ProposeAction',
        data: {
          actionId,
          tool: 'gmail_send',
          target: 'delphine@acme.fr',
          summary: 'Relance facture',
          channel: 'telegram',
          requiresConfirmation: true,
          expiresAt: clock.now().plus({ minutes: 1 }).toISO()!,
        },
      },
      { metadata: metadata(userId) },
    );
    await handleCommand(
      deps,
      stream,
      actionDecider,
      { type: 'ExpireAction', now: clock.now().plus({ minutes: 2 }).toISO()! },
      { metadata: metadata(userId) },
    );
    return actionId;
  }

  async function detect(userId: string, mode: ReviewMode): Promise<string> {
    return (await detectCandidate(deps, metadata(userId), mode)).memoryId;
  }

  function memoryCommand(
    userId: string,
    memoryId: string,
    command: Parameters<typeof memoryDecider.decide>[0],
  ) {
    return handleCommand(deps, userStream(WS, userId, 'memory', memoryId), memoryDecider, command, {
      metadata: metadata(userId),
    });
  }

  /** The worker's reaction: projections caught up, then a runner of the reactor from its checkpoint. */
  async function react(using: WorkerDeps = deps): Promise<void> {
    await catchUpProjections(using);
    await new ReactorRunner(
      { store: using.store, codec: using.codec, dataSource: using.dataSource },
      webhooksReactor(using),
    ).catchUp();
  }

  async function deliveries() {
    const { rows } = await owner.query<{
      delivery_id: string;
      webhook_id: string;
      event_type: string;
      user_id: string;
      status: string;
      attempts: number;
      last_status_code: number | null;
      last_error: string | null;
      next_attempt_at: Date | null;
    }>('SELECT * FROM webhook_deliveries ORDER BY event_position, webhook_id');
    return rows;
  }

  /** Passes of the job until nothing due is left (each starts at most 2 attempts per endpoint). */
  async function deliverNow(): Promise<void> {
    while ((await dispatcher.tick()) > 0) await dispatcher.idle();
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    owner = new Client({ connectionString: database.ownerUrl });
    await owner.connect();
    deps = await buildWorkerDeps(database, clock);
    keyPool = createResilientPool({ connectionString: database.appUrl, max: 2 });
    // The deliverer opens secrets as the worker does: the projector role, which only reads keys.
    projectorKeyPool = createResilientPool({ connectionString: database.projectorUrl, max: 2 });
    dispatcher = new WebhookDispatcher(
      {
        dataSource: deps.dataSource,
        clock,
        secrets: workspaceSecrets(new KeyStore(projectorKeyPool, TEST_MASTER_KEY)),
      },
      { timeoutMs: 2_000, random: () => 0.5 },
    );
    await register(hooks.all, await all.start(), SECRETS.all, [
      'action.expired',
      'memory.pending_review',
      'memory.approved',
      'memory.rejected',
      'user.erased',
    ]);
    await register(hooks.actions, await actions.start(), SECRETS.actions, ['action.expired']);
  });

  afterAll(async () => {
    await all.stop();
    await actions.stop();
    await deps.close();
    await keyPool.end();
    await projectorKeyPool.end();
    await owner.end();
    await database.drop();
  });

  it('enqueues one delivery per subscribed endpoint, and sends each signed, with ids and statuses only', async () => {
    const actionId = await expireAction('alice');
    const pending = await detect('alice', 'admin');
    await detect('alice', 'auto'); // approved at once by the policy: approved, never pending review
    await memoryCommand('alice', pending, {
      type: 'ApproveMemory',
      by: { kind: 'person', userId: 'root', role: 'admin' },
    });
    const expiring = await detect('bob', 'user');
    await memoryCommand('bob', expiring, { type: 'ExpireMemory' });
    await react();

    const rows = await deliveries();
    const label = (row: (typeof rows)[number]) =>
      `${row.event_type} → ${row.webhook_id === hooks.all ? 'all' : 'actions'}`;
    expect(rows.map(label).sort()).toEqual([
      'action.expired → actions',
      'action.expired → all',
      'memory.approved → all',
      'memory.approved → all',
      'memory.pending_review → all',
      'memory.pending_review → all',
      'memory.rejected → all',
    ]);
    expect(rows.every((row) => row.status === 'pending' && row.attempts === 0)).toBe(true);

    await deliverNow();
    expect(all.received).toHaveLength(6);
    expect(actions.received).toHaveLength(1);
    for (const got of all.received) expect(verify(SECRETS.all, got)).toBe(true);
    expect(verify(SECRETS.actions, actions.received[0]!)).toBe(true);
    expect(verify(SECRETS.all, actions.received[0]!)).toBe(false);

    const [expired] = actions.bodies();
    expect(expired).toEqual({
      id: actions.received[0]!.headers['engram-delivery-id'],
      type: 'action.expired',
      occurredAt: expect.any(String),
      workspaceId: WS,
      userId: 'alice',
      data: { actionId, status: 'expired', expiresAt: expect.any(String) },
    });
    expect(actions.received[0]!.headers).toMatchObject({
      'engram-webhook-id': hooks.actions,
      'content-type': 'application/json',
      'engram-timestamp': String(Math.floor(clock.now().toSeconds())),
    });
    const types = all.bodies().map((body) => [body.type, body.data]);
    expect(types).toEqual(
      expect.arrayContaining([
        [
          'memory.pending_review',
          { memoryId: pending, status: 'pending', kind: 'preference', confidence: 0.7 },
        ],
        [
          'memory.approved',
          {
            memoryId: pending,
            status: 'approved',
            by: { kind: 'person', userId: 'root', role: 'admin' },
          },
        ],
        [
          'memory.rejected',
          { memoryId: expiring, status: 'rejected', reason: 'expired', by: { kind: 'expiry' } },
        ],
      ]),
    );
    // No personal text travels: not the memory's content, not the action's summary or target.
    const everything = [...all.received, ...actions.received].map((got) => got.body).join('\n');
    expect(everything).not.toMatch(/short answers|Relance|delphine/);
    expect(
      (await deliveries()).every((row) => row.status === 'delivered' && row.attempts === 1),
    ).toBe(true);
  });

  it('retries a delivery the receiver refused, with backoff and the same delivery id', async () => {
    let refused = 0;
    all.answer = () => (refused++ === 0 ? 500 : 200);
    all.received.length = 0;
    await expireAction('carol');
    await react();
    await deliverNow();
    const [first] = all.received;
    let row = (await deliveries()).find(
      (r) => r.delivery_id === first!.headers['engram-delivery-id'],
    );
    expect(row).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status_code: 500,
      last_error: 'HTTP 500',
    });
    // 30 s after the first attempt (jitter 0 with random 0.5): not due before.
    expect(row!.next_attempt_at!.getTime() - clock.now().toMillis()).toBe(30_000);
    await deliverNow();
    expect(all.received).toHaveLength(1);
    clock.advance(30_000);
    await deliverNow();
    expect(all.received).toHaveLength(2);
    expect(all.received[1]!.headers['engram-delivery-id']).toBe(
      first!.headers['engram-delivery-id'],
    );
    expect(all.received[1]!.body).toBe(first!.body);
    expect(verify(SECRETS.all, all.received[1]!)).toBe(true);
    row = (await deliveries()).find((r) => r.delivery_id === first!.headers['engram-delivery-id']);
    expect(row).toMatchObject({
      status: 'delivered',
      attempts: 2,
      last_status_code: 200,
      last_error: null,
    });
    all.answer = () => 200;
  });

  it('gives up after the last attempt: failed, kept in the log', async () => {
    const dead = new Receiver();
    const url = await dead.start();
    await dead.stop(); // nothing listens there any more
    const hook = randomUUID();
    await register(hook, url, 'whsec_dead_0123456789', ['user.erased']);
    await handleCommand(
      deps,
      userStream(WS, 'dave', 'erasure', 'record'),
      erasureDecider,
      {
        type: 'EraseUser',
        requestedBy: 'auditor',
      },
      { metadata: metadata('dave') },
    );
    await react();
    for (let attempt = 1; attempt <= WEBHOOK_MAX_ATTEMPTS; attempt += 1) {
      await deliverNow();
      clock.advance(9 * 3600_000);
    }
    const row = (await deliveries()).find((r) => r.webhook_id === hook);
    expect(row).toMatchObject({
      event_type: 'user.erased',
      user_id: 'dave',
      status: 'failed',
      attempts: WEBHOOK_MAX_ATTEMPTS,
      last_status_code: null,
      last_error: 'ECONNREFUSED',
      next_attempt_at: null,
    });
  });

  it('a restart (new runner, even replaying from the start) enqueues nothing twice and misses nothing', async () => {
    const before = await deliveries();
    const restarted = await buildWorkerDeps(database, clock);
    try {
      await react(restarted);
      expect(await deliveries()).toEqual(before);
      // A replay of the whole log: the same deliveries, none twice.
      await owner.query(
        `UPDATE projection_checkpoints SET position = 0 WHERE name LIKE 'reactor:webhooks%'`,
      );
      await react(restarted);
      expect((await deliveries()).map((row) => row.delivery_id)).toEqual(
        before.map((row) => row.delivery_id),
      );
      // What happened while no worker ran is enqueued by the next one.
      await expireAction('erin');
      await react(restarted);
      const after = await deliveries();
      expect(after).toHaveLength(before.length + 2);
      expect(after.slice(-2).map((row) => [row.event_type, row.user_id])).toEqual([
        ['action.expired', 'erin'],
        ['action.expired', 'erin'],
      ]);
    } finally {
      await restarted.close();
    }
    await deliverNow();
  });

  it('an endpoint that never answers delays no other endpoint', async () => {
    const silent = new Receiver();
    silent.answer = () => 'hang';
    const hook = randomUUID();
    await register(hook, await silent.start(), 'whsec_silent_0123456789', ['action.expired']);
    actions.received.length = 0;
    const stop = new AbortController();
    const running = new WebhookDispatcher(
      {
        dataSource: deps.dataSource,
        clock,
        secrets: workspaceSecrets(new KeyStore(projectorKeyPool, TEST_MASTER_KEY)),
      },
      // The silent endpoint's timeout far beyond the test's length: under load the two rounds took
      // more than a shorter one, its first attempt ended and the second was claimed (attempts [1, 1]).
      // Stopping aborts the held request, so the long timeout costs nothing.
      { timeoutMs: 60_000, pollMs: 50, perEndpoint: 1 },
    ).run(stop.signal);
    try {
      for (const [index, user] of ['frank', 'gina'].entries()) {
        const sent = Date.now();
        await expireAction(user);
        await react();
        const deadline = Date.now() + 2_000;
        while (
          (actions.received.length < index + 1 || silent.received.length < 1) &&
          Date.now() < deadline
        ) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        // Delivered well within the silent endpoint's timeout, while it still holds its request.
        expect(actions.received).toHaveLength(index + 1);
        expect(actions.received[index]!.at - sent).toBeLessThan(2_000);
        expect(silent.received).toHaveLength(1);
      }
      // While the first request hangs, the silent endpoint's second delivery waits its turn.
      const silentRows = (await deliveries()).filter((row) => row.webhook_id === hook);
      expect(silentRows.map((row) => row.attempts).sort()).toEqual([0, 1]);
    } finally {
      stop.abort();
      await running;
      await silent.stop();
    }
    // Stopping aborts the hanging request and claims nothing more: the second was never attempted.
    const stopped = (await deliveries()).filter((row) => row.webhook_id === hook);
    expect(stopped.map((row) => row.attempts).sort()).toEqual([0, 1]);
  });
});
