import { randomUUID } from 'node:crypto';
import { foldEvents, type Decider, type Event, type EventMetadata } from '@engram/domain';
import type { DecodedEvent, EventCodec } from './codec';
import { DuplicateEventIdError, StreamNotFoundError, WrongExpectedVersionError } from './errors';
import type {
  AppendResult,
  EventStore,
  ReadStreamOptions,
  RecordedEvent,
} from './event-store.port';
import type { StreamStates } from './stream-states';

export type CommandContext = Readonly<{ store: EventStore; codec: EventCodec }>;

export type HandleOptions<E extends Event> = Readonly<{
  /** Or a function of the stream's history, e.g. to carry the trace id of the event that opened it. */
  metadata: EventMetadata | ((history: readonly DecodedEvent<E>[]) => EventMetadata);
  /** Ids of the decided events; deterministic ids make a retried command idempotent. */
  eventIds?: (events: readonly E[]) => readonly string[];
  maxAttempts?: number;
  /**
   * The command usually opens its stream (a message is recorded once): decide on the initial state and
   * append expecting no stream, without reading it first. When the stream exists after all, the
   * command is handled the usual way. A retry of the same event ids is answered by the store's idempotency.
   */
  usuallyOpensStream?: boolean;
  /**
   * The stream is a log whose decider needs no history (e.g. the daily memory usage): decide on the
   * initial state and append with no expectation, without reading it. Nothing conflicts, so no retry.
   * With `eventIds` (deterministic ids: the caller needs exactly-once), the log is read and what it
   * holds already is dropped, the rest appended at the exact revision read: no store recognises a
   * retry for ever without an exact revision (EventStoreDB only within its in-memory window).
   */
  appendOnly?: boolean;
  /**
   * The states folded at earlier commands (`StreamStates`): when it holds this stream's, only the
   * events appended since are read and folded onto it, and the result's `history` holds only those.
   * For streams commands come back to often (a memory reinforced at each restatement). Ignored
   * with a `metadata` function, which needs the whole history.
   */
  states?: StreamStates;
}>;

export type HandleResult<E extends Event, State> = Readonly<{
  /** The stream as it was read before deciding. */
  history: readonly DecodedEvent<E>[];
  events: readonly E[];
  state: State;
  /** Position of the last event written, or of the stream's last event when nothing new was decided. */
  position: bigint;
}>;

/**
 * The one way commands are handled: read the aggregate's stream, fold it, decide, append with the
 * read revision as expectation. A concurrent writer makes the append fail; the command is then
 * decided again on the reloaded state, a bounded number of times.
 */
export async function handleCommand<Command, E extends Event, State>(
  context: CommandContext,
  streamId: string,
  decider: Decider<Command, E, State>,
  command: Command,
  options: HandleOptions<E>,
): Promise<HandleResult<E, State>> {
  const maxAttempts = options.maxAttempts ?? 3;
  if (options.appendOnly) {
    const state = decider.initialState();
    const events = decider.decide(command, state);
    const decided = { history: [], events, state: events.reduce(decider.evolve, state) };
    if (events.length === 0) return { ...decided, position: 0n };
    if (options.eventIds) {
      const position = await appendOnce(context, streamId, events, options, maxAttempts);
      return { ...decided, position };
    }
    return {
      ...decided,
      position: (await append(context, streamId, events, [], options, 'any')).position,
    };
  }
  if (options.usuallyOpensStream) {
    const opened = await tryOpening(context, streamId, decider, command, options);
    if (opened) return opened;
  }
  const states = usableStates(options);
  for (let attempt = 1; ; attempt += 1) {
    const { history, state, last } = await readState(context, streamId, decider, states);
    const events = decider.decide(command, state);
    if (events.length === 0) {
      return { history, events, state, position: last?.globalPosition ?? 0n };
    }
    try {
      const written = await append(context, streamId, events, history, options, last);
      const after = events.reduce(decider.evolve, state);
      if (states && written.alreadyStored === false) {
        remember(states, streamId, decider, after, {
          streamRevision: written.nextExpectedRevision,
          eventId: written.eventIds.at(-1)!,
        });
      }
      return { history, events, state: after, position: written.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError) || attempt >= maxAttempts) throw error;
    }
  }
}

type ReadState<E extends Event, State> = Readonly<{
  /** The events read and folded (only those after the known state when one was used). */
  history: readonly DecodedEvent<E>[];
  state: State;
  /** The stream's last event, the expectation of the append; undefined when there is no stream. */
  last: RecordedEvent | undefined;
}>;

/**
 * The stream's state: folded from the known one and the events after it when `states` holds it
 * and the stream still has that event at that revision, from the whole stream otherwise.
 */
async function readState<Command, E extends Event, State>(
  context: CommandContext,
  streamId: string,
  decider: Decider<Command, E, State>,
  states: StreamStates | undefined,
): Promise<ReadState<E, State>> {
  const known = states?.get<State>(streamId, decider);
  if (known) {
    const tail = await readStreamOrEmpty(context.store, streamId, { fromRevision: known.revision });
    const first = tail[0];
    if (first?.streamRevision === known.revision && first.eventId.toLowerCase() === known.eventId) {
      const history = await decodeAll<E>(context.codec, tail.slice(1));
      const state = history.reduce((folded, h) => decider.evolve(folded, h.event), known.state);
      const last = tail.at(-1)!;
      if (history.length > 0) remember(states!, streamId, decider, state, last);
      return { history, state, last };
    }
    states!.delete(streamId);
  }
  const recorded = await readStreamOrEmpty(context.store, streamId);
  const history = await decodeAll<E>(context.codec, recorded);
  const state = foldEvents(
    decider,
    history.map((h) => h.event),
  );
  const last = recorded.at(-1);
  if (states && last) remember(states, streamId, decider, state, last);
  return { history, state, last };
}

