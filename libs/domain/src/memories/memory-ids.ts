import { deterministicId } from '../deterministic-id';
import { normalizeContent } from './normalize-content';

/** The same content, for the same user and wipe generation, is the same memory. */
export function memoryIdFor(
  workspaceId: string,
  userId: string,
  generation: number,
  content: string,
): string {
  return deterministicId('memory', workspaceId, userId, generation, normalizeContent(content));
}
