import { DomainConflictError, DomainNotFoundError, assertNever } from '../decider';
import type { Decider } from '../decider';
import { isEvictableByCap } from './memory-cap';
import type {
  DecidedBy,
  MemoryCandidateDetected,
  MemoryEvent,
  MemoryReinforced,
} from './memory-events';
import { evolveMemory, type Memory } from './memory-fold';

export type ReviewMode = 'auto' | 'admin' | 'user';

export type DetectMemoryCandidate = Readonly<{
  type: 'DetectMemoryCandidate';
  data: MemoryCandidateDetected['data'];
  review: Readonly<{ mode: ReviewMode; autoApproveAbove?: number | undefined }>;
}>;
export type ApproveMemory = Readonly<{ type: 'ApproveMemory'; by: DecidedBy }>;
export type RejectMemory = Readonly<{ type: 'RejectMemory'; by: DecidedBy; reason?: string }>;
export type DeleteMemory = Readonly<{
  type: 'DeleteMemory';
  by: DecidedBy;
  reason: 'deleted' | 'wipe';
}>;
export type EvictMemory = Readonly<{ type: 'EvictMemory' }>;
export type ExpireMemory = Readonly<{ type: 'ExpireMemory' }>;
/**
 * A message said again what this memory holds, in other words ("I enjoy hiking" after "I love
 * hiking"): the extractor named it, so the words need not match for it to be reinforced.
 */
export type ReinforceMemory = Readonly<{
  type: 'ReinforceMemory';
  data: MemoryReinforced['data'];
}>;
/** A newer memory, now approved, replaces this one. */
export type SupersedeMemory = Readonly<{ type: 'SupersedeMemory'; supersededBy: string }>;

export type MemoryCommand =
  | DetectMemoryCandidate
  | ApproveMemory
  | RejectMemory
  | DeleteMemory
  | EvictMemory
  | ExpireMemory
  | ReinforceMemory
  | SupersedeMemory;

/**
 * The shared fold's memory (`evolveMemory`), plus what only the decider needs: every message it was
 * detected from, so that a retried detection is recognised (the read model counts them instead).
 */
export type MemoryState =
  Readonly<{ status: 'absent' }> | (Memory & Readonly<{ sources: readonly string[] }>);

export type MemoryStatus = MemoryState['status'];

function sourcesAfter(state: MemoryState, event: MemoryEvent): readonly string[] {
  const heard = state.status === 'absent' ? [] : state.sources;
  return event.type === 'MemoryCandidateDetected' || event.type === 'MemoryReinforced'
    ? [...heard, event.data.sourceMessageId]
    : heard;
}

function isApprovedAtOnce(command: DetectMemoryCandidate): boolean {
  const { mode, autoApproveAbove } = command.review;
  if (mode === 'auto') return true;
  return autoApproveAbove !== undefined && command.data.confidence >= autoApproveAbove;
}

function detect(command: DetectMemoryCandidate, state: MemoryState): MemoryEvent[] {
  const { data } = command;
  if (state.status !== 'absent' && state.sources.includes(data.sourceMessageId)) return [];
  switch (state.status) {
    case 'pending':
    case 'approved':
      return [
        {
          type: 'MemoryReinforced',
          data: {
            memoryId: state.memoryId,
            sourceMessageId: data.sourceMessageId,
            confidence: data.confidence,
          },
        },
      ];
    case 'rejected':
      // Someone said no: the same content is not proposed again.
      return [];
    case 'absent':
    case 'expired':
    case 'evicted':
    case 'deleted':
    case 'superseded': {
      const detected: MemoryEvent = { type: 'MemoryCandidateDetected', data };
      if (!isApprovedAtOnce(command)) return [detected];
      return [
        detected,
        { type: 'MemoryApproved', data: { memoryId: data.memoryId, by: { kind: 'policy' } } },
      ];
    }
    default:
      return assertNever(state);
  }
}

