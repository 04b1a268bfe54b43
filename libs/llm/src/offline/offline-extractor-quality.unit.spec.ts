import { normalizeContent } from '@engram/domain';
import {
  EXTRACTION_FIXTURES,
  type ExtractionFixture,
} from '../../../../test/fixtures/extraction-fixtures';
import type { ExtractedCandidate } from '../ports';
import { extractCandidates } from './offline-extractor';

/** Floors just below what the rules measure today: a change that lowers quality fails here. */
const PRECISION_FLOOR = 0.97;
const RECALL_FLOOR = 0.95;

type Score = Readonly<{
  predicted: number;
  truePositives: number;
  expected: number;
  found: number;
}>;

function score(fixture: ExtractionFixture, predicted: readonly ExtractedCandidate[]): Score {
  const unmatched = [...fixture.expected];
  let truePositives = 0;
  for (const candidate of predicted) {
    const content = normalizeContent(candidate.content);
    const index = unmatched.findIndex(
      (expected) =>
        expected.kind === candidate.kind &&
        expected.contentIncludes.every((keyword) => content.includes(normalizeContent(keyword))),
    );
    if (index === -1) continue;
    unmatched.splice(index, 1);
    truePositives += 1;
  }
  return {
    predicted: predicted.length,
    truePositives,
    expected: fixture.expected.length,
    found: fixture.expected.length - unmatched.length,
  };
}

describe('offline extractor quality on the labelled fixtures', () => {
  it('keeps precision and recall above their floors', () => {
    const misses: string[] = [];
    const totals = { predicted: 0, truePositives: 0, expected: 0, found: 0 };
    for (const fixture of EXTRACTION_FIXTURES) {
      const predicted = extractCandidates({
        message: { role: 'user', text: fixture.text, occurredAt: '2026-06-08T16:40:00Z' },
        locale: fixture.locale,
        timeZone: 'Europe/Paris',
        recentMessages: [],
        existingMemories: [],
      });
      const result = score(fixture, predicted);
      totals.predicted += result.predicted;
      totals.truePositives += result.truePositives;
      totals.expected += result.expected;
      totals.found += result.found;
      if (result.truePositives < result.predicted || result.found < result.expected) {
        misses.push(
          `${fixture.text}\n    expected ${JSON.stringify(fixture.expected)}\n    got      ${JSON.stringify(predicted)}`,
        );
      }
    }
    const precision = totals.predicted === 0 ? 1 : totals.truePositives / totals.predicted;
    const recall = totals.expected === 0 ? 1 : totals.found / totals.expected;
    console.log(
      `offline extractor: precision ${precision.toFixed(2)}, recall ${recall.toFixed(2)} over ${EXTRACTION_FIXTURES.length} messages ` +
        `(${totals.truePositives}/${totals.predicted} predictions right, ${totals.found}/${totals.expected} expected found)` +
        (misses.length === 0 ? '' : `\nnot matched:\n  ${misses.join('\n  ')}`),
    );
    expect(EXTRACTION_FIXTURES.length).toBeGreaterThanOrEqual(60);
    expect(precision).toBeGreaterThanOrEqual(PRECISION_FLOOR);
    expect(recall).toBeGreaterThanOrEqual(RECALL_FLOOR);
  });
});
