/** Words (with an elided "j'", "qu'" kept whole, and hyphenated forms like "peux-tu") and the rest. */
export function tokenize(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*'?|[^\p{L}\p{N}]+/gu) ?? [];
}

export function isWord(token: string): boolean {
  return /^[\p{L}\p{N}]/u.test(token);
}

/** Index of the next word token after `index`, or -1. */
export function nextWordIndex(tokens: readonly string[], index: number): number {
  for (let i = index + 1; i < tokens.length; i += 1) {
    const token = tokens[i];
    if (token !== undefined && isWord(token)) return i;
  }
  return -1;
}

/** The previous word before `index` (lower case), or '' at the start or after punctuation. */
export function previousWord(tokens: readonly string[], index: number): string {
  for (let i = index - 1; i >= 0; i -= 1) {
    const token = tokens[i];
    if (token === undefined) continue;
    if (isWord(token)) return token.toLowerCase();
    if (/[,.;:!?()«»"]/.test(token)) return '';
  }
  return '';
}
