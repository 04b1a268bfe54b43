import { IDENTIFIER_PATTERN } from './identifiers';

/**
 * Stream names put the owner first: `{workspaceId}/{userId}/{kind}/{id}`.
 * `/` cannot occur in an identifier, so the owner of any stream is found from its name alone,
 * and every stream of one user shares the prefix `{workspaceId}/{userId}/`. Workspace-level
 * streams use `~` (not an identifier character) in the user slot.
 */
export type StreamOwner = Readonly<{ workspaceId: string; userId: string | null }>;

const WORKSPACE_SLOT = '~';

export function userStream(workspaceId: string, userId: string, kind: string, id: string): string {
  return `${workspaceId}/${userId}/${kind}/${id}`;
}

export function workspaceStream(workspaceId: string, kind: string, id: string): string {
  return `${workspaceId}/${WORKSPACE_SLOT}/${kind}/${id}`;
}

export function userStreamPrefix(workspaceId: string, userId: string): string {
  return `${workspaceId}/${userId}/`;
}

export function parseStreamName(
  stream: string,
): (StreamOwner & { kind: string; id: string }) | undefined {
  const parts = stream.split('/');
  if (parts.length !== 4) return undefined;
  const [workspaceId, user, kind, id] = parts as [string, string, string, string];
  if (!IDENTIFIER_PATTERN.test(workspaceId) || kind === '' || id === '') return undefined;
  if (user === WORKSPACE_SLOT) return { workspaceId, userId: null, kind, id };
  if (!IDENTIFIER_PATTERN.test(user)) return undefined;
  return { workspaceId, userId: user, kind, id };
}
