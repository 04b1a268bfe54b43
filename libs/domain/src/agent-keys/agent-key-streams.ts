import { workspaceStream } from '../streams';

/** One stream per key: issued, then perhaps revoked. */
export function agentKeyStream(workspaceId: string, keyId: string): string {
  return workspaceStream(workspaceId, 'agent-key', keyId);
}

/** The workspace's key uses of one day (`YYYY-MM-DD`), a log appended without being read. */
export function agentKeyUsageStream(workspaceId: string, day: string): string {
  return workspaceStream(workspaceId, 'agent-key-usage', day);
}
