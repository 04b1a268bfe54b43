import { normalizeContent } from '@engram/domain';
import type { ExistingMemory, ExtractedCandidate } from '../ports';

/**
 * What a new memory is to the user's existing ones, offline: the rules' side of the LLM's
 * add / update / none answer (issue 20). Two pure readings of a memory's content (fr/en, third
 * person, as both extractors write it):
 * - its slots: the facts of which a person has one at a time (where they live, their employer,
 *   their role, diet, relationship status, age). Another value in the same slot contradicts: the
 *   newer memory supersedes the older one.
 * - its gist: the content's words reduced by a small lemma table and stemmer, the verbs of liking
 *   made one. The same gist in other words ("adore la randonnée" / "aime beaucoup randonner") is
 *   the same memory said again: it is reinforced instead of made twice.
 * Only statements about the user themselves have slots ("The user's sister lives in Lyon" has none).
 */

export type SlotKey = 'city' | 'employer' | 'role' | 'diet' | 'relationship' | 'age';
export type MemorySlot = Readonly<{ key: SlotKey; value: string }>;

/** "l utilisateur …", "the user …" (normalized), not "the user s sister …". */
const SUBJECT = /^(?:l utilisateur(?:rice)?|the user) (?!s )/;

/** Words after which a slot's value has ended: "lives in Lyon with his wife since 2020". */
const VALUE_END =
  /\s(?:now|anymore|since|for|with|and|but|as|where|because|maintenant|desormais|depuis|avec|et|mais|comme|ou|car|pour|en tant que|il|elle)\b.*$/;

/** Which value a word of diet or relationship stands for, fr and en (normalized, no accents). */
const DIETS: Readonly<Record<string, string>> = {
  vegetarian: 'vegetarian',
  vegetarien: 'vegetarian',
  vegetarienne: 'vegetarian',
  vegan: 'vegan',
  vegane: 'vegan',
  vegetalien: 'vegan',
  vegetalienne: 'vegan',
  pescatarian: 'pescatarian',
  pescetarien: 'pescatarian',
  pescetarienne: 'pescatarian',
  flexitarian: 'flexitarian',
  flexitarien: 'flexitarian',
  flexitarienne: 'flexitarian',
  omnivore: 'omnivore',
};
const RELATIONSHIPS: Readonly<Record<string, string>> = {
  married: 'married',
  marie: 'married',
  mariee: 'married',
  single: 'single',
  celibataire: 'single',
  divorced: 'divorced',
  divorce: 'divorced',
  divorcee: 'divorced',
  engaged: 'engaged',
  fiance: 'engaged',
  fiancee: 'engaged',
  widowed: 'widowed',
  veuf: 'widowed',
  veuve: 'widowed',
  separated: 'separated',
  separe: 'separated',
  separee: 'separated',
  pacse: 'partnered',
  pacsee: 'partnered',
};

type SlotRule = Readonly<{
  key: SlotKey;
  pattern: RegExp;
  value: (match: RegExpExecArray) => string;
}>;

const trimmed = (text: string | undefined): string => (text ?? '').replace(VALUE_END, '').trim();
const word = (table: Readonly<Record<string, string>>) => (match: RegExpExecArray) =>
  table[match[1] ?? ''] ?? '';
/** "left:acme": no longer at Acme (contradicts "works at Acme", says nothing of another employer). */
const left = (match: RegExpExecArray) => `left:${trimmed(match[1])}`;

const ARTICLE = '(?:(?:a|an|the|un|une|le|la|l) )?';
const ROLE = `${ARTICLE}([a-z][a-z ]{0,40}?)`;

