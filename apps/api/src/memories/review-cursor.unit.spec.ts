import { BadRequestException } from '@nestjs/common';
import { decodeCursor, encodeCursor } from './review-cursor';

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('review queue cursor', () => {
  it('decodes what it encodes', () => {
    const cursor = {
      createdAt: '2026-06-01T10:00:00.000Z',
      memoryId: '1d4c7a8e-5b0e-4f8a-9a53-6b1f8c2e7d40',
    };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    const earliest = { ...cursor, createdAt: '0001-01-01T00:00:00.000Z' };
    expect(decodeCursor(encodeCursor(earliest))).toEqual(earliest);
  });

  it.each([
    // Date.parse takes these; PostgreSQL did not (a 500 before).
    ['a date PostgreSQL cannot read', ['1', '1d4c7a8e-5b0e-4f8a-9a53-6b1f8c2e7d40']],
    [
      'a year past PostgreSQL',
      ['+275760-09-13T00:00:00.000Z', '1d4c7a8e-5b0e-4f8a-9a53-6b1f8c2e7d40'],
    ],
    [
      'the year 0000 (JavaScript has one, PostgreSQL does not)',
      ['0000-01-01T00:00:00.000Z', '1d4c7a8e-5b0e-4f8a-9a53-6b1f8c2e7d40'],
    ],
    ['a NUL in the id', ['2026-06-01T10:00:00.000Z', 'a\u0000b']],
    ['an id that is no memory id', ['2026-06-01T10:00:00.000Z', "' OR 1=1 --"]],
    ['an impossible date', ['2026-02-30T10:00:00.000Z', '1d4c7a8e-5b0e-4f8a-9a53-6b1f8c2e7d40']],
    ['not a pair', { createdAt: 1 }],
  ])('refuses %s with a 400', (_, value) => {
    expect(() => decodeCursor(cursorOf(value))).toThrow(BadRequestException);
  });

  it('refuses text that is not base64 JSON', () => {
    expect(() => decodeCursor('%%%')).toThrow('cursor is not a cursor this API gave');
  });
});
