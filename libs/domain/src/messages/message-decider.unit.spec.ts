import { deciderSpec } from '../../../../test/support/decider-spec';
import { messageDecider, type RecordMessage } from './message-decider';
import type { MessageRecorded } from './message-events';

const spec = deciderSpec(messageDecider);

const record: RecordMessage = {
  type: 'RecordMessage',
  data: { messageId: 'm1', sessionId: 's1', role: 'user', channel: 'telegram', text: 'Bonjour' },
};
const recorded: MessageRecorded = { type: 'MessageRecorded', data: record.data };

describe('message decider', () => {
  it('records a new message', () => {
    spec.given([]).when(record).then([recorded]);
  });

  it('records nothing when the message was already recorded (a retry)', () => {
    spec.given([recorded]).when(record).thenNothing();
    // As stored: jsonb gives the keys back in another order.
    const { text, ...rest } = record.data;
    spec
      .given([recorded])
      .when({ ...record, data: { text, ...rest } })
      .thenNothing();
  });

  it.each([
    ['text', { text: 'Au revoir' }],
    ['session', { sessionId: 's2' }],
    ['role', { role: 'assistant' as const }],
    ['agent', { agentId: 'a1' }],
  ])('refuses another message under the same id (other %s): idempotency conflict', (_, change) => {
    spec
      .given([recorded])
      .when({ ...record, data: { ...record.data, ...change } })
      .thenThrows('idempotency_conflict: messageId m1 was already used with a different request');
  });

  it('keeps the agent id when one is given', () => {
    const withAgent: RecordMessage = { ...record, data: { ...record.data, agentId: 'a1' } };
    spec
      .given([])
      .when(withAgent)
      .then([{ type: 'MessageRecorded', data: withAgent.data }]);
  });

  it('records an extraction failure once per reason', () => {
    const failure = { reason: 'timeout', model: 'gpt' };
    spec
      .given([recorded])
      .when({ type: 'RecordExtractionFailure', data: failure })
      .then([{ type: 'MemoryExtractionFailed', data: { messageId: 'm1', ...failure } }]);
    spec
      .given([recorded, { type: 'MemoryExtractionFailed', data: { messageId: 'm1', ...failure } }])
      .when({ type: 'RecordExtractionFailure', data: failure })
      .thenNothing();
  });
});
