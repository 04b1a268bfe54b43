import fc from 'fast-check';
import {
  AGGREGATES,
  commandHistories,
  decideHistory,
} from '../../../test/support/command-histories';
import { propertyParameters } from '../../../test/support/property-parameters';
import { foldEvents } from './decider';

describe('deciders: any sequence of commands (property-based)', () => {
  it.each(Object.keys(AGGREGATES))(
    '%s: refuses only with domain errors, and its events fold to the same state twice',
    (aggregate) => {
      fc.assert(
        fc.property(commandHistories({ aggregates: [aggregate], maxLength: 40 }), (steps) => {
          // decideHistory rethrows anything that is not a DomainConflictError or DomainNotFoundError.
          const { streams } = decideHistory(steps);
          for (const stream of streams.values()) {
            const { decider } = AGGREGATES[stream.aggregate]!;
            expect(foldEvents(decider, stream.events)).toEqual(foldEvents(decider, stream.events));
          }
        }),
        propertyParameters(200),
      );
    },
  );

  it('a stream replayed decides the same as the stream it was built from', () => {
    fc.assert(
      fc.property(commandHistories({ maxLength: 60 }), (steps) => {
        expect(decideHistory(steps)).toEqual(decideHistory(steps));
      }),
      propertyParameters(100),
    );
  });
});
