import { correlationIdFrom } from './correlation-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('correlationIdFrom', () => {
  it('keeps a valid X-Correlation-Id', () => {
    expect(correlationIdFrom({ 'x-correlation-id': 'req-42.a:b' })).toBe('req-42.a:b');
  });

  it('falls back to X-Request-Id', () => {
    expect(correlationIdFrom({ 'x-request-id': 'lb-7' })).toBe('lb-7');
  });

  it('prefers X-Correlation-Id and takes the first of repeated headers', () => {
    expect(correlationIdFrom({ 'x-correlation-id': ['c1', 'c2'], 'x-request-id': 'r1' })).toBe(
      'c1',
    );
  });

  it.each([
    ['text with spaces', 'Je préfère le thé'],
    ['a line break', 'abc\ninjected'],
    ['too long', 'a'.repeat(129)],
    ['empty', ''],
  ])('replaces %s with a new UUID', (_, value) => {
    expect(correlationIdFrom({ 'x-correlation-id': value })).toMatch(UUID);
  });

  it('generates a UUID when none is given', () => {
    expect(correlationIdFrom({})).toMatch(UUID);
  });
});