/** Over the normalized content, subject removed. Several may read one content (role and employer). */
const SLOT_RULES: readonly SlotRule[] = [
  // city
  {
    key: 'city',
    pattern:
      /\b(?:lives|is living|is based|is settled|has settled|settled|now lives|habite|vit|reside|est installee?|s est installee?|est basee?)(?: maintenant| desormais| now)? (?:in|a|au|en) (.+)$/,
    value: (m) => trimmed(m[1]),
  },
  {
    key: 'city',
    pattern:
      /\b(?:moved|has moved|relocated|has relocated|a demenage|vient de demenager|demenage)(?: from .+?| de .+?)? (?:to|a|au|en|in) (.+)$/,
    value: (m) => trimmed(m[1]),
  },
  // employer, and the role said with it
  {
    key: 'employer',
    pattern:
      /\b(?:works|is working|now works|has worked|travaille|bosse)(?: maintenant| desormais| now)? (?:at|for|chez|pour) (.+)$/,
    value: (m) => trimmed(m[1]),
  },
  {
    key: 'employer',
    pattern: /\b(?:joined|has joined|started at|a rejoint|est entree? chez) (.+)$/,
    value: (m) => trimmed(m[1]),
  },
  // "is at Globex now": said without "now", "is at" is as often a place as an employer.
  {
    key: 'employer',
    pattern:
      /\b(?:is now at|est maintenant chez|est desormais chez|(?:is at|est chez) (?=.+ (?:now|maintenant|desormais)\b))(.+)$/,
    value: (m) => trimmed(m[1]),
  },
  {
    key: 'employer',
    pattern:
      /\b(?:quits?|quit|has quit|left|has left|a quitte|quitte) (?!(?:his|her|their|son|sa) )(.+)$/,
    value: left,
  },
  {
    key: 'employer',
    pattern: new RegExp(`\\b(?:is|est)(?: now| maintenant)? ${ROLE} (?:at|chez) (.+)$`),
    value: (m) => trimmed(m[2]),
  },
  {
    key: 'role',
    pattern: new RegExp(`\\b(?:is|est)(?: now| maintenant)? ${ROLE} (?:at|chez) `),
    value: (m) => trimmed(m[1]),
  },
  {
    key: 'role',
    pattern: new RegExp(
      `\\b(?:works as|travaille comme|travaille en tant que) ${ROLE}(?: (?:at|chez|for|pour) .*)?$`,
    ),
    value: (m) => trimmed(m[1]),
  },
  // diet: "is vegetarian now", "est devenu vegetarien", "eats meat again"
  {
    key: 'diet',
    pattern: new RegExp(
      `\\b(?:is|est|became|has become|est devenue?|devient)(?: now| maintenant| desormais)? ${ARTICLE}(${Object.keys(DIETS).join('|')})\\b`,
    ),
    value: word(DIETS),
  },
  {
    key: 'diet',
    pattern: /\b(?:eats meat|mange de la viande|remange de la viande)\b/,
    value: () => 'omnivore',
  },
  // relationship
  {
    key: 'relationship',
    pattern: new RegExp(
      `\\b(?:is|est|got|just got|became|est devenue?)(?: now| maintenant| desormais)? (${Object.keys(RELATIONSHIPS).join('|')})\\b`,
    ),
    value: word(RELATIONSHIPS),
  },
  {
    key: 'relationship',
    pattern: /\b(?:is in a relationship|est en couple|has a (?:girlfriend|boyfriend|partner))\b/,
    value: () => 'partnered',
  },
  // age
  { key: 'age', pattern: /\b(?:is|a) (\d{1,3}) (?:years old|ans)\b/, value: (m) => m[1] ?? '' },
];

/** The slots a memory's content fills, at most one value per key (the first rule that reads it). */
export function slotsOf(content: string): MemorySlot[] {
  const normalized = normalizeContent(content);
  const subject = SUBJECT.exec(normalized);
  if (subject === null) return [];
  const said = normalized.slice(subject[0].length);
  const slots = new Map<SlotKey, string>();
  for (const rule of SLOT_RULES) {
    if (slots.has(rule.key)) continue;
    const match = rule.pattern.exec(said);
    const value = match === null ? '' : rule.value(match);
    if (value !== '' && value !== 'left:') slots.set(rule.key, value);
  }
  return [...slots].map(([key, value]) => ({ key, value }));
}

/** Words that carry no gist: articles, the subject, intensifiers, time adverbs (normalized, fr/en). */
const STOPWORDS = new Set(
  (
    'l utilisateur utilisatrice the user le la les un une des de du d a au aux en et ou est sont ' +
    'a an of to and or is are be it its his her their son sa ses leur really very much lot lots ' +
    'so too quite beaucoup vraiment tres trop bien fort grandement particulierement surtout ' +
    'now maintenant desormais always toujours also aussi in at on for with chez pour avec dans sur'
  ).split(' '),
);

