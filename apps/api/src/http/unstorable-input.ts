/** Deeper than this, a body or query is refused before class-transformer recurses into it. */
export const MAX_INPUT_DEPTH = 32;

/** Keys that reach an object's prototype when code copies or merges a parsed body. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What makes a text unstorable, or undefined: PostgreSQL refuses the NUL character in text and
 * jsonb, and a lone UTF-16 surrogate (which JSON can carry as `"\ud800"`) in json and jsonb. Either
 * one, once in an event, failed every projection of it for good.
 */
function unstorableText(text: string): string | undefined {
  if (text.includes('\u0000')) return 'the NUL character';
  if (LONE_SURROGATE.test(text)) return 'a lone UTF-16 surrogate';
  return undefined;
}

/**
 * Why a parsed body, query or path value cannot be taken as it is, or undefined when it can.
 * Checked without recursion, so that no input can exhaust the stack:
 * - nesting deeper than MAX_INPUT_DEPTH (class-transformer would overflow the stack: a 500);
 * - a string or key that PostgreSQL cannot store (see unstorableText);
 * - a `__proto__`, `constructor` or `prototype` key, whatever its depth (prototype pollution).
 */
export function unstorableInput(value: unknown, root: string): string | undefined {
  const pending: { value: unknown; path: string; depth: number }[] = [
    { value, path: root, depth: 0 },
  ];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value === 'string') {
      const problem = unstorableText(next.value);
      if (problem) return `${next.path} must not contain ${problem}`;
      continue;
    }
    if (next.value === null || typeof next.value !== 'object') continue;
    if (next.depth >= MAX_INPUT_DEPTH) {
      return `${root} nests objects or arrays more than ${MAX_INPUT_DEPTH} levels deep`;
    }
    for (const [key, child] of Object.entries(next.value)) {
      const problem = unstorableText(key);
      if (problem) return `${next.path} has a key with ${problem}`;
      if (PROTOTYPE_KEYS.has(key)) return `${next.path} must not have a key named ${key}`;
      pending.push({ value: child, path: `${next.path}.${key}`, depth: next.depth + 1 });
    }
  }
  return undefined;
}
