import fc from 'fast-check';
import {
  DomainConflictError,
  DomainNotFoundError,
  MEMORY_KINDS,
  actionDecider,
  agentMemoryDecider,
  erasureDecider,
  identityCardDecider,
  memoryDecider,
  memoryProfileDecider,
  messageDecider,
  policyDecider,
  sessionDecider,
  userStream,
  workspaceStream,
  type Decider,
  type Event,
} from '@engram/domain';
import type { DecodedEvent } from '@engram/event-store';
import { ALICE, BOB, defaultOccurredAt, type Owner } from './projection-spec';

type AnyDecider = Decider<unknown, Event, unknown>;

/** One aggregate kind: its decider, how its streams are named, and the commands it is sent. */
type Aggregate = Readonly<{
  decider: AnyDecider;
  stream: (owner: Owner, id: string) => string;
  commands: (id: string) => fc.Arbitrary<unknown>;
}>;

const IDS = ['1d4c7a8e-5b0e-4f8a-9a53-6b1f8c2e7d40', '6f1c2b3a-0e4d-4c5b-8a9f-7e6d5c4b3a21'];
const text = () => fc.oneof(fc.constantFrom('Bonjour', "[Fiche d'identite]\nIgnore"), fc.string());
const position = () => fc.bigInt({ min: 0n, max: 40n }).map(String);
const instant = () => fc.integer({ min: 0, max: 120 }).map((minutes) => defaultOccurredAt(minutes));
const person = () =>
  fc.record({
    kind: fc.constant('person' as const),
    userId: fc.constantFrom('alice', 'root'),
    role: fc.constantFrom('user' as const, 'admin' as const),
  });

const user = (kind: string) => (owner: Owner, id: string) =>
  userStream(owner.workspaceId, owner.userId, kind, id);

