import type {
  IdentityCardWriter,
  LlmOutcome,
  LlmPurpose,
  MemoryExtractor,
  Summarizer,
} from './ports';
import type { LlmUsageCounter } from './usage-counter';

type Counting = Readonly<{ counter: LlmUsageCounter; clock: () => Date; model: string }>;

/**
 * Runs one operation, records it in the counter, gives the outcome its latency and turns anything
 * thrown into a failed outcome, so the callers' "never throws" holds even for a bug in an implementation.
 */
async function counted<T>(
  purpose: LlmPurpose,
  counting: Counting,
  run: () => Promise<LlmOutcome<T>>,
): Promise<LlmOutcome<T>> {
  const started = counting.clock().getTime();
  let outcome: LlmOutcome<T>;
  try {
    outcome = await run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    outcome = {
      ok: false,
      reason: `internal_error: ${message.slice(0, 200)}`,
      model: counting.model,
      usage: { promptTokens: 0, completionTokens: 0 },
    };
  }
  const latencyMs = Math.max(0, counting.clock().getTime() - started);
  counting.counter.record({
    purpose,
    model: outcome.model,
    ok: outcome.ok,
    ...(outcome.ok ? {} : { reason: outcome.reason }),
    ...(outcome.ok && outcome.droppedCandidates
      ? { droppedCandidates: outcome.droppedCandidates }
      : {}),
    usage: outcome.usage,
    durationMs: latencyMs,
  });
  // The caller records the call in the user's ledger (LlmCallRecorded) with the same measure.
  return { ...outcome, latencyMs };
}

export function countedExtractor(inner: MemoryExtractor, counting: Counting): MemoryExtractor {
  return { extract: (input) => counted('extraction', counting, () => inner.extract(input)) };
}

export function countedSummarizer(inner: Summarizer, counting: Counting): Summarizer {
  return { summarize: (input) => counted('summary', counting, () => inner.summarize(input)) };
}

export function countedIdentityCardWriter(
  inner: IdentityCardWriter,
  counting: Counting,
): IdentityCardWriter {
  return { write: (input) => counted('identity_card', counting, () => inner.write(input)) };
}
