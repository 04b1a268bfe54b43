import fc from 'fast-check';
import { commandHistories, decideHistory } from '../test/support/command-histories';
import { InMemoryReadModel } from '../test/support/in-memory-read-model';
import { propertyParameters } from '../test/support/property-parameters';
import { PROJECTIONS } from './index';

describe('projections: replay of any decided history (property-based)', () => {
  it.each(PROJECTIONS.map((projection) => [projection.name, projection] as const))(
    '%s: two replays from empty give the same rows, in one batch or one event at a time',
    async (_, projection) => {
      await fc.assert(
        fc.asyncProperty(
          commandHistories({ maxLength: 60 }),
          fc.integer({ min: 1, max: 7 }),
          async (steps, batchSize) => {
            const { events } = decideHistory(steps);
            const replay = async (size: number) => {
              const model = new InMemoryReadModel(projection);
              await model.apply(events, size);
              return model.rows();
            };
            const once = await replay(events.length);
            expect(await replay(events.length)).toEqual(once);
            expect(await replay(1)).toEqual(once);
            expect(await replay(batchSize)).toEqual(once);
          },
        ),
        propertyParameters(100),
      );
    },
  );
});
