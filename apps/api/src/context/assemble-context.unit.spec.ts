import { DEFAULT_MEMORY_POLICY } from '@engram/domain';
import { DateTime } from 'luxon';
import { assembleContext } from './assemble-context';
import type { ContextRows } from './context-reads';

/** Rows as the context read gives them: every timestamp an ISO string PostgreSQL rendered. */
const rows: ContextRows = {
  policy: { ...DEFAULT_MEMORY_POLICY, timeZone: 'Europe/Paris', locale: 'fr' },
  settings: { enabled: true, pausedUntil: '2026-02-27T08:00:00.000Z' },
  agentEnabled: true,
  session: { rollingSummary: '' },
  window: [
    {
      messageId: 'm1',
      role: 'user',
      text: 'Réserve une table pour vendredi',
      occurredAt: '2026-03-01T08:59:12.345Z',
      channel: 'chat',
    },
  ],
  memories: [
    {
      memoryId: 'mem1',
      kind: 'commitment',
      content: 'Appeler le garage',
      dueAt: '2026-03-06T16:00:00.000Z',
      lastUsedAt: null,
      lastSeenAt: '2026-02-28T10:00:00.007Z',
      seenCount: 1,
    },
  ],
  card: null,
  actions: [
    {
      actionId: 'a1',
      traceId: null,
      tool: 'restaurant.book',
      target: 'Chez Paul',
      summary: 'Table pour 2 vendredi 20 h',
      status: 'pending',
      requestedVia: 'chat',
      steps: [],
      createdAt: '2026-03-01T09:00:00.123Z',
      expiresAt: '2026-03-02T09:00:00.123Z',
    },
  ],
};

describe('assembleContext', () => {
  afterEach(() => jest.restoreAllMocks());

  // The prompt blocks parse instants to render them (parseInstant), but what the context answers is the
  // very string the read gave: no conversion that could change a value on the way.
  it('hands on the timestamps as the strings the read gave', () => {
    const context = assembleContext(rows, {
      now: DateTime.fromISO('2026-03-01T09:30:00.000Z', { zone: 'utc' }),
      model: 'gpt-4o',
    });

    expect(context.memoryStatus).toBe('enabled');
    expect(context.liveWindow.map((m) => m.occurredAt)).toEqual(['2026-03-01T08:59:12.345Z']);
    expect(context.memories.byType.commitment?.map((m) => m.dueAt)).toEqual([
      '2026-03-06T16:00:00.000Z',
    ]);
    expect(context.recentActions.map((a) => [a.createdAt, a.expiresAt])).toEqual([
      ['2026-03-01T09:00:00.123Z', '2026-03-02T09:00:00.123Z'],
    ]);
  });
});
