import type { MemoryKind } from '@engram/domain';
import type { ExpectedMemory } from './dev-set';

/**
 * How a predicted memory is matched to a labelled one. Contents are compared as bags of content words:
 * lower case, accents and punctuation dropped, function words and "user"/"utilisateur" left out, and
 * two words are the same when equal after a final s/x is dropped or when they share their first
 * 5 letters ("painting"/"paints", "adopté"/"adoptée"). A prediction covers a label when at least
 * MIN_OVERLAP of the label's words are found in it. Each label and each prediction match at most once.
 */
export const MIN_OVERLAP = 0.5;
const STEM_PREFIX = 5;

const STOP_WORDS = new Set(
  (
    'a an the of to in on at for and or but with from by as is are was were be been being am it its this that these those ' +
    'he she they them his her their i me my we our you your user users has have had do does did not no so very really just ' +
    'le la les l un une des du de d au aux et ou mais avec pour par en dans sur sous a est sont etait ete etre ce cet cette ces ' +
    'il elle ils elles lui leur leurs son sa ses se s je j me m mon ma mes nous notre nos tu te t ton ta tes vous votre vos ' +
    'qui que qu ne n pas plus tres y utilisateur utilisatrice'
  ).split(' '),
);

/** The content words of a text, in the form they are compared. */
export function contentWords(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '' && !STOP_WORDS.has(word))
    .map((word) => (word.length > 3 ? word.replace(/[sx]$/u, '') : word));
}

function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  return (
    a.length >= STEM_PREFIX &&
    b.length >= STEM_PREFIX &&
    a.slice(0, STEM_PREFIX) === b.slice(0, STEM_PREFIX)
  );
}

/** The share of the label's content words found in the prediction (0 when the label has none). */
export function overlap(expected: string, predicted: string): number {
  const wanted = [...new Set(contentWords(expected))];
  if (wanted.length === 0) return 0;
  const said = contentWords(predicted);
  return (
    wanted.filter((word) => said.some((other) => sameWord(word, other))).length / wanted.length
  );
}

export function kindFits(expected: ExpectedMemory, kind: MemoryKind): boolean {
  return expected.kind === kind || (expected.alsoKinds ?? []).includes(kind);
}

export type Prediction = Readonly<{ kind: MemoryKind; content: string }>;
/** Which label each prediction matched (index into the turn's labels), or undefined. */
export type TurnMatch = Readonly<{
  /** by content only, whatever the kinds */
  byContent: readonly (number | undefined)[];
  /** by content and a kind the label allows */
  byKind: readonly (number | undefined)[];
}>;

/** Greedy one-to-one matching of a turn's predictions to its labels, best overlap first. */
export function matchTurn(
  expected: readonly ExpectedMemory[],
  predicted: readonly Prediction[],
): TurnMatch {
  return {
    byContent: assign(expected, predicted, () => true),
    byKind: assign(expected, predicted, (label, prediction) => kindFits(label, prediction.kind)),
  };
}

function assign(
  expected: readonly ExpectedMemory[],
  predicted: readonly Prediction[],
  allowed: (label: ExpectedMemory, prediction: Prediction) => boolean,
): (number | undefined)[] {
  const pairs = predicted.flatMap((prediction, p) =>
    expected.flatMap((label, e) => {
      const share = allowed(label, prediction) ? overlap(label.content, prediction.content) : 0;
      return share >= MIN_OVERLAP ? [{ p, e, share }] : [];
    }),
  );
  pairs.sort((a, b) => b.share - a.share || a.p - b.p || a.e - b.e);
  const result: (number | undefined)[] = predicted.map(() => undefined);
  const taken = new Set<number>();
  for (const { p, e } of pairs) {
    if (result[p] !== undefined || taken.has(e)) continue;
    result[p] = e;
    taken.add(e);
  }
  return result;
}
