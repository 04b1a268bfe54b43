/**
 * Whether two JSON values are the same, whatever the order of their object keys (a stored event comes
 * back from jsonb with its keys reordered); a key holding `undefined` counts as absent, as in JSON.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => sameJson(item, b[index]))
    );
  }
  const left = definedEntries(a);
  const right = new Map(definedEntries(b));
  return (
    left.length === right.size &&
    left.every(([key, value]) => right.has(key) && sameJson(value, right.get(key)))
  );
}

function definedEntries(value: object): [string, unknown][] {
  return Object.entries(value).filter(([, item]) => item !== undefined);
}
