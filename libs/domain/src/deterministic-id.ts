import { v5 } from 'uuid';

const ENGRAM_NAMESPACE = '1d4c7a8e-5b0e-4f8a-9a53-6b1f8c2e7d40';

/**
 * A UUID that is always the same for the same parts. Event ids derived from what caused them make a
 * re-run after a crash append nothing new (the store is idempotent on event ids).
 */
export function deterministicId(...parts: readonly (string | number)[]): string {
  return v5(parts.map(String).join('\u001f'), ENGRAM_NAMESPACE);
}
