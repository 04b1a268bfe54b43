import { Counter, Histogram, type Registry } from 'prom-client';
import { LLM_PURPOSES, reasonCode, type LlmCall, type LlmUsageCounter } from '@engram/llm';

/** The LLM calls of this process, by purpose (extraction, summary, identity_card), offline ones too. */
export class LlmMetrics {
  private readonly calls: Counter<'purpose'>;
  private readonly errors: Counter<'purpose' | 'reason'>;
  private readonly tokens: Counter<'purpose' | 'kind'>;
  private readonly duration: Histogram<'purpose'>;

  constructor(registry: Registry) {
    this.calls = new Counter({
      name: 'engram_llm_calls_total',
      help: 'LLM calls (one extract, summarize or write, retries included), by purpose',
      labelNames: ['purpose'],
      registers: [registry],
    });
    this.errors = new Counter({
      name: 'engram_llm_errors_total',
      help: 'Failed LLM calls, by purpose and reason code (invalid_schema, http_500, timeout...)',
      labelNames: ['purpose', 'reason'],
      registers: [registry],
    });
    this.tokens = new Counter({
      name: 'engram_llm_tokens_total',
      help: 'LLM tokens, by purpose and kind (prompt, completion)',
      labelNames: ['purpose', 'kind'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'engram_llm_call_duration_seconds',
      help: 'LLM call duration, by purpose',
      labelNames: ['purpose'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    });
    for (const purpose of LLM_PURPOSES) {
      this.calls.inc({ purpose }, 0);
      this.tokens.inc({ purpose, kind: 'prompt' }, 0);
      this.tokens.inc({ purpose, kind: 'completion' }, 0);
    }
  }

  /** Counts every call the counter records from now on; returns the unsubscribe function. */
  follow(usage: LlmUsageCounter): () => void {
    return usage.onCall((call) => this.record(call));
  }

  private record(call: LlmCall): void {
    const { purpose } = call;
    this.calls.inc({ purpose });
    this.tokens.inc({ purpose, kind: 'prompt' }, call.usage.promptTokens);
    this.tokens.inc({ purpose, kind: 'completion' }, call.usage.completionTokens);
    this.duration.observe({ purpose }, call.durationMs / 1000);
    if (!call.ok) this.errors.inc({ purpose, reason: reasonCode(call.reason ?? 'unknown') });
  }
}
