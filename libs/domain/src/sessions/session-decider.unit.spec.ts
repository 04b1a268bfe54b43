import { deciderSpec } from '../../../../test/support/decider-spec';
import { sessionDecider } from './session-decider';
import type { RollingSummaryExtended } from './session-events';

const spec = deciderSpec(sessionDecider);
const extension = (through: string, summarizedCount: number): RollingSummaryExtended['data'] => ({
  sessionId: 's1',
  throughPosition: through,
  messageCount: 10,
  summarizedCount,
  summary: `summary through ${through}`,
  model: 'offline',
});
const extended = (through: string, count: number): RollingSummaryExtended => ({
  type: 'RollingSummaryExtended',
  data: extension(through, count),
});

describe('session decider (rolling summary)', () => {
  it('extends the summary past what it covers', () => {
    spec
      .given([])
      .when({ type: 'ExtendRollingSummary', data: extension('40', 10) })
      .then([extended('40', 10)]);
    spec
      .given([extended('40', 10)])
      .when({ type: 'ExtendRollingSummary', data: extension('80', 20) })
      .then([extended('80', 20)]);
  });

  it('never records two summaries of the same range (a summarizer re-run after a crash)', () => {
    spec
      .given([extended('40', 10)])
      .when({ type: 'ExtendRollingSummary', data: extension('40', 10) })
      .thenNothing();
    spec
      .given([extended('80', 20)])
      .when({ type: 'ExtendRollingSummary', data: extension('40', 10) })
      .thenNothing();
  });

  it('records a failure once per range and reason', () => {
    const failure = { sessionId: 's1', throughPosition: '40', reason: 'timeout', model: 'm' };
    spec
      .given([])
      .when({ type: 'RecordSummaryFailure', data: failure })
      .then([{ type: 'RollingSummaryFailed', data: failure }]);
    spec
      .given([{ type: 'RollingSummaryFailed', data: failure }])
      .when({ type: 'RecordSummaryFailure', data: failure })
      .thenNothing();
  });
});
