import type { SeedEvent, UserHistory } from './user-history';

export type PlacedEvent = SeedEvent & Readonly<{ position: number }>;

/**
 * Places the histories in one global order, as real traffic would: the ordinary users take turns one
 * event at a time, and each `spread` history (a much larger user) is spread evenly among them.
 */
export function* globalOrder(
  ordinary: readonly UserHistory[],
  spread: readonly UserHistory[],
): Generator<PlacedEvent> {
  let position = 0;
  const ticks = ordinary.reduce((sum, history) => sum + history.remaining, 0);
  const spreadSizes = spread.map((history) => history.remaining);
  let tick = 0;
  const emit = function* (history: UserHistory) {
    const event = history.next(position + 1);
    if (event) {
      position += 1;
      yield { ...event, position };
    }
  };
  let active = ordinary.filter((history) => history.remaining > 0);
  while (active.length > 0) {
    for (const history of active) {
      yield* emit(history);
      tick += 1;
      for (const [index, big] of spread.entries()) {
        const due = Math.floor((tick * spreadSizes[index]!) / ticks);
        while (spreadSizes[index]! - big.remaining < due) yield* emit(big);
      }
    }
    active = active.filter((history) => history.remaining > 0);
  }
  for (const big of spread) while (big.remaining > 0) yield* emit(big);
}
