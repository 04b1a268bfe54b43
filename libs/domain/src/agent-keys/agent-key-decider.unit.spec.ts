import { deciderSpec } from '../../../../test/support/decider-spec';
import { agentKeyDecider, type IssueAgentKey, type RevokeAgentKey } from './agent-key-decider';
import type { AgentKeyEvent } from './agent-key-events';
import { agentKeyUsageDecider } from './agent-key-usage-decider';

const spec = deciderSpec(agentKeyDecider);
const DIGEST = 'a'.repeat(64);

const issue = (overrides: Partial<IssueAgentKey> = {}): IssueAgentKey => ({
  type: 'IssueAgentKey',
  keyId: 'k1',
  agentId: 'chat-web',
  name: 'production',
  digest: DIGEST,
  issuedBy: 'root',
  ...overrides,
});
const revoke = (overrides: Partial<RevokeAgentKey> = {}): RevokeAgentKey => ({
  type: 'RevokeAgentKey',
  keyId: 'k1',
  agentId: 'chat-web',
  revokedBy: 'root',
  ...overrides,
});
const issued: AgentKeyEvent = {
  type: 'AgentKeyIssued',
  data: { keyId: 'k1', agentId: 'chat-web', name: 'production', digest: DIGEST, issuedBy: 'root' },
};
const revoked = (revokedBy = 'root'): AgentKeyEvent => ({
  type: 'AgentKeyRevoked',
  data: { keyId: 'k1', agentId: 'chat-web', revokedBy },
});

describe('agent key decider', () => {
  it('issues a key: its agent, name, digest and issuer (never a secret)', () => {
    spec.given([]).when(issue()).then([issued]);
  });

  it('issues a key without a name: no name field at all', () => {
    spec
      .given([])
      .when(issue({ name: undefined }))
      .then([
        {
          type: 'AgentKeyIssued',
          data: { keyId: 'k1', agentId: 'chat-web', digest: DIGEST, issuedBy: 'root' },
        },
      ]);
  });

  it('records nothing for the same issue again, and refuses another one under the same id', () => {
    spec.given([issued]).when(issue()).thenNothing();
    spec
      .given([issued])
      .when(issue({ digest: 'b'.repeat(64) }))
      .thenThrows(/already exists/);
    spec
      .given([issued, revoked()])
      .when(issue())
      .thenThrows(/already exists/);
  });

  it('revokes an active key, by whom', () => {
    spec
      .given([issued])
      .when(revoke({ revokedBy: 'admin2' }))
      .then([revoked('admin2')]);
  });

  it('revoking twice records nothing the second time (DELETE is idempotent)', () => {
    spec
      .given([issued, revoked()])
      .when(revoke({ revokedBy: 'admin2' }))
      .thenNothing();
  });

  it('revoking an unknown key, or a key of another agent, is not found', () => {
    spec.given([]).when(revoke()).thenThrows('Agent chat-web has no key k1');
    spec
      .given([issued])
      .when(revoke({ agentId: 'other-agent' }))
      .thenThrows('Agent other-agent has no key k1');
    spec
      .given([issued, revoked()])
      .when(revoke({ agentId: 'other-agent' }))
      .thenThrows(/no key k1/);
  });

  it('folds to the status: absent, active with its digest, revoked', () => {
    expect(agentKeyDecider.initialState()).toEqual({ status: 'absent' });
    const active = agentKeyDecider.evolve(agentKeyDecider.initialState(), issued);
    expect(active).toEqual({ status: 'active', agentId: 'chat-web', digest: DIGEST });
    expect(agentKeyDecider.evolve(active, revoked())).toEqual({
      status: 'revoked',
      agentId: 'chat-web',
    });
  });
});

describe('agent key usage decider', () => {
  it('records one use of a key, whatever came before (a log)', () => {
    const command = { type: 'RecordAgentKeyUse', keyId: 'k1', agentId: 'chat-web' } as const;
    const used = { type: 'AgentKeyUsed', data: { keyId: 'k1', agentId: 'chat-web' } } as const;
    deciderSpec(agentKeyUsageDecider).given([]).when(command).then([used]);
    deciderSpec(agentKeyUsageDecider).given([used, used]).when(command).then([used]);
  });
});
