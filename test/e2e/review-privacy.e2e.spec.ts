import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { deterministicId, normalizeContent } from '@engram/domain';
import { eventually, startTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 15: what a memory id and a decision on it tell someone outside the memory's review. Ids are
 * keyed by the owner's data key, and a decision on anything not pending in one's queue answers exactly
 * as a decision on an id that never existed.
 */
describe('memory ids and decisions outside one’s queue', () => {
  const WS = 'w9';
  let t: TestApp;
  let agent: string;
  let admin: string;
  let approvedId: string;

  beforeAll(async () => {
    t = await startTestApp();
    agent = await t.token({ userId: 'chat-web', workspaceId: WS, roles: ['agent'] });
    admin = await t.token({ userId: 'root', workspaceId: WS, roles: ['admin'] });
  });
  afterAll(() => t.close());

  /** Sets the review mode and waits until it is projected (the next message is reviewed by it). */
  async function reviewMode(mode: 'admin' | 'user') {
    await request(t.http)
      .put(`/v1/workspaces/${WS}/memory-policy`)
      .auth(admin, { type: 'bearer' })
      .send({ reviewMode: mode })
      .expect(200);
    await eventually(
      () =>
        request(t.http).get(`/v1/workspaces/${WS}/memory-policy`).auth(admin, { type: 'bearer' }),
      (r) => r.body.reviewMode === mode,
    );
  }

  const decide = (token: string, path: string, memoryId: string, verb: 'approve' | 'reject') =>
    request(t.http)
      .post(`${path}/${memoryId}/${verb}`)
      .auth(token, { type: 'bearer' })
      .send(verb === 'reject' ? { reason: 'no' } : {});

  /** The two answers, side by side, without the request-specific headers. */
  async function answers(token: string, path: string, verb: 'approve' | 'reject') {
    const [known, unknown] = [
      await decide(token, path, approvedId, verb),
      await decide(token, path, randomUUID(), verb),
    ];
    return {
      known: { status: known.status, body: known.body as unknown },
      unknown: { status: unknown.status, body: unknown.body as unknown },
    };
  }

  it('gives a memory an id that is not the unkeyed hash of its owner and content', async () => {
    await reviewMode('admin');
    await request(t.http)
      .post(`/v1/workspaces/${WS}/users/lea/messages`)
      .auth(agent, { type: 'bearer' })
      .send({ sessionId: 's1', role: 'user', channel: 'web', text: 'J’habite à Lyon.' })
      .expect(202);
    const listed = await eventually(
      () => request(t.http).get(`/v1/workspaces/${WS}/memories`).auth(admin, { type: 'bearer' }),
      (r) => r.body.items?.length === 1,
    );
    const [item] = listed.body.items as { memoryId: string; content: string }[];
    expect(item!.content).toContain('Lyon');
    approvedId = item!.memoryId;
    await decide(admin, `/v1/workspaces/${WS}/memories`, approvedId, 'approve').expect(200);
    expect(approvedId).not.toBe(
      deterministicId('memory', WS, 'lea', 0, normalizeContent(item!.content)),
    );
  });

  it.each(['approve', 'reject'] as const)(
    'answers an admin’s %s of an approved memory exactly like one of an unknown id',
    async (verb) => {
      const { known, unknown } = await answers(admin, `/v1/workspaces/${WS}/memories`, verb);
      expect(known.status).toBe(404);
      expect(known).toEqual(unknown);
    },
  );

  it.each(['approve', 'reject'] as const)(
    'answers a user’s %s of someone else’s memory exactly like one of an unknown id (reviewMode user)',
    async (verb) => {
      await reviewMode('user');
      const max = await t.token({ userId: 'max', workspaceId: WS, roles: ['user'] });
      const { known, unknown } = await answers(max, '/v1/me/memories', verb);
      expect(known.status).toBe(404);
      expect(known).toEqual(unknown);
    },
  );
});
