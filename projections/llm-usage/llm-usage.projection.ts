import { assertNever } from '@engram/domain';
import type { DecodedEvent } from '@engram/event-store';
import type { HandledBy, Projection } from '../runner/projection';
import { LlmUsage } from './llm-usage.entity';

const HANDLES = ['LlmCallRecorded', 'LlmCallDeferred'] as const;
type LlmUsageEvent = DecodedEvent<HandledBy<typeof HANDLES>>;

function keyOf(event: LlmUsageEvent): Pick<LlmUsage, 'workspaceId' | 'userId' | 'day' | 'purpose'> {
  const { workspaceId, userId } = event.metadata;
  return { workspaceId, userId, day: event.event.data.day, purpose: event.event.data.purpose };
}

function emptyRow(key: ReturnType<typeof keyOf>): LlmUsage {
  return {
    ...key,
    calls: 0,
    failures: 0,
    promptTokens: '0',
    completionTokens: '0',
    latencyMs: '0',
    engines: [],
    deferred: 0,
  };
}

/** bigint columns travel as strings; the sums stay exact far beyond any day's usage (2^53). */
const plus = (total: string, amount: number) => String(Number(total) + amount);

/**
 * The ledger by user, day and purpose. The day comes from the event (the policy's zone when the
 * call was made), so a rebuild never depends on today's policy.
 */
export const llmUsageProjection: Projection<LlmUsage, HandledBy<typeof HANDLES>> = {
  name: 'llm_usage',
  entity: LlmUsage,
  key: ['workspaceId', 'userId', 'day', 'purpose'],
  handles: HANDLES,
  keysOf: (event) => [keyOf(event)],
  apply: (event, rows) => {
    const key = keyOf(event);
    const row = rows.get(key) ?? emptyRow(key);
    switch (event.event.type) {
      case 'LlmCallRecorded': {
        const call = event.event.data;
        const engines = row.engines.includes(call.engine)
          ? row.engines
          : [...row.engines, call.engine].sort();
        return [
          {
            kind: 'upsert',
            row: {
              ...row,
              calls: row.calls + 1,
              failures: row.failures + (call.outcome === 'ok' ? 0 : 1),
              promptTokens: plus(row.promptTokens, call.promptTokens),
              completionTokens: plus(row.completionTokens, call.completionTokens),
              latencyMs: plus(row.latencyMs, call.latencyMs),
              engines,
            },
          },
        ];
      }
      case 'LlmCallDeferred':
        return [{ kind: 'upsert', row: { ...row, deferred: row.deferred + 1 } }];
      default:
        return assertNever(event.event);
    }
  },
};
