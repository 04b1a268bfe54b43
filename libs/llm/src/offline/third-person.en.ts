import { isWord, nextWordIndex, previousWord } from './tokens';

const ADVERBS = new Set([
  'really',
  'also',
  'usually',
  'always',
  'never',
  'currently',
  'still',
  'just',
  'mostly',
  'actually',
  'definitely',
  'absolutely',
  'generally',
  'often',
  'sometimes',
  'mainly',
  'only',
  'recently',
  'now',
  'totally',
  'strongly',
  'rarely',
  'typically',
  'honestly',
  'personally',
  'seriously',
  'much',
  'very',
  'genuinely',
  'normally',
  'occasionally',
  'regularly',
  'primarily',
  'even',
  'already',
  'kinda',
  'finally',
]);

const UNCHANGED = new Set([
  'can',
  'could',
  'will',
  'would',
  'should',
  'must',
  'might',
  'may',
  'shall',
  "can't",
  'cannot',
  "won't",
  "couldn't",
  "wouldn't",
  "shouldn't",
  "mustn't",
  'was',
  'got',
  'had',
  'did',
  'made',
  'went',
  'came',
  'took',
  'left',
  'began',
  'bought',
  'built',
  'found',
  'grew',
  'knew',
  'lost',
  'met',
  'paid',
  'ran',
  'said',
  'sent',
  'spent',
  'taught',
  'told',
  'thought',
  'won',
  'wrote',
  'became',
  'broke',
  'chose',
  'drove',
  'fell',
  'felt',
  'flew',
  'forgot',
  'gave',
  'heard',
  'held',
  'kept',
  'led',
  'saw',
  'sold',
  'stood',
  'understood',
  'used',
]);

const THIRD_PERSON: Readonly<Record<string, string>> = {
  am: 'is',
  are: 'is',
  were: 'was',
  "weren't": "wasn't",
  "aren't": "isn't",
  have: 'has',
  "haven't": "hasn't",
  do: 'does',
  "don't": "doesn't",
  go: 'goes',
};

const CONTRACTIONS: Readonly<Record<string, { named: string; dropped: string; they: string }>> = {
  "i'm": { named: 'is', dropped: 'is', they: "they're" },
  "i've": { named: 'has', dropped: 'has', they: "they've" },
  "i'll": { named: 'will', dropped: 'will', they: "they'll" },
  "i'd": { named: 'would', dropped: 'would', they: "they'd" },
  "we're": { named: 'is', dropped: 'is', they: "they're" },
  "we've": { named: 'has', dropped: 'has', they: "they've" },
  "we'll": { named: 'will', dropped: 'will', they: "they'll" },
  "we'd": { named: 'would', dropped: 'would', they: "they'd" },
};

const SUBJECT_PRECEDERS = new Set([
  '',
  'and',
  'but',
  'so',
  'because',
  'when',
  'if',
  'that',
  'as',
  'since',
  'while',
  'unless',
  'until',
  'before',
  'after',
  'then',
  'or',
  'whenever',
  'where',
  'how',
]);

const REPLACEMENTS: Readonly<Record<string, string>> = {
  my: 'their',
  our: 'their',
  mine: 'theirs',
  ours: 'theirs',
  me: 'them',
  us: 'them',
  myself: 'themselves',
  ourselves: 'themselves',
  your: "the assistant's",
  yourself: 'the assistant',
};

export type ShiftOptions = Readonly<{ userNamed?: boolean }>;

/**
 * Rewrites a first-person English clause in the third person:
 * "I'm CTO at X and we're building Y" → "The user is CTO at X and is building Y".
 */
export function toThirdPersonEn(text: string, options: ShiftOptions = {}): string {
  const possessive = /^(my|our)\s+/i.exec(text);
  const tokens = tokenizeEn(possessive === null ? text : text.slice(possessive[0].length));
  const out: string[] = possessive === null ? [] : ["The user's "];
  let userNamed = options.userNamed === true || possessive !== null;
  let lastSubjectUser = options.userNamed === true;

  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i] ?? '';
    if (!isWord(token)) {
      out.push(token);
      continue;
    }
    const lower = token.toLowerCase();
    const before = previousWord(tokens, i);
    const subjectPosition = SUBJECT_PRECEDERS.has(before);
    const contraction = CONTRACTIONS[lower];
    const plainSubject = lower === 'i' || (lower === 'we' && subjectPosition);

    if (plainSubject || (contraction !== undefined && (lower.startsWith('i') || subjectPosition))) {
      const drop = userNamed && lastSubjectUser && (before === 'and' || before === 'then');
      const named = !userNamed;
      userNamed = true;
      lastSubjectUser = true;
      if (contraction !== undefined) {
        if (named) out.push(`${hasText(out) ? 'the' : 'The'} user ${contraction.named}`);
        else if (drop) out.push(contraction.dropped);
        else out.push(contraction.they);
        continue;
      }
      if (named) out.push(`${hasText(out) ? 'the' : 'The'} user`);
      else if (!drop) out.push('they');
      i = conjugateNext(tokens, i, out, named || drop ? 'third' : 'plural');
      continue;
    }
    if (lower === 'you' && subjectPosition) {
      out.push(hasText(out) ? 'the assistant' : 'The assistant');
      lastSubjectUser = false;
      i = conjugateNext(tokens, i, out, 'third');
      continue;
    }
    if (lower === "you're") {
      out.push('the assistant is');
      lastSubjectUser = false;
      continue;
    }
    if (lower === 'you') {
      out.push('the assistant');
      continue;
    }
    if (['he', 'she', 'they', 'it', 'people', 'someone'].includes(lower)) lastSubjectUser = false;
    if (lower === 'us' && token === 'US') {
      out.push(token);
      continue;
    }
    const replacement = REPLACEMENTS[lower];
    out.push(replacement ?? token);
  }
  return out
    .join('')
    .replace(/\s{2,}/g, ' ')
    .replace(/\s+([,.])/g, '$1')
    .trim();
}

function tokenizeEn(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+(?:['-][\p{L}\p{N}]+)*|[^\p{L}\p{N}]+/gu) ?? [];
}

/** Copies adverbs up to the verb and writes the verb in the requested form; returns its index. */
function conjugateNext(
  tokens: readonly string[],
  subjectIndex: number,
  out: string[],
  form: 'third' | 'plural',
): number {
  let last = subjectIndex;
  let i = nextWordIndex(tokens, subjectIndex);
  while (i !== -1) {
    for (let j = last + 1; j < i; j += 1) out.push(tokens[j] ?? '');
    const word = tokens[i] ?? '';
    const lower = word.toLowerCase();
    if (ADVERBS.has(lower)) {
      out.push(word);
      last = i;
      i = nextWordIndex(tokens, i);
      continue;
    }
    out.push(form === 'third' ? thirdPerson(lower) : plural(lower));
    return i;
  }
  return last;
}

function thirdPerson(verb: string): string {
  const known = THIRD_PERSON[verb];
  if (known !== undefined) return known;
  const pastTense = verb.endsWith('ed') && !verb.endsWith('eed');
  if (UNCHANGED.has(verb) || pastTense || verb.includes("'")) return verb;
  if (/(s|sh|ch|x|z|o)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

function plural(verb: string): string {
  if (verb === 'am') return 'are';
  if (verb === 'was') return 'were';
  return verb;
}

function hasText(out: readonly string[]): boolean {
  return out.some((token) => /[\p{L}\p{N}]/u.test(token));
}
