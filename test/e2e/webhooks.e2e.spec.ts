import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import request from 'supertest';
import { eventually, startTestApp, type TestApp } from '../support/test-app';

type Received = Readonly<{ headers: IncomingMessage['headers']; body: string }>;

const WS = 'w9';

/**
 * Webhooks through HTTP: an admin registers an endpoint (the secret answered once), lists it (no
 * secret), bad input is a 400 that writes nothing, other roles get 403; an action that expires is
 * delivered, signed, to a local receiver and shows in the delivery log; removing the endpoint stops
 * its deliveries.
 */
describe('webhooks, through HTTP', () => {
  let t: TestApp;
  let admin: string;
  let agent: string;
  let server: Server;
  let url: string;
  const received: Received[] = [];

  beforeAll(async () => {
    // The action-expiry job looks every second; the delivery job every second too.
    t = await startTestApp({ ENGRAM_SCHEDULER_INTERVAL_SECONDS: '1' });
    admin = await t.token({ userId: 'root', workspaceId: WS, roles: ['admin'] });
    agent = await t.token({ userId: 'gateway', workspaceId: WS, roles: ['agent'] });
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/engram`;
  });

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await t?.close();
  });

  async function webhookEvents(): Promise<number> {
    const client = new Client({ connectionString: t.database.ownerUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ count: string }>(
        `SELECT count(*) FROM events WHERE stream_id LIKE $1`,
        [`${WS}/~/webhook/%`],
      );
      return Number(rows[0]!.count);
    } finally {
      await client.end();
    }
  }

  const register = (body: unknown, token = admin) =>
    request(t.http)
      .post(`/v1/workspaces/${WS}/webhooks`)
      .auth(token, { type: 'bearer' })
      .send(body as object);
  const list = (token = admin) =>
    request(t.http).get(`/v1/workspaces/${WS}/webhooks`).auth(token, { type: 'bearer' });
  const log = (webhookId: string) =>
    request(t.http)
      .get(`/v1/workspaces/${WS}/webhooks/${webhookId}/deliveries`)
      .auth(admin, { type: 'bearer' });
  const expiringAction = () =>
    request(t.http)
      .post(`/v1/workspaces/${WS}/users/alice/actions`)
      .auth(agent, { type: 'bearer' })
      .send({
        tool: 'gmail_send',
        summary: 'Relance facture Q2',
        channel: 'telegram',
        ttlSeconds: 1,
      })
      .expect(201);

  let webhookId: string;
  let secret: string;

  it('refuses bad input with a 400 that writes nothing, and other roles with a 403', async () => {
    const cases: [unknown, RegExp][] = [
      [{ url: 'http://hooks.example.com/x', events: ['action.expired'] }, /https/],
      [{ url: 'not a url', events: ['action.expired'] }, /absolute URL/],
      [
        { url: 'https://hooks.example.com/x', events: ['memory.deleted'] },
        /events must be a list of/,
      ],
      [{ url: 'https://hooks.example.com/x', events: [] }, /at least one/],
      [{ url: 'https://hooks.example.com/x', events: 'action.expired' }, /events must be a list/],
      [{ url: 'https://hooks.example.com/x', events: ['user.erased', 'user.erased'] }, /once/],
      [{ url: 'https://hooks.example.com/x', events: ['user.erased'], secret: 'mine' }, /secret/],
      [{ events: ['user.erased'] }, /url/],
    ];
    for (const [body, message] of cases) {
      const response = await register(body).expect(400);
      expect(response.body.message).toMatch(message);
    }
    await register({ url, events: ['action.expired'] }, agent).expect(403);
    const user = await t.token({ userId: 'alice', workspaceId: WS, roles: ['user'] });
    await list(user).expect(403);
    const otherAdmin = await t.token({ userId: 'root', workspaceId: 'w8', roles: ['admin'] });
    await register({ url, events: ['action.expired'] }, otherAdmin).expect(403);
    await request(t.http)
      .get(`/v1/workspaces/${WS}/webhooks/not-a-uuid/deliveries`)
      .auth(admin, { type: 'bearer' })
      .expect(400);
    expect(await webhookEvents()).toBe(0);
  });

  it('registers an endpoint: 201 with the secret, once; the list never shows it', async () => {
    const response = await register({
      url,
      events: ['action.expired'],
      description: 'tests',
    }).expect(201);
    expect(response.body).toEqual({
      id: expect.any(String),
      url,
      events: ['action.expired'],
      description: 'tests',
      createdAt: expect.any(String),
      createdBy: 'root',
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
      position: expect.any(Number),
    });
    webhookId = response.body.id as string;
    secret = response.body.secret as string;
    const listed = await list().query({ minPosition: response.body.position }).expect(200);
    expect(listed.body).toEqual({
      items: [
        {
          id: webhookId,
          url,
          events: ['action.expired'],
          description: 'tests',
          createdAt: response.body.createdAt,
          createdBy: 'root',
        },
      ],
    });
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    // Not in the log in clear either.
    const client = new Client({ connectionString: t.database.ownerUrl });
    await client.connect();
    const { rows } = await client.query<{ data: unknown }>(
      `SELECT data FROM events WHERE stream_id = $1`,
      [`${WS}/~/webhook/${webhookId}`],
    );
    await client.end();
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(JSON.stringify(rows)).not.toContain(secret.slice(6));
  });

  it('delivers an expired action to the receiver, signed, and logs the delivery', async () => {
    const proposed = await expiringAction();
    const actionId = proposed.body.actionId as string;
    await eventually(
      () => Promise.resolve(received.length),
      (count) => count >= 1,
      20_000,
    );
    expect(received).toHaveLength(1);
    const [got] = received;
    const timestamp = got!.headers['engram-timestamp'] as string;
    const expected = createHmac('sha256', secret).update(`${timestamp}.${got!.body}`).digest('hex');
    expect(got!.headers['engram-signature']).toBe(`v1=${expected}`);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    expect(got!.headers['engram-webhook-id']).toBe(webhookId);
    const body = JSON.parse(got!.body) as Record<string, unknown>;
    expect(body).toEqual({
      id: got!.headers['engram-delivery-id'],
      type: 'action.expired',
      occurredAt: expect.any(String),
      workspaceId: WS,
      userId: 'alice',
      data: { actionId, status: 'expired', expiresAt: expect.any(String) },
    });
    expect(got!.body).not.toContain('Relance');

    const logged = await eventually(
      () => log(webhookId).expect(200),
      (response) => response.body.items[0]?.status === 'delivered',
    );
    expect(logged.body).toEqual({
      items: [
        {
          id: body.id,
          eventId: expect.any(String),
          event: 'action.expired',
          userId: 'alice',
          status: 'delivered',
          attempts: 1,
          lastStatusCode: 204,
          lastError: null,
          nextAttemptAt: null,
          lastAttemptAt: expect.any(String),
          deliveredAt: expect.any(String),
          createdAt: expect.any(String),
        },
      ],
      nextCursor: null,
    });
  });

  it('pages the delivery log, newest first', async () => {
    await expiringAction();
    await eventually(
      () => log(webhookId).expect(200),
      (response) => response.body.items.length === 2,
      20_000,
    );
    const first = await log(webhookId).query({ limit: 1 }).expect(200);
    expect(first.body.items).toHaveLength(1);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await log(webhookId)
      .query({ limit: 1, cursor: first.body.nextCursor })
      .expect(200);
    expect(second.body.items).toHaveLength(1);
    expect(second.body.nextCursor).toBeNull();
    expect(second.body.items[0].id).toBe(received[0]!.headers['engram-delivery-id']);
    await log(webhookId).query({ cursor: 'nope' }).expect(400);
    await log(randomUUID()).expect(404);
  });

  it('removing the endpoint stops its deliveries (204, then 404 again)', async () => {
    await eventually(
      () => Promise.resolve(received.length),
      (count) => count >= 2,
      20_000,
    );
    await request(t.http)
      .delete(`/v1/workspaces/${WS}/webhooks/${webhookId}`)
      .auth(admin, { type: 'bearer' })
      .expect(204);
    await request(t.http)
      .delete(`/v1/workspaces/${WS}/webhooks/${webhookId}`)
      .auth(admin, { type: 'bearer' })
      .expect(404);
    // Another endpoint in force shows when the next expiry has been delivered: not to this one.
    const other = await register({ url: `${url}/other`, events: ['action.expired'] }).expect(201);
    const count = received.length;
    await expiringAction();
    await eventually(
      () => Promise.resolve(received.length),
      (total) => total > count,
      20_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(received.slice(count).map((got) => got.headers['engram-webhook-id'])).toEqual([
      other.body.id,
    ]);
    expect((await list().expect(200)).body.items.map((item: { id: string }) => item.id)).toEqual([
      other.body.id,
    ]);
    expect((await log(webhookId).expect(200)).body.items).toHaveLength(2);
  });
});
