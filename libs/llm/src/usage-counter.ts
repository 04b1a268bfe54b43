/*
 * Deliberately imports nothing from ./ports: ports.ts references this class, and dependency-cruiser
 * counts type-only imports, so the purposes are restated here (usage-counter.unit.spec.ts checks
 * that they stay equal to LlmPurpose).
 */
export const LLM_PURPOSES = ['extraction', 'summary', 'identity_card'] as const;
export type CountedPurpose = (typeof LLM_PURPOSES)[number];

export type LlmCall = Readonly<{
  purpose: CountedPurpose;
  model: string;
  ok: boolean;
  /** the failure reason, for failed calls */
  reason?: string;
  /** extraction: candidates left out as instructions to the assistant */
  droppedCandidates?: number;
  usage: Readonly<{ promptTokens: number; completionTokens: number }>;
  durationMs: number;
}>;

export type PurposeUsage = {
  calls: number;
  failures: number;
  /** failures by reason code: the part of the reason before ':' ("invalid_schema", "http_500") */
  failuresByReason: Record<string, number>;
  /**
   * Candidates the extraction left out because they were instructions to the assistant, not
   * memories (a poisoning attempt, or a model talked into one). Not failures: the call worked.
   */
  droppedCandidates: number;
  promptTokens: number;
  completionTokens: number;
};

export type LlmUsageSnapshot = Record<CountedPurpose, PurposeUsage>;

export type LlmCallListener = (call: LlmCall) => void;

/** Counts the calls of one Llm per purpose: one call is one extract/summarize/write, retries included. */
export class LlmUsageCounter {
  private readonly byPurpose = new Map<CountedPurpose, PurposeUsage>(
    LLM_PURPOSES.map((purpose) => [purpose, emptyUsage()]),
  );
  private readonly listeners = new Set<LlmCallListener>();

  record(call: LlmCall): void {
    const usage = this.byPurpose.get(call.purpose) ?? emptyUsage();
    usage.calls += 1;
    usage.promptTokens += call.usage.promptTokens;
    usage.completionTokens += call.usage.completionTokens;
    usage.droppedCandidates += call.droppedCandidates ?? 0;
    if (!call.ok) {
      usage.failures += 1;
      const code = reasonCode(call.reason ?? 'unknown');
      usage.failuresByReason[code] = (usage.failuresByReason[code] ?? 0) + 1;
    }
    this.byPurpose.set(call.purpose, usage);
    for (const listener of this.listeners) {
      try {
        listener(call);
      } catch {
        // A metrics listener must never turn a memory operation into a failure.
      }
    }
  }

  /** Subscribes to every recorded call; returns the unsubscribe function. */
  onCall(listener: LlmCallListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  snapshot(): LlmUsageSnapshot {
    const copy = (usage: PurposeUsage | undefined): PurposeUsage => {
      const source = usage ?? emptyUsage();
      return { ...source, failuresByReason: { ...source.failuresByReason } };
    };
    return {
      extraction: copy(this.byPurpose.get('extraction')),
      summary: copy(this.byPurpose.get('summary')),
      identity_card: copy(this.byPurpose.get('identity_card')),
    };
  }
}

export function reasonCode(reason: string): string {
  const colon = reason.indexOf(':');
  return (colon === -1 ? reason : reason.slice(0, colon)).trim();
}

function emptyUsage(): PurposeUsage {
  return {
    calls: 0,
    failures: 0,
    failuresByReason: {},
    droppedCandidates: 0,
    promptTokens: 0,
    completionTokens: 0,
  };
}
