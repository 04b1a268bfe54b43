import { normalizeContent } from '@engram/domain';
import type { ExtractedCandidate } from './ports';

/**
 * Drops candidates that repeat each other once normalized. A candidate that restates an existing
 * memory is kept on purpose: the memory aggregate turns it into a reinforcement (seen count, last seen).
 */
export function distinctCandidates(
  candidates: readonly ExtractedCandidate[],
): ExtractedCandidate[] {
  const seen = new Set<string>();
  const kept: ExtractedCandidate[] = [];
  for (const candidate of candidates) {
    const key = normalizeContent(candidate.content);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    kept.push(candidate);
  }
  return kept;
}
