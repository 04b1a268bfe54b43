import { DEFAULT_MEMORY_POLICY, EVENT_CATALOG, type DomainEvent } from '@engram/domain';
import type { DecodedEvent } from '@engram/event-store';
import {
  ALICE,
  BOB,
  buildEvents,
  defaultOccurredAt,
  projectionSpec,
  type GivenEvent,
  type ProjectionSpec,
} from '../../test/support/projection-spec';
import {
  type GivenOptions,
  actionAborted,
  actionConfirmed,
  actionExecuted,
  actionExpired,
  actionFailed,
  actionProposed,
  identityCardRegenerated,
  llmCallDeferred,
  memoriesWiped,
  memoryApproved,
  memoryDeleted,
  memoryDetected,
  memoryEvicted,
  memoryPolicyChanged,
  memoryReinforced,
  memoryRejected,
  memorySettingsChanged,
  messageRecorded,
  rollingSummaryExtended,
} from '../../test/support/events';
import { ActionRecord } from '../actions/actions.entity';
import { actionsProjection } from '../actions/actions.projection';
import { applyBatch } from '../runner/apply-batch';
import { ACTIVITY_EVENT_TYPES, activityProjection } from './activity.projection';
import {
  ACTIVITY_LINE_MAX,
  activityEntryOf,
  activitySummary,
  activityTitle,
  detailsOf,
  type ActivityDetails,
  type ActivityTextOptions,
} from '@engram/prompt-blocks';
import { activityEntry } from './activity.entry';
import { findActivityPage, type ActivityGroup } from './activity.query';

const LONG_TEXT =
  "Peux-tu relancer Delphine pour la facture Q2 ? Elle devait payer avant le 15, et je n'ai rien reçu.";

const userSaid = (text: string, extra: GivenOptions = {}, channel = 'telegram'): GivenEvent =>
  messageRecorded(`m-${text.length}`, { channel, text }, extra);
const assistantSaid = (channel: string, extra: GivenOptions = {}): GivenEvent =>
  messageRecorded('reply', { role: 'assistant', channel, text: 'C’est fait.' }, extra);
const proposal = (extra: GivenOptions = {}): GivenEvent => ({
  type: 'ActionProposed',
  data: {
    actionId: 'a1',
    tool: 'gmail_send',
    target: 'delphine@acme.fr',
    summary: 'Relance facture Q2',
    input: { body: 'Bonjour Delphine, …' },
    channel: 'telegram',
    requiresConfirmation: true,
  },
  ...extra,
});

/** One event of every user-owned type, with the fields the feed keeps of it. */
const EVERY_TYPE: readonly (readonly [GivenEvent, ActivityDetails])[] = [
  [
    userSaid(LONG_TEXT, { traceId: 't1' }),
    { role: 'user', excerpt: 'Peux-tu relancer Delphine pour la facture Q2 ? Elle devait…' },
  ],
  [assistantSaid('web'), { role: 'assistant' }],
  [
    { type: 'MemoryExtractionFailed', data: { messageId: 'm1', reason: 'timeout', model: 'x' } },
    { reason: 'timeout' },
  ],
  [
    rollingSummaryExtended('s1', {
      throughPosition: '3',
      messageCount: 10,
      summarizedCount: 20,
      summary: 'Secret summary',
      model: 'x',
    }),
    { messageCount: 10 },
  ],
  [
    {
      type: 'RollingSummaryFailed',
      data: { sessionId: 's1', throughPosition: '3', reason: 'llm down', model: 'x' },
    },
    { reason: 'llm down' },
  ],
  [
    memoryDetected('mem1', {
      kind: 'preference',
      content: "L'utilisateur préfère le thé vert le matin.",
      confidence: 0.8,
      sourceMessageId: 'm1',
      sourceExcerpt: 'thé vert',
    }),
    { memoryKind: 'preference', excerpt: "L'utilisateur préfère le thé vert le matin." },
  ],
  [memoryReinforced('mem1', 1), {}],
  [memoryApproved('mem1'), {}],
  [memoryRejected('mem1', { by: { kind: 'policy' }, reason: 'nope' }), {}],
  [
    {
      type: 'MemoryExpired',
      data: { memoryId: 'mem1', by: { kind: 'expiry' }, reason: 'expired' },
    },
    {},
  ],
  [memoryEvicted('mem1'), {}],
  [{ type: 'MemorySuperseded', data: { memoryId: 'mem0', supersededBy: 'mem1' } }, {}],
  [memoryDeleted('mem1'), {}],
  [memorySettingsChanged(false, null), { enabled: false, pausedUntil: null }],
  [memoriesWiped(1), {}],
  [identityCardRegenerated('9', { markdown: '# Alice', memoryCount: 1, model: 'x' }), {}],
  [proposal(), { tool: 'gmail_send', target: 'delphine@acme.fr', summary: 'Relance facture Q2' }],
  [actionConfirmed('a1', 'web'), {}],
  [actionExecuted('a1', { result: { id: 'x' } }, { channel: 'web' }), {}],
  [actionAborted('a1', { channel: 'telegram', reason: 'Plus besoin' }), { reason: 'Plus besoin' }],
  [actionFailed('a1', 'SMTP 550'), { error: 'SMTP 550' }],
  [actionExpired('a1', defaultOccurredAt(1)), {}],
  [
    { type: 'AuditAccessRecorded', data: { access: 'export', auditorId: 'dpo' } },
    { access: 'export', auditorId: 'dpo', asOf: null },
  ],
  [
    llmCallDeferred({ cause: 'message/m9', messageId: 'm9' }),
    { purpose: 'extraction', until: '2026-06-01T22:00:00.000Z' },
  ],
];

