/**
 * The form two memory contents are compared in for deduplication: lower case, no accents, no
 * punctuation, single spaces. "L'utilisateur préfère Python." and "l utilisateur prefere python" match.
 */
export function normalizeContent(content: string): string {
  return content
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
