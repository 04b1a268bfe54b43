import type { MemoryKind } from '@engram/domain';
import type { DueDate } from './due-date';

/** One clause of a message, as the rules see it. */
export type Clause = Readonly<{
  /** the clause without its leading fillers ("Au fait, "), original case */
  text: string;
  /** the text without its leading time adverbs ("En ce moment, "), original case */
  core: string;
  /** core, lower case: what the patterns match */
  lower: string;
  /** the time adverbs stripped from the start, lower case */
  timePrefix: string;
  /** the whole sentence, lower case */
  sentence: string;
  /** the first date expression of the text, resolved */
  due: DueDate | undefined;
}>;

export type Rule = Readonly<{
  kind: MemoryKind;
  confidence: number;
  /** added to the confidence when the clause is more explicit than the pattern alone says */
  boost?: (clause: Clause) => number;
  /** matched against clause.lower; with `cased`, against clause.core with a lower-case first letter */
  pattern: RegExp;
  cased?: boolean;
  /** 'precise': the clause must carry a precise date, which becomes the dueAt */
  date?: 'precise' | 'optional';
  when?: (clause: Clause) => boolean;
  /** the memory content; the third-person form of the clause by default */
  content?: (clause: Clause, match: RegExpExecArray) => string;
  /** a weak reading that joins the previous clause ("… et nous construisons une plateforme") */
  joinsPrevious?: boolean;
  /** said as a request ("Tu peux me tutoyer"): applies even where a question is recognised */
  request?: boolean;
  /** what is left after the matched part, to read as a clause of its own ("I'm Sarah, a nurse") */
  rest?: (clause: Clause, match: RegExpExecArray) => readonly string[];
}>;

/** Unicode-aware word boundaries: JavaScript's \b only knows ASCII letters. */
export const B = '(?<![\\p{L}\\p{N}])';
export const E = '(?![\\p{L}\\p{N}])';
