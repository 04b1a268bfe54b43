import { DateTime } from 'luxon';
import {
  memoryDecider,
  memoryProfileDecider,
  messageDecider,
  userStream,
  type Decider,
  type Event,
} from '@engram/domain';
import { handleCommand } from '@engram/event-store';
import { findLiveWindow, findMemories, findMemorySettings } from '@engram/projections';
import { catchUpProjections, workerOnTestDatabase } from '../../test/support/worker-deps';
import { readExtractionInputs } from './extraction-reads';

/**
 * The extraction's one statement answers what the three reads it replaced answer (the read models'
 * own queries, tested with their projections), for a user with settings, memories of every status
 * and a session longer than the window, beside other sessions and other users.
 */
describe('readExtractionInputs', () => {
  const deps = workerOnTestDatabase();
  let clock = DateTime.fromISO('2026-03-01T08:00:00.123Z', { zone: 'utc' });
  let sequence = 0;

  async function run<C, E extends Event, S>(
    userId: string,
    stream: string,
    decider: Decider<C, E, S>,
    command: C,
  ): Promise<void> {
    clock = clock.plus({ minutes: 1, milliseconds: 7 });
    const id = `c${(sequence += 1)}`;
    await handleCommand(deps, stream, decider, command, {
      metadata: {
        workspaceId: 'w1',
        userId,
        causationId: id,
        correlationId: id,
        occurredAt: clock.toISO()!,
      },
    });
  }

  async function say(
    userId: string,
    sessionId: string,
    text: string,
    role: 'user' | 'assistant' = 'user',
  ) {
    const messageId = `m${sequence + 1}`;
    await run(userId, userStream('w1', userId, 'message', messageId), messageDecider, {
      type: 'RecordMessage',
      data: { messageId, sessionId, role, channel: 'web', text },
    });
  }

  async function detect(userId: string, memoryId: string, mode: 'admin' | 'auto') {
    await run(userId, userStream('w1', userId, 'memory', memoryId), memoryDecider, {
      type: 'DetectMemoryCandidate',
      data: {
        memoryId,
        kind: memoryId.startsWith('p') ? 'preference' : 'fact',
        content: `contenu de ${memoryId}`,
        confidence: 0.9,
        sourceMessageId: 'm1',
        sourceExcerpt: 'extrait',
        sessionId: 's1',
        generation: 0,
      },
      review: { mode, autoApproveAbove: undefined },
    });
  }

  beforeAll(async () => {
    for (let i = 0; i < 14; i += 1) {
      await say('alice', 's1', `message ${i} d'alice`, i % 3 === 2 ? 'assistant' : 'user');
      if (i % 4 === 0) await say('alice', 's2', `ailleurs ${i}`);
      if (i % 5 === 0) await say('bob', 's1', `bob ${i}`);
    }
    await run('alice', userStream('w1', 'alice', 'profile', 'memory'), memoryProfileDecider, {
      type: 'ChangeMemorySettings',
      data: { enabled: true, pausedUntil: '2026-04-02T10:20:30.456Z' },
    });
    await detect('alice', 'f-pending', 'admin');
    await detect('alice', 'p-approved', 'auto');
    await detect('alice', 'f-rejected', 'admin');
    await run('alice', userStream('w1', 'alice', 'memory', 'f-rejected'), memoryDecider, {
      type: 'RejectMemory',
      by: { kind: 'person', userId: 'root', role: 'admin' },
    });
    await detect('alice', 'f-approved-later', 'auto');
    await detect('bob', 'f-bob', 'auto');
    await catchUpProjections(deps);
  });

  it.each([
    ['alice', 's1', 11],
    ['alice', 's2', 11],
    ['alice', 's1', 3],
    ['bob', 's1', 11],
    ['carol', 's1', 11],
  ])('%s in %s, a window of %i', async (userId, sessionId, length) => {
    const manager = deps.dataSource.manager;
    const settings = await findMemorySettings(manager, 'w1', userId);
    const window = await findLiveWindow(manager, 'w1', userId, sessionId, length);
    const memories = await findMemories(manager, 'w1', userId, {
      statuses: ['pending', 'approved'],
    });
    const expected = {
      settings: settings && {
        enabled: settings.enabled,
        pausedUntil: settings.pausedUntil?.toISOString() ?? null,
        generation: settings.generation,
      },
      window: window.map((line) => ({
        messageId: line.messageId,
        role: line.role,
        text: line.text,
        occurredAt: line.occurredAt.toISOString(),
      })),
      memories: memories.map((memory) => ({
        memoryId: memory.memoryId,
        kind: memory.kind,
        content: memory.content,
      })),
    };
    // Twice: the second run binds the statement the first prepared.
    for (let i = 0; i < 2; i += 1) {
      const read = await readExtractionInputs(
        manager,
        { workspaceId: 'w1', userId },
        sessionId,
        length,
      );
      expect(read).toEqual(expected);
    }
    if (userId === 'alice' && sessionId === 's1') {
      expect(expected.settings).toEqual({
        enabled: true,
        pausedUntil: '2026-04-02T10:20:30.456Z',
        generation: 0,
      });
      expect(expected.window).toHaveLength(length);
      expect(expected.memories.map((memory) => memory.memoryId).sort()).toEqual([
        'f-approved-later',
        'f-pending',
        'p-approved',
      ]);
    }
    if (userId === 'carol') expect(expected).toEqual({ settings: null, window: [], memories: [] });
  });
});
