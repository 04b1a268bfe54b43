import type { Locale } from '@engram/domain';
import type { DateTime } from 'luxon';
import { distinctCandidates } from '../distinct-candidates';
import { type ScreenedCandidates, userMemoriesOnly } from '../injection/user-memories-only';
import type { ExtractedCandidate, ExtractionInput, LlmOutcome, MemoryExtractor } from '../ports';
import { type DueDate, messageTime, withAbsoluteDate } from './due-date';
import { findDueDate } from './find-due-date';
import { detectLanguage } from './language';
import { type LanguageRules, rulesFor } from './language-rules';
import { relateToMemories } from './memory-slots';
import { findReminder, type MessageTime } from './reminder';
import type { Clause, Rule } from './rule';
import { asSentence, normalizeText, truncate } from './text';

export const OFFLINE_MODEL = 'offline-rules';
const MAX_CANDIDATES = 3;
const MAX_CONTENT_LENGTH = 500;
const MAX_CONFIDENCE = 0.95;

const POLITENESS =
  /[\s,]*(?:stp|svp|s'il te plaît|s'il te plait|s'il vous plaît|merci|please|pls|thanks|thank you)[\s!.]*$/iu;

/** Laughter, hedges and emoji at the end of a clause: how it was said, not what ("…free pizza lol 😂"). */
const TRAILING_TONE =
  /(?:[\s,]*(?:lol|lmao|mdr|ptdr|haha\p{L}*|hihi|tbh|ngl|xd|honestly|genre vraiment|quoi|[\p{Extended_Pictographic}\u{FE0F}\u{200D}]+))+[\s!.]*$/iu;

type Found = Readonly<ExtractedCandidate & { order: number }>;

type Group = {
  readonly clause: Clause;
  readonly rule: Rule;
  readonly match: RegExpExecArray;
  /** the clause text, extended by the clauses that complete it */
  text: string;
  /** where the group ends in its sentence */
  end: number;
};

type SentenceClause = Readonly<{ raw: string; start: number; end: number; connector: string }>;

/**
 * The embedded extractor: French and English patterns over each clause of the message, in the
 * message's own language. Deterministic, no network; it only finds what is said plainly, with a
 * confidence that says how plainly (0.9 for "je préfère…", 0.65 for a weak reading).
 */
export class OfflineExtractor implements MemoryExtractor {
  async extract(input: ExtractionInput): Promise<LlmOutcome<ExtractedCandidate[]>> {
    const { kept, dropped } = screenedCandidates(input);
    return {
      ok: true,
      value: kept,
      model: OFFLINE_MODEL,
      usage: { promptTokens: 0, completionTokens: 0 },
      ...(dropped > 0 ? { droppedCandidates: dropped } : {}),
    };
  }
}

/** The candidates the offline extractor gives for a message. */
export function extractCandidates(input: ExtractionInput): ExtractedCandidate[] {
  return screenedCandidates(input).kept;
}

/**
 * What the rules read, with instructions to the assistant left out (`userMemoriesOnly`), each
 * related to the user's memories: restating or superseding one (`relateToMemories`, issue 20).
 */
function screenedCandidates(input: ExtractionInput): ScreenedCandidates {
  const related = relateToMemories(readCandidates(input), input.existingMemories);
  return userMemoriesOnly(input.message.text, related);
}

function readCandidates(input: ExtractionInput): ExtractedCandidate[] {
  if (input.message.role !== 'user') return [];
  const text = normalizeText(input.message.text);
  if (text === '') return [];
  const language = detectLanguage(text, input.locale);
  // Made on first use: a message without a date or a reminder never needs it (luxon's zone
  // arithmetic was an eighth of the extractor's time).
  let time: DateTime | undefined;
  const base = () => (time ??= messageTime(input.message.occurredAt, input.timeZone));
  const found: Found[] = [];
  for (const sentence of sentences(text)) {
    for (const candidate of fromSentence(sentence, language, base)) {
      found.push({ ...candidate, order: found.length });
    }
  }
  const fresh = new Set(distinctCandidates(found));
  return found
    .filter((candidate) => fresh.has(candidate))
    .sort((a, b) => b.confidence - a.confidence || a.order - b.order)
    .slice(0, MAX_CANDIDATES)
    .sort((a, b) => a.order - b.order)
    .map(({ order: _order, ...candidate }) => candidate);
}

function fromSentence(sentence: string, language: Locale, base: MessageTime): ExtractedCandidate[] {
  const reminder = findReminder(sentence, language, base);
  if (reminder !== undefined) {
    const before = sentence
      .slice(0, reminder.start)
      .replace(/[\s,;:]*(?:\b(?:et|and|puis|then|also|aussi|alors|so)\b)?[\s,;:]*$/iu, '');
    return [
      ...(before === '' ? [] : fromClauses(before, language, base)),
      candidate(
        'commitment',
        reminder.due?.precise === false ? 0.8 : reminder.due === undefined ? 0.75 : 0.9,
        reminder.content,
        reminder.due?.at.toUTC().toISO() ?? undefined,
      ),
    ];
  }
  return fromClauses(sentence, language, base);
}

function fromClauses(sentence: string, language: Locale, base: MessageTime): ExtractedCandidate[] {
  const rules = rulesFor(language);
  const question = /\?\s*$/.test(sentence);
  const parts = splitClauses(sentence, rules);
  const groups: Group[] = [];
  let current: Group | undefined;
  for (const [index, part] of parts.entries()) {
    const clause = toClause(part.raw, sentence, rules, language, base);
    if (clause === undefined) {
      current = undefined;
      continue;
    }
    const match = classify(clause, rules.rules);
    const asked = rules.isQuestion(clause) || (question && index === parts.length - 1);
    if (asked && match?.rule.request !== true) {
      current = undefined;
      continue;
    }
    const completes =
      current !== undefined &&
      current.rule.content === undefined &&
      rules.joiningConnector.test(part.connector) &&
      rules.firstPersonSubject.test(clause.lower) &&
      (match === undefined || match.rule.joinsPrevious === true);
    if (current !== undefined && completes) {
      current.text += sentence.slice(current.end, part.end);
      current.end = part.end;
      continue;
    }
    if (match === undefined) {
      current = undefined;
      continue;
    }
    current = { clause, rule: match.rule, match: match.match, text: clause.text, end: part.end };
    groups.push(current);
    for (const rest of match.rule.rest?.(clause, match.match) ?? []) {
      const restClause = toClause(rest, sentence, rules, language, base);
      const restMatch = restClause === undefined ? undefined : classify(restClause, rules.rules);
      if (restClause !== undefined && restMatch !== undefined) {
        groups.push({ clause: restClause, ...restMatch, text: restClause.text, end: part.end });
      }
    }
  }
  return groups.flatMap((group) => {
    const content = contentOf(group, rules, language);
    // "L'utilisateur adore." says nothing: a memory needs at least a subject, a verb and an object.
    if (content.split(/\s+/u).filter((word) => /[\p{L}\p{N}]/u.test(word)).length < 3) return [];
    const due = group.rule.date !== undefined ? group.clause.due : undefined;
    const confidence = group.rule.confidence + (group.rule.boost?.(group.clause) ?? 0);
    return [
      candidate(
        group.rule.kind,
        confidence,
        content,
        due?.precise ? (due.at.toUTC().toISO() ?? undefined) : undefined,
      ),
    ];
  });
}

function contentOf(group: Group, rules: LanguageRules, language: Locale): string {
  if (group.rule.content !== undefined) return group.rule.content(group.clause, group.match);
  const due = group.rule.date !== undefined ? group.clause.due : undefined;
  const text = due?.precise ? withAbsoluteDate(group.text, due, language) : group.text;
  return asSentence(rules.toThirdPerson(text));
}

function classify(
  clause: Clause,
  rules: readonly Rule[],
): { rule: Rule; match: RegExpExecArray } | undefined {
  const cased = `${clause.core.charAt(0).toLowerCase()}${clause.core.slice(1)}`;
  for (const rule of rules) {
    const match = rule.pattern.exec(rule.cased ? cased : clause.lower);
    if (match === null) continue;
    if (rule.date === 'precise' && clause.due?.precise !== true) continue;
    if (rule.when !== undefined && !rule.when(clause)) continue;
    return { rule, match };
  }
  return undefined;
}

function toClause(
  raw: string,
  sentence: string,
  rules: LanguageRules,
  language: Locale,
  base: MessageTime,
): Clause | undefined {
  let text = raw.replace(/[\s.!?…]+$/u, '').trim();
  for (let previous = ''; previous !== text;) {
    previous = text;
    text = text.replace(rules.fillers, '').trim();
  }
  const aside = rules.aside.exec(text);
  if (aside !== null && aside.index > 0) text = text.slice(0, aside.index);
  text = text.replace(POLITENESS, '').replace(TRAILING_TONE, '').trim();
  if (!/\p{L}/u.test(text)) return undefined;
  let core = text;
  let timePrefix = '';
  for (let previous = ''; previous !== core;) {
    previous = core;
    const prefix = rules.timePrefix.exec(core);
    if (prefix !== null && prefix[0].length < core.length) {
      timePrefix += `${prefix[0].toLowerCase()} `;
      core = core.slice(prefix[0].length).trim();
    }
  }
  // Read on first use only: most clauses match no rule that looks at a date, and reading one
  // (chrono-node, luxon) for every clause was half the extractor's time (BENCHMARKS.md, round 12).
  let due: { read: DueDate | undefined } | undefined;
  return {
    text,
    core,
    lower: core.toLowerCase(),
    timePrefix: timePrefix.trim(),
    sentence: sentence.toLowerCase(),
    get due() {
      due ??= { read: findDueDate(text, language, base()) };
      return due.read;
    },
  };
}

function splitClauses(sentence: string, rules: LanguageRules): SentenceClause[] {
  const parts: SentenceClause[] = [];
  let start = 0;
  let connector = '';
  for (const boundary of sentence.matchAll(rules.clauseBoundary)) {
    if (boundary.index === 0) continue;
    parts.push({
      raw: sentence.slice(start, boundary.index),
      start,
      end: boundary.index,
      connector,
    });
    connector = boundary[0]
      .toLowerCase()
      .replace(/[,;:–—]/g, ' ')
      .trim()
      .replace(/\s+/g, ' ');
    start = boundary.index + boundary[0].length;
  }
  parts.push({ raw: sentence.slice(start), start, end: sentence.length, connector });
  return parts;
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?…])\s+|\n+/u)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
}

function candidate(
  kind: ExtractedCandidate['kind'],
  confidence: number,
  content: string,
  dueAt: string | undefined,
): ExtractedCandidate {
  return {
    kind,
    content: truncate(content, MAX_CONTENT_LENGTH),
    confidence: Math.round(Math.min(MAX_CONFIDENCE, confidence) * 100) / 100,
    ...(dueAt === undefined ? {} : { dueAt }),
  };
}
