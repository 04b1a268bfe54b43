import type { Event } from '../event';
import type { DecidedBy } from '../memories/memory-events';
import {
  asOfResult,
  initialAsOf,
  memoriesAsOf,
  replayAsOf,
  sourceExcerpt,
  type AsOfEvent,
} from './memories-as-of';

const at = (time: string) => `2026-03-01T${time}:00.000Z`;
const on = (time: string, event: Event, erased = false): AsOfEvent => ({
  event,
  metadata: { occurredAt: at(time) },
  ...(erased ? { erased } : {}),
});

const admin: DecidedBy = { kind: 'person', userId: 'root', role: 'admin' };
const alice: DecidedBy = { kind: 'person', userId: 'alice', role: 'user' };
const LONG = `Je suis CTO chez StartupCorp et nous construisons une plateforme SaaS. ${'Détails. '.repeat(40)}`;

const said = (messageId: string, text: string): Event => ({
  type: 'MessageRecorded',
  data: { messageId, sessionId: 's1', role: 'user', channel: 'web', text },
});
const detected = (
  memoryId: string,
  sourceMessageId: string,
  extra: Partial<{ kind: string; content: string; confidence: number; generation: number }> = {},
): Event => ({
  type: 'MemoryCandidateDetected',
  data: {
    memoryId,
    kind: 'fact',
    content: `content of ${memoryId}`,
    confidence: 0.7,
    sourceMessageId,
    sourceExcerpt: 'excerpt',
    sessionId: 's1',
    generation: 0,
    ...extra,
  },
});

/** A scripted history, in global order. */
const HISTORY: AsOfEvent[] = [
  on('10:00', said('m1', LONG)),
  on('10:00', detected('mem1', 'm1', { content: 'Alice est CTO chez StartupCorp.' })),
  on('10:05', said('m2', 'Je préfère le thé vert.')),
  on('10:05', {
    type: 'MemoryReinforced',
    data: { memoryId: 'mem1', sourceMessageId: 'm2', confidence: 0.9 },
  }),
  on('10:30', detected('mem4', 'm2', { kind: 'ongoing', confidence: 0.5 })),
  on('11:00', { type: 'MemoryApproved', data: { memoryId: 'mem1', by: admin } }),
  on('11:30', { type: 'MemoriesUsed', data: { memoryIds: ['mem1', 'unknown', 'mem1'] } }),
  on('11:45', {
    type: 'MemoryExpired',
    data: { memoryId: 'mem4', by: { kind: 'expiry' }, reason: 'expired' },
  }),
  on('12:00', detected('mem2', 'm2', { kind: 'preference', content: 'Préfère le thé vert.' })),
  on('12:10', { type: 'MemoryRejected', data: { memoryId: 'mem2', by: alice, reason: 'faux' } }),
  on('12:20', detected('mem5', 'm2')),
  on('12:20', { type: 'MemoryApproved', data: { memoryId: 'mem5', by: { kind: 'policy' } } }),
  on('12:30', { type: 'MemoryEvicted', data: { memoryId: 'mem5', reason: 'cap' } }),
  on('13:00', { type: 'MemoryDeleted', data: { memoryId: 'mem1', by: alice, reason: 'deleted' } }),
  on('13:59', said('m3', 'Je suis toujours CTO chez StartupCorp.')),
  on(
    '14:00',
    detected('mem1', 'm3', { content: 'Alice est CTO chez StartupCorp.', confidence: 0.8 }),
  ),
  on('15:00', { type: 'MemoriesWiped', data: { generation: 1 } }),
  on('15:30', said('m4', 'Je vis à Lyon.')),
  on('15:30', detected('mem3', 'm4', { content: 'Vit à Lyon.', generation: 1 })),
  // Not about memories: ignored.
  on('15:40', { type: 'ActionProposed', data: { actionId: 'a1' } }),
];

const byId = (time: string) =>
  Object.fromEntries(memoriesAsOf(HISTORY, at(time)).map((memory) => [memory.memoryId, memory]));

