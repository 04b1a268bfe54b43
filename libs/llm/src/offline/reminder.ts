import type { Locale } from '@engram/domain';
import type { DateTime } from 'luxon';
import { dateLabel, type DueDate } from './due-date';
import { findDueDate } from './find-due-date';
import { asSentence } from './text';
import { toThirdPersonEn } from './third-person.en';
import { toThirdPersonFr } from './third-person.fr';

/** The message time in the user's zone, made when first asked for (most messages never need it). */
export type MessageTime = () => DateTime;

export type Reminder = Readonly<{
  content: string;
  due: DueDate | undefined;
  /** where the request starts in the sentence: what comes before is read on its own */
  start: number;
}>;

const TRIGGER_FR =
  /(?:^|[\s,.!;:])(?:rappelle[- ]moi|rappelez[- ]moi|(?:tu peux|peux-tu|pourrais-tu|tu pourrais|pouvez-vous|vous pouvez|pourriez-vous|est-ce que tu peux|est-ce que tu pourrais|tu veux bien|merci de|pense à|n'oublie pas de) me rappeler|fais[- ]moi penser|mets[- ]moi un rappel|(?:crée|ajoute|programme|mets)(?:-moi)? un rappel)\s*/iu;
const TRIGGER_EN =
  /(?:^|[\s,.!;:])(?:please\s+)?(?:remind me|(?:can|could|would|will) you (?:please )?remind me|set (?:a|me a|up a) reminder|add a reminder|create a reminder|don't let me forget|do not let me forget|make sure i (?:don't forget|remember))\s*/iu;
/** "rappelle-moi comment…" asks to recall knowledge, not to be reminded of a task. */
const NOT_A_TASK_FR =
  /^(?:comment|ce que|ce qu'|quel|quelle|quels|quelles|pourquoi|où|qui|combien|la différence|le nom|la syntaxe|la formule)/iu;
const NOT_A_TASK_EN = /^(?:how|what|why|where|who|which|the difference|the name|the syntax)/iu;

/** A request to be reminded of something, anywhere in the sentence, with its date if any. */
export function findReminder(
  sentence: string,
  language: Locale,
  base: MessageTime,
): Reminder | undefined {
  const trigger = (language === 'fr' ? TRIGGER_FR : TRIGGER_EN).exec(sentence);
  if (trigger === null) return undefined;
  let task = sentence.slice(trigger.index + trigger[0].length);
  const due = findDueDate(task, language, base());
  if (due !== undefined) {
    for (const span of [...due.spans].sort((a, b) => b.start - a.start)) {
      task = `${task.slice(0, span.start)} ${task.slice(span.end)}`;
    }
  }
  task = cleanTask(task, language);
  if ((language === 'fr' ? NOT_A_TASK_FR : NOT_A_TASK_EN).test(task)) return undefined;
  const content = language === 'fr' ? frenchContent(task) : englishContent(task);
  if (content === undefined) return undefined;
  const label = due === undefined ? '' : ` ${dateLabel(due, language)}`;
  const start = trigger.index + (/^[\s,.!;:]/.test(trigger[0]) ? 1 : 0);
  return { content: asSentence(`${content}${label}`), due, start };
}

function cleanTask(task: string, language: Locale): string {
  const politeness =
    language === 'fr'
      ? /[\s,]*(?:stp|s'il te plaît|s'il te plait|svp|s'il vous plaît|merci|please)?[\s,.!?]*$/iu
      : /[\s,]*(?:please|thanks|thank you|pls)?[\s,.!?]*$/iu;
  return task
    .replace(/\s{2,}/g, ' ')
    .replace(/\s+([,.!?])/g, '$1')
    .replace(politeness, '')
    .replace(/^[\s,:]+/, '')
    .trim();
}

function frenchContent(task: string): string | undefined {
  const clause = /^(?:que |qu')(.*)$/iu.exec(task);
  if (clause !== null)
    return wordCount(clause[1]) >= 2 ? toThirdPersonFr(clause[1] ?? '') : undefined;
  const infinitive = /^(?:de |d'|pour )?(.*)$/iu.exec(task)?.[1] ?? '';
  if (wordCount(infinitive) < 2 || !/^\p{L}+(?:er|ir|re|oir)(?![\p{L}])/u.test(infinitive)) {
    return undefined;
  }
  return `L'utilisateur doit ${toThirdPersonFr(infinitive, { userNamed: true })}`;
}

function englishContent(task: string): string | undefined {
  const clause = /^that (.*)$/iu.exec(task);
  if (clause !== null)
    return wordCount(clause[1]) >= 2 ? toThirdPersonEn(clause[1] ?? '') : undefined;
  const about = /^(?:about|of) (.*)$/iu.exec(task);
  if (about !== null) {
    return wordCount(about[1]) >= 1
      ? `The user wants a reminder about ${toThirdPersonEn(about[1] ?? '', { userNamed: true })}`
      : undefined;
  }
  const infinitive = /^(?:to )?(.*)$/iu.exec(task)?.[1] ?? '';
  if (wordCount(infinitive) < 2) return undefined;
  return `The user needs to ${toThirdPersonEn(infinitive, { userNamed: true })}`;
}

function wordCount(text: string | undefined): number {
  return (text ?? '').split(/\s+/).filter((word) => /\p{L}/u.test(word)).length;
}
