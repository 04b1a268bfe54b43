import { scriptedServer, type Answer, type Received } from '../test/scripted-server';
import { EngramClient } from './engram-client';
import { EngramError } from './errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const recorded = { status: 202, body: { messageId: 'm', traceId: 't', position: 42 } };
const message = { sessionId: 's1', role: 'user', channel: 'web', text: 'Bonjour' } as const;
const context = { status: 200, body: { memoryStatus: 'enabled' } };

/** The client over real HTTP against a server answering from a script. */
async function against(script: (request: Received, index: number) => Answer) {
  const server = await scriptedServer(script);
  const client = (options: Partial<ConstructorParameters<typeof EngramClient>[0]> = {}) =>
    new EngramClient({
      baseUrl: server.url,
      token: 'secret',
      workspace: 'w1',
      retry: { baseDelayMs: 5, maxDelayMs: 20 },
      ...options,
    });
  return { server, client };
}

describe('EngramClient', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('retries an idempotent write with the same id and correlation id, waiting as Retry-After says', async () => {
    const script: Answer[] = [
      { status: 503, headers: { 'retry-after': '1' }, body: { message: 'busy' } },
      { status: 500, body: { message: 'Internal error' } },
      'drop',
      recorded,
    ];
    const { server, client } = await against((_, index) => script[index]!);
    close = server.close;
    const started = Date.now();

    const answer = await client().user('alice').recordMessage(message);

    expect(answer.position).toBe(42);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(server.received).toHaveLength(4);
    const ids = server.received.map((request) => (request.body as { messageId: string }).messageId);
    expect(ids[0]).toMatch(UUID);
    expect(new Set(ids)).toEqual(new Set([ids[0]]));
    const correlations = server.received.map((request) => request.headers['x-correlation-id']);
    expect(new Set(correlations).size).toBe(1);
    expect(server.received[0]!.path).toBe('/v1/workspaces/w1/users/alice/messages');
    expect(server.received[0]!.headers.authorization).toBe('Bearer secret');
  });

  it('keeps the caller’s id and gives up after the attempts allowed, with the last error', async () => {
    const { server, client } = await against(() => ({
      status: 500,
      body: { statusCode: 500, error: 'Internal Server Error', message: 'Internal error' },
    }));
    close = server.close;

    const error = await client({ retry: { attempts: 3, baseDelayMs: 1 } })
      .user('alice')
      .recordMessage({ ...message, messageId: '6f1c3c1e-8a4f-4c55-9a43-3f0b1c2d4e5f' })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(EngramError);
    expect((error as EngramError).status).toBe(500);
    expect((error as EngramError).code).toBe('Internal Server Error');
    expect((error as EngramError).correlationId).toBe(
      server.received[0]!.headers['x-correlation-id'],
    );
    expect(server.received.map((r) => (r.body as { messageId: string }).messageId)).toEqual([
      '6f1c3c1e-8a4f-4c55-9a43-3f0b1c2d4e5f',
      '6f1c3c1e-8a4f-4c55-9a43-3f0b1c2d4e5f',
      '6f1c3c1e-8a4f-4c55-9a43-3f0b1c2d4e5f',
    ]);
  });

  it('answers a Retry-After longer than it may wait with the error, at once', async () => {
    const { server, client } = await against(() => ({
      status: 503,
      headers: { 'retry-after': '60' },
      body: { statusCode: 503, error: 'Service Unavailable', message: 'retry shortly' },
    }));
    close = server.close;

    const error = (await client()
      .user('alice')
      .context()
      .catch((e: unknown) => e)) as EngramError;

    expect(error.status).toBe(503);
    expect(error.details.retryAfterSeconds).toBe(60);
    expect(server.received).toHaveLength(1);
  });

  it('does not send again a write the API would refuse twice, unless it was refused (503, 429)', async () => {
    const { server, client } = await against((request, index) =>
      index === 0
        ? { status: 500, body: { message: 'Internal error' } }
        : index === 1
          ? { status: 429, headers: { 'retry-after': '0' }, body: { message: 'slow down' } }
          : { status: 200, body: { status: 'confirmed', position: 7 } },
    );
    close = server.close;
    const alice = client().user('alice');

    await expect(alice.confirmAction('a1', { channel: 'web' })).rejects.toMatchObject({
      status: 500,
    });
    expect(server.received).toHaveLength(1);
    await expect(alice.confirmAction('a1', { channel: 'web' })).resolves.toEqual({
      status: 'confirmed',
      position: 7,
    });
    expect(server.received).toHaveLength(3);
  });

  it('reads each user’s own writes: their last position as minPosition, unless switched off', async () => {
    const { server, client } = await against((request) =>
      request.method === 'POST' && !request.path.includes('/tools/')
        ? recorded
        : request.method === 'PUT'
          ? { status: 200, body: { position: 50 } }
          : context,
    );
    close = server.close;
    const engram = client();

    await engram.user('bob').context();
    await engram.user('alice').recordMessage(message);
    await engram.user('alice').context({ sessionId: 's1' });
    await engram.user('bob').context();
    await engram.setMemoryPolicy({ reviewMode: 'admin' });
    await engram.user('bob').context();
    await engram.user('alice').context();
    await engram.user('alice').callTool('get_context', {});
    const plain = client({ readYourWrites: false });
    await plain.user('alice').recordMessage(message);
    await plain.user('alice').context();

    const reads = server.received.filter(
      (request) => request.method === 'GET' || request.path.includes('/tools/'),
    );
    expect(reads.map((request) => request.query.get('minPosition'))).toEqual([
      null,
      '42',
      null,
      '50',
      '50',
      '50',
      null,
    ]);
    expect(reads[1]!.query.get('sessionId')).toBe('s1');
  });

  it('walks a paginated list page by page, passing the cursor each answered', async () => {
    const pages = [
      { items: [{ memoryId: 'a' }, { memoryId: 'b' }], nextCursor: 'c1' },
      { items: [{ memoryId: 'c' }], nextCursor: null },
    ];
    const { server, client } = await against((_, index) => ({ status: 200, body: pages[index] }));
    close = server.close;

    const seen: string[] = [];
    for await (const item of client().reviewQueue({ status: 'pending' })) seen.push(item.memoryId);

    expect(seen).toEqual(['a', 'b', 'c']);
    expect(server.received.map((r) => [r.query.get('cursor'), r.query.get('status')])).toEqual([
      [null, 'pending'],
      ['c1', 'pending'],
    ]);
  });

  it('gives the API’s error code, message and correlation id', async () => {
    const { server, client } = await against(() => ({
      status: 409,
      body: {
        statusCode: 409,
        error: 'Conflict',
        message: 'idempotency_conflict: messageId m was already used with a different request',
      },
    }));
    close = server.close;

    const error = (await client()
      .user('alice')
      .recordMessage(message)
      .catch((e: unknown) => e)) as EngramError;

    expect(error).toBeInstanceOf(EngramError);
    expect(error.code).toBe('idempotency_conflict');
    expect(error.status).toBe(409);
    expect(error.message).toContain('messageId m was already used');
    expect(error.correlationId).toBe(server.received[0]!.headers['x-correlation-id']);
    expect(server.received).toHaveLength(1);
  });

  it('asks a token function for the token at each attempt (a key or a JWT that rotates)', async () => {
    const { server, client } = await against((_, index) =>
      index === 0 ? { status: 503, headers: { 'retry-after': '0' } } : context,
    );
    close = server.close;
    let issued = 0;

    await client({ token: async () => `jwt-${++issued}` })
      .user('alice')
      .context();

    expect(server.received.map((r) => r.headers.authorization)).toEqual([
      'Bearer jwt-1',
      'Bearer jwt-2',
    ]);
  });

  it('streams an export line by line, whatever the chunks', async () => {
    const lines = [
      { position: 1, type: 'MessageRecorded' },
      { position: 2, type: 'ActionProposed' },
    ];
    const text = lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
    const { server, client } = await against(() => ({
      status: 200,
      chunks: [text.slice(0, 10), text.slice(10, 40), text.slice(40)],
    }));
    close = server.close;

    const exported = [];
    for await (const event of client().user('alice').export()) exported.push(event);

    expect(exported).toEqual(lines);
    expect(server.received[0]!.path).toBe('/v1/workspaces/w1/users/alice/export');
  });

  it('says when no answer came at all', async () => {
    const { server, client } = await against(() => 'drop');
    close = server.close;

    const error = (await client({ retry: { attempts: 2, baseDelayMs: 1 } })
      .user('alice')
      .context()
      .catch((e: unknown) => e)) as EngramError;

    expect(error.status).toBe(0);
    expect(error.code).toBe('network_error');
    expect(server.received).toHaveLength(2);
  });
});
