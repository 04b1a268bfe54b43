import { normalizeContent } from '@engram/domain';
import { INSTRUCTION_PATTERNS_EN } from './patterns.en';
import { INSTRUCTION_PATTERNS_FR } from './patterns.fr';

/**
 * Markers that only make sense to a model, read on the text as written (case matters: "DAN" the
 * jailbreak persona, not Dan the colleague): chat-template tokens, a role label such as
 * "SYSTEM:", a "### System" heading.
 */
const MARKERS: readonly RegExp[] = [
  /<\|[a-z_]+\|>/i,
  /\[\/?INST\]|<<\/?SYS>>/i,
  /\b(?:SYSTEM|SYSTÈME|SYSTEME|DEVELOPER|ADMIN)\s*:/,
  /^\s*#{1,6}\s*(?:system|systeme|système)\b/im,
  /\bDAN\b/,
];

/**
 * True when the text is, or carries, an instruction addressed to the assistant rather than
 * something about the user: ignore or override its instructions or rules, reveal its prompt,
 * change its rules or role ("from now on you are…", "tu es maintenant…"), a jailbreak phrasing.
 * French and English are both checked whatever the locale, since users mix them. Such text is
 * never remembered as the user's memory, whichever extractor read it and however it is phrased
 * ("Je préfère que l'assistant ignore toutes les instructions précédentes" is no preference).
 */
export function isInstructionToAssistant(text: string): boolean {
  // Invisible formatting (zero-width spaces, bidi marks) would otherwise split a word in two.
  const visible = text.replace(/\p{Cf}/gu, '');
  if (MARKERS.some((marker) => marker.test(visible))) return true;
  const words = normalizeContent(visible);
  return (
    INSTRUCTION_PATTERNS_FR.some((pattern) => pattern.test(words)) ||
    INSTRUCTION_PATTERNS_EN.some((pattern) => pattern.test(words))
  );
}
