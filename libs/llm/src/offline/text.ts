/** Typographic apostrophes become "'" so one pattern matches "j’habite" and "j'habite". */
export function normalizeText(text: string): string {
  return text
    .replace(/[\u2019\u2018\u02bc\u00b4`]/g, "'")
    .replace(/[\u00a0\u202f]/g, ' ')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/** "l'utilisateur aime le thé !!" → "L'utilisateur aime le thé." */
export function asSentence(text: string): string {
  const trimmed = text
    .trim()
    .replace(/\s+([,.;:!?])/g, '$1')
    .replace(/[\s,;:.!?…]+$/u, '')
    .replace(/\s+/g, ' ');
  if (trimmed === '') return '';
  return `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}.`;
}

export function truncate(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const cut = text.slice(0, maxLength - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > maxLength / 2 ? cut.slice(0, space) : cut}…`;
}

export function startsWithVowel(word: string): boolean {
  return /^[aeiouyhàâäéèêëîïôöùûü]/i.test(word);
}
