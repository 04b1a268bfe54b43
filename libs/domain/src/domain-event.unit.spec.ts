import { EVENT_CATALOG } from './catalog';
import { typesOf, type DomainEvent } from './domain-event';

describe('DomainEvent', () => {
  it('is the union of every event of the catalog, no more, no less', () => {
    const union = typesOf<DomainEvent>({
      MessageRecorded: true,
      MemoryExtractionFailed: true,
      RollingSummaryExtended: true,
      RollingSummaryFailed: true,
      MemoryCandidateDetected: true,
      MemoryReinforced: true,
      MemoryApproved: true,
      MemoryRejected: true,
      MemoryExpired: true,
      MemoryEvicted: true,
      MemoryDeleted: true,
      MemorySuperseded: true,
      MemoriesUsed: true,
      MemorySettingsChanged: true,
      MemoriesWiped: true,
      IdentityCardRegenerated: true,
      MemoryPolicyChanged: true,
      AgentMemoryToggled: true,
      ActionProposed: true,
      ActionConfirmed: true,
      ActionExecuted: true,
      ActionAborted: true,
      ActionFailed: true,
      ActionExpired: true,
      AuditAccessRecorded: true,
      UserErased: true,
      ParkedEventRetryRequested: true,
      ParkedEventSkipped: true,
      LlmCallRecorded: true,
      LlmCallDeferred: true,
      LlmCallResumed: true,
      WebhookRegistered: true,
      WebhookRemoved: true,
      AgentKeyIssued: true,
      AgentKeyRevoked: true,
      AgentKeyUsed: true,
    });
    expect([...union].sort()).toEqual(EVENT_CATALOG.map((definition) => definition.type).sort());
  });
});
