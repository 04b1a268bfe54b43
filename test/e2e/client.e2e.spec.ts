import { EngramClient, EngramError } from '@engram/client';
import { eventually, startTestApp, type TestApp } from '../support/test-app';

const WS = 'w-client';

/** @engram/client against the real API over HTTP: the calls an agent, an admin and an auditor make. */
describe('@engram/client against the API', () => {
  let t: TestApp;
  let baseUrl: string;
  const client = async (userId: string, roles: ('agent' | 'admin' | 'auditor' | 'user')[]) =>
    new EngramClient({
      baseUrl,
      workspace: WS,
      token: await t.token({ userId, workspaceId: WS, roles }),
    });

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    baseUrl = await t.app.getUrl();
  });
  afterAll(() => t.close());

  it('records a message and reads it back in the context at once (minPosition), as messages too', async () => {
    const alice = (await client('chat-web', ['agent'])).user('alice');

    const recorded = await alice.recordMessage({
      sessionId: 's1',
      role: 'user',
      channel: 'web',
      agentId: 'chat-web',
      text: 'Je préfère les réponses courtes.',
    });
    // No polling: the client sent the write's position as minPosition.
    const context = await alice.context({ sessionId: 's1' });
    const messages = await alice.context({ sessionId: 's1', format: 'messages' });
    const without = await alice.context({
      sessionId: 's1',
      format: 'messages',
      excludeMessageId: recorded.messageId,
    });

    expect(context.liveWindow.map((m) => m.messageId)).toEqual([recorded.messageId]);
    expect(messages.messages.at(-1)).toMatchObject({
      role: 'user',
      content: 'Je préfère les réponses courtes.',
    });
    expect(messages.messages[0]?.role).toBe('system');
    expect(without.messages.map((m) => m.role)).toEqual(['system']);
  });

  it('answers a repeated message with its first result (the id the client made is kept)', async () => {
    const alice = (await client('chat-web', ['agent'])).user('alice');
    const message = { sessionId: 's2', role: 'user', channel: 'web', text: 'Bonjour' } as const;

    const first = await alice.recordMessage(message);
    const again = await alice.recordMessage({ ...message, messageId: first.messageId });
    const conflict = await alice
      .recordMessage({ ...message, text: 'Autre chose', messageId: first.messageId })
      .catch((error: unknown) => error);

    expect(again).toEqual(first);
    expect(conflict).toBeInstanceOf(EngramError);
    expect(conflict).toMatchObject({ status: 409, code: 'idempotency_conflict' });
    expect((conflict as EngramError).correlationId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('proposes actions, lists the pending ones page by page, confirms one on the web, reads it back', async () => {
    const bob = (await client('assistant', ['agent'])).user('bob');
    const propose = (summary: string) =>
      bob.proposeAction({
        tool: 'send_email',
        target: 'delphine@acme.fr',
        summary,
        channel: 'telegram',
      });

    const first = await propose('Relance facture Q2');
    const second = await propose('Relance facture Q3');
    const pending: string[] = [];
    for await (const action of bob.pendingActions({ limit: 1 })) pending.push(action.actionId);
    const confirmed = await bob.confirmAction(first.actionId, { channel: 'web' });
    const read = await bob.getAction(first.actionId);
    const twice = await bob
      .confirmAction(first.actionId, { channel: 'web' })
      .catch((e: unknown) => e);
    const recalled = await bob.recallActions({ query: 'facture' });

    expect(first.status).toBe('pending');
    expect(pending).toEqual([second.actionId, first.actionId]);
    expect(confirmed.status).toBe('confirmed');
    expect(read).toMatchObject({
      actionId: first.actionId,
      status: 'confirmed',
      requestedVia: 'telegram',
    });
    expect(twice).toMatchObject({ status: 409 });
    expect(recalled.actions.map((a) => a.actionId).sort()).toEqual(
      [first.actionId, second.actionId].sort(),
    );
  });

  it('lets an admin set the policy, issue a key an agent uses, and review what it learnt; the user deletes it', async () => {
    const admin = await client('root', ['admin']);
    const carol = await client('carol', ['user']);

    const changed = await admin.setMemoryPolicy({ reviewMode: 'admin', pendingTtlDays: 3 });
    const policy = await admin.memoryPolicy();
    // Nobody listens there: the approval's delivery is recorded all the same, and retried.
    const webhook = await admin.registerWebhook({
      url: 'http://127.0.0.1:9/engram',
      events: ['memory.approved'],
    });
    const issued = await admin.createAgentKey('chat-web', 'e2e');
    const agent = new EngramClient({ baseUrl, workspace: WS, token: issued.key });
    await agent.user('carol').recordMessage({
      sessionId: 's1',
      role: 'user',
      channel: 'web',
      agentId: 'chat-web',
      text: "J'habite à Lyon.",
    });
    const queue = await eventually(
      async () => {
        const items = [];
        for await (const item of admin.reviewQueue({ status: 'pending', userId: 'carol' })) {
          items.push(item);
        }
        return items;
      },
      (items) => items.length > 0,
    );
    const decision = await admin.approveMemory(queue[0]!.memoryId);
    // Another client (carol's): it knows nothing of the admin's write, so it waits for the projection.
    const mine = await eventually(
      () => carol.myMemories({ status: 'approved' }),
      (list) => list.items.length > 0,
    );
    await carol.deleteMyMemory(queue[0]!.memoryId);
    const after = await carol.myMemories({ status: 'approved' });
    const webhooks = await admin.webhooks();
    const deliveries = await eventually(
      async () => {
        const items = [];
        for await (const delivery of admin.webhookDeliveries(webhook.id)) items.push(delivery);
        return items;
      },
      (items) => items.length > 0,
    );
    await admin.removeWebhook(webhook.id);
    // A 204 answers no position to wait for: the list shows the removal a moment later.
    const removed = await eventually(
      () => admin.webhooks(),
      (list) => list.items.length === 0,
    );
    const agents = await admin.agents();
    const keys = await admin.agentKeys('chat-web');
    await admin.revokeAgentKey('chat-web', issued.id);
    const refused = await agent
      .user('carol')
      .context()
      .catch((e: unknown) => e);

    expect(changed.position).toBeGreaterThan(0);
    expect(policy).toMatchObject({ reviewMode: 'admin', pendingTtlDays: 3 });
    expect(decision.status).toBe('approved');
    expect(mine.items.map((m) => m.memoryId)).toEqual([queue[0]!.memoryId]);
    expect(after.items).toEqual([]);
    expect(agents.items.map((a) => a.agentId)).toContain('chat-web');
    expect(webhooks.items.map((w) => w.id)).toEqual([webhook.id]);
    expect(deliveries.map((d) => [d.event, d.userId])).toEqual([['memory.approved', 'carol']]);
    expect(removed.items).toEqual([]);
    expect(keys.items.map((k) => k.id)).toEqual([issued.id]);
    expect(refused).toMatchObject({ status: 401 });
  });

  it('streams a user’s export to an auditor, then erases them', async () => {
    const agent = (await client('chat-web', ['agent'])).user('dave');
    const recorded = await agent.recordMessage({
      sessionId: 's1',
      role: 'user',
      channel: 'web',
      text: 'Coucou',
    });
    const auditor = (await client('auditor', ['auditor'])).user('dave');

    const exported = [];
    for await (const event of auditor.export()) exported.push(event);
    const erased = await auditor.erase();

    expect(exported).toContainEqual(
      expect.objectContaining({
        type: 'MessageRecorded',
        position: recorded.position,
        data: expect.objectContaining({ text: 'Coucou' }),
      }),
    );
    expect(erased.status).toBe('erased');
  });
});
