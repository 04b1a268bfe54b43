import { randomUUID } from 'node:crypto';
import { assertNever, userStream, type MessageRecorded } from '@engram/domain';
import { readStreamOrEmpty, type DecodedEvent } from '@engram/event-store';
import {
  allCheckpointsOf,
  findDueLlmDeferrals,
  waitForCheckpoints,
  type LlmDeferral,
} from '@engram/projections';
import type { ProcessManagerDependencies } from '../dependencies';
import { eachApart } from '../each-apart';
import { extractFromMessage } from '../extraction/extraction.reactor';
import { RetryLaterError } from '../runner/reactor';
import { extendRollingSummary } from '../summary/summary.reactor';
import { recordResumption, type LlmWorkDone } from './llm-ledger';

/**
 * Runs the extractions and summaries the daily budget held back, once their `until` has passed:
 * each reacts again to the message it was deferred from, through the same code as the reactors (so
 * the budget of the new day applies too: what does not fit waits another day). Then the deferral is
 * marked resumed. The work list is a read model (survives restarts, catches up after downtime); the
 * events the work records have ids derived from it, so a second worker or a re-run adds nothing.
 */
export async function runDeferredLlmWork(
  deps: ProcessManagerDependencies,
  signal?: AbortSignal,
  limit = 50,
): Promise<number> {
  // What the previous pass resumed must have left the list first, or it would run twice.
  const head = await deps.store.headPosition();
  const behind = await waitForCheckpoints(
    deps.dataSource,
    allCheckpointsOf(['llm_deferrals'], deps.partitions ?? 1),
    head,
    10_000,
    { signal, committed: deps.committed },
  );
  if (behind.length > 0) throw new RetryLaterError(`${behind.join(', ')} behind ${head}`);
  const now = deps.clock.now().toUTC();
  const due = await findDueLlmDeferrals(deps.dataSource.manager, now.toJSDate(), limit);
  let resumed = 0;
  await eachApart(
    due,
    async (deferral) => {
      const message = await messageOf(deps, deferral);
      // An erased user: nothing to run, and their rows go with the erasure.
      if (!message) return;
      const done = await runAgain(deps, deferral, message, signal);
      if (done === 'deferred') return;
      const policy = await deps.policies.memoryPolicy(deferral.workspaceId);
      await recordResumption(deps, {
        purpose: deferral.purpose,
        cause: deferral.cause,
        until: deferral.until.toISOString(),
        timeZone: policy.timeZone,
        metadata: {
          workspaceId: deferral.workspaceId,
          userId: deferral.userId,
          ...(message.metadata.traceId ? { traceId: message.metadata.traceId } : {}),
          causationId: `llm-deferral@${deferral.position}`,
          correlationId: randomUUID(),
          occurredAt: now.toISO()!,
        },
      });
      resumed += 1;
    },
    signal,
  );
  return resumed;
}

function runAgain(
  deps: ProcessManagerDependencies,
  deferral: LlmDeferral,
  message: DecodedEvent<MessageRecorded>,
  signal?: AbortSignal,
): Promise<LlmWorkDone> {
  switch (deferral.purpose) {
    case 'extraction':
      return extractFromMessage(deps, message, signal, deferral.generation ?? undefined);
    case 'summary':
      return extendRollingSummary(deps, message, signal);
    default:
      return assertNever(deferral.purpose);
  }
}

async function messageOf(
  deps: ProcessManagerDependencies,
  deferral: LlmDeferral,
): Promise<DecodedEvent<MessageRecorded> | undefined> {
  const stream = userStream(deferral.workspaceId, deferral.userId, 'message', deferral.messageId);
  const [first] = await readStreamOrEmpty(deps.store, stream, { maxCount: 1 });
  if (!first) return undefined;
  const decoded = await deps.codec.decode<MessageRecorded>(first);
  return decoded.erased || decoded.event.type !== 'MessageRecorded' ? undefined : decoded;
}