describe('memoriesAsOf', () => {
  it('given no event by then, then no memory', () => {
    expect(memoriesAsOf(HISTORY, at('09:59'))).toEqual([]);
    expect(memoriesAsOf([], at('23:00'))).toEqual([]);
  });

  it('given a detection, then a pending memory with its source message (200-character excerpt) and history', () => {
    const [memory, ...others] = memoriesAsOf(HISTORY, at('10:00'));
    expect(others).toEqual([]);
    expect(memory).toEqual({
      memoryId: 'mem1',
      kind: 'fact',
      content: 'Alice est CTO chez StartupCorp.',
      confidence: 0.7,
      status: 'pending',
      generation: 0,
      sourceMessage: { messageId: 'm1', excerpt: sourceExcerpt(LONG), at: at('10:00') },
      history: [{ at: at('10:00'), event: 'detected', confidence: 0.7, messageId: 'm1' }],
    });
    expect(Array.from(memory!.sourceMessage!.excerpt)).toHaveLength(200);
    expect(memory!.sourceMessage!.excerpt.endsWith('…')).toBe(true);
    expect(LONG.startsWith(memory!.sourceMessage!.excerpt.slice(0, -1))).toBe(true);
  });

  it('given a reinforcement, then the highest confidence and one more step', () => {
    const { mem1 } = byId('10:10');
    expect(mem1).toMatchObject({ status: 'pending', confidence: 0.9 });
    expect(mem1!.history.map((step) => step.event)).toEqual(['detected', 'reinforced']);
    expect(mem1!.history[1]).toEqual({
      at: at('10:05'),
      event: 'reinforced',
      confidence: 0.9,
      messageId: 'm2',
    });
  });

  it('given decisions, then each memory’s status at that time, with who decided and why', () => {
    const noon = byId('11:50');
    expect(Object.keys(noon)).toEqual(['mem1', 'mem4']);
    expect(noon.mem1).toMatchObject({ status: 'approved' });
    expect(noon.mem1!.history.slice(2)).toEqual([
      { at: at('11:00'), event: 'approved', by: admin },
      // Used once per MemoriesUsed event, however many times the id is listed; unknown ids change nothing.
      { at: at('11:30'), event: 'used' },
    ]);
    // Seed 002: an expired candidate is rejected automatically, and says why.
    expect(noon.mem4).toMatchObject({ kind: 'ongoing', status: 'rejected', reason: 'expired' });
    expect(noon.mem4!.history.at(-1)).toEqual({
      at: at('11:45'),
      event: 'rejected',
      by: { kind: 'expiry' },
      reason: 'expired',
    });

    const later = byId('12:45');
    expect(later.mem2).toMatchObject({
      status: 'rejected',
      reason: 'faux',
      content: 'Préfère le thé vert.',
    });
    expect(later.mem5).not.toHaveProperty('reason');
    expect(later.mem2!.history.at(-1)).toEqual({
      at: at('12:10'),
      event: 'rejected',
      by: alice,
      reason: 'faux',
    });
    expect(later.mem5).toMatchObject({ status: 'evicted' });
    expect(later.mem5!.history.map((step) => step.event)).toEqual([
      'detected',
      'approved',
      'evicted',
    ]);
    expect(later.mem5!.history.at(-1)).toEqual({
      at: at('12:30'),
      event: 'evicted',
      reason: 'cap',
    });
  });

  it('given a deletion, then the memory is deleted without its content, its source and history kept', () => {
    const { mem1 } = byId('13:30');
    expect(mem1).toMatchObject({
      status: 'deleted',
      content: null,
      sourceMessage: { messageId: 'm1' },
    });
    expect(mem1!.history.at(-1)).toEqual({
      at: at('13:00'),
      event: 'deleted',
      by: alice,
      reason: 'deleted',
    });
  });

  it('given the same memory detected again, then it is pending again from its new source, its history going on', () => {
    const { mem1 } = byId('14:30');
    expect(mem1).toMatchObject({
      status: 'pending',
      content: 'Alice est CTO chez StartupCorp.',
      confidence: 0.8,
      sourceMessage: {
        messageId: 'm3',
        excerpt: 'Je suis toujours CTO chez StartupCorp.',
        at: at('13:59'),
      },
    });
    expect(mem1!.history.map((step) => step.event)).toEqual([
      'detected',
      'reinforced',
      'approved',
      'used',
      'deleted',
      'detected',
    ]);
  });

  it('given a wipe, then the memories of earlier generations are gone; later ones appear', () => {
    expect(memoriesAsOf(HISTORY, at('15:00'))).toEqual([]);
    expect(memoriesAsOf(HISTORY, at('23:00'))).toEqual([
      expect.objectContaining({
        memoryId: 'mem3',
        generation: 1,
        status: 'pending',
        sourceMessage: { messageId: 'm4', excerpt: 'Je vis à Lyon.', at: at('15:30') },
      }),
    ]);
  });

  it('compares instants, whatever the offset they are written with', () => {
    expect(
      memoriesAsOf(HISTORY, '2026-03-01T10:59:59.999Z').find((m) => m.memoryId === 'mem1'),
    ).toMatchObject({ status: 'pending' });
    expect(
      memoriesAsOf(HISTORY, '2026-03-01T12:00:00+01:00').find((m) => m.memoryId === 'mem1'),
    ).toMatchObject({ status: 'approved' });
    expect(
      memoriesAsOf(HISTORY, new Date(at('11:00'))).find((m) => m.memoryId === 'mem1'),
    ).toMatchObject({ status: 'approved' });
  });

  it('takes the events that occurred by then, even one recorded later (a backdated message)', () => {
    const events = [
      on('10:00', detected('mem1', 'm0')),
      // Recorded after the detection, but said before it.
      on('09:00', said('m0', 'Bonjour')),
    ];
    expect(memoriesAsOf(events, at('10:00'))[0]!.sourceMessage).toEqual({
      messageId: 'm0',
      excerpt: 'Bonjour',
      at: at('09:00'),
    });
    expect(memoriesAsOf(events, at('09:30'))).toEqual([]);
  });

  it('gives no personal data of erased events, and no source message it never saw', () => {
    const erasedMessage = { ...said('m1', 'x'), data: { messageId: 'm1', role: 'user' } };
    const erasedDetection = detected('mem1', 'm1');
    const memories = memoriesAsOf(
      [
        on('10:00', erasedMessage, true),
        on('10:00', erasedDetection, true),
        on('10:01', detected('mem2', 'never-recorded')),
      ],
      at('11:00'),
    );
    expect(memories[0]).toMatchObject({
      content: null,
      sourceMessage: { messageId: 'm1', excerpt: '' },
    });
    expect(memories[1]).toMatchObject({ sourceMessage: null });
  });

  it('can be fed page by page, and refuses an instant that is not one', () => {
    let state = initialAsOf(at('23:00'));
    for (const event of HISTORY) state = replayAsOf(state, event);
    expect(asOfResult(state)).toEqual(memoriesAsOf(HISTORY, at('23:00')));
    expect(() => memoriesAsOf(HISTORY, 'yesterday')).toThrow(RangeError);
  });

  it('cuts excerpts by characters, not UTF-16 units', () => {
    expect(sourceExcerpt('court')).toBe('court');
    const emoji = '😀'.repeat(250);
    expect(Array.from(sourceExcerpt(emoji))).toHaveLength(200);
  });

  it('keeps a superseded memory as history: approved before the newer one, superseded after (issue 20)', () => {
    const policy: DecidedBy = { kind: 'policy' };
    const events: AsOfEvent[] = [
      on('09:00', detected('lyon', 'm1', { content: "L'utilisateur habite à Lyon." })),
      on('09:00', { type: 'MemoryApproved', data: { memoryId: 'lyon', by: policy } }),
      on('12:00', {
        type: 'MemoryCandidateDetected',
        data: {
          memoryId: 'paris',
          kind: 'fact',
          content: "L'utilisateur a déménagé de Lyon à Paris.",
          confidence: 0.9,
          sourceMessageId: 'm2',
          sourceExcerpt: "J'ai déménagé de Lyon à Paris",
          sessionId: 's1',
          generation: 0,
          supersedes: 'lyon',
        },
      }),
      on('12:00', { type: 'MemoryApproved', data: { memoryId: 'paris', by: policy } }),
      on('12:00', { type: 'MemorySuperseded', data: { memoryId: 'lyon', supersededBy: 'paris' } }),
    ];
    const before = memoriesAsOf(events, at('10:00'));
    expect(before.map((m) => [m.memoryId, m.status])).toEqual([['lyon', 'approved']]);
    const after = memoriesAsOf(events, at('13:00'));
    expect(after.map((m) => [m.memoryId, m.status, m.supersededBy])).toEqual([
      ['lyon', 'superseded', 'paris'],
      ['paris', 'approved', undefined],
    ]);
    expect(after[0]!.content).toBe("L'utilisateur habite à Lyon.");
    expect(after[0]!.history.at(-1)).toEqual({
      at: at('12:00'),
      event: 'superseded',
      supersededBy: 'paris',
    });
  });
});
