import { randomUUID } from 'node:crypto';
import type { HttpRequest } from '../support/http-exchange';
import { SOAK_WORKSPACE, userPath, type SoakUsers } from './soak-users';

export type BadRequest = Readonly<{ name: string; path: string; init: HttpRequest }>;

const MESSAGE = { sessionId: 's1', role: 'user', channel: 'web', text: 'Bonjour' };
const ACTION = { tool: 'gmail_send', summary: 'Relance', channel: 'web' };

/** Requests a client gets wrong; each must be answered with a 4xx and write nothing. */
export function badRequests(users: SoakUsers, userId: string): BadRequest[] {
  const agent = users.agentToken;
  const post = (body: unknown) => ({ method: 'POST', token: agent, body }) as const;
  return [
    {
      name: 'empty text',
      path: userPath(userId, 'messages'),
      init: post({ ...MESSAGE, text: '' }),
    },
    {
      name: 'unknown role',
      path: userPath(userId, 'messages'),
      init: post({ ...MESSAGE, role: 'robot' }),
    },
    {
      name: 'messageId not a UUID',
      path: userPath(userId, 'messages'),
      init: post({ ...MESSAGE, messageId: 'not-a-uuid' }),
    },
    {
      name: 'text too long',
      path: userPath(userId, 'messages'),
      init: post({ ...MESSAGE, text: 'x'.repeat(32_001) }),
    },
    {
      name: 'no token',
      path: userPath(userId, 'messages'),
      init: { method: 'POST', body: MESSAGE },
    },
    {
      name: 'other workspace',
      path: `/v1/workspaces/elsewhere/users/${userId}/messages`,
      init: post(MESSAGE),
    },
    {
      name: 'ttlSeconds 0',
      path: userPath(userId, 'actions'),
      init: post({ ...ACTION, ttlSeconds: 0 }),
    },
    {
      name: 'confirm an unknown action',
      path: userPath(userId, `actions/${randomUUID()}/confirm`),
      init: post({ channel: 'web' }),
    },
    {
      name: 'actionId not a UUID',
      path: userPath(userId, 'actions/42/execute'),
      init: post({ channel: 'web' }),
    },
    {
      name: 'negative maxTokens',
      path: userPath(userId, 'context?sessionId=s1&maxTokens=-5'),
      init: { token: agent },
    },
    {
      name: 'agent on the review queue',
      path: `/v1/workspaces/${SOAK_WORKSPACE}/memories`,
      init: { token: agent },
    },
    {
      name: 'delete a memory that is not there',
      path: `/v1/me/memories/${randomUUID()}`,
      init: { method: 'DELETE', token: users.tokenOf(userId) },
    },
  ];
}
