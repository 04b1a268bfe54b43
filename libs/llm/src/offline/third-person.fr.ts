import { startsWithVowel } from './text';
import { isWord, nextWordIndex, previousWord, tokenize } from './tokens';

const JE_FORMS: Readonly<Record<string, string>> = {
  ai: 'a',
  suis: 'est',
  vais: 'va',
  peux: 'peut',
  veux: 'veut',
  vaux: 'vaut',
  fais: 'fait',
  dois: 'doit',
  sais: 'sait',
  connais: 'connaît',
  viens: 'vient',
  tiens: 'tient',
  deviens: 'devient',
  reviens: 'revient',
  obtiens: 'obtient',
  étais: 'était',
  avais: 'avait',
  serai: 'sera',
  aurai: 'aura',
  ferai: 'fera',
  irai: 'ira',
};

const NOUS_FORMS: Readonly<Record<string, string>> = {
  sommes: 'est',
  avons: 'a',
  allons: 'va',
  faisons: 'fait',
  pouvons: 'peut',
  voulons: 'veut',
  devons: 'doit',
  savons: 'sait',
  prenons: 'prend',
  apprenons: 'apprend',
  comprenons: 'comprend',
  venons: 'vient',
  tenons: 'tient',
  devenons: 'devient',
  obtenons: 'obtient',
  construisons: 'construit',
  produisons: 'produit',
  conduisons: 'conduit',
  traduisons: 'traduit',
  réduisons: 'réduit',
  partons: 'part',
  sortons: 'sort',
  dormons: 'dort',
  sentons: 'sent',
  servons: 'sert',
  vendons: 'vend',
  attendons: 'attend',
  rendons: 'rend',
  répondons: 'répond',
  perdons: 'perd',
  écrivons: 'écrit',
  lisons: 'lit',
  disons: 'dit',
  mettons: 'met',
  connaissons: 'connaît',
  voyons: 'voit',
  recevons: 'reçoit',
  vivons: 'vit',
  suivons: 'suit',
  croyons: 'croit',
  buvons: 'boit',
  étions: 'était',
  avions: 'avait',
  serons: 'sera',
  aurons: 'aura',
  ferons: 'fera',
  irons: 'ira',
};

const TU_FORMS: Readonly<Record<string, string>> = {
  es: 'est',
  as: 'a',
  vas: 'va',
  peux: 'peut',
  veux: 'veut',
};

/** Memories are written in a neutral register. */
const FAMILIAR: Readonly<Record<string, string>> = { bosse: 'travaille', kiffe: 'aime' };

const CLITICS = new Set([
  'ne',
  "n'",
  'me',
  "m'",
  'te',
  "t'",
  'se',
  "s'",
  'le',
  'la',
  'les',
  "l'",
  'lui',
  'leur',
  'y',
  'en',
  'nous',
  'vous',
]);

/** "me" is "lui" before these verbs (indirect object: répondre à quelqu'un), "le" otherwise. */
const INDIRECT_VERB =
  /^(répon|parl|écri|envoi|envoy|donn|expliqu|di[st]?$|dire|demand|propos|montr|fourni|indiqu|suggér|conseill|rappel|plai|pla[iî]t|conv|va$|manqu|fai[ts]?$|faire|recommand|transmet|signal|laiss|appren|souhait)/;

const SUBJECT_PRECEDERS = new Set([
  '',
  'et',
  'mais',
  'donc',
  'car',
  'puis',
  'ou',
  'que',
  "qu'",
  'quand',
  'si',
  "s'",
  'où',
  'comme',
  'lorsque',
  "lorsqu'",
  'parce',
  'alors',
  'puisque',
  "puisqu'",
]);

const FEMININE_NOUNS =
  /^(startup|start-up|boîte|boite|société|entreprise|équipe|agence|famille|maison|fille|femme|mère|sœur|soeur|copine|compagne|conjointe|voiture|appli|application|ville|région|date|deadline|réunion|présentation|soutenance|langue|passion|série|couleur|cuisine|musique|banque|école|formation|mission|cliente|cheffe|manager|chienne|chatte|grand-mère|tante|cousine|nièce|belle-mère|fiancée|amie|meilleure|copropriété|asso|association|boutique|plateforme|marque|newsletter|semaine|journée|méthode|routine|stack)$/;

export type ShiftOptions = Readonly<{
  /** "L'utilisateur" was already written before this text: a first "je" becomes "il". */
  userNamed?: boolean;
}>;

/**
 * Rewrites a first-person French clause in the third person, the way memories are written:
 * "Je suis CTO chez X et nous construisons Y" → "L'utilisateur est CTO chez X et construit Y".
 */
