import { randomUUID } from 'node:crypto';
import { userStream, type EventEnvelope, type MemoryKind } from '@engram/domain';

/** One event to store: its stream, its revision there and the domain envelope (not yet encoded). */
export type SeedEvent = Readonly<{ streamId: string; revision: number; envelope: EventEnvelope }>;

const MESSAGES_PER_SESSION = 40;
const LIVE_WINDOW = 20;
const MEMORIES: readonly (readonly [MemoryKind, string])[] = [
  ['preference', 'Prefers short answers, in French, without emoji'],
  ['fact', 'Works as a nurse in Lyon, night shifts on weekdays'],
  ['context', 'Is planning a trip to Lisbon with two children in April'],
];
const USER_LINES = [
  'Peux-tu me rappeler ce que je dois préparer pour le rendez-vous de jeudi ?',
  'I need to move my dentist appointment to next week, ideally in the morning.',
  'Merci, et ajoute le pain et les œufs à la liste de courses pour samedi.',
  'What did we decide about the hotel near the station last time?',
  'Envoie un mail à Claire pour confirmer la réunion de lundi à 10 h.',
];
const ASSISTANT_LINES = [
  "C'est noté : je t'ai préparé la liste et je te la renvoie demain matin.",
  'Done. I found two slots on Tuesday and Wednesday morning; which one do you prefer?',
  'Voilà le résumé de la discussion, avec les trois points encore ouverts.',
];

type Step =
  | { kind: 'message'; session: number }
  | { kind: 'summary'; session: number }
  | { kind: 'memory'; index: number; approve: boolean }
  | { kind: 'card' }
  | { kind: 'action'; index: number; execute: boolean };

/**
 * A plausible history of one user, `size` events long: sessions of 40 messages (user and assistant
 * in turn) each closed by a rolling summary, three approved memories with an identity card, and two
 * executed actions. Positions are handed in as the events are placed in the global order, so that
 * summaries and cards can name the positions they cover.
 */
export class UserHistory {
  private readonly steps: Step[];
  private cursor = 0;
  private readonly sessionMessages = new Map<number, { count: number; last: string }>();
  private readonly memoryIds: string[] = [];
  private readonly actionIds: string[] = [];
  private lastMemoryPosition = '0';

  constructor(
    readonly workspaceId: string,
    readonly userId: string,
    size: number,
    private readonly clock: (position: number) => string,
  ) {
    this.steps = planSteps(size);
  }

  get remaining(): number {
    return this.steps.length - this.cursor;
  }

  next(position: number): SeedEvent | undefined {
    const step = this.steps[this.cursor];
    if (!step) return undefined;
    this.cursor += 1;
    return this.eventFor(step, String(position));
  }