/** Every aggregate of libs/domain, with the commands the API, process managers and schedulers send. */
export const AGGREGATES: Readonly<Record<string, Aggregate>> = {
  message: {
    decider: messageDecider as AnyDecider,
    stream: user('message'),
    commands: (id) =>
      fc.oneof(
        fc.record({
          type: fc.constant('RecordMessage'),
          data: fc.record(
            {
              messageId: fc.constant(id),
              sessionId: fc.constantFrom('s1', 's2'),
              role: fc.constantFrom('user', 'assistant'),
              channel: fc.constantFrom('web', 'telegram'),
              text: text(),
              agentId: fc.constantFrom('chat-web', 'bot'),
            },
            { requiredKeys: ['messageId', 'sessionId', 'role', 'channel', 'text'] },
          ),
        }),
        fc.record({
          type: fc.constant('RecordExtractionFailure'),
          data: fc.record({
            reason: fc.constantFrom('timeout', 'invalid'),
            model: fc.constant('m'),
          }),
        }),
      ),
  },
  session: {
    decider: sessionDecider as AnyDecider,
    stream: user('session'),
    commands: () =>
      fc.oneof(
        fc.record({
          type: fc.constant('ExtendRollingSummary'),
          data: fc.record({
            sessionId: fc.constant('s1'),
            throughPosition: position(),
            messageCount: fc.nat(20),
            summarizedCount: fc.nat(200),
            summary: text(),
            model: fc.constant('m'),
          }),
        }),
        fc.record({
          type: fc.constant('RecordSummaryFailure'),
          data: fc.record({
            sessionId: fc.constant('s1'),
            throughPosition: position(),
            reason: fc.constantFrom('timeout', 'invalid'),
            model: fc.constant('m'),
          }),
        }),
      ),
  },
  memory: {
    decider: memoryDecider as AnyDecider,
    stream: user('memory'),
    commands: (id) =>
      fc.oneof(
        fc.record({
          type: fc.constant('DetectMemoryCandidate'),
          data: fc.record(
            {
              memoryId: fc.constant(id),
              kind: fc.constantFrom(...MEMORY_KINDS),
              content: text(),
              confidence: fc.double({ min: 0, max: 1, noNaN: true }),
              dueAt: instant(),
              sourceMessageId: fc.constantFrom(...IDS),
              sourceExcerpt: text(),
              sessionId: fc.constantFrom('s1', 's2'),
              generation: fc.nat(2),
            },
            {
              requiredKeys: [
                'memoryId',
                'kind',
                'content',
                'confidence',
                'sourceMessageId',
                'sourceExcerpt',
                'sessionId',
                'generation',
              ],
            },
          ),
          review: fc.record(
            {
              mode: fc.constantFrom('auto', 'admin', 'user'),
              autoApproveAbove: fc.double({ min: 0, max: 1, noNaN: true }),
            },
            { requiredKeys: ['mode'] },
          ),
        }),
        fc.record({ type: fc.constant('ApproveMemory'), by: person() }),
        fc.record(
          { type: fc.constant('RejectMemory'), by: person(), reason: text() },
          { requiredKeys: ['type', 'by'] },
        ),
        fc.record({
          type: fc.constant('DeleteMemory'),
          by: person(),
          reason: fc.constantFrom('deleted', 'wipe'),
        }),
        fc.constantFrom({ type: 'EvictMemory' }, { type: 'ExpireMemory' }),
      ),
  },
  profile: {
    decider: memoryProfileDecider as AnyDecider,
    stream: user('profile'),
    commands: () =>
      fc.oneof(
        fc.record({
          type: fc.constant('ChangeMemorySettings'),
          data: fc.record({
            enabled: fc.boolean(),
            pausedUntil: fc.option(instant(), { nil: null }),
          }),
        }),
        fc.constant({ type: 'WipeMemories' }),
      ),
  },
  'identity-card': {
    decider: identityCardDecider as AnyDecider,
    stream: user('identity-card'),
    commands: () =>
      fc.record({
        type: fc.constant('RegenerateIdentityCard'),
        data: fc.record({
          markdown: text(),
          memoryCount: fc.nat(10),
          basedOnPosition: position(),
          model: fc.constant('m'),
        }),
      }),
  },
  policy: {
    decider: policyDecider as AnyDecider,
    stream: (owner) => workspaceStream(owner.workspaceId, 'policy', 'memory'),
    commands: () =>
      fc.record({
        type: fc.constant('ChangeMemoryPolicy'),
        changedBy: fc.constant('root'),
        changes: fc.record(
          {
            reviewMode: fc.constantFrom('auto', 'admin', 'user'),
            autoApproveAbove: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
            pendingTtlDays: fc.integer({ min: 1, max: 365 }),
            liveWindow: fc.integer({ min: 1, max: 200 }),
            timeZone: fc.constantFrom('Europe/Paris', 'UTC'),
            locale: fc.constantFrom('fr', 'en'),
          },
          { requiredKeys: [] },
        ),
      }),
  },
  agent: {
    decider: agentMemoryDecider as AnyDecider,
    stream: (owner, id) => workspaceStream(owner.workspaceId, 'agent', id),
    commands: (id) =>
      fc.record({
        type: fc.constant('ToggleAgentMemory'),
        agentId: fc.constant(id),
        enabled: fc.boolean(),
        changedBy: fc.constant('root'),
      }),
  },
  action: {
    decider: actionDecider as AnyDecider,
    stream: user('action'),
    commands: (id) =>
      fc.oneof(
        fc.record({
          type: fc.constant('ProposeAction'),
          data: fc.record(
            {
              actionId: fc.constant(id),
              tool: fc.constantFrom('gmail_send', 'calendar'),
              target: text(),
              summary: text(),
              input: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 })),
              channel: fc.constantFrom('web', 'telegram'),
              requiresConfirmation: fc.boolean(),
              expiresAt: instant(),
            },
            { requiredKeys: ['actionId', 'tool', 'summary', 'channel', 'requiresConfirmation'] },
          ),
        }),
        fc.record({
          type: fc.constant('ConfirmAction'),
          channel: fc.constantFrom('web', 'email'),
          now: instant(),
        }),
        fc.record(
          {
            type: fc.constant('ExecuteAction'),
            channel: fc.constantFrom('web', 'email'),
            result: fc.object({ maxDepth: 1 }),
          },
          { requiredKeys: ['type'] },
        ),
        fc.record(
          { type: fc.constant('AbortAction'), channel: fc.constantFrom('web'), reason: text() },
          { requiredKeys: ['type'] },
        ),
        fc.record({ type: fc.constant('FailAction'), error: text() }),
        fc.record({ type: fc.constant('ExpireAction'), now: instant() }),
      ),
  },
  erasure: {
    decider: erasureDecider as AnyDecider,
    stream: (owner) => userStream(owner.workspaceId, owner.userId, 'erasure', 'record'),
    commands: () => fc.record({ type: fc.constant('EraseUser'), requestedBy: fc.constant('dpo') }),
  },
};

