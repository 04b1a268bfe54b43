import request from 'supertest';
import type { Role } from '@engram/domain';
import type { TestApp } from '../test-app';

/** The principal each role's requests come from. */
export const PRINCIPALS: Readonly<Record<Role, string>> = {
  user: 'alice',
  agent: 'chat-web',
  admin: 'root',
  auditor: 'dpo',
};

/** A body as sent on the wire: nothing, or bytes with the content type the client claims. */
export type Body =
  Readonly<{ kind: 'none' }> | Readonly<{ kind: 'raw'; contentType: string; text: string }>;

export const jsonBody = (value: unknown): Body => ({
  kind: 'raw',
  contentType: 'application/json',
  text: JSON.stringify(value) ?? 'null',
});

/** An answer read as text, whatever its content type (an error body must be JSON: checked by the tests). */
export type Reply = Readonly<{ status: number; headers: Record<string, string>; text: string }>;

export type RawRequest = Readonly<{
  method: string;
  url: string;
  authorization?: string;
  headers?: Readonly<Record<string, string>>;
  body: Body;
}>;

/** Tokens minted once per (workspace, roles), for the role's principal. */
export function tokenCache(t: TestApp) {
  const tokens = new Map<string, Promise<string>>();
  return (roles: readonly Role[], workspaceId: string): Promise<string> => {
    const key = `${workspaceId}|${roles.join(',')}`;
    if (!tokens.has(key)) {
      const userId = PRINCIPALS[roles[0] ?? 'user'];
      tokens.set(key, t.token({ userId, workspaceId, roles: [...roles] }));
    }
    return tokens.get(key)!;
  };
}

/** Sends the request as it is (no JSON encoding by the client) and reads the answer as text. */
export async function send(t: TestApp, call: RawRequest): Promise<Reply> {
  const agent = request(t.http);
  let pending = agent[call.method.toLowerCase() as 'get'](call.url)
    .buffer(true)
    .parse((res, done) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done(null, text));
    });
  for (const [name, value] of Object.entries(call.headers ?? {})) {
    pending = pending.set(name, value);
  }
  if (call.authorization) pending = pending.set('Authorization', call.authorization);
  if (call.body.kind === 'raw') {
    pending = pending.set('Content-Type', call.body.contentType).send(call.body.text);
  }
  const response = await pending;
  return { status: response.status, headers: response.headers, text: response.body as string };
}

/** Expects the API's error body `{ statusCode, error, message }` and returns it. */
export function expectErrorBody(reply: Reply): { message: string } {
  let body: unknown;
  try {
    body = JSON.parse(reply.text);
  } catch {
    throw new Error(`a ${reply.status} whose body is not JSON: ${reply.text.slice(0, 200)}`);
  }
  expect(body).toEqual({
    statusCode: reply.status,
    error: expect.any(String),
    message: expect.stringMatching(/\S/),
  });
  return body as { message: string };
}
