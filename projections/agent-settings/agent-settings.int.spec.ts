import {
  ALICE,
  BOB,
  defaultOccurredAt,
  projectionSpec,
  type Owner,
  type ProjectionSpec,
} from '../../test/support/projection-spec';
import { agentMemoryToggled } from '../../test/support/events';
import { AgentSetting } from './agent-settings.entity';
import { agentSettingsProjection } from './agent-settings.projection';
import { isAgentMemoryEnabled } from './agent-settings.query';

const ROOT_W2: Owner = { workspaceId: 'w2', userId: 'root' };
const CAROL_W2: Owner = { workspaceId: 'w2', userId: 'carol' };

const at = (position: number) => new Date(defaultOccurredAt(position));

describe('agent_settings projection', () => {
  let spec: ProjectionSpec;

  beforeAll(async () => {
    spec = await projectionSpec(agentSettingsProjection);
  });

  afterAll(async () => {
    await spec.close();
  });

  it('given AgentMemoryToggled, then one row per (workspace, agent), when and by whom', async () => {
    expect(await spec.given([agentMemoryToggled('agent-1', false)])).toEqual([
      {
        workspace_id: 'w1',
        agent_id: 'agent-1',
        memory_enabled: false,
        updated_at: at(1),
        updated_by: 'root',
      },
    ]);
    expect(
      await spec.when([
        agentMemoryToggled('agent-1', true, { workspaceId: 'w1', userId: 'admin2' }),
      ]),
    ).toEqual([
      {
        workspace_id: 'w1',
        agent_id: 'agent-1',
        memory_enabled: true,
        updated_at: at(2),
        updated_by: 'admin2',
      },
    ]);
  });

  it('keeps agents and workspaces apart (the same agent id in two workspaces is two rows)', async () => {
    const events = spec.events([
      agentMemoryToggled('agent-1', false),
      agentMemoryToggled('agent-2', false),
      agentMemoryToggled('agent-1', false, ROOT_W2),
      agentMemoryToggled('agent-2', true),
      agentMemoryToggled('agent-1', true, ROOT_W2),
      agentMemoryToggled('agent-1', true),
      agentMemoryToggled('agent-1', false),
    ]);
    const once = await spec.given(events);
    expect(once.map((row) => [row.workspace_id, row.agent_id, row.memory_enabled])).toEqual([
      ['w1', 'agent-1', false],
      ['w1', 'agent-2', true],
      ['w2', 'agent-1', true],
    ]);
    for (const batchSize of [1, 2, 3])
      expect(await spec.given(events, { batchSize })).toEqual(once);
  });

  it('handles only AgentMemoryToggled (the runner feeds it nothing else)', () => {
    expect(agentSettingsProjection.handles).toEqual(['AgentMemoryToggled']);
  });

  it("RLS: a member of w1 sees w1's agent settings, never w2's", async () => {
    await spec.given([
      agentMemoryToggled('agent-1', false),
      agentMemoryToggled('agent-9', false, ROOT_W2),
    ]);
    expect(await spec.asUser(ALICE, (manager) => manager.find(AgentSetting))).toEqual([
      expect.objectContaining({ workspaceId: 'w1', agentId: 'agent-1', memoryEnabled: false }),
    ]);
    expect(
      await spec.asUser(ALICE, (manager) =>
        manager.find(AgentSetting, { where: { workspaceId: 'w2' } }),
      ),
    ).toEqual([]);
    expect(await spec.asUser(CAROL_W2, (manager) => manager.find(AgentSetting))).toEqual([
      expect.objectContaining({ workspaceId: 'w2', agentId: 'agent-9', memoryEnabled: false }),
    ]);
    expect(await spec.app.manager.count(AgentSetting)).toBe(0);
  });

  it('isAgentMemoryEnabled: false once switched off, true by default and for what RLS hides', async () => {
    await spec.given([
      agentMemoryToggled('agent-1', false),
      agentMemoryToggled('agent-2', false),
      agentMemoryToggled('agent-2', true),
      agentMemoryToggled('agent-9', false, ROOT_W2),
    ]);
    expect(
      await spec.asUser(BOB, (manager) => isAgentMemoryEnabled(manager, 'w1', 'agent-1')),
    ).toBe(false);
    expect(
      await spec.asUser(BOB, (manager) => isAgentMemoryEnabled(manager, 'w1', 'agent-2')),
    ).toBe(true);
    expect(
      await spec.asUser(BOB, (manager) => isAgentMemoryEnabled(manager, 'w1', 'never-seen')),
    ).toBe(true);
    expect(
      await spec.asUser(ROOT_W2, (manager) => isAgentMemoryEnabled(manager, 'w2', 'agent-9'), [
        'admin',
      ]),
    ).toBe(false);
    // The projector role (the workers) reads every workspace.
    expect(await isAgentMemoryEnabled(spec.projector.manager, 'w2', 'agent-9')).toBe(false);
    expect(await isAgentMemoryEnabled(spec.projector.manager, 'w1', 'agent-9')).toBe(true);
  });
});
