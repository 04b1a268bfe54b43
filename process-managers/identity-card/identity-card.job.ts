import {
  deterministicId,
  identityCardDecider,
  llmCallCause,
  userStream,
  type EventMetadata,
} from '@engram/domain';
import { handleCommand } from '@engram/event-store';
import { findIdentityCardsToRegenerate, findMemories } from '@engram/projections';
import { randomUUID } from 'node:crypto';
import type { ProcessManagerDependencies } from '../dependencies';
import { eachApart } from '../each-apart';
import { recordLlmCall } from '../llm-usage/llm-ledger';
import { RetryLaterError } from '../runner/reactor';
import { waitForProjections } from '../runner/wait-for-projections';
import { isTransientLlmFailure } from '../transient-failure';

/**
 * Regenerates the identity cards whose approved memories changed, at most once per user per
 * `debounceSeconds`. The work list is a read model (identity_cards.dirty_position), so it survives
 * restarts; the card event is keyed on the memory position it reflects, so a re-run records nothing twice.
 */
export async function regenerateIdentityCards(
  deps: ProcessManagerDependencies,
  debounceSeconds: number,
  signal?: AbortSignal,
  limit = 50,
): Promise<number> {
  const now = deps.clock.now().toUTC();
  const due = await findIdentityCardsToRegenerate(
    deps.dataSource.manager,
    now.minus({ seconds: debounceSeconds }).toJSDate(),
    limit,
  );
  let regenerated = 0;
  // A card that cannot be written (its owner's data) does not keep the others from theirs.
  await eachApart(
    due,
    async ({ workspaceId, userId, dirtyPosition }) => {
      await waitForProjections(
        deps,
        ['memories'],
        { workspaceId, userId },
        BigInt(dirtyPosition),
        signal,
      );
      const policy = await deps.policies.memoryPolicy(workspaceId);
      const memories = await findMemories(deps.dataSource.manager, workspaceId, userId, {
        statuses: ['approved'],
      });
      const outcome = await deps.llm.identityCardWriter.write({
        locale: policy.locale,
        memories: memories.map((memory) => ({
          kind: memory.kind,
          content: memory.content ?? '',
          ...(memory.dueAt ? { dueAt: memory.dueAt.toISOString() } : {}),
        })),
      });
      const metadata: EventMetadata = {
        workspaceId,
        userId,
        causationId: `memories@${dirtyPosition}`,
        correlationId: randomUUID(),
        occurredAt: now.toISO()!,
      };
      const work = {
        purpose: 'identity_card' as const,
        cause: llmCallCause.identityCard(dirtyPosition),
        metadata,
        timeZone: policy.timeZone,
      };
      if (!outcome.ok) {
        await recordLlmCall(deps, work, outcome);
        if (isTransientLlmFailure(outcome.reason)) {
          throw new RetryLaterError(`identity card of ${userId}: ${outcome.reason}`);
        }
        return;
      }
      const stream = userStream(workspaceId, userId, 'identity-card', 'current');
      await handleCommand(
        deps,
        stream,
        identityCardDecider,
        {
          type: 'RegenerateIdentityCard',
          data: {
            markdown: outcome.value,
            memoryCount: memories.length,
            basedOnPosition: dirtyPosition,
            model: outcome.model,
          },
        },
        { metadata, eventIds: () => [deterministicId('identity-card', stream, dirtyPosition)] },
      );
      await recordLlmCall(deps, work, outcome);
      regenerated += 1;
    },
    signal,
  );
  return regenerated;
}