  private eventFor(step: Step, position: string): SeedEvent {
    const { workspaceId, userId } = this;
    const sessionId = (index: number) => `s${index}`;
    switch (step.kind) {
      case 'message': {
        const state = this.sessionMessages.get(step.session) ?? { count: 0, last: '0' };
        const role = state.count % 2 === 0 ? 'user' : 'assistant';
        const lines = role === 'user' ? USER_LINES : ASSISTANT_LINES;
        this.sessionMessages.set(step.session, { count: state.count + 1, last: position });
        const messageId = randomUUID();
        return this.event(userStream(workspaceId, userId, 'message', messageId), 0, position, {
          type: 'MessageRecorded',
          data: {
            messageId,
            sessionId: sessionId(step.session),
            role,
            channel: 'telegram',
            text: `${lines[(state.count + step.session) % lines.length]!} (#${state.count})`,
          },
        });
      }
      case 'summary': {
        const state = this.sessionMessages.get(step.session)!;
        const covered = Math.max(1, state.count - LIVE_WINDOW);
        return this.event(
          userStream(workspaceId, userId, 'session', sessionId(step.session)),
          0,
          position,
          {
            type: 'RollingSummaryExtended',
            data: {
              sessionId: sessionId(step.session),
              throughPosition: state.last,
              messageCount: covered,
              summarizedCount: covered,
              summary:
                "L'utilisateur a organisé ses rendez-vous de la semaine, demandé des rappels et " +
                'confirmé une réunion avec Claire lundi à 10 h.',
              model: 'extractive',
            },
          },
        );
      }
      case 'memory': {
        const [kind, content] = MEMORIES[step.index]!;
        if (!step.approve) {
          const memoryId = randomUUID();
          this.memoryIds[step.index] = memoryId;
          return this.event(userStream(workspaceId, userId, 'memory', memoryId), 0, position, {
            type: 'MemoryCandidateDetected',
            data: {
              memoryId,
              kind,
              content,
              confidence: 0.9,
              sourceMessageId: randomUUID(),
              sourceExcerpt: content.slice(0, 40),
              sessionId: 's1',
              generation: 0,
            },
          });
        }
        const memoryId = this.memoryIds[step.index]!;
        this.lastMemoryPosition = position;
        return this.event(userStream(workspaceId, userId, 'memory', memoryId), 1, position, {
          type: 'MemoryApproved',
          data: { memoryId, by: { kind: 'policy' } },
        });
      }
      case 'card':
        return this.event(
          userStream(workspaceId, userId, 'identity-card', 'current'),
          0,
          position,
          {
            type: 'IdentityCardRegenerated',
            data: {
              markdown: `## Identité\n${MEMORIES.map(([, content]) => `- ${content}`).join('\n')}`,
              memoryCount: MEMORIES.length,
              basedOnPosition: this.lastMemoryPosition,
              model: 'template',
            },
          },
        );
      case 'action': {
        if (!step.execute) {
          const actionId = randomUUID();
          this.actionIds[step.index] = actionId;
          return this.event(userStream(workspaceId, userId, 'action', actionId), 0, position, {
            type: 'ActionProposed',
            data: {
              actionId,
              tool: 'calendar.move',
              target: 'Dentiste',
              summary: 'Déplacer le rendez-vous chez le dentiste à mardi 9 h',
              input: { from: '2026-04-02T09:00', to: '2026-04-07T09:00' },
              channel: 'telegram',
              requiresConfirmation: false,
            },
          });
        }
        const actionId = this.actionIds[step.index]!;
        return this.event(userStream(workspaceId, userId, 'action', actionId), 1, position, {
          type: 'ActionExecuted',
          data: { actionId, channel: 'telegram', result: { ok: true } },
        });
      }
    }
  }

  private event(
    streamId: string,
    revision: number,
    position: string,
    event: EventEnvelope['event'],
  ): SeedEvent {
    const id = randomUUID();
    return {
      streamId,
      revision,
      envelope: {
        eventId: id,
        event,
        metadata: {
          workspaceId: this.workspaceId,
          userId: this.userId,
          traceId: id,
          channel: 'telegram',
          causationId: id,
          correlationId: id,
          occurredAt: this.clock(Number(position)),
        },
      },
    };
  }
}

function planSteps(size: number): Step[] {
  const fixed: Step[] = [
    ...[0, 1, 2].flatMap((index): Step[] => [
      { kind: 'memory', index, approve: false },
      { kind: 'memory', index, approve: true },
    ]),
    { kind: 'card' },
    ...[0, 1].flatMap((index): Step[] => [
      { kind: 'action', index, execute: false },
      { kind: 'action', index, execute: true },
    ]),
  ];
  const steps: Step[] = [];
  let session = 1;
  let inSession = 0;
  // The memories and actions come after the first exchanges, when the budget allows them.
  let extrasAt = size >= fixed.length + 4 ? 4 : Number.POSITIVE_INFINITY;
  while (steps.length < size) {
    if (steps.length === extrasAt) {
      steps.push(...fixed.slice(0, size - steps.length));
      extrasAt = Number.POSITIVE_INFINITY;
      continue;
    }
    if (inSession === MESSAGES_PER_SESSION) {
      steps.push({ kind: 'summary', session });
      session += 1;
      inSession = 0;
      continue;
    }
    steps.push({ kind: 'message', session });
    inSession += 1;
  }
  return steps;
}
