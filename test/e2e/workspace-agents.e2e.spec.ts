import request from 'supertest';
import { eventually, postUserMessage, startTestApp, type TestApp } from '../support/test-app';

/** Seed 002: "Activez l'option Enable Memory dans le panneau de paramètres de la mémoire". */
describe("a workspace's agents and their memory, through HTTP", () => {
  let t: TestApp;
  let agent: string;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp();
    agent = await t.token({ userId: 'gateway', workspaceId: 'w5', roles: ['agent'] });
    admin = await t.token({ userId: 'root', workspaceId: 'w5', roles: ['admin'] });
  });
  afterAll(() => t.close());

  const say = (userId: string, agentId: string | undefined, occurredAt: string) =>
    postUserMessage(t, agent, { workspaceId: 'w5', userId }, 'Bonjour', {
      occurredAt,
      ...(agentId ? { agentId } : {}),
    });
  const agents = (token = admin) =>
    request(t.http).get('/v1/workspaces/w5/agents').auth(token, { type: 'bearer' });
  const switchMemory = (agentId: string, enabled: boolean) =>
    request(t.http)
      .put(`/v1/workspaces/w5/agents/${agentId}/memory`)
      .auth(admin, { type: 'bearer' })
      .send({ enabled })
      .expect(200);

  it('lists the agents seen in messages and those switched, each with memory on or off', async () => {
    await say('alice', 'chat-web', '2026-06-01T10:00:00.000Z');
    await say('bob', 'chat-web', '2026-06-02T10:00:00.000Z');
    await say('alice', 'telegram-bot', '2026-06-01T12:00:00.000Z');
    await say('alice', undefined, '2026-06-01T13:00:00.000Z');
    await switchMemory('telegram-bot', false);
    await switchMemory('never-spoke', false);

    const listed = await eventually(
      () => agents().expect(200),
      (response) => response.body.items.length === 3,
    );
    expect(listed.body.items).toEqual([
      {
        agentId: 'chat-web',
        memoryEnabled: true,
        firstSeenAt: '2026-06-01T10:00:00.000Z',
        lastSeenAt: '2026-06-02T10:00:00.000Z',
        messageCount: 2,
        updatedAt: null,
        updatedBy: null,
      },
      {
        agentId: 'never-spoke',
        memoryEnabled: false,
        firstSeenAt: null,
        lastSeenAt: null,
        messageCount: 0,
        updatedAt: expect.any(String),
        updatedBy: 'root',
      },
      expect.objectContaining({ agentId: 'telegram-bot', memoryEnabled: false, messageCount: 1 }),
    ]);

    await switchMemory('telegram-bot', true);
    const back = await eventually(
      () => agents().expect(200),
      (response) =>
        response.body.items.find((item: { agentId: string }) => item.agentId === 'telegram-bot')
          ?.memoryEnabled === true,
    );
    expect(back.body.items).toHaveLength(3);
  });

  it("is for the workspace's admins only, and never shows another workspace's agents", async () => {
    const user = await t.token({ userId: 'alice', workspaceId: 'w5', roles: ['user'] });
    await agents(user).expect(403);
    const foreignAdmin = await t.token({ userId: 'root', workspaceId: 'w6', roles: ['admin'] });
    await request(t.http)
      .get('/v1/workspaces/w5/agents')
      .auth(foreignAdmin, { type: 'bearer' })
      .expect(403);
    const own = await request(t.http)
      .get('/v1/workspaces/w6/agents')
      .auth(foreignAdmin, { type: 'bearer' })
      .expect(200);
    expect(own.body).toEqual({ items: [] });
  });

  it('describes its answer in the OpenAPI document', async () => {
    const document = await request(t.http).get('/docs/openapi.json').expect(200);
    const ok = document.body.paths['/v1/workspaces/{ws}/agents'].get.responses['200'];
    const ref = ok.content['application/json'].schema.$ref as string;
    const list = document.body.components.schemas[ref.split('/').pop()!];
    const item =
      document.body.components.schemas[list.properties.items.items.$ref.split('/').pop()];
    expect(Object.keys(item.properties).sort()).toEqual(
      [
        'agentId',
        'firstSeenAt',
        'lastSeenAt',
        'memoryEnabled',
        'messageCount',
        'updatedAt',
        'updatedBy',
      ].sort(),
    );
  });
});
