import { deterministicId } from '../deterministic-id';
import { normalizeContent } from './normalize-content';

/**
 * A keyed digest of a text under a secret of one owner (an HMAC under a key derived from their data
 * key): the same text gives the same digest for that owner only, and nobody without the key (erasure
 * destroys it) can compute it from a guess.
 */
export type OwnerDigest = (text: string) => string;

/**
 * The same content, for the same user and wipe generation, is the same memory (dedup stays race-free:
 * one aggregate per content). The content enters the id only through the owner's keyed digest, so an
 * id tells nothing about what the memory says, and after erasure it cannot be recomputed at all.
 */
export function memoryIdFor(
  digest: OwnerDigest,
  workspaceId: string,
  userId: string,
  generation: number,
  content: string,
): string {
  return deterministicId(
    'memory',
    workspaceId,
    userId,
    generation,
    digest(normalizeContent(content)),
  );
}
