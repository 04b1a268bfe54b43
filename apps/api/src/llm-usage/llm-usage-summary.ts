import { LLM_CALL_PURPOSES, type LlmCallPurpose } from '@engram/domain';
import type { PurposeUsage } from '@engram/projections';
import type { LlmUsageSummary, LlmUsageTotals } from './llm-usage.dto';

const NONE: LlmUsageTotals = {
  calls: 0,
  failures: 0,
  promptTokens: 0,
  completionTokens: 0,
  latencyMs: 0,
  deferred: 0,
  engines: [],
};

function add(a: LlmUsageTotals, b: Omit<PurposeUsage, 'purpose'>): LlmUsageTotals {
  return {
    calls: a.calls + b.calls,
    failures: a.failures + b.failures,
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    latencyMs: a.latencyMs + b.latencyMs,
    deferred: a.deferred + b.deferred,
    engines: [...new Set([...a.engines, ...b.engines])].sort(),
  };
}

/** Totals by purpose (every purpose present, zero when none) and all together. */
export function summarizeUsage(rows: readonly PurposeUsage[]): LlmUsageSummary {
  const byPurpose = Object.fromEntries(
    LLM_CALL_PURPOSES.map((purpose) => [purpose, NONE]),
  ) as Record<LlmCallPurpose, LlmUsageTotals>;
  let all = NONE;
  for (const { purpose, ...usage } of rows) {
    byPurpose[purpose] = add(byPurpose[purpose], usage);
    all = add(all, usage);
  }
  return { ...all, byPurpose };
}
