import type { Locale } from '@engram/domain';

// Words of one language only: "me", "on", "a" or "son" would count for both.
const FRENCH_CUES =
  /\b(je|j'|tu|nous|vous|suis|est|sont|les|des|une|pour|avec|mais|dans|sur|pas|mon|ma|mes|notre|c'est|qu'|que|du|le|la|et|ça|très|aussi|merci|bonjour|salut|oui|non|moi|toi|d'|l'|au|aux|ce|cette|ces|il|elle|chez|demain|rappelle|réponds|toujours|jamais|stp|svp)\b|[éèêàçùâîôûœ]/giu;
const ENGLISH_CUES =
  /\b(i|i'm|i've|i'll|i'd|my|you|your|the|is|are|and|to|of|for|with|but|not|it|this|that|be|have|has|thanks|hello|hi|yes|we|our|am|was|will|would|please|from|now|in|what|how|why|when|where|can|could|should|just|so|about|at|they|them|their|he|she|his|her|if|or|by|an|been|were|had|like|want|need|remind|tomorrow|today|answer|reply|always|never|don't)\b/giu;

/** The language of a message from cheap cues; the user's locale decides a tie. */
export function detectLanguage(text: string, fallback: Locale): Locale {
  const french = text.match(FRENCH_CUES)?.length ?? 0;
  const english = text.match(ENGLISH_CUES)?.length ?? 0;
  if (french === english) return fallback;
  return french > english ? 'fr' : 'en';
}