export function toThirdPersonFr(text: string, options: ShiftOptions = {}): string {
  const possessive = initialPossessive(text);
  const tokens = tokenize(possessive?.rest ?? text);
  const out: string[] = possessive === undefined ? [] : [possessive.subject];
  let userNamed = options.userNamed === true || possessive !== undefined;
  // After "La fille de l'utilisateur", the subject is someone else: a following "et je" keeps "il".
  let currentSubject: 'user' | 'other' = options.userNamed === true ? 'user' : 'other';
  let skipUntil = -1;

  for (let i = 0; i < tokens.length; i += 1) {
    if (i <= skipUntil) continue;
    const token = tokens[i] ?? '';
    if (!isWord(token)) {
      out.push(token);
      continue;
    }
    const lower = token.toLowerCase();
    const before = previousWord(tokens, i);
    const subjectPosition = SUBJECT_PRECEDERS.has(before);

    const we =
      (lower === 'nous' && subjectPosition) || (lower === 'on' && before === '' && i === 0);
    if (lower === 'je' || lower === "j'" || we) {
      const plural = lower === 'nous' || lower === 'on';
      let subject: string;
      if (!userNamed) {
        subject = hasText(out) ? "l'utilisateur" : "L'utilisateur";
      } else if (currentSubject === 'user' && (before === 'et' || before === 'puis')) {
        subject = '';
      } else {
        subject = 'il';
      }
      userNamed = true;
      currentSubject = 'user';
      out.push(subject);
      if (subject !== '' && lower === "j'") out.push(' ');
      skipUntil = conjugateAfterSubject(tokens, i, out, plural ? 'nous' : 'je');
      continue;
    }
    if (lower === 'tu' && subjectPosition) {
      out.push(hasText(out) ? "l'assistant" : "L'assistant");
      currentSubject = 'other';
      skipUntil = conjugateAfterSubject(tokens, i, out, 'tu');
      continue;
    }
    if (
      lower === 'on' ||
      lower === "qu'on" ||
      lower === 'il' ||
      lower === 'elle' ||
      lower === 'ça'
    ) {
      currentSubject = 'other';
    }
    if (lower === 'me' || lower === "m'") {
      out.push(objectPronoun(tokens, i, currentSubject === 'user'));
      continue;
    }
    out.push(replaceWord(token, lower));
  }
  return out
    .join('')
    .replace(/\s{2,}/g, ' ')
    .replace(/\s+([,.])/g, '$1')
    .trim();
}

/**
 * Writes the clitics and the verb that follow a subject, conjugated in the third person singular,
 * and returns the index of the last token consumed.
 */
function conjugateAfterSubject(
  tokens: readonly string[],
  subjectIndex: number,
  out: string[],
  person: 'je' | 'nous' | 'tu',
): number {
  let i = nextWordIndex(tokens, subjectIndex);
  let last = subjectIndex;
  while (i !== -1) {
    const word = tokens[i] ?? '';
    const lower = word.toLowerCase();
    copySeparators(tokens, last, i, out);
    if (CLITICS.has(lower) && nextWordIndex(tokens, i) !== -1) {
      out.push(cliticAfterSubject(tokens, i, lower, person));
      last = i;
      i = nextWordIndex(tokens, i);
      continue;
    }
    const verb = FAMILIAR[conjugate(lower, person)] ?? conjugate(lower, person);
    elideBefore(out, verb);
    out.push(matchCase(word, verb));
    return i;
  }
  return last;
}

function cliticAfterSubject(
  tokens: readonly string[],
  index: number,
  lower: string,
  person: 'je' | 'nous' | 'tu',
): string {
  if (person === 'tu' && (lower === 'me' || lower === "m'"))
    return objectPronoun(tokens, index, false);
  if (person === 'je' && lower === 'me') return 'se';
  if (person === 'je' && lower === "m'") return "s'";
  if (person === 'nous' && lower === 'nous') {
    const next = tokens[nextWordIndex(tokens, index)] ?? '';
    return startsWithVowel(next) ? "s'" : 'se';
  }
  return lower;
}

/** "me" / "m'" of someone else's verb: the user as object ("qu'on me réponde" → "qu'on lui réponde"). */
function objectPronoun(tokens: readonly string[], index: number, reflexive: boolean): string {
  const verb = (tokens[nextWordIndex(tokens, index)] ?? '').toLowerCase();
  const elided = tokens[index]?.toLowerCase() === "m'";
  if (reflexive && /(er|ir|re|oir)$/.test(verb)) return elided ? "s'" : 'se';
  if (INDIRECT_VERB.test(verb)) return elided ? 'lui ' : 'lui';
  return elided || startsWithVowel(verb) ? "l'" : 'le';
}