const at = (position: number) => new Date(defaultOccurredAt(position));
const text = (locale: 'fr' | 'en'): ActivityTextOptions => ({ locale, timeZone: 'Europe/Paris' });
const activityEntryOfRow = (row: Record<string, unknown>) =>
  activityEntryOf(row.event_type as string, row.details as ActivityDetails);

/** A group as the API shows it in `locale`: its title and each event's line written out. */
function shown(group: ActivityGroup | undefined, locale: 'fr' | 'en' = 'en') {
  if (!group) return group;
  return {
    ...group,
    title: activityTitle(group.title, text(locale)),
    events: group.events.map(({ entry, ...event }) => ({
      ...event,
      summary: activitySummary(entry, event.channel, text(locale)),
    })),
  };
}

describe('activity_events projection', () => {
  let spec: ProjectionSpec;

  beforeAll(async () => {
    spec = await projectionSpec(activityProjection);
  });

  afterAll(async () => {
    await spec.close();
  });

  it('handles every user-owned event type of the catalog, not the workspace-level ones nor read bookkeeping', () => {
    const catalog = EVENT_CATALOG.map((definition) => definition.type);
    expect([...ACTIVITY_EVENT_TYPES].sort()).toEqual(
      catalog
        .filter(
          (type) =>
            type !== 'MemoryPolicyChanged' &&
            type !== 'AgentMemoryToggled' &&
            type !== 'MemoriesUsed' &&
            type !== 'UserErased' &&
            type !== 'ParkedEventRetryRequested' &&
            type !== 'ParkedEventSkipped' &&
            type !== 'LlmCallRecorded' &&
            type !== 'LlmCallResumed' &&
            !type.startsWith('Webhook') &&
            !type.startsWith('AgentKey'),
        )
        .sort(),
    );
    expect([...activityProjection.handles]).toEqual([...ACTIVITY_EVENT_TYPES]);
    // Every handled type has its own fields (this list must grow with the catalog).
    expect(EVERY_TYPE.map(([event]) => event.type).sort()).toEqual(
      [...ACTIVITY_EVENT_TYPES, 'MessageRecorded'].sort(),
    );
  });

  it('given a message in a trace, then one row: its fields, channel, trace and group', async () => {
    expect(await spec.given([userSaid('Bonjour', { traceId: 't1' })])).toEqual([
      {
        workspace_id: 'w1',
        user_id: 'alice',
        position: '1',
        event_type: 'MessageRecorded',
        occurred_at: at(1),
        channel: 'telegram',
        trace_id: 't1',
        group_key: 't1',
        details: { role: 'user', excerpt: 'Bonjour' },
        action_id: null,
      },
    ]);
  });

  it('given one event of each type, then its fields, which read as a line of its own in French and English; an event without a trace is a group of one', async () => {
    const rows = await spec.given(EVERY_TYPE.map(([event]) => event));
    expect(rows.map((row) => row.details)).toEqual(EVERY_TYPE.map(([, details]) => details));
    expect(rows[1]).toMatchObject({ trace_id: null, group_key: 'event:2', channel: 'web' });
    expect(rows.find((row) => row.event_type === 'ActionProposed')).toMatchObject({
      action_id: 'a1',
      channel: 'telegram',
    });
    expect(rows.find((row) => row.event_type === 'ActionExecuted')).toMatchObject({
      action_id: 'a1',
      channel: 'web',
    });
    for (const row of rows) {
      for (const locale of ['fr', 'en'] as const) {
        const line = activitySummary(
          activityEntryOfRow(row),
          row.channel as string | null,
          text(locale),
        );
        expect(line).not.toMatch(/^(Event|Événement) /);
        expect(line.length).toBeLessThanOrEqual(ACTIVITY_LINE_MAX + 1);
        expect(line).not.toContain('\n');
      }
    }
    // No user's full text, no assistant's text, no summary or card text.
    const all = JSON.stringify(rows);
    for (const secret of [
      LONG_TEXT,
      'C’est fait',
      'Secret summary',
      '# Alice',
      'Bonjour Delphine',
    ]) {
      expect(all).not.toContain(secret);
    }
  });

  it('ignores workspace-level events and keeps the history on a wipe', async () => {
    const rows = await spec.given([
      userSaid('Salut'),
      memoryPolicyChanged(DEFAULT_MEMORY_POLICY),
      memoriesWiped(1),
    ]);
    expect(rows.map((row) => row.event_type)).toEqual(['MessageRecorded', 'MemoriesWiped']);
  });

  it('keeps text on one line and short, whatever the input', () => {
    const [event] = buildEvents([
      actionProposed('a1', {
        target: 'x'.repeat(300),
        summary: 'ligne 1\nligne 2 '.repeat(40),
        channel: 'web',
      }),
      userSaid('un\n\ndeux\ttrois'),
    ]);
    const entry = activityEntry(event!);
    expect(entry).toMatchObject({ type: 'ActionProposed', tool: 'gmail_send' });
    const { target, summary } = entry as { target: string; summary: string };
    expect(target).toBe(`${'x'.repeat(79)}…`);
    expect(Array.from(summary)).toHaveLength(80);
    expect(summary).not.toMatch(/\n/);
    const [, message] = buildEvents([proposal(), userSaid('un\n\ndeux\ttrois')]);
    expect(activityEntry(message!)).toEqual({
      type: 'MessageRecorded',
      role: 'user',
      excerpt: 'un deux trois',
    });
    // A row written by a newer version: a type this code does not know.
    const unknown = {
      ...event!,
      event: { type: 'SomethingNew', data: {} },
    } as unknown as DecodedEvent<DomainEvent>;
    expect(detailsOf(activityEntry(unknown))).toEqual({});
  });

  describe('findActivityPage', () => {
    /** Applies the events to the activity feed and to the actions read model (whose titles the feed shows). */
    async function project(events: readonly DecodedEvent[], reset: boolean): Promise<void> {
      if (reset) {
        await spec.projector.manager.clear(ActionRecord);
        await spec.given(events);
      } else {
        await spec.projector.transaction((m) => applyBatch(m, activityProjection, events));
      }
      await spec.projector.transaction((m) => applyBatch(m, actionsProjection, events));
    }

    // Positions 1…9: groups t1 (1, 2, 3), event:4, t2 (5, 6, 7), event:8, t3 (9); bob has his own.
    const history: GivenEvent[] = [
      userSaid('Relance Delphine', { traceId: 't1' }),
      proposal({ traceId: 't1' }),
      assistantSaid('telegram', { traceId: 't1' }),
      { type: 'MemoryApproved', data: { memoryId: 'mem1', by: { kind: 'policy' } } },
      userSaid('Oui, envoie', { traceId: 't2' }, 'web'),
      { type: 'ActionConfirmed', data: { actionId: 'a1', channel: 'web' }, traceId: 't2' },
      assistantSaid('web', { traceId: 't2' }),
      {
        type: 'IdentityCardRegenerated',
        data: { markdown: '#', memoryCount: 1, basedOnPosition: '4', model: 'x' },
      },
      { type: 'MemoriesWiped', data: { generation: 1 }, traceId: 't3', channel: 'web' },
      userSaid('Bob here', { traceId: 't1', owner: BOB }),
    ];
    // Arrive between two pages: one more event in the old group t2, and a new group t4.
    const later: GivenEvent[] = [
      { type: 'ActionExecuted', data: { actionId: 'a1', channel: 'email' }, traceId: 't2' },
      userSaid('Merci', { traceId: 't4' }),
    ];

    const page = (before: string | undefined, limit: number) =>
      spec.asUser(ALICE, (m) =>
        findActivityPage(m, 'w1', 'alice', {
          ...(before === undefined ? {} : { beforeFirstPosition: before }),
          limit,
        }),
      );
    const keys = (groups: readonly ActivityGroup[]) => groups.map((group) => group.groupKey);
    const ACTION_TITLE = 'gmail_send → delphine@acme.fr "Relance facture Q2"';

    beforeEach(async () => {
      await project(buildEvents(history), true);
    });

    it('groups by trace, newest first by first event, each with its events oldest first', async () => {
      const groups = await page(undefined, 10);
      expect(keys(groups)).toEqual(['t3', 'event:8', 't2', 'event:4', 't1']);
      expect(shown(groups[4])).toEqual({
        groupKey: 't1',
        traceId: 't1',
        title: ACTION_TITLE,
        channels: ['telegram'],
        firstAt: at(1),
        lastAt: at(3),
        firstPosition: '1',
        events: [
          {
            type: 'MessageRecorded',
            at: at(1),
            channel: 'telegram',
            summary: 'Message from the user via Telegram: "Relance Delphine"',
            position: '1',
          },
          {
            type: 'ActionProposed',
            at: at(2),
            channel: 'telegram',
            summary: `Action proposed via Telegram: ${ACTION_TITLE}`,
            position: '2',
          },
          {
            type: 'MessageRecorded',
            at: at(3),
            channel: 'telegram',
            summary: 'Assistant replied via Telegram',
            position: '3',
          },
        ],
      });
      expect(shown(groups[3])).toMatchObject({
        groupKey: 'event:4',
        traceId: null,
        title: 'Memory approved',
        channels: [],
        firstPosition: '4',
        events: [{ type: 'MemoryApproved', channel: null, position: '4' }],
      });
      // The confirmation names the action it confirms, found through the actions read model.
      expect(shown(groups[2])).toMatchObject({
        groupKey: 't2',
        title: ACTION_TITLE,
        channels: ['web'],
      });
      expect(shown(groups[0])).toMatchObject({ title: 'Memories wiped', channels: ['web'] });
    });

    it('reads in French from the same rows', async () => {
      const groups = await page(undefined, 10);
      expect(shown(groups[4], 'fr')).toMatchObject({
        title: 'gmail_send → delphine@acme.fr « Relance facture Q2 »',
        events: [
          { summary: "Message de l'utilisateur via Telegram : « Relance Delphine »" },
          {
            summary:
              'Action proposée via Telegram : gmail_send → delphine@acme.fr « Relance facture Q2 »',
          },
          { summary: "Réponse de l'assistant via Telegram" },
        ],
      });
      expect(shown(groups[0], 'fr')?.title).toBe('Souvenirs effacés');
    });

    it('titles an action event by its summary when the action is not (yet) in the actions read model', async () => {
      await spec.projector.manager.clear(ActionRecord);
      const groups = await page(undefined, 10);
      const title = (key: string) => shown(groups.find((group) => group.groupKey === key))?.title;
      expect(title('t2')).toBe('Action confirmed via the web chat');
      expect(title('t1')).toBe(ACTION_TITLE);
    });

    it('pages with the keyset cursor; events arriving meanwhile neither repeat nor move a group', async () => {
      const first = await page(undefined, 2);
      expect(keys(first)).toEqual(['t3', 'event:8']);
      const cursor = first[first.length - 1]?.firstPosition;
      expect(cursor).toBe('8');

      await project(buildEvents(later, 10n), false);

      const second = await page(cursor, 2);
      expect(keys(second)).toEqual(['t2', 'event:4']);
      expect(shown(second[0])).toMatchObject({
        firstPosition: '5',
        firstAt: at(5),
        lastAt: at(11),
        channels: ['web', 'email'],
        title: ACTION_TITLE,
      });
      expect(second[0]?.events.map((event) => event.position)).toEqual(['5', '6', '7', '11']);
      expect(shown(second[0])?.events[3]?.summary).toBe('Action executed via email');

      const third = await page(second[1]?.firstPosition, 2);
      expect(keys(third)).toEqual(['t1']);
      expect(await page(third[0]?.firstPosition, 2)).toEqual([]);

      // A fresh first page shows the new group first; the old ones keep their order.
      expect(keys(await page(undefined, 10))).toEqual([
        't4',
        't3',
        'event:8',
        't2',
        'event:4',
        't1',
      ]);
    });

    it('returns nothing for a zero limit and refuses a cursor that is not a position', async () => {
      expect(await page(undefined, 0)).toEqual([]);
      await expect(page('1; DROP TABLE activity_events', 2)).rejects.toThrow(RangeError);
    });

    it("RLS: a user never sees another user's activity, whatever they ask", async () => {
      expect(
        await spec.asUser(BOB, (m) => findActivityPage(m, 'w1', 'alice', { limit: 10 })),
      ).toEqual([]);
      const bobs = await spec.asUser(BOB, (m) => findActivityPage(m, 'w1', 'bob', { limit: 10 }));
      // Bob's trace t1 is his own group: Alice's t1 events are not in it.
      expect(bobs.map((group) => shown(group))).toEqual([
        expect.objectContaining({
          groupKey: 't1',
          title: 'Message from the user via Telegram: "Bob here"',
          firstPosition: '10',
          events: [expect.objectContaining({ position: '10' })],
        }),
      ]);
    });
  });
});