/** One command sent to one stream: which aggregate, which owner, which of its two ids. */
export type Step = Readonly<{ aggregate: string; owner: Owner; id: string; command: unknown }>;

/** A history of commands over every aggregate, two users and two ids each (so streams repeat). */
export function commandHistories(
  options: { minLength?: number; maxLength?: number; aggregates?: readonly string[] } = {},
): fc.Arbitrary<Step[]> {
  const names = options.aggregates ?? Object.keys(AGGREGATES);
  const step = fc
    .record({
      aggregate: fc.constantFrom(...names),
      owner: fc.constantFrom(ALICE, BOB),
      id: fc.constantFrom(...IDS),
    })
    .chain(({ aggregate, owner, id }) =>
      AGGREGATES[aggregate]!.commands(id).map((command) => ({ aggregate, owner, id, command })),
    );
  return fc.array(step, { minLength: options.minLength ?? 0, maxLength: options.maxLength ?? 60 });
}

export type Decided = Readonly<{
  /** Every event decided, at consecutive global positions, as a projection receives it. */
  events: DecodedEvent[];
  /** Each stream's events, in order, with its aggregate. */
  streams: Map<string, { aggregate: string; events: Event[] }>;
}>;

/**
 * Runs a history through the deciders the way handleCommand does (fold the stream, decide, append).
 * A refused command (DomainConflictError, DomainNotFoundError) appends nothing; any other error is
 * thrown, it is a bug.
 */
export function decideHistory(steps: readonly Step[]): Decided {
  const streams = new Map<string, { aggregate: string; events: Event[] }>();
  const events: DecodedEvent[] = [];
  for (const step of steps) {
    const aggregate = AGGREGATES[step.aggregate]!;
    const streamId = aggregate.stream(step.owner, step.id);
    const stream = streams.get(streamId) ?? { aggregate: step.aggregate, events: [] };
    const state = stream.events.reduce(aggregate.decider.evolve, aggregate.decider.initialState());
    let decided: readonly Event[];
    try {
      decided = aggregate.decider.decide(step.command, state);
    } catch (error) {
      if (error instanceof DomainConflictError || error instanceof DomainNotFoundError) continue;
      throw error;
    }
    for (const event of decided) {
      const globalPosition = BigInt(events.length + 1);
      events.push({
        eventId: `event-${globalPosition}`,
        event,
        metadata: {
          workspaceId: step.owner.workspaceId,
          userId: step.owner.userId,
          causationId: `cause-${globalPosition}`,
          correlationId: `correlation-${globalPosition}`,
          occurredAt: defaultOccurredAt(globalPosition),
          traceId: `trace-${step.id}`,
          channel: 'web',
        },
        streamId,
        streamRevision: BigInt(stream.events.length),
        globalPosition,
        recordedAt: new Date(defaultOccurredAt(globalPosition)),
        erased: false,
      });
      stream.events.push(event);
    }
    streams.set(streamId, stream);
  }
  return { events, streams };
}
