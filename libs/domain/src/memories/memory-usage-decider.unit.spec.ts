import { deciderSpec } from '../../../../test/support/decider-spec';
import { memoryUsageDecider } from './memory-usage-decider';

describe('memoryUsageDecider', () => {
  const spec = deciderSpec(memoryUsageDecider);
  const used = (memoryIds: string[]) => ({ type: 'MemoriesUsed' as const, data: { memoryIds } });

  it('records a batch of used memories once each, whatever the stream already holds', () => {
    spec
      .given([used(['m0'])])
      .when({ type: 'RecordMemoryUsage', memoryIds: ['m1', 'm2', 'm1'] })
      .then([used(['m1', 'm2'])]);
  });

  it('records nothing for an empty batch', () => {
    spec.given([]).when({ type: 'RecordMemoryUsage', memoryIds: [] }).thenNothing();
  });
});
