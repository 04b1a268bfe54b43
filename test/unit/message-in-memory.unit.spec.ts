import {
  EVENT_CATALOG,
  IdempotencyConflictError,
  deterministicId,
  messageDecider,
  userStream,
  type MessageCommand,
} from '@engram/domain';
import { EventCodec, InMemoryEventStore, handleCommand } from '@engram/event-store';
import { sessionMessagesProjection, userStreamStatsProjection } from '@engram/projections';
import { InMemoryReadModel } from '../support/in-memory-read-model';

/**
 * The write path and the read side together, without PostgreSQL: commands through `handleCommand`
 * into the in-memory store, the log read back through the codec and folded by the projections'
 * own `applyBatch`. The integration tests still run all of it against the real database.
 */
describe('a message, from command to read models, in memory', () => {
  const codec = new EventCodec(EVENT_CATALOG);
  const store = new InMemoryEventStore({ now: () => new Date('2026-06-08T16:40:01.000Z') });
  const context = { store, codec };

  const send = (messageId: string, command: MessageCommand) =>
    handleCommand(
      context,
      userStream('w1', 'alice', 'message', messageId),
      messageDecider,
      command,
      {
        metadata: {
          workspaceId: 'w1',
          userId: 'alice',
          traceId: `trace-${messageId}`,
          causationId: messageId,
          correlationId: 'c1',
          occurredAt: '2026-06-08T16:40:00.000Z',
        },
        // As the API and the reactors do: ids derived from the cause make a retry idempotent.
        eventIds: (events) =>
          events.map((event) => deterministicId('message', 'w1', 'alice', messageId, event.type)),
        usuallyOpensStream: command.type === 'RecordMessage',
      },
    );
  const record = (messageId: string, text: string) =>
    send(messageId, {
      type: 'RecordMessage',
      data: { messageId, sessionId: 's1', role: 'user', channel: 'web', text },
    });

  it('records, answers a retry, refuses a conflict, and projects what was recorded', async () => {
    await record('m1', 'I live in Lyon');
    await record('m2', 'I prefer tea');
    expect((await record('m1', 'I live in Lyon')).events).toEqual([]);
    await expect(record('m1', 'I live in Paris')).rejects.toBeInstanceOf(IdempotencyConflictError);
    // What the extraction reactor records when the LLM fails: once per reason, however often retried.
    const failure: MessageCommand = {
      type: 'RecordExtractionFailure',
      data: { reason: 'llm_unavailable', model: 'm' },
    };
    await send('m2', failure);
    expect((await send('m2', failure)).events).toEqual([]);

    const events = await Promise.all((await store.readAll()).map((e) => codec.decode(e)));
    expect(events.map((e) => [e.globalPosition, e.event.type])).toEqual([
      [1n, 'MessageRecorded'],
      [2n, 'MessageRecorded'],
      [3n, 'MemoryExtractionFailed'],
    ]);

    const messages = new InMemoryReadModel(sessionMessagesProjection);
    await messages.apply(events);
    expect(messages.rows()).toMatchObject([
      { messageId: 'm1', text: 'I live in Lyon', traceId: 'trace-m1', position: '1' },
      { messageId: 'm2', text: 'I prefer tea', traceId: 'trace-m2', position: '2' },
    ]);
    const stats = new InMemoryReadModel(userStreamStatsProjection);
    await stats.apply(events, 1);
    expect(stats.rows()).toMatchObject([
      { workspaceId: 'w1', userId: 'alice', eventCount: 3, messageCount: 2, lastPosition: '3' },
    ]);
  });
});
