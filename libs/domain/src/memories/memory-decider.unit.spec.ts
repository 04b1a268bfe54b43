import { deciderSpec } from '../../../../test/support/decider-spec';
import { isEvictableByCap } from './memory-cap';
import { memoryDecider, type DetectMemoryCandidate } from './memory-decider';
import type { DecidedBy, MemoryCandidateDetected, MemoryEvent } from './memory-events';

const spec = deciderSpec(memoryDecider);
const admin = { kind: 'person', userId: 'root', role: 'admin' } as const;

const data: MemoryCandidateDetected['data'] = {
  memoryId: 'mem-1',
  kind: 'preference',
  content: "L'utilisateur préfère les exemples en Python.",
  confidence: 0.9,
  sourceMessageId: 'msg-1',
  sourceExcerpt: 'Je préfère les exemples en Python.',
  sessionId: 's1',
  generation: 0,
};
const detect = (
  mode: 'auto' | 'admin' | 'user',
  extra: Partial<typeof data> = {},
  autoApproveAbove?: number,
) =>
  ({
    type: 'DetectMemoryCandidate',
    data: { ...data, ...extra },
    review: { mode, autoApproveAbove },
  }) satisfies DetectMemoryCandidate;

const detected: MemoryEvent = { type: 'MemoryCandidateDetected', data };
const approvedByPolicy: MemoryEvent = {
  type: 'MemoryApproved',
  data: { memoryId: 'mem-1', by: { kind: 'policy' } },
};

