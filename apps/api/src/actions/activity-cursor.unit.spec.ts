import { BadRequestException } from '@nestjs/common';
import { parseActivityCursor } from './activity-cursor';

describe('parseActivityCursor', () => {
  it('takes a position up to the largest bigint', () => {
    expect(parseActivityCursor('42')).toBe('42');
    expect(parseActivityCursor('9223372036854775807')).toBe('9223372036854775807');
    // Zeros, however many, are the bigint 0 for PostgreSQL too (the review cursor's year 0000 was not).
    expect(parseActivityCursor('0000000000000000000')).toBe('0000000000000000000');
  });

  it('refuses 19 digits past the bigint range with a 400 (PostgreSQL answered out of range: a 500)', () => {
    expect(() => parseActivityCursor('9999999999999999999')).toThrow(BadRequestException);
  });

  it.each(['', '-1', '1.5', '1e3', ' 1', '9'.repeat(20)])('refuses %j', (cursor) => {
    expect(() => parseActivityCursor(cursor)).toThrow('cursor is not a cursor this API gave');
  });
});
