import type { ProcessManagerDependencies } from '../dependencies';

/**
 * The last event a reactor recorded itself (or the head of the store when it first reacted): a
 * reaction waits for the read models to reach it and its own event, so what the reactor just wrote
 * is seen before it decides again, instead of reading the head of the store for every event (a
 * statement each, and a wait for whatever anyone appended since). Kept per reactor in the worker's
 * memory: after a restart the first reaction starts from the head, past whatever it wrote before.
 */
export type RecordedThrough = { position?: bigint };

/** The position a reaction to the event at `position` reads the read models through. */
export async function readThrough(
  deps: Pick<ProcessManagerDependencies, 'store'>,
  recorded: RecordedThrough,
  position: bigint,
): Promise<bigint> {
  recorded.position ??= await deps.store.headPosition();
  return max(recorded.position, position);
}

/** Notes an event the reactor has just appended. */
export function rememberRecorded(recorded: RecordedThrough, position: bigint): void {
  recorded.position = max(recorded.position ?? 0n, position);
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
