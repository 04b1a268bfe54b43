import { type Figures, turnPrecision, turnRecall } from './score';

/** Issue 20's figures for the offline extractor on casual chat. */
export const TARGETS = { turnRecall: 0.4, turnPrecision: 0.7 } as const;

export function meetsTargets(figures: Figures): boolean {
  return (
    turnRecall(figures) >= TARGETS.turnRecall && turnPrecision(figures) >= TARGETS.turnPrecision
  );
}