function conjugate(verb: string, person: 'je' | 'nous' | 'tu'): string {
  if (person === 'je') {
    const known = JE_FORMS[verb];
    if (known !== undefined) return known;
    if (verb.endsWith('rai')) return `${verb.slice(0, -1)}`;
    if (verb.endsWith('ais')) return `${verb.slice(0, -1)}t`;
    if (verb.endsWith('ds')) return verb.slice(0, -1);
    if (verb.endsWith('ts')) return verb.slice(0, -1);
    if (verb.endsWith('x')) return `${verb.slice(0, -1)}t`;
    if (verb.endsWith('s')) return `${verb.slice(0, -1)}t`;
    return verb;
  }
  if (person === 'nous') {
    const known = NOUS_FORMS[verb];
    if (known !== undefined) return known;
    if (verb.endsWith('issons')) return `${verb.slice(0, -5)}t`;
    if (verb.endsWith('rons')) return `${verb.slice(0, -3)}a`;
    if (verb.endsWith('ions')) return `${verb.slice(0, -4)}ait`;
    if (verb.endsWith('ons')) {
      let stem = verb.slice(0, -3);
      if (stem.endsWith('ç')) stem = `${stem.slice(0, -1)}c`;
      else if (stem.endsWith('ge')) stem = stem.slice(0, -1);
      return `${stem}e`;
    }
    return verb;
  }
  const known = TU_FORMS[verb];
  if (known !== undefined) return known;
  if (verb.endsWith('es')) return verb.slice(0, -1);
  if (verb.endsWith('ds') || verb.endsWith('ts')) return verb.slice(0, -1);
  if (verb.endsWith('x')) return `${verb.slice(0, -1)}t`;
  if (verb.endsWith('is')) return `${verb.slice(0, -1)}t`;
  if (verb.endsWith('s')) return verb.slice(0, -1);
  return verb;
}

function replaceWord(token: string, lower: string): string {
  const replacement: Readonly<Record<string, string>> = {
    mon: 'son',
    ma: 'sa',
    mes: 'ses',
    nos: 'ses',
    moi: 'lui',
    'moi-même': 'lui-même',
  };
  const known = replacement[lower];
  if (known !== undefined) return matchCase(token, known);
  if (lower === 'notre') return matchCase(token, 'son');
  return token;
}

/** "Mon équipe utilise Scrum" → "L'équipe de l'utilisateur utilise Scrum". */
function initialPossessive(text: string): { subject: string; rest: string } | undefined {
  const match =
    /^(mon|ma|mes|notre|nos)\s+([\p{L}-]+(?:\s+(?:préférée?s?|favorie?s?|actuelle?s?|principale?s?|nouvelle|nouveau|ancien(?:ne)?|maternelle|natale|meilleure?|petite?|grande?|aînée?|cadette?|date de naissance))?)(?=[\s,.!?]|$)/iu.exec(
      text,
    );
  if (match === null) return undefined;
  const possessive = (match[1] ?? '').toLowerCase();
  const noun = match[2] ?? '';
  const head = noun.split(/\s+/)[0]?.toLowerCase() ?? '';
  let article: string;
  if (possessive === 'mes' || possessive === 'nos') article = 'Les ';
  else if (startsWithVowel(head)) article = "L'";
  else if (possessive === 'ma' || FEMININE_NOUNS.test(head)) article = 'La ';
  else article = 'Le ';
  return {
    subject: `${article}${noun} de l'utilisateur`,
    rest: text.slice(match[0].length),
  };
}

function copySeparators(tokens: readonly string[], from: number, to: number, out: string[]): void {
  for (let j = from + 1; j < to; j += 1) out.push(tokens[j] ?? '');
}

/** "ne" + "est" → "n'est", "se" + "occupe" → "s'occupe". */
function elideBefore(out: string[], verb: string): void {
  if (!startsWithVowel(verb)) return;
  for (let j = out.length - 1; j >= 0; j -= 1) {
    const token = out[j] ?? '';
    if (token.trim() === '') continue;
    const lower = token.toLowerCase();
    if (lower === 'ne' || lower === 'se' || lower === 'le' || lower === 'la') {
      out[j] = `${token.charAt(0)}'`;
      if (out[j + 1] !== undefined && out[j + 1]?.trim() === '') out[j + 1] = '';
    }
    return;
  }
}

function hasText(out: readonly string[]): boolean {
  return out.some((token) => /[\p{L}\p{N}]/u.test(token));
}

function matchCase(original: string, replacement: string): string {
  const first = original.charAt(0);
  return first !== first.toLowerCase()
    ? `${replacement.charAt(0).toUpperCase()}${replacement.slice(1)}`
    : replacement;
}
