import {
  deterministicId,
  llmLedgerDecider,
  llmUsageDay,
  llmUsageStream,
  nextUsageDayStart,
  type BudgetedPurpose,
  type EventMetadata,
  type LlmCallPurpose,
  type LlmUsageEvent,
} from '@engram/domain';
import { handleCommand } from '@engram/event-store';
import { reasonCode, type LlmOutcome } from '@engram/llm';
import type { ProcessManagerDependencies } from '../dependencies';
import { isTransientLlmFailure } from '../transient-failure';

type Ledger = Pick<ProcessManagerDependencies, 'store' | 'codec' | 'clock'>;

/** What a call was for, whose it is and in which zone its day is counted. */
export type LlmWork = Readonly<{
  purpose: LlmCallPurpose;
  cause: string;
  metadata: EventMetadata;
  timeZone: string;
}>;

/**
 * Appends one event to the owner's ledger of `day`, through the one write path (the ledger's decider,
 * appended without reading: nothing there refuses an entry, the budget is checked before calling,
 * against the read model); the id derives from what caused the event and includes the day, so a
 * re-run writes nothing and never clashes with another day's stream.
 */
async function append(
  deps: Ledger,
  metadata: EventMetadata,
  day: string,
  event: LlmUsageEvent,
  idParts: readonly (string | number)[],
): Promise<void> {
  const { workspaceId, userId } = metadata;
  await handleCommand(
    deps,
    llmUsageStream(workspaceId, userId, day),
    llmLedgerDecider,
    { type: 'RecordInLlmLedger', entry: event },
    {
      metadata,
      eventIds: () => [deterministicId(event.type, workspaceId, userId, day, ...idParts)],
      appendOnly: true,
    },
  );
}

/** A count the model reported, as the ledger keeps it: a non-negative integer, whatever it sent. */
const count = (value: number | undefined) =>
  value !== undefined && Number.isFinite(value) && value > 0
    ? Math.min(Math.round(value), 1_000_000_000)
    : 0;

/** The failure's code only (`http_500`, `invalid_schema`): an error's message may quote the text. */
const codeOf = (reason: string) =>
  reasonCode(reason)
    .replace(/[^A-Za-z0-9_]/g, '')
    .slice(0, 40) || 'unknown';

/**
 * Records one call in the user's ledger. Counted once per piece of work, outcome and day: a
 * reaction re-run after a crash, or retried through an outage that fails the same way, is one entry
 * (Prometheus counts every attempt); a success after failures, or a failure of another kind, is another.
 */
export async function recordLlmCall(
  deps: Ledger,
  work: LlmWork,
  outcome: LlmOutcome<unknown>,
): Promise<void> {
  const day = llmUsageDay(deps.clock.now(), work.timeZone);
  const result = outcome.ok ? 'ok' : isTransientLlmFailure(outcome.reason) ? 'failed' : 'invalid';
  const reason = outcome.ok ? undefined : codeOf(outcome.reason);
  await append(
    deps,
    work.metadata,
    day,
    {
      type: 'LlmCallRecorded',
      data: {
        purpose: work.purpose,
        cause: work.cause,
        engine: outcome.model,
        promptTokens: count(outcome.usage.promptTokens),
        completionTokens: count(outcome.usage.completionTokens),
        latencyMs: count(outcome.latencyMs),
        outcome: result,
        ...(reason === undefined ? {} : { reason }),
        day,
      },
    },
    [work.purpose, work.cause, result, reason ?? ''],
  );
}

export type HeldWork = LlmWork &
  Readonly<{ purpose: BudgetedPurpose; messageId: string; generation?: number; limit: number }>;

/** The budget is spent: records that the work waits until the next day instead of calling. */
export async function deferLlmCall(deps: Ledger, work: HeldWork): Promise<void> {
  const now = deps.clock.now();
  const day = llmUsageDay(now, work.timeZone);
  const until = nextUsageDayStart(now, work.timeZone);
  await append(
    deps,
    work.metadata,
    day,
    {
      type: 'LlmCallDeferred',
      data: {
        purpose: work.purpose,
        cause: work.cause,
        messageId: work.messageId,
        ...(work.generation === undefined ? {} : { generation: work.generation }),
        limit: work.limit,
        day,
        until,
      },
    },
    // One deferral per piece of work and day: a session's later messages add nothing.
    [work.purpose, work.cause, until],
  );
}

/** The deferred work ran, or found nothing left to do: it leaves the list of deferred work. */
export async function recordResumption(
  deps: Ledger,
  work: Omit<LlmWork, 'purpose'> & Readonly<{ purpose: BudgetedPurpose; until: string }>,
): Promise<void> {
  const day = llmUsageDay(deps.clock.now(), work.timeZone);
  await append(
    deps,
    work.metadata,
    day,
    {
      type: 'LlmCallResumed',
      data: { purpose: work.purpose, cause: work.cause, until: work.until },
    },
    [work.purpose, work.cause, work.until],
  );
}

/** What a piece of LLM work did: called the model, waited for the budget, or had nothing to do. */
export type LlmWorkDone = 'called' | 'deferred' | 'nothing';
