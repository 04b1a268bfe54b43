import { agentKeyStream } from '@engram/domain';
import {
  ALICE,
  BOB,
  ROOT,
  projectionSpec,
  type GivenEvent,
  type Owner,
  type ProjectionSpec,
} from '../../test/support/projection-spec';
import { agentMemoryToggled, messageRecorded } from '../../test/support/events';
import { AgentKey } from '../agent-keys/agent-keys.entity';
import { AgentSetting } from '../agent-settings/agent-settings.entity';
import { agentKeysProjection } from '../agent-keys/agent-keys.projection';
import { agentSettingsProjection } from '../agent-settings/agent-settings.projection';
import { applyBatch } from '../runner/apply-batch';
import { seenAgentsProjection } from './seen-agents.projection';
import { findWorkspaceAgents } from './workspace-agents.query';

const CAROL_W2: Owner = { workspaceId: 'w2', userId: 'carol' };

let messages = 0;
/** A message recorded for `owner`, through `agentId` when given, at `occurredAt`. */
const message = (occurredAt: string, agentId?: string, owner: Owner = ALICE): GivenEvent =>
  messageRecorded(`m${(messages += 1)}`, agentId ? { agentId } : {}, { owner, occurredAt });

describe('seen_agents projection', () => {
  let spec: ProjectionSpec;

  beforeAll(async () => {
    spec = await projectionSpec(seenAgentsProjection);
  });

  afterAll(async () => {
    await spec.close();
  });

  it('given messages with an agentId, then one row per (workspace, agent): first and last seen, how many', async () => {
    const events = spec.events([
      message('2026-06-01T10:00:00.000Z', 'chat-web'),
      message('2026-06-01T11:00:00.000Z'),
      message('2026-06-01T12:00:00.000Z', 'chat-web', BOB),
      // Dated in the past by its client: first seen moves back, last seen stays.
      message('2026-05-30T08:00:00.000Z', 'chat-web'),
      message('2026-06-01T13:00:00.000Z', 'telegram-bot'),
      message('2026-06-01T14:00:00.000Z', 'chat-web', CAROL_W2),
    ]);
    const once = await spec.given(events);
    expect(once).toEqual([
      {
        workspace_id: 'w1',
        agent_id: 'chat-web',
        first_seen_at: new Date('2026-05-30T08:00:00.000Z'),
        last_seen_at: new Date('2026-06-01T12:00:00.000Z'),
        message_count: 3,
      },
      expect.objectContaining({ workspace_id: 'w1', agent_id: 'telegram-bot', message_count: 1 }),
      expect.objectContaining({ workspace_id: 'w2', agent_id: 'chat-web', message_count: 1 }),
    ]);
    for (const batchSize of [1, 2, 4]) {
      expect(await spec.given(events, { batchSize })).toEqual(once);
    }
  });

  it('findWorkspaceAgents: agents seen and agents switched, memory on unless switched off, under RLS', async () => {
    await spec.given([
      message('2026-06-01T10:00:00.000Z', 'chat-web'),
      message('2026-06-01T10:05:00.000Z', 'mail-bot'),
      message('2026-06-01T10:10:00.000Z', 'w2-bot', CAROL_W2),
    ]);
    const toggled = (agentId: string, enabled: boolean) =>
      agentMemoryToggled(agentId, enabled, ROOT, { occurredAt: '2026-06-02T09:00:00.000Z' });
    // Switched off before it ever spoke, and switched off after it did.
    await spec.projector.transaction((manager) =>
      applyBatch(
        manager,
        agentSettingsProjection,
        spec.events([toggled('silent-bot', false), toggled('mail-bot', false)]),
      ),
    );
    const agents = await spec.asUser(BOB, (manager) => findWorkspaceAgents(manager, 'w1'), [
      'admin',
    ]);
    expect(agents).toEqual([
      {
        agentId: 'chat-web',
        memoryEnabled: true,
        firstSeenAt: new Date('2026-06-01T10:00:00.000Z'),
        lastSeenAt: new Date('2026-06-01T10:00:00.000Z'),
        messageCount: 1,
        updatedAt: null,
        updatedBy: null,
      },
      expect.objectContaining({ agentId: 'mail-bot', memoryEnabled: false, messageCount: 1 }),
      {
        agentId: 'silent-bot',
        memoryEnabled: false,
        firstSeenAt: null,
        lastSeenAt: null,
        messageCount: 0,
        updatedAt: new Date('2026-06-02T09:00:00.000Z'),
        updatedBy: 'root',
      },
    ]);
    // Row-level security: another workspace's agents are never listed, whatever is asked.
    expect(
      await spec.asUser(BOB, (manager) => findWorkspaceAgents(manager, 'w2'), ['admin']),
    ).toEqual([]);
  });

  it('findWorkspaceAgents: an agent given a service key is listed before its first message, once', async () => {
    await spec.given([message('2026-06-01T10:00:00.000Z', 'chat-web')]);
    await spec.projector.manager.clear(AgentSetting);
    await spec.projector.manager.clear(AgentKey);
    const issued = (keyId: string, agentId: string): GivenEvent => ({
      type: 'AgentKeyIssued',
      data: { keyId, agentId, digest: '0'.repeat(64), issuedBy: 'root' },
      owner: ROOT,
      streamId: agentKeyStream('w1', keyId),
    });
    await spec.projector.transaction((manager) =>
      applyBatch(
        manager,
        agentKeysProjection,
        spec.events([issued('k1', 'new-bot'), issued('k2', 'new-bot'), issued('k3', 'chat-web')]),
      ),
    );
    const agents = await spec.asUser(ROOT, (manager) => findWorkspaceAgents(manager, 'w1'), [
      'admin',
    ]);
    expect(agents.map((agent) => [agent.agentId, agent.messageCount, agent.memoryEnabled])).toEqual(
      [
        ['chat-web', 1, true],
        ['new-bot', 0, true],
      ],
    );
  });
});
