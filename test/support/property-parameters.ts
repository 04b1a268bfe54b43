import type { Parameters } from 'fast-check';

/** The seed every property test uses unless ENGRAM_FC_SEED names another (fast-check prints it on failure). */
const DEFAULT_SEED = 20_260_801;

/** fast-check parameters for a bounded, reproducible property run. */
export function propertyParameters<T>(numRuns: number, extra: Parameters<T> = {}): Parameters<T> {
  const given = process.env.ENGRAM_FC_SEED;
  const seed = given === undefined || given === '' ? DEFAULT_SEED : Number(given);
  if (!Number.isInteger(seed)) throw new Error(`ENGRAM_FC_SEED must be an integer, got ${given}`);
  return { seed, numRuns, ...extra };
}