describe('memory decider', () => {
  describe('detection', () => {
    it('approves at once in auto review mode (seed 000)', () => {
      spec.given([]).when(detect('auto')).then([detected, approvedByPolicy]);
    });

    it('leaves the candidate pending in admin and user modes (seed 002)', () => {
      spec.given([]).when(detect('admin')).then([detected]);
      spec.given([]).when(detect('user')).then([detected]);
    });

    it('approves by policy when the confidence reaches autoApproveAbove', () => {
      spec
        .given([])
        .when(detect('admin', {}, 0.9))
        .then([detected, approvedByPolicy]);
      spec
        .given([])
        .when(detect('admin', {}, 0.95))
        .then([detected]);
    });

    it('reinforces a pending or approved memory detected again from another message', () => {
      const reinforced: MemoryEvent = {
        type: 'MemoryReinforced',
        data: { memoryId: 'mem-1', sourceMessageId: 'msg-2', confidence: 0.7 },
      };
      const again = detect('auto', { sourceMessageId: 'msg-2', confidence: 0.7 });
      spec.given([detected]).when(again).then([reinforced]);
      spec.given([detected, approvedByPolicy]).when(again).then([reinforced]);
    });

    it('decides nothing when the same message is analysed again (a re-run after a crash)', () => {
      spec.given([detected, approvedByPolicy]).when(detect('auto')).thenNothing();
    });

    it('does not propose again what was rejected', () => {
      const rejected: MemoryEvent = {
        type: 'MemoryRejected',
        data: { memoryId: 'mem-1', by: admin },
      };
      spec
        .given([detected, rejected])
        .when(detect('admin', { sourceMessageId: 'msg-3' }))
        .thenNothing();
    });

    it('detects anew a memory that was deleted or evicted', () => {
      const again = detect('auto', { sourceMessageId: 'msg-4' });
      const redetected: MemoryEvent = {
        type: 'MemoryCandidateDetected',
        data: { ...data, sourceMessageId: 'msg-4' },
      };
      const deleted: MemoryEvent = {
        type: 'MemoryDeleted',
        data: {
          memoryId: 'mem-1',
          by: { kind: 'person', userId: 'u1', role: 'user' },
          reason: 'deleted',
        },
      };
      spec
        .given([detected, approvedByPolicy, deleted])
        .when(again)
        .then([redetected, approvedByPolicy]);
      const evicted: MemoryEvent = {
        type: 'MemoryEvicted',
        data: { memoryId: 'mem-1', reason: 'cap' },
      };
      spec
        .given([detected, approvedByPolicy, evicted])
        .when(again)
        .then([redetected, approvedByPolicy]);
    });
  });

  describe('review', () => {
    it('approves or rejects a pending candidate, recording who', () => {
      spec
        .given([detected])
        .when({ type: 'ApproveMemory', by: admin })
        .then([{ type: 'MemoryApproved', data: { memoryId: 'mem-1', by: admin } }]);
      spec
        .given([detected])
        .when({ type: 'RejectMemory', by: admin, reason: 'not relevant' })
        .then([
          {
            type: 'MemoryRejected',
            data: { memoryId: 'mem-1', by: admin, reason: 'not relevant' },
          },
        ]);
    });

    it('refuses other transitions, naming the current status', () => {
      spec
        .given([detected, approvedByPolicy])
        .when({ type: 'ApproveMemory', by: admin })
        .thenThrows('Cannot approve a memory whose status is approved');
      spec.given([]).when({ type: 'RejectMemory', by: admin }).thenThrows('Memory not found');
    });
  });

  describe('expiry', () => {
    const expire = { type: 'ExpireMemory' } as const;
    const expired: MemoryEvent = {
      type: 'MemoryExpired',
      data: { memoryId: 'mem-1', by: { kind: 'expiry' }, reason: 'expired' },
    };
    const rejected: MemoryEvent = {
      type: 'MemoryRejected',
      data: { memoryId: 'mem-1', by: admin },
    };

    it('expires a pending candidate, by the expiry scheduler, with reason expired', () => {
      spec.given([detected]).when(expire).then([expired]);
    });

    it('expires a candidate reinforced while pending (still pending)', () => {
      const reinforced: MemoryEvent = {
        type: 'MemoryReinforced',
        data: { memoryId: 'mem-1', sourceMessageId: 'msg-2', confidence: 0.5 },
      };
      spec.given([detected, reinforced]).when(expire).then([expired]);
    });

    it('leaves every other status alone, without refusing: two schedulers may both try', () => {
      spec.given([]).when(expire).thenNothing();
      spec.given([detected, approvedByPolicy]).when(expire).thenNothing();
      spec.given([detected, rejected]).when(expire).thenNothing();
      spec.given([detected, expired]).when(expire).thenNothing();
      const evicted: MemoryEvent = {
        type: 'MemoryEvicted',
        data: { memoryId: 'mem-1', reason: 'cap' },
      };
      spec.given([detected, approvedByPolicy, evicted]).when(expire).thenNothing();
      const deleted: MemoryEvent = {
        type: 'MemoryDeleted',
        data: { memoryId: 'mem-1', by: admin, reason: 'deleted' },
      };
      spec.given([detected, deleted]).when(expire).thenNothing();
    });

    it('cannot be approved or rejected once expired', () => {
      spec
        .given([detected, expired])
        .when({ type: 'ApproveMemory', by: admin })
        .thenThrows('Cannot approve a memory whose status is expired');
      spec
        .given([detected, expired])
        .when({ type: 'RejectMemory', by: admin })
        .thenThrows('Cannot reject a memory whose status is expired');
    });

    it('detects anew an expired memory seen in another message: a new pending candidate', () => {
      const redetected: MemoryEvent = {
        type: 'MemoryCandidateDetected',
        data: { ...data, sourceMessageId: 'msg-5' },
      };
      spec
        .given([detected, expired])
        .when(detect('admin', { sourceMessageId: 'msg-5' }))
        .then([redetected]);
      spec
        .given([detected, expired])
        .when(detect('auto', { sourceMessageId: 'msg-5' }))
        .then([redetected, approvedByPolicy]);
      // ... which is pending again, so it can expire again.
      spec.given([detected, expired, redetected]).when(expire).then([expired]);
    });

    it('does not detect an expired memory anew from a message already analysed (a re-run)', () => {
      spec.given([detected, expired]).when(detect('admin')).thenNothing();
    });
  });

  describe('deletion and eviction', () => {
    it('deletes an approved memory', () => {
      const by = { kind: 'person', userId: 'u1', role: 'user' } as const;
      spec
        .given([detected, approvedByPolicy])
        .when({ type: 'DeleteMemory', by, reason: 'deleted' })
        .then([{ type: 'MemoryDeleted', data: { memoryId: 'mem-1', by, reason: 'deleted' } }]);
    });

    it('evicts approved facts only', () => {
      const fact: MemoryEvent = {
        type: 'MemoryCandidateDetected',
        data: { ...data, kind: 'fact' },
      };
      spec
        .given([fact, approvedByPolicy])
        .when({ type: 'EvictMemory' })
        .then([{ type: 'MemoryEvicted', data: { memoryId: 'mem-1', reason: 'cap' } }]);
      spec
        .given([detected, approvedByPolicy])
        .when({ type: 'EvictMemory' })
        .thenThrows('Only fact memories are evicted, this one is a preference');
    });

    it('evicts facts approved by the policy or by their user, never one an admin approved (seed 002)', () => {
      const fact: MemoryEvent = {
        type: 'MemoryCandidateDetected',
        data: { ...data, kind: 'fact' },
      };
      const approvedBy = (by: DecidedBy): MemoryEvent => ({
        type: 'MemoryApproved',
        data: { memoryId: 'mem-1', by },
      });
      const user = { kind: 'person', userId: 'u1', role: 'user' } as const;
      spec
        .given([fact, approvedBy(user)])
        .when({ type: 'EvictMemory' })
        .then([{ type: 'MemoryEvicted', data: { memoryId: 'mem-1', reason: 'cap' } }]);
      spec
        .given([fact, approvedBy(admin)])
        .when({ type: 'EvictMemory' })
        .thenThrows('A memory an admin approved is never evicted');
      spec
        .given([fact])
        .when({ type: 'EvictMemory' })
        .thenThrows('Cannot evict a memory whose status is pending');
    });

    it('isEvictableByCap: the one rule the decider and the read model follow', () => {
      const user = { kind: 'person', userId: 'u1', role: 'user' } as const;
      expect(isEvictableByCap({ kind: 'fact', approvedBy: { kind: 'policy' } })).toBe(true);
      expect(isEvictableByCap({ kind: 'fact', approvedBy: user })).toBe(true);
      expect(isEvictableByCap({ kind: 'fact', approvedBy: admin })).toBe(false);
      expect(isEvictableByCap({ kind: 'preference', approvedBy: { kind: 'policy' } })).toBe(false);
    });
  });

  describe('supersession (issue 20)', () => {
    const superseded: MemoryEvent = {
      type: 'MemorySuperseded',
      data: { memoryId: 'mem-1', supersededBy: 'mem-2' },
    };
    const supersede = { type: 'SupersedeMemory', supersededBy: 'mem-2' } as const;

    it('supersedes an approved or still pending memory when a newer one replacing it is approved', () => {
      spec.given([detected, approvedByPolicy]).when(supersede).then([superseded]);
      spec.given([detected]).when(supersede).then([superseded]);
    });

    it('decides nothing for a memory already superseded, deleted or rejected, nor for itself', () => {
      spec.given([detected, approvedByPolicy, superseded]).when(supersede).thenNothing();
      const deleted: MemoryEvent = {
        type: 'MemoryDeleted',
        data: { memoryId: 'mem-1', by: admin, reason: 'deleted' },
      };
      spec.given([detected, approvedByPolicy, deleted]).when(supersede).thenNothing();
      const rejected: MemoryEvent = {
        type: 'MemoryRejected',
        data: { memoryId: 'mem-1', by: admin },
      };
      spec.given([detected, rejected]).when(supersede).thenNothing();
      spec.given([]).when(supersede).thenNothing();
      spec
        .given([detected, approvedByPolicy])
        .when({ type: 'SupersedeMemory', supersededBy: 'mem-1' })
        .thenNothing();
    });

    it('a superseded memory said again later starts over as a new candidate ("back in Lyon")', () => {
      const again = detect('admin', { sourceMessageId: 'msg-9' });
      spec
        .given([detected, approvedByPolicy, superseded])
        .when(again)
        .then([{ type: 'MemoryCandidateDetected', data: again.data }]);
    });

    it('is no longer approved, deleted or evicted: it left the current memories', () => {
      const given = spec.given([detected, approvedByPolicy, superseded]);
      given.when({ type: 'ApproveMemory', by: admin }).thenThrows(/status is superseded/);
      given
        .when({ type: 'DeleteMemory', by: admin, reason: 'deleted' })
        .thenThrows(/status is superseded/);
      given.when({ type: 'EvictMemory' }).thenThrows(/status is superseded/);
      // A wipe passes over it (the read model drops the user's rows anyway).
      given.when({ type: 'DeleteMemory', by: admin, reason: 'wipe' }).thenNothing();
    });
  });

  describe('reinforcement named by the extractor (near-duplicates, issue 20)', () => {
    const reinforce = {
      type: 'ReinforceMemory',
      data: { memoryId: 'mem-1', sourceMessageId: 'msg-2', confidence: 0.8 },
    } as const;
    const reinforced: MemoryEvent = { type: 'MemoryReinforced', data: reinforce.data };

    it('reinforces a pending or approved memory whatever words the new message used', () => {
      spec.given([detected]).when(reinforce).then([reinforced]);
      spec.given([detected, approvedByPolicy]).when(reinforce).then([reinforced]);
    });

    it('counts a message once, and leaves a memory decided meanwhile alone', () => {
      spec.given([detected, reinforced]).when(reinforce).thenNothing();
      spec
        .given([detected])
        .when({ ...reinforce, data: { ...reinforce.data, sourceMessageId: 'msg-1' } })
        .thenNothing();
      const rejected: MemoryEvent = {
        type: 'MemoryRejected',
        data: { memoryId: 'mem-1', by: admin },
      };
      spec.given([detected, rejected]).when(reinforce).thenNothing();
      spec.given([]).when(reinforce).thenNothing();
    });
  });
});
