import { MEMORY_KINDS, type MemoryKind } from '@engram/domain';
import type { EvalTurn } from './dev-set';
import { matchTurn, type Prediction } from './matching';

export type ScoredTurn = Readonly<{
  turn: EvalTurn;
  predicted: readonly Prediction[];
  /** the extractor failed on this turn (the LLM path): it counts as predicting nothing */
  failed?: string;
}>;

type KindTally = { predicted: number; right: number; expected: number; found: number };

export type Figures = Readonly<{
  turns: number;
  factTurns: number;
  failedTurns: number;
  created: number;
  /** the precision: created memories that come from a turn carrying a fact about the user */
  fromFactTurns: number;
  /** created memories whose content matches a label of their turn (any kind) */
  matchedByContent: number;
  /** fact-bearing turns where at least one label was matched by content */
  factTurnsFound: number;
  /** per kind: predictions of that kind, those right (content and an allowed kind), labels, labels found */
  kinds: Readonly<Record<MemoryKind, Readonly<KindTally>>>;
}>;

export type Ratios = Readonly<{ precision: number; recall: number; f1: number }>;

export function figuresOf(scored: readonly ScoredTurn[]): Figures {
  const kinds = Object.fromEntries(
    MEMORY_KINDS.map((kind) => [kind, { predicted: 0, right: 0, expected: 0, found: 0 }]),
  ) as Record<MemoryKind, KindTally>;
  let factTurns = 0;
  let failedTurns = 0;
  let created = 0;
  let fromFactTurns = 0;
  let matchedByContent = 0;
  let factTurnsFound = 0;
  for (const { turn, predicted, failed } of scored) {
    const bearing = turn.expected.length > 0;
    const match = matchTurn(turn.expected, predicted);
    if (bearing) factTurns += 1;
    if (failed !== undefined) failedTurns += 1;
    created += predicted.length;
    if (bearing) fromFactTurns += predicted.length;
    matchedByContent += match.byContent.filter((label) => label !== undefined).length;
    if (bearing && match.byContent.some((label) => label !== undefined)) factTurnsFound += 1;
    predicted.forEach((prediction, index) => {
      kinds[prediction.kind].predicted += 1;
      if (match.byKind[index] !== undefined) kinds[prediction.kind].right += 1;
    });
    const foundLabels = new Set(match.byKind.filter((label) => label !== undefined));
    turn.expected.forEach((label, index) => {
      kinds[label.kind].expected += 1;
      if (foundLabels.has(index)) kinds[label.kind].found += 1;
    });
  }
  return {
    turns: scored.length,
    factTurns,
    failedTurns,
    created,
    fromFactTurns,
    matchedByContent,
    factTurnsFound,
    kinds,
  };
}

/** The figures: share of fact-bearing turns found, share of memories from fact-bearing turns. */
export function turnRecall(figures: Figures): number {
  return ratio(figures.factTurnsFound, figures.factTurns);
}

export function turnPrecision(figures: Figures): number {
  return ratio(figures.fromFactTurns, figures.created, 1);
}

/** Share of created memories that say what a label of their turn says (stricter than turnPrecision). */
export function contentPrecision(figures: Figures): number {
  return ratio(figures.matchedByContent, figures.created, 1);
}

/** Memory-level precision, recall and F1 of one kind (predictions by their kind, labels by theirs). */
export function kindRatios(tally: Readonly<KindTally>): Ratios {
  return ratios(tally.right, tally.predicted, tally.found, tally.expected);
}

/** Memory-level figures over every kind. */
export function overallRatios(figures: Figures): Ratios {
  const all = Object.values(figures.kinds);
  const sum = (pick: (tally: Readonly<KindTally>) => number) =>
    all.reduce((total, tally) => total + pick(tally), 0);
  return ratios(
    sum((t) => t.right),
    sum((t) => t.predicted),
    sum((t) => t.found),
    sum((t) => t.expected),
  );
}

function ratios(right: number, predicted: number, found: number, expected: number): Ratios {
  const precision = ratio(right, predicted, 1);
  const recall = ratio(found, expected, 1);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

function ratio(part: number, whole: number, empty = 0): number {
  return whole === 0 ? empty : part / whole;
}