function reinforce(command: ReinforceMemory, state: MemoryState): MemoryEvent[] {
  // Decided between the extractor's read and now (deleted, superseded…): nothing left to reinforce;
  // a message heard already (a retried reaction) counts once.
  if (state.status !== 'pending' && state.status !== 'approved') return [];
  if (state.sources.includes(command.data.sourceMessageId)) return [];
  return [{ type: 'MemoryReinforced', data: { ...command.data, memoryId: state.memoryId } }];
}

function supersede(command: SupersedeMemory, state: MemoryState): MemoryEvent[] {
  // Only a current memory is replaced; one superseded already, deleted or never approved stays as
  // it is (the approval of the newer one may be handled twice, or after the older one was deleted).
  if (state.status !== 'pending' && state.status !== 'approved') return [];
  if (command.supersededBy === state.memoryId) return [];
  return [
    {
      type: 'MemorySuperseded',
      data: { memoryId: state.memoryId, supersededBy: command.supersededBy },
    },
  ];
}

function refuse(action: string, state: MemoryState): never {
  if (state.status === 'absent')
    throw new DomainNotFoundError(`Memory not found: cannot ${action} it`);
  throw new DomainConflictError(`Cannot ${action} a memory whose status is ${state.status}`);
}

/**
 * One memory per (user, generation, normalized content): detecting it again reinforces it.
 * pending → approved | rejected | expired; approved → deleted | evicted (by the cap, what
 * `isEvictableByCap` allows: facts an admin did not approve).
 * Expired, deleted, evicted and superseded memories may be detected anew; rejected ones are not
 * proposed again. pending | approved → superseded, when a newer memory replacing it is approved.
 */
export const memoryDecider: Decider<MemoryCommand, MemoryEvent, MemoryState> = {
  initialState: () => ({ status: 'absent' }),
  decide: (command, state) => {
    switch (command.type) {
      case 'DetectMemoryCandidate':
        return detect(command, state);
      case 'ReinforceMemory':
        return reinforce(command, state);
      case 'SupersedeMemory':
        return supersede(command, state);
      case 'ApproveMemory':
        if (state.status !== 'pending') refuse('approve', state);
        return [{ type: 'MemoryApproved', data: { memoryId: state.memoryId, by: command.by } }];
      case 'RejectMemory':
        if (state.status !== 'pending') refuse('reject', state);
        return [
          {
            type: 'MemoryRejected',
            data: {
              memoryId: state.memoryId,
              by: command.by,
              ...(command.reason ? { reason: command.reason } : {}),
            },
          },
        ];
      case 'DeleteMemory':
        if (
          command.reason === 'wipe' &&
          state.status !== 'pending' &&
          state.status !== 'approved'
        ) {
          return [];
        }
        if (state.status !== 'approved' && state.status !== 'pending') refuse('delete', state);
        return [
          {
            type: 'MemoryDeleted',
            data: { memoryId: state.memoryId, by: command.by, reason: command.reason },
          },
        ];
      case 'ExpireMemory':
        // The scheduler may run twice (two workers, a restart): an already decided memory is left alone.
        if (state.status !== 'pending') return [];
        return [
          {
            type: 'MemoryExpired',
            data: { memoryId: state.memoryId, by: { kind: 'expiry' }, reason: 'expired' },
          },
        ];
      case 'EvictMemory':
        if (state.status !== 'approved') {
          throw new DomainConflictError(`Cannot evict a memory whose status is ${state.status}`);
        }
        if (!isEvictableByCap({ kind: state.kind, approvedBy: state.decidedBy })) {
          throw new DomainConflictError(
            state.kind === 'fact'
              ? 'A memory an admin approved is never evicted'
              : `Only fact memories are evicted, this one is a ${state.kind}`,
          );
        }
        return [{ type: 'MemoryEvicted', data: { memoryId: state.memoryId, reason: 'cap' } }];
      default:
        return assertNever(command);
    }
  },
  evolve: (state, event) => {
    const memory = evolveMemory(state.status === 'absent' ? undefined : state, event);
    return memory === undefined ? state : { ...memory, sources: sourcesAfter(state, event) };
  },
};
