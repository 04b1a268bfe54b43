import type { LlmPurpose } from './ports';
import { type CountedPurpose, type LlmCall, LLM_PURPOSES, LlmUsageCounter } from './usage-counter';

const call = (overrides: Partial<LlmCall> = {}): LlmCall => ({
  purpose: 'extraction',
  model: 'm',
  ok: true,
  usage: { promptTokens: 10, completionTokens: 5 },
  durationMs: 3,
  ...overrides,
});

describe('LlmUsageCounter', () => {
  it('restates exactly the purposes of the port', () => {
    const fromPort: readonly LlmPurpose[] = LLM_PURPOSES;
    const toPort = (purpose: LlmPurpose): CountedPurpose => purpose;
    expect([...fromPort].map(toPort)).toEqual(['extraction', 'summary', 'identity_card']);
  });

  it('counts calls, failures by reason code, dropped candidates and tokens per purpose', () => {
    const counter = new LlmUsageCounter();
    counter.record(call({ droppedCandidates: 2 }));
    counter.record(call({ ok: false, reason: 'invalid_schema: candidates is not an array' }));
    counter.record(
      call({ ok: false, reason: 'timeout', usage: { promptTokens: 0, completionTokens: 0 } }),
    );
    counter.record(
      call({ purpose: 'summary', usage: { promptTokens: 100, completionTokens: 40 } }),
    );
    expect(counter.snapshot()).toEqual({
      extraction: {
        calls: 3,
        failures: 2,
        failuresByReason: { invalid_schema: 1, timeout: 1 },
        droppedCandidates: 2,
        promptTokens: 20,
        completionTokens: 10,
      },
      summary: {
        calls: 1,
        failures: 0,
        failuresByReason: {},
        droppedCandidates: 0,
        promptTokens: 100,
        completionTokens: 40,
      },
      identity_card: {
        calls: 0,
        failures: 0,
        failuresByReason: {},
        droppedCandidates: 0,
        promptTokens: 0,
        completionTokens: 0,
      },
    });
  });

  it('returns a copy: the snapshot does not move with later calls', () => {
    const counter = new LlmUsageCounter();
    const before = counter.snapshot();
    counter.record(call({ ok: false, reason: 'http_500' }));
    expect(before.extraction.calls).toBe(0);
    expect(before.extraction.failuresByReason).toEqual({});
  });

  it('tells its listeners about every call until they unsubscribe, even when one throws', () => {
    const counter = new LlmUsageCounter();
    const seen: LlmCall[] = [];
    counter.onCall(() => {
      throw new Error('broken metrics');
    });
    const unsubscribe = counter.onCall((recorded) => seen.push(recorded));
    counter.record(call());
    unsubscribe();
    counter.record(call());
    expect(seen).toEqual([call()]);
    expect(counter.snapshot().extraction.calls).toBe(2);
  });
});