/** One lemma for the words of liking and of disliking, which say the same thing in other words. */
const LEMMA_WORDS: Readonly<Record<string, string>> = {
  '+like':
    'adore adores aime aimes apprecie apprecies kiffe love loves enjoy enjoys like likes fond passionne passionnee fan',
  '-like': 'deteste detestes hait hate hates dislike dislikes abhorre',
  '-not': 'pas not never jamais plus don doesn',
  '+prefer': 'prefere preferes prefer prefers',
  '+live': 'habite vit lives live reside',
  '+work': 'travaille bosse works work',
};
const LEMMAS = new Map<string, string>(
  Object.entries(LEMMA_WORDS).flatMap(([lemma, words]) =>
    words.split(' ').map((word): [string, string] => [word, lemma]),
  ),
);

/** Inflections stripped, longest first: "randonnée"/"randonner" → "randonn", "hiking"/"hikes" → "hik". */
const SUFFIXES = [
  'ements',
  'ement',
  'ations',
  'ation',
  'ings',
  'ing',
  'ees',
  'ers',
  'ent',
  'ee',
  'er',
  'ez',
  'es',
  'ed',
  'e',
  's',
];

function stem(token: string): string {
  for (const suffix of SUFFIXES) {
    if (token.endsWith(suffix) && token.length - suffix.length >= 3) {
      return token.slice(0, -suffix.length);
    }
  }
  return token;
}

/** The gist of a content: its words' lemmas or stems, stopwords out, as a sorted set ('' if none). */
export function gistOf(content: string): string {
  const tokens = normalizeContent(content)
    .split(' ')
    .filter((token) => token !== '' && !STOPWORDS.has(token));
  return [...new Set(tokens.map((token) => LEMMAS.get(token) ?? stem(token)))].sort().join(' ');
}

function contradicts(candidate: readonly MemorySlot[], existing: readonly MemorySlot[]): boolean {
  return candidate.some((slot) =>
    existing.some((other) => {
      if (other.key !== slot.key || other.value === slot.value) return false;
      // "left Acme" replaces Acme only; an existing "left" is replaced by any new value.
      if (slot.value.startsWith('left:')) return other.value === slot.value.slice('left:'.length);
      return true;
    }),
  );
}

function agrees(candidate: readonly MemorySlot[], existing: readonly MemorySlot[]): boolean {
  return (
    candidate.length > 0 &&
    candidate.every((slot) => existing.some((o) => o.key === slot.key && o.value === slot.value))
  );
}

/**
 * The candidates, each with what it is to the existing memories: `none` (it restates one: same
 * gist, or the same slot values in other words; that one is reinforced), `update` (another value in
 * one of its slots: it supersedes the latest such memory), or left as an addition. A candidate of
 * the same normalized text is left alone: its memory id is the existing one's already.
 */
export function relateToMemories(
  candidates: readonly ExtractedCandidate[],
  existing: readonly ExistingMemory[],
): ExtractedCandidate[] {
  const known = existing
    .filter((memory) => memory.memoryId !== undefined)
    .map((memory) => ({
      memoryId: memory.memoryId!,
      normalized: normalizeContent(memory.content),
      gist: gistOf(memory.content),
      slots: slotsOf(memory.content),
    }));
  return candidates.map((candidate) => {
    if (candidate.decision !== undefined || candidate.kind === 'commitment') return candidate;
    const normalized = normalizeContent(candidate.content);
    if (known.some((memory) => memory.normalized === normalized)) return candidate;
    const gist = gistOf(candidate.content);
    const slots = slotsOf(candidate.content);
    const latest = <T>(list: readonly T[]): T | undefined => list[list.length - 1];
    const same = latest(
      known.filter(
        (memory) =>
          (gist !== '' && memory.gist === gist) ||
          (agrees(slots, memory.slots) && !contradicts(slots, memory.slots)),
      ),
    );
    if (same !== undefined)
      return { ...candidate, decision: { action: 'none', memoryId: same.memoryId } };
    const replaced = latest(known.filter((memory) => contradicts(slots, memory.slots)));
    if (replaced !== undefined) {
      return { ...candidate, decision: { action: 'update', memoryId: replaced.memoryId } };
    }
    return candidate;
  });
}
