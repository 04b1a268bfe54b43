import { agentKeyStream, agentKeyUsageStream } from '@engram/domain';
import {
  ALICE,
  ROOT,
  defaultOccurredAt,
  projectionSpec,
  type GivenEvent,
  type GivenOptions,
  type Owner,
  type ProjectionSpec,
} from '../../test/support/projection-spec';
import { AgentKey } from './agent-keys.entity';
import { agentKeysProjection } from './agent-keys.projection';
import { findAgentKeys, findPresentedAgentKey } from './agent-keys.query';

const ROOT_W2: Owner = { workspaceId: 'w2', userId: 'root2' };
const D1 = '1'.repeat(64);
const D2 = '2'.repeat(64);
const at = (position: number) => new Date(defaultOccurredAt(position));

const issued = (
  keyId: string,
  agentId: string,
  digest: string,
  by: Owner = ROOT,
  name?: string,
): GivenEvent => ({
  type: 'AgentKeyIssued',
  data: { keyId, agentId, digest, issuedBy: by.userId, ...(name ? { name } : {}) },
  owner: by,
  streamId: agentKeyStream(by.workspaceId, keyId),
});
const revoked = (keyId: string, agentId: string, by: Owner = ROOT): GivenEvent => ({
  type: 'AgentKeyRevoked',
  data: { keyId, agentId, revokedBy: by.userId },
  owner: by,
  streamId: agentKeyStream(by.workspaceId, keyId),
});
const used = (
  keyId: string,
  agentId: string,
  workspaceId = 'w1',
  options: GivenOptions = {},
): GivenEvent => ({
  type: 'AgentKeyUsed',
  data: { keyId, agentId },
  owner: { workspaceId, userId: agentId },
  streamId: agentKeyUsageStream(workspaceId, '2026-06-01'),
  ...options,
});

const row = (overrides: Record<string, unknown>) => ({
  workspace_id: 'w1',
  key_id: 'k1',
  agent_id: 'chat-web',
  name: null,
  digest: D1,
  created_at: at(1),
  created_by: 'root',
  last_used_at: null,
  revoked_at: null,
  revoked_by: null,
  ...overrides,
});

describe('agent_keys projection', () => {
  let spec: ProjectionSpec;

  beforeAll(async () => {
    spec = await projectionSpec(agentKeysProjection);
  });

  afterAll(async () => {
    await spec.close();
  });

  it('given AgentKeyIssued, then one row: agent, name, digest, who and when; no use, not revoked', async () => {
    expect(await spec.given([issued('k1', 'chat-web', D1, ROOT, 'production')])).toEqual([
      row({ name: 'production' }),
    ]);
  });

  it('given uses, then the last use, which only moves forward', async () => {
    expect(
      await spec.given([
        issued('k1', 'chat-web', D1),
        used('k1', 'chat-web'),
        used('k1', 'chat-web', 'w1', { occurredAt: defaultOccurredAt(1) }),
      ]),
    ).toEqual([row({ last_used_at: at(2) })]);
    expect(await spec.when([used('k1', 'chat-web')])).toEqual([row({ last_used_at: at(4) })]);
  });

  it('given a revocation, then when and by whom; a second one keeps the first', async () => {
    const admin2: Owner = { workspaceId: 'w1', userId: 'admin2' };
    expect(
      await spec.given([
        issued('k1', 'chat-web', D1),
        revoked('k1', 'chat-web'),
        revoked('k1', 'chat-web', admin2),
      ]),
    ).toEqual([row({ revoked_at: at(2), revoked_by: 'root' })]);
  });

  it('a use or a revocation of a key it does not hold changes nothing', async () => {
    expect(await spec.given([used('k9', 'chat-web'), revoked('k9', 'chat-web')])).toEqual([]);
  });

  it('keeps workspaces apart, in batches of any size', async () => {
    const events = spec.events([
      issued('k1', 'chat-web', D1),
      issued('k2', 'chat-web', D2, ROOT_W2),
      used('k1', 'chat-web'),
      used('k2', 'chat-web', 'w2'),
      revoked('k2', 'chat-web', ROOT_W2),
      issued('k3', 'mail-bot', D2),
    ]);
    const once = await spec.given(events);
    expect(
      once.map((r) => [r.workspace_id, r.key_id, r.agent_id, r.last_used_at, r.revoked_at]),
    ).toEqual([
      ['w1', 'k1', 'chat-web', at(3), null],
      ['w1', 'k3', 'mail-bot', null, null],
      ['w2', 'k2', 'chat-web', at(4), at(5)],
    ]);
    for (const batchSize of [1, 2, 3])
      expect(await spec.given(events, { batchSize })).toEqual(once);
  });

  it('RLS: the admins of the workspace list its keys; its other members and other workspaces see none', async () => {
    await spec.given([
      issued('k1', 'chat-web', D1),
      issued('k2', 'mail-bot', D2),
      issued('k3', 'chat-web', D2, ROOT_W2),
    ]);
    const listed = await spec.asUser(ROOT, (manager) => findAgentKeys(manager, 'w1', 'chat-web'), [
      'admin',
    ]);
    expect(listed.map((key) => key.keyId)).toEqual(['k1']);
    expect(await spec.asUser(ALICE, (manager) => manager.find(AgentKey))).toEqual([]);
    expect(
      await spec.asUser(ROOT, (manager) => findAgentKeys(manager, 'w2', 'chat-web'), ['admin']),
    ).toEqual([]);
  });

  it('RLS: a presented key id shows the row of that id, and nothing else', async () => {
    await spec.given([issued('k1', 'chat-web', D1), issued('k3', 'chat-web', D2, ROOT_W2)]);
    const presented = await spec.app.transaction((manager) => findPresentedAgentKey(manager, 'k3'));
    expect(presented).toEqual([
      { workspaceId: 'w2', keyId: 'k3', agentId: 'chat-web', digest: D2, revokedAt: null },
    ]);
    expect(
      await spec.app.transaction(async (manager) => {
        await findPresentedAgentKey(manager, 'k3');
        return manager.find(AgentKey);
      }),
    ).toHaveLength(1);
    expect(
      await spec.app.transaction((manager) => findPresentedAgentKey(manager, 'unknown')),
    ).toEqual([]);
    // Outside that transaction, nothing.
    expect(await spec.app.manager.count(AgentKey)).toBe(0);
  });
});
