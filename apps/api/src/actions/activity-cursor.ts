import { BadRequestException } from '@nestjs/common';

/** The largest position a cursor can name: PostgreSQL's bigint. */
const MAX_POSITION = 9_223_372_036_854_775_807n;

/** The feed's cursor is the first position of the last group shown: a decimal bigint. */
export function parseActivityCursor(cursor: string): string {
  if (!/^\d{1,19}$/.test(cursor) || BigInt(cursor) > MAX_POSITION) {
    throw new BadRequestException('cursor is not a cursor this API gave');
  }
  return cursor;
}
