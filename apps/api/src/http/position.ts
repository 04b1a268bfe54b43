/** Positions are bigint inside; JSON carries them as numbers (exact up to 2^53). */
export function positionToJson(position: bigint): number {
  return Number(position);
}
