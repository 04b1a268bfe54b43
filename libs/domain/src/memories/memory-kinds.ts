/** seed 000's kinds plus seed 002's `context`. Only `fact` memories are ever evicted by the per-user cap. */
export const MEMORY_KINDS = [
  'identity',
  'preference',
  'ongoing',
  'commitment',
  'fact',
  'context',
] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

export const LOCALES = ['fr', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
