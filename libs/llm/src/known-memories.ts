import { normalizeContent } from '@engram/domain';
import type { ExtractedCandidate, ExtractionInput } from './ports';

/** Drops candidates that repeat an existing memory, or each other, once normalized. */
export function withoutKnownMemories(
  candidates: readonly ExtractedCandidate[],
  existing: ExtractionInput['existingMemories'],
): ExtractedCandidate[] {
  const seen = new Set(existing.map((memory) => normalizeContent(memory.content)));
  const kept: ExtractedCandidate[] = [];
  for (const candidate of candidates) {
    const key = normalizeContent(candidate.content);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    kept.push(candidate);
  }
  return kept;
}
