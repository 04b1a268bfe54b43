import { foldEvents, type Decider, type Event } from '@engram/domain';

/**
 * Given events / when command / then events, for pure deciders:
 *   spec.given([e1]).when(c).then([e2]);  spec.given([]).when(c).thenThrows(/reason/);
 */
export function deciderSpec<Command, E extends Event, State>(decider: Decider<Command, E, State>) {
  return {
    given: (events: readonly E[]) => ({
      when: (command: Command) => {
        const decide = () => decider.decide(command, foldEvents(decider, events));
        return {
          then: (expected: readonly E[]) => expect(decide()).toEqual(expected),
          thenNothing: () => expect(decide()).toEqual([]),
          thenThrows: (message: string | RegExp) => expect(decide).toThrow(message),
        };
      },
    }),
  };
}
