import { deciderSpec } from '../../../../test/support/decider-spec';
import { llmLedgerDecider } from './llm-ledger-decider';
import type { LlmCallRecorded, LlmCallResumed } from './llm-usage-events';

describe('llmLedgerDecider', () => {
  const spec = deciderSpec(llmLedgerDecider);
  const call: LlmCallRecorded = {
    type: 'LlmCallRecorded',
    data: {
      purpose: 'extraction',
      cause: 'message/m1',
      engine: 'offline-rules',
      promptTokens: 0,
      completionTokens: 0,
      latencyMs: 3,
      outcome: 'ok',
      day: '2026-06-08',
    },
  };
  const resumed: LlmCallResumed = {
    type: 'LlmCallResumed',
    data: { purpose: 'summary', cause: 'session/s1', until: '2026-06-08T22:00:00.000Z' },
  };

  it('records each entry as it comes: the ledger is a log, nothing in it refuses one', () => {
    spec.given([call]).when({ type: 'RecordInLlmLedger', entry: resumed }).then([resumed]);
    spec.given([]).when({ type: 'RecordInLlmLedger', entry: call }).then([call]);
  });
});
