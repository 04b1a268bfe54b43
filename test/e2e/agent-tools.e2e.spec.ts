import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { countUserEvents, eventually, startTestApp, type TestApp } from '../support/test-app';

type ToolAnswer = Record<string, unknown> & { text: string };

/** Every agent tool called by name through HTTP, with its effect checked by another tool or route. */
describe('agent tools through HTTP', () => {
  let t: TestApp;
  let telegram: string;
  let web: string;
  const ws = 'w19';
  const base = `/v1/workspaces/${ws}/users/alice`;

  beforeAll(async () => {
    t = await startTestApp();
    telegram = await t.token({ userId: 'telegram-bot', workspaceId: ws, roles: ['agent'] });
    web = await t.token({ userId: 'chat-web', workspaceId: ws, roles: ['agent'] });
  });
  afterAll(() => t.close());

  const callTool = (name: string, args: unknown, token = web, query = '') =>
    request(t.http)
      .post(`${base}/tools/${name}${query}`)
      .auth(token, { type: 'bearer' })
      .send(args as object);
  /** A 503 (read models not yet at minPosition on a loaded machine) is retried, as Retry-After says. */
  const ok = async (name: string, args: unknown, token = web, query = ''): Promise<ToolAnswer> => {
    for (let attempt = 1; ; attempt++) {
      const response = await callTool(name, args, token, query);
      if (response.status !== 503 || attempt === 5) {
        expect(response.status).toBe(200);
        return response.body as ToolAnswer;
      }
    }
  };

  it('lists every tool for OpenAI (the default), Anthropic and MCP, without a token', async () => {
    const names = [
      'get_context',
      'record_message',
      'recall_actions',
      'list_memories',
      'forget_memory',
      'propose_action',
      'update_action',
      'get_action',
      'list_pending_actions',
    ];
    const openai = (await request(t.http).get('/v1/tools').expect(200)).body as {
      type: string;
      function: { name: string; parameters: { type: string } };
    }[];
    expect(openai.map((tool) => tool.function.name)).toEqual(names);
    expect(openai.every((tool) => tool.type === 'function')).toBe(true);
    const anthropic = (await request(t.http).get('/v1/tools?format=anthropic').expect(200))
      .body as { name: string; input_schema: { type: string } }[];
    expect(anthropic.map((tool) => tool.name)).toEqual(names);
    expect(anthropic.every((tool) => tool.input_schema.type === 'object')).toBe(true);
    const mcp = (await request(t.http).get('/v1/tools?format=mcp').expect(200)).body as {
      name: string;
      inputSchema: { type: string };
    }[];
    expect(mcp.map((tool) => tool.name)).toEqual(names);
    expect(mcp.every((tool) => tool.inputSchema.type === 'object')).toBe(true);
    const bad = await request(t.http).get('/v1/tools?format=gemini').expect(400);
    expect(bad.body.message).toBe('format must be one of: openai, anthropic, mcp');
  });

  it('record_message then get_context shows it; messages format and excludeMessageId', async () => {
    const earlier = await ok('record_message', {
      sessionId: 's1',
      role: 'assistant',
      channel: 'web',
      text: 'Bonjour Alice, que puis-je faire pour toi ?',
    });
    expect(earlier.text).toBe(`Message ${String(earlier.messageId)} recorded.`);
    const messageId = randomUUID();
    const recorded = await ok('record_message', {
      messageId,
      sessionId: 's1',
      role: 'user',
      channel: 'web',
      text: 'Peux-tu relancer Delphine pour la facture ?',
    });
    expect(recorded).toEqual({
      messageId,
      traceId: expect.any(String),
      position: expect.any(Number),
      text: `Message ${messageId} recorded.`,
    });
    const read = `?minPosition=${String(recorded.position)}`;

    const context = await ok('get_context', { sessionId: 's1' }, web, read);
    const window = context.liveWindow as { messageId: string; text: string }[];
    expect(window.map((m) => m.messageId)).toContain(messageId);
    expect(context.text).toBe(context.systemPrompt);
    // The same answer as the route, text aside.
    const { text: _text, ...data } = context;
    const route = await request(t.http)
      .get(`${base}/context?sessionId=s1`)
      .auth(web, { type: 'bearer' })
      .expect(200);
    expect(route.body).toEqual(data);

    // Today's default: the turn about to be sent is in the system prompt and would be sent again.
    expect(route.body.systemPrompt).toContain('Peux-tu relancer Delphine pour la facture ?');
    const excluded = await request(t.http)
      .get(`${base}/context?sessionId=s1&excludeMessageId=${messageId}`)
      .auth(web, { type: 'bearer' })
      .expect(200);
    expect(excluded.body.systemPrompt).not.toContain('Peux-tu relancer Delphine');
    expect(excluded.body.systemPrompt).toContain('Bonjour Alice, que puis-je faire pour toi ?');
    expect(excluded.body.liveWindow.map((m: { messageId: string }) => m.messageId)).not.toContain(
      messageId,
    );

    const messages = await request(t.http)
      .get(`${base}/context?sessionId=s1&format=messages`)
      .auth(web, { type: 'bearer' })
      .expect(200);
    const chat = messages.body.messages as { role: string; content: string }[];
    expect(chat[0]!.role).toBe('system');
    expect(chat[0]!.content).not.toContain('[Conversation récente]');
    expect(chat[0]!.content).not.toContain('Peux-tu relancer Delphine');
    expect(chat.slice(1)).toEqual([
      { role: 'assistant', content: 'Bonjour Alice, que puis-je faire pour toi ?' },
      { role: 'user', content: 'Peux-tu relancer Delphine pour la facture ?' },
    ]);
    expect(messages.body).toMatchObject({ memoryStatus: 'enabled', usedMemoryIds: [] });
    expect(route.body.systemPrompt).toContain('[Conversation récente]');

    const viaTool = await ok('get_context', {
      sessionId: 's1',
      format: 'messages',
      excludeMessageId: messageId,
    });
    expect((viaTool.messages as unknown[]).slice(1)).toEqual([
      { role: 'assistant', content: 'Bonjour Alice, que puis-je faire pour toi ?' },
    ]);
    expect(viaTool.text).toBe((viaTool.messages as { content: string }[])[0]!.content);
  });

  it('propose_action → get_action → update_action confirm from another channel → list_pending_actions empty', async () => {
    const proposed = await ok(
      'propose_action',
      {
        tool: 'gmail_send',
        target: 'delphine@acme.fr',
        summary: 'Relance facture Q2',
        channel: 'telegram',
      },
      telegram,
    );
    expect(proposed).toMatchObject({ status: 'pending', expiresAt: expect.any(String) });
    const actionId = proposed.actionId as string;
    expect(proposed.text).toMatch(new RegExp(`^Action ${actionId} is pending, waiting`));
    const read = `?minPosition=${String(proposed.position)}`;

    const pending = await ok('list_pending_actions', {}, web, read);
    expect((pending.items as { actionId: string }[]).map((a) => a.actionId)).toEqual([actionId]);
    expect(pending.nextCursor).toBeNull();
    expect(pending.text).toMatch(/gmail_send/);
    const route = await request(t.http)
      .get(`${base}/actions?status=pending`)
      .auth(web, { type: 'bearer' })
      .expect(200);
    expect(route.body).toEqual({ items: pending.items, nextCursor: null });

    const got = await ok('get_action', { actionId }, web);
    expect(got).toMatchObject({ actionId, status: 'pending', requestedVia: 'telegram' });
    const viaRoute = await request(t.http)
      .get(`${base}/actions/${actionId}`)
      .auth(web, { type: 'bearer' })
      .expect(200);
    const { text: _text, ...action } = got;
    expect(viaRoute.body).toEqual(action);

    const confirmed = await ok('update_action', {
      actionId,
      transition: 'confirm',
      channel: 'web',
    });
    expect(confirmed).toEqual({
      status: 'confirmed',
      position: expect.any(Number),
      text: `Action ${actionId} is now confirmed.`,
    });
    const after = `?minPosition=${String(confirmed.position)}`;
    const none = await ok('list_pending_actions', {}, web, after);
    expect(none).toEqual({
      items: [],
      nextCursor: null,
      text: 'Aucune action en attente de confirmation.',
    });
    const steps = (await ok('get_action', { actionId }, web, after)).steps as { channel: string }[];
    expect(steps.map((s) => s.channel)).toEqual(['telegram', 'web']);

    const executed = await ok('update_action', {
      actionId,
      transition: 'execute',
      result: { messageId: 'gmail-1' },
    });
    expect(executed.status).toBe('executed');
    // A transition the action cannot take: the route's 409.
    await callTool('update_action', { actionId, transition: 'abort' }).expect(409);
  });

  it('pages the pending actions newest first with a cursor; 404s an absent action', async () => {
    const ids: string[] = [];
    let position = 0;
    for (const summary of ['one', 'two', 'three']) {
      const answer = await ok('propose_action', { tool: 'todo_add', summary, channel: 'web' });
      ids.push(answer.actionId as string);
      position = answer.position as number;
    }
    const first = await request(t.http)
      .get(`${base}/actions?status=pending&limit=2&minPosition=${position}`)
      .auth(web, { type: 'bearer' })
      .expect(200);
    expect(first.body.items.map((a: { summary: string }) => a.summary)).toEqual(['three', 'two']);
    const second = await ok('list_pending_actions', { limit: 2, cursor: first.body.nextCursor });
    expect((second.items as { summary: string }[]).map((a) => a.summary)).toEqual(['one']);
    expect(second.nextCursor).toBeNull();

    await request(t.http)
      .get(`${base}/actions/${randomUUID()}`)
      .auth(web, { type: 'bearer' })
      .expect(404);
    await callTool('get_action', { actionId: randomUUID() }).expect(404);
    await request(t.http)
      .get(`${base}/actions?status=done`)
      .auth(web, { type: 'bearer' })
      .expect(400);
  });

  it('list_memories and forget_memory', async () => {
    const said = await ok('record_message', {
      sessionId: 's2',
      role: 'user',
      channel: 'web',
      text: 'Je préfère recevoir des exemples de code en Python plutôt qu’en pseudo-code.',
    });
    const listed = await eventually(
      () => ok('list_memories', {}),
      (answer) => (answer.items as unknown[]).length > 0,
    );
    expect(said.position).toEqual(expect.any(Number));
    const memory = (listed.items as { memoryId: string; content: string; status: string }[])[0]!;
    expect(memory.content).toMatch(/Python/);
    expect(listed.text).toContain(memory.memoryId);
    expect(listed.text).toContain('> ');

    const forgotten = await ok('forget_memory', { memoryId: memory.memoryId });
    expect(forgotten).toEqual({
      status: 'deleted',
      position: expect.any(Number),
      text: `Memory ${memory.memoryId} forgotten.`,
    });
    const after = await ok('list_memories', {}, web, `?minPosition=${String(forgotten.position)}`);
    expect((after.items as { memoryId: string }[]).map((m) => m.memoryId)).not.toContain(
      memory.memoryId,
    );
    const deleted = await ok('list_memories', { status: 'deleted' });
    expect((deleted.items as { memoryId: string }[]).map((m) => m.memoryId)).toContain(
      memory.memoryId,
    );
    await callTool('forget_memory', { memoryId: randomUUID() }).expect(404);
  });

  it('recall_actions answers the same through its own route and by name', async () => {
    const args = { query: 'delphine', days: 30 };
    const own = await request(t.http)
      .post(`${base}/tools/recall_actions`)
      .auth(web, { type: 'bearer' })
      .send(args)
      .expect(200);
    const byName = await callTool('recall_actions', args).expect(200);
    expect(byName.text).toBe(own.text);
    expect(own.body.actions).toHaveLength(1);
  });

  it('unknown tool 404, bad arguments 400 writing nothing, agents only', async () => {
    // carol has no event, so no background work (extraction, summaries) that could write meanwhile.
    const carol = (name: string, args: unknown, token = web) =>
      request(t.http)
        .post(`/v1/workspaces/${ws}/users/carol/tools/${name}`)
        .auth(token, { type: 'bearer' })
        .send(args as object);
    const before = await countUserEvents(t, ws, 'carol');
    const unknown = await carol('send_email', {}).expect(404);
    expect(unknown.body.message).toBe('No tool send_email; GET /v1/tools lists them');
    const missing = await carol('record_message', { sessionId: 's1', role: 'user' }).expect(400);
    expect(missing.body.message).toMatch(/channel must be 1-128 characters/);
    expect(missing.body.message).toMatch(/text must be a string/);
    const extra = await carol('propose_action', {
      tool: 'gmail_send',
      summary: 'x',
      channel: 'web',
      price: 3,
    }).expect(400);
    expect(extra.body.message).toBe('price: property price should not exist');
    await carol('update_action', { actionId: randomUUID(), transition: 'confirm' }).expect(400);
    const wrongField = await carol('update_action', {
      actionId: randomUUID(),
      transition: 'fail',
      error: 'smtp down',
      channel: 'web',
    }).expect(400);
    expect(wrongField.body.message).toBe('channel: property channel should not exist');
    await carol('update_action', { actionId: randomUUID(), transition: 'undo' }).expect(400);
    await carol('forget_memory', { memoryId: 'not-a-uuid' }).expect(400);
    await carol('get_context', { maxTokens: 10 }).expect(400);
    await carol('record_message', ['not', 'an', 'object']).expect(400);
    expect(await countUserEvents(t, ws, 'carol')).toBe(before);

    const user = await t.token({ userId: 'alice', workspaceId: ws, roles: ['user'] });
    await carol('list_memories', {}, user).expect(403);
    await request(t.http)
      .post(`/v1/workspaces/${ws}/users/carol/tools/list_memories`)
      .send({})
      .expect(401);
  });
});
