/** Deeper than this, a body or query is refused before class-transformer recurses into it. */
export const MAX_INPUT_DEPTH = 32;

/**
 * Why a parsed body or query cannot be taken as it is, or undefined when it can. Checked without
 * recursion, so that no input can exhaust the stack:
 * - nesting deeper than MAX_INPUT_DEPTH (class-transformer would overflow the stack: a 500);
 * - a NUL character in any string or key (PostgreSQL cannot store it in text or jsonb, so the
 *   projections would fail on the event forever).
 */
export function unstorableInput(value: unknown, root: string): string | undefined {
  const pending: { value: unknown; path: string; depth: number }[] = [
    { value, path: root, depth: 0 },
  ];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value === 'string') {
      if (next.value.includes('\u0000')) return `${next.path} must not contain the NUL character`;
      continue;
    }
    if (next.value === null || typeof next.value !== 'object') continue;
    if (next.depth >= MAX_INPUT_DEPTH) {
      return `${root} nests objects or arrays more than ${MAX_INPUT_DEPTH} levels deep`;
    }
    for (const [key, child] of Object.entries(next.value)) {
      const path = `${next.path}.${key}`;
      if (key.includes('\u0000')) return `${next.path} has a key with the NUL character`;
      pending.push({ value: child, path, depth: next.depth + 1 });
    }
  }
  return undefined;
}