function decodeAll<E extends Event>(
  codec: EventCodec,
  recorded: readonly RecordedEvent[],
): Promise<DecodedEvent<E>[]> {
  return Promise.all(recorded.map((event) => codec.decode<E>(event)));
}

/** The known states to use: none with a metadata function, which needs the whole history. */
function usableStates<E extends Event>(options: HandleOptions<E>): StreamStates | undefined {
  return typeof options.metadata === 'function' ? undefined : options.states;
}

function remember<State>(
  states: StreamStates,
  streamId: string,
  decider: object,
  state: State,
  upTo: Readonly<{ streamRevision: bigint; eventId: string }>,
): void {
  states.set(streamId, { decider, state, revision: upTo.streamRevision, eventId: upTo.eventId });
}

/** The optimistic first attempt of `usuallyOpensStream`: undefined when the stream turned out to exist. */
async function tryOpening<Command, E extends Event, State>(
  context: CommandContext,
  streamId: string,
  decider: Decider<Command, E, State>,
  command: Command,
  options: HandleOptions<E>,
): Promise<HandleResult<E, State> | undefined> {
  const state = decider.initialState();
  let events: readonly E[];
  try {
    events = decider.decide(command, state);
  } catch {
    return undefined; // refused on an empty stream: let the usual path decide on the real one
  }
  if (events.length === 0) return undefined;
  try {
    const result = await append(context, streamId, events, [], options, undefined);
    // A retry must be answered from the stream as stored (e.g. the first attempt's trace id).
    if (result.alreadyStored !== false) return undefined;
    const opened = events.reduce(decider.evolve, state);
    const states = usableStates(options);
    if (states) {
      remember(states, streamId, decider, opened, {
        streamRevision: result.nextExpectedRevision,
        eventId: result.eventIds.at(-1)!,
      });
    }
    return { history: [], events, state: opened, position: result.position };
  } catch (error) {
    if (error instanceof WrongExpectedVersionError) return undefined;
    throw error;
  }
}

/**
 * Exactly-once for a log: the events whose ids the stream holds are not appended again (their
 * position is answered), the others are appended at the exact revision read, retried on a conflict.
 * A store that recognises a stored id at any revision is sent the events without that read (one
 * statement instead of two, e.g. every LLM ledger entry); only a partial retry, which it refuses as
 * a reused id, is read and filtered.
 */
async function appendOnce<E extends Event>(
  context: CommandContext,
  streamId: string,
  events: readonly E[],
  options: HandleOptions<E>,
  maxAttempts: number,
): Promise<bigint> {
  const ids = options.eventIds!(events);
  if (context.store.recognisesRetriesAnywhere) {
    try {
      return (await append(context, streamId, events, [], options, 'any')).position;
    } catch (error) {
      if (!(error instanceof DuplicateEventIdError)) throw error;
    }
  }
  for (let attempt = 1; ; attempt += 1) {
    const recorded = await readStreamOrEmpty(context.store, streamId);
    const stored = new Map(recorded.map((event) => [event.eventId.toLowerCase(), event]));
    const missing = events.flatMap((event, index) =>
      stored.has(ids[index]!.toLowerCase()) ? [] : [{ event, id: ids[index]! }],
    );
    if (missing.length === 0) return stored.get(ids.at(-1)!.toLowerCase())!.globalPosition;
    try {
      const result = await append(
        context,
        streamId,
        missing.map((m) => m.event),
        [],
        { ...options, eventIds: () => missing.map((m) => m.id) },
        recorded.at(-1),
      );
      return result.position;
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError) || attempt >= maxAttempts) throw error;
    }
  }
}

async function append<E extends Event>(
  context: CommandContext,
  streamId: string,
  events: readonly E[],
  history: readonly DecodedEvent<E>[],
  options: HandleOptions<E>,
  last: RecordedEvent | undefined | 'any',
): Promise<AppendResult & Readonly<{ eventIds: readonly string[] }>> {
  const ids = options.eventIds?.(events) ?? events.map(() => randomUUID());
  const metadata =
    typeof options.metadata === 'function' ? options.metadata(history) : options.metadata;
  const records = await Promise.all(
    events.map((event, index) => context.codec.encode({ eventId: ids[index]!, event, metadata })),
  );
  const result = await context.store.appendToStream(streamId, records, {
    expectedRevision: last === 'any' ? 'any' : last ? last.streamRevision : 'no_stream',
  });
  return { ...result, eventIds: ids };
}

/** The stream's events (`options` as `readStream`'s), none when the stream does not exist (or was deleted). */
export async function readStreamOrEmpty(
  store: EventStore,
  streamId: string,
  options?: ReadStreamOptions,
): Promise<RecordedEvent[]> {
  try {
    return await store.readStream(streamId, options);
  } catch (error) {
    if (error instanceof StreamNotFoundError) return [];
    throw error;
  }
}
