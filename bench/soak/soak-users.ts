import { benchToken } from '../support/secrets';

export const SOAK_WORKSPACE = 'soak';
export const AGENT_ID = 'assistant-main';
/** An agent whose memory the admin turns off: its users' messages are recorded, nothing extracted. */
export const MUTED_AGENT_ID = 'assistant-muted';

export type SoakUsers = Readonly<{
  ids: readonly string[];
  agentToken: string;
  adminToken: string;
  tokenOf: (userId: string) => string;
}>;

export async function soakUsers(count = 30): Promise<SoakUsers> {
  const ids = Array.from({ length: count }, (_, index) => `u${String(index + 1).padStart(2, '0')}`);
  const tokens = new Map<string, string>();
  for (const id of ids) tokens.set(id, await benchToken(SOAK_WORKSPACE, id, ['user']));
  return {
    ids,
    agentToken: await benchToken(SOAK_WORKSPACE, 'soak-agent', ['agent']),
    adminToken: await benchToken(SOAK_WORKSPACE, 'soak-admin', ['user', 'admin']),
    tokenOf: (userId) => tokens.get(userId)!,
  };
}

export function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

export function userPath(userId: string, rest: string): string {
  return `/v1/workspaces/${SOAK_WORKSPACE}/users/${userId}/${rest}`;
}
